"""Structural ops: tuple, get_tuple_element, map, composite, get_dimension_size and
the dynamic-shape ops (dynamic_iota, dynamic_reshape, dynamic_broadcast_in_dim,
dynamic_pad, dynamic_gather, dynamic_conv) whose shapes come from operands.

Dynamic ops may have `?` result dimensions; each checks what it can statically.
The CPU backend folds them to their static twins when their shape operands are
constants (passes/hlo_opt/structural.py); the interpreter runs them directly.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (ArrayAttr, BoolAttr, DenseArrayBase, DictionaryAttr, FlatSymbolRefAttr,
                                   IntegerAttr, StringAttr, TensorType, TupleType, i32)
from xdsl.ir import Attribute
from xdsl.irdl import (IRDLOperation, operand_def, opt_prop_def, prop_def, region_def, result_def, traits_def,
                       var_operand_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure, RecursiveMemoryEffect

from minixla.dialects.hlo_ops.attrs import ConvDimensionNumbersBase, GatherDimensionNumbersBase
from minixla.dialects.hlo_ops.base import (SUPPORTED_TYPES_TEXT, check_dims_in_range, fail, hlo_op, int_value, ints,
                                           is_element_type, is_integer, require, shape, tensor)
from minixla.dialects.hlo_ops.control import block_arg_types, region_results
from minixla.dialects.hlo_ops.pretty import PrettyOp
from minixla.dialects.hlo_ops.syntax import parse_operands, parse_trailing, print_trailing, resolve, split_props


def dynamic(d: int) -> bool:
    """A `?` dimension (xDSL stores it as a negative sentinel)."""
    return d < 0


def ranked(value_type: Attribute, what: str) -> TensorType:
    """A ranked tensor of a supported element type whose dimensions may be `?`."""
    if not isinstance(value_type, TensorType):
        fail(f"{what} must be a tensor, got {value_type}")
    assert isinstance(value_type, TensorType)
    if not is_element_type(value_type.element_type):
        fail(f"{what} has unsupported element type {value_type.element_type} (supported: {SUPPORTED_TYPES_TEXT})")
    return value_type


def shape_operand(value_type: Attribute, what: str, length: int | None = None) -> TensorType:
    """A 1-d integer tensor of static length (a shape or padding vector)."""
    t = tensor(value_type, what)
    require(len(shape(t)) == 1 and is_integer(t.element_type), f"{what} must be a 1-d integer tensor, got {t}")
    if length is not None:
        require(shape(t)[0] == length, f"{what} must have {length} elements (one per dimension), got {t}")
    return t


def _tuple_leaves(t: Attribute, what: str) -> None:
    if isinstance(t, TupleType):
        for i, inner in enumerate(t.types.data):
            _tuple_leaves(inner, f"{what} element #{i}")
    else:
        tensor(t, what)


# --------------------------------------------------------------------------
# Tuples
# --------------------------------------------------------------------------


@hlo_op("tuple")
class TupleOp(IRDLOperation):
    """`%t = hlo.tuple %a, %b : tuple<T, U>`: groups values (tensors or tuples)."""

    val = var_operand_def()
    result = result_def(TupleType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        operands = parse_operands(parser)
        attrs = parse_trailing(parser)
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if not isinstance(t, TupleType):
            parser.raise_error(f"expected a tuple type, got {t}", pos, parser.pos)
        return cls.create(operands=resolve(parser, operands, list(t.types.data), start), result_types=[t],
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_trailing(printer, self, ())
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        got = [v.type for v in self.val]
        want = list(self.result.type.types.data)
        require(got == want, f"result type {self.result.type} must be tuple<{', '.join(map(str, got))}>")
        _tuple_leaves(self.result.type, "tuple")


@hlo_op("get_tuple_element")
class GetTupleElementOp(IRDLOperation):
    """`%x = hlo.get_tuple_element %t[1] : (tuple<T, U>) -> U`."""

    operand = operand_def(TupleType)
    index = prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_integer(allow_negative=False)
        parser.parse_punctuation("]")
        attrs = parse_trailing(parser, ("index",))
        parser.parse_punctuation(":")
        ins, outs = _function_type(parser)
        (value,) = resolve(parser, [operand], ins, start)
        props, rest = split_props(cls, attrs)
        return cls.create(operands=[value], result_types=outs, properties={**props, "index": IntegerAttr(index, i32)},
                          attributes=rest)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f"[{int_value(self.index)}]")
        print_trailing(printer, self, ("index",))
        printer.print_string(" : ")
        printer.print_function_type([self.operand.type], [self.result.type])

    def verify_(self) -> None:
        types = self.operand.type.types.data
        i = int_value(self.index)
        require(0 <= i < len(types), f"index {i} is out of range for {self.operand.type}")
        require(self.result.type == types[i], f"result type {self.result.type} must be element #{i}: {types[i]}")


def _function_type(parser: Parser) -> tuple[list[Attribute], list[Attribute]]:
    from xdsl.dialects.builtin import FunctionType

    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, FunctionType):
        parser.raise_error(f"expected a function type `(operand types) -> result types`, got {t}", pos, parser.pos)
    return list(t.inputs.data), list(t.outputs.data)


# --------------------------------------------------------------------------
# map and composite
# --------------------------------------------------------------------------


@hlo_op("map")
class MapOp(IRDLOperation):
    """Applies a scalar computation (0-d tensors in, one 0-d tensor out) elementwise over
    same-shaped inputs; `dimensions` must be every dimension in order (spec C3)."""

    inputs = var_operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    computation = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        require(len(self.inputs) >= 1, "map needs at least one input")
        ts = [tensor(v.type, f"input #{i}") for i, v in enumerate(self.inputs)]
        r = tensor(self.result.type, "result")
        for i, t in enumerate(ts):
            require(shape(t) == shape(r), f"input #{i} shape {list(shape(t))} must equal result shape {list(shape(r))}")
        dims = ints(self.dimensions)
        require(list(dims) == list(range(len(shape(r)))),
                f"dimensions must be [0, ..., {len(shape(r)) - 1}] (every dimension, in order), got {list(dims)}")
        args = block_arg_types(self.computation)
        want = [TensorType(t.element_type, []) for t in ts]
        require(args == want, f"computation must take ({', '.join(map(str, want))}), got ({', '.join(map(str, args))})")
        got = region_results(self.computation, "computation")
        out = TensorType(r.element_type, [])
        require(got == [out], f"computation must return ({out}), got ({', '.join(map(str, got))})")


@hlo_op("composite")
class CompositeOp(IRDLOperation):
    """`hlo.composite "name" %a {decomposition = @f, composite_attributes = {...}} : (Ts) -> Rs`:
    a named op whose meaning is a call of its decomposition function."""

    inputs = var_operand_def()
    results_ = var_result_def()
    composite_name = prop_def(StringAttr, prop_name="name")
    composite_attributes = opt_prop_def(DictionaryAttr)
    decomposition = prop_def(FlatSymbolRefAttr)
    version = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        name = parser.parse_str_literal()
        operands = parse_operands(parser)
        attrs = parse_trailing(parser)
        parser.parse_punctuation(":")
        ins, outs = _function_type(parser)
        values = resolve(parser, operands, ins, start)
        props, rest = split_props(cls, attrs)
        return cls.create(operands=values, result_types=outs, properties={**props, "name": StringAttr(name)},
                          attributes=rest)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.composite_name.data)
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_trailing(printer, self, ("name",))
        printer.print_string(" : ")
        printer.print_function_type([v.type for v in self.operands], [r.type for r in self.results])

    def verify_(self) -> None:
        from xdsl.dialects import func
        from xdsl.traits import SymbolTable

        callee = SymbolTable.lookup_symbol(self, self.decomposition.root_reference)
        if callee is None:
            return  # a detached op or a module still being built: the symbol is checked in context
        require(isinstance(callee, func.FuncOp), f"decomposition @{self.decomposition.root_reference.data} "
                                                 "must be a func.func")
        assert isinstance(callee, func.FuncOp)
        ft = callee.function_type
        ins, outs = [v.type for v in self.operands], [r.type for r in self.results]
        require(list(ft.inputs.data) == ins and list(ft.outputs.data) == outs,
                f"decomposition @{callee.sym_name.data} has type {ft}, but the composite is "
                f"({', '.join(map(str, ins))}) -> ({', '.join(map(str, outs))})")


# --------------------------------------------------------------------------
# Dynamic shapes
# --------------------------------------------------------------------------


@hlo_op("get_dimension_size")
class GetDimensionSizeOp(PrettyOp):
    """`%n = hlo.get_dimension_size %x, dim = 1 : (tensor<2x?xf32>) -> tensor<i32>`."""

    KEYWORD_PROPS = (("dim", "dimension", "int"),)
    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    dimension = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = ranked(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        d = int_value(self.dimension)
        require(0 <= d < len(x.get_shape()), f"dimension {d} is out of range for operand {x}")
        require(shape(r) == () and r.element_type == i32, f"result must be tensor<i32>, got {r}")


@hlo_op("dynamic_iota")
class DynamicIotaOp(PrettyOp):
    """`%r = hlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x4xf32>`."""

    KEYWORD_PROPS = (("dim", "iota_dimension", "int"),)
    FUNCTIONAL_TYPE = True
    output_shape = operand_def(TensorType)
    iota_dimension = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        r = ranked(self.result.type, "result")
        rank = len(r.get_shape())
        shape_operand(self.output_shape.type, "output_shape", rank)
        d = int_value(self.iota_dimension)
        require(0 <= d < rank, f"iota_dimension {d} is out of range for result {r}")


@hlo_op("dynamic_reshape")
class DynamicReshapeOp(PrettyOp):
    """`%r = hlo.dynamic_reshape %x, %shape : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>`."""

    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    output_shape = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x, r = ranked(self.operand.type, "operand"), ranked(self.result.type, "result")
        require(x.element_type == r.element_type, f"element types {x.element_type} and {r.element_type} differ")
        shape_operand(self.output_shape.type, "output_shape", len(r.get_shape()))
        xs, rs = x.get_shape(), r.get_shape()
        if not any(map(dynamic, (*xs, *rs))):
            from math import prod

            require(prod(xs) == prod(rs), f"cannot reshape {x} ({prod(xs)} elements) to {r} ({prod(rs)} elements)")


@hlo_op("dynamic_broadcast_in_dim")
class DynamicBroadcastInDimOp(PrettyOp):
    """`%r = hlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 2] : (...) -> tensor<?x2x2xf32>`;
    `known_(non)expanding_dimensions` are hints about operand dimensions."""

    KEYWORD_PROPS = (("dims", "broadcast_dimensions", "ints"),)
    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    output_dimensions = operand_def(TensorType)
    broadcast_dimensions = prop_def(DenseArrayBase)
    known_expanding_dimensions = opt_prop_def(DenseArrayBase)
    known_nonexpanding_dimensions = opt_prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x, r = ranked(self.operand.type, "operand"), ranked(self.result.type, "result")
        require(x.element_type == r.element_type, f"element types {x.element_type} and {r.element_type} differ")
        xs, rs = x.get_shape(), r.get_shape()
        shape_operand(self.output_dimensions.type, "output_dimensions", len(rs))
        dims = ints(self.broadcast_dimensions)
        require(len(dims) == len(xs), f"broadcast_dimensions {list(dims)} needs one entry per operand dimension")
        check_dims_in_range(dims, len(rs), "broadcast_dimensions")
        for i, d in enumerate(dims):
            require(xs[i] == 1 or dynamic(xs[i]) or dynamic(rs[d]) or rs[d] == xs[i],
                    f"operand dimension {i} has size {xs[i]}, which cannot broadcast to result dimension {d} "
                    f"of size {rs[d]}")
        expanding, nonexpanding = ints(self.known_expanding_dimensions), ints(self.known_nonexpanding_dimensions)
        require(not set(expanding) & set(nonexpanding),
                "known_expanding_dimensions and known_nonexpanding_dimensions must be disjoint")
        for d in (*expanding, *nonexpanding):
            require(0 <= d < len(xs), f"known dimension {d} is out of range for the operand's rank {len(xs)}")


@hlo_op("dynamic_pad")
class DynamicPadOp(PrettyOp):
    """`%r = hlo.dynamic_pad %x, %v, %low, %high, %interior : (...) -> tensor<?x5xf32>`."""

    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    edge_padding_low = operand_def(TensorType)
    edge_padding_high = operand_def(TensorType)
    interior_padding = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x, r = ranked(self.operand.type, "operand"), ranked(self.result.type, "result")
        v = tensor(self.padding_value.type, "padding_value")
        require(shape(v) == () and v.element_type == x.element_type,
                f"padding_value must be a 0-d tensor of {x.element_type}, got {v}")
        require(x.element_type == r.element_type, f"element types {x.element_type} and {r.element_type} differ")
        rank = len(x.get_shape())
        require(len(r.get_shape()) == rank, f"result rank {len(r.get_shape())} must equal operand rank {rank}")
        for what in ("edge_padding_low", "edge_padding_high", "interior_padding"):
            shape_operand(getattr(self, what).type, what, rank)


@hlo_op("dynamic_gather")
class DynamicGatherOp(IRDLOperation):
    """gather with `slice_sizes` as a 1-d operand (generic form)."""

    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    slice_sizes = operand_def(TensorType)
    dimension_numbers = prop_def(GatherDimensionNumbersBase)
    indices_are_sorted = opt_prop_def(BoolAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = ranked(self.operand.type, "operand")
        idx = ranked(self.start_indices.type, "start_indices")
        require(is_integer(idx.element_type), f"start_indices must have an integer element type, got {idx}")
        r = ranked(self.result.type, "result")
        require(x.element_type == r.element_type, f"element types {x.element_type} and {r.element_type} differ")
        shape_operand(self.slice_sizes.type, "slice_sizes", len(x.get_shape()))
        dn = self.dimension_numbers
        n_offsets = len(x.get_shape()) - len(dn.collapsed_slice_dims) - len(dn.operand_batching_dims)
        require(len(dn.offset_dims) == n_offsets,
                f"offset_dims {list(dn.offset_dims)} needs {n_offsets} entries (operand rank minus collapsed "
                "and batching dimensions)")


@hlo_op("dynamic_conv")
class DynamicConvOp(IRDLOperation):
    """convolution with `padding` as a [spatial dims, 2] operand (generic form)."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    d_padding = operand_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase)
    lhs_dilation = opt_prop_def(DenseArrayBase)
    rhs_dilation = opt_prop_def(DenseArrayBase)
    window_reversal = opt_prop_def(DenseArrayBase)
    dimension_numbers = prop_def(ConvDimensionNumbersBase)
    feature_group_count = prop_def(IntegerAttr)
    batch_group_count = prop_def(IntegerAttr)
    precision_config = opt_prop_def(ArrayAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        lhs, rhs = tensor(self.lhs.type, "lhs"), tensor(self.rhs.type, "rhs")
        r = ranked(self.result.type, "result")
        require(len(shape(lhs)) == len(shape(rhs)) == len(r.get_shape()),
                f"lhs, rhs and result must have one rank, got {lhs}, {rhs}, {r}")
        nsp = len(shape(lhs)) - 2
        p = tensor(self.d_padding.type, "padding")
        require(shape(p) == (nsp, 2) and is_integer(p.element_type),
                f"padding must be a {nsp}x2 integer tensor (low, high per spatial dimension), got {p}")
        for what in ("window_strides", "lhs_dilation", "rhs_dilation", "window_reversal"):
            values = ints(getattr(self, what))
            require(not values or len(values) == nsp, f"{what} needs {nsp} entries, got {list(values)}")
            if what != "window_reversal":
                require(all(v > 0 for v in values), f"{what} must be positive, got {list(values)}")
        require(int_value(self.feature_group_count) > 0 and int_value(self.batch_group_count) > 0,
                "feature_group_count and batch_group_count must be positive")


__all__ = ["CompositeOp", "DynamicBroadcastInDimOp", "DynamicConvOp", "DynamicGatherOp", "DynamicIotaOp",
           "DynamicPadOp", "DynamicReshapeOp", "GetDimensionSizeOp", "GetTupleElementOp", "MapOp", "TupleOp",
           "ranked"]
