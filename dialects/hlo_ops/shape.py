"""Data-movement ops: constant, iota, broadcast_in_dim, reshape, transpose,
slice, dynamic_slice, dynamic_update_slice, concatenate, pad, reverse."""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import operand_def, prop_def, result_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure

from minixla.dialects.hlo_ops.base import HloCanonicalization
from minixla.dialects.hlo_ops.base import check_dims_in_range, hlo_op, int_value, ints, is_integer, require, same_element, shape, tensor
from minixla.dialects.hlo_ops.pretty import PrettyOp
from minixla.dialects.hlo_ops.syntax import i64_array, parse_trailing, print_trailing, split_props


@hlo_op("constant")
class ConstantOp(PrettyOp):
    """`%c = hlo.constant dense<[1, 2]> : tensor<2xi32>`."""

    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(properties={"value": value}, result_types=[value.type])

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parse_trailing(parser, ("value",))
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error(f"expected a dense elements attribute, got {value}")
        props, rest = split_props(cls, attrs)
        return cls.create(properties={**props, "value": value}, result_types=[value.type], attributes=rest)

    def print(self, printer: Printer) -> None:
        print_trailing(printer, self, ("value",))
        printer.print_string(" ")
        printer.print_attribute(self.value)

    def verify_(self) -> None:
        r = tensor(self.output.type, "result")
        require(self.value.type == r, f"value type {self.value.type} must equal result type {r}")


@hlo_op("iota")
class IotaOp(PrettyOp):
    """`%r = hlo.iota dim = 0 : tensor<4xi32>`."""

    KEYWORD_PROPS = (("dim", "iota_dimension", "int"),)
    iota_dimension = prop_def(IntegerAttr)
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        r = tensor(self.output.type, "result")
        d = int_value(self.iota_dimension)
        require(0 <= d < len(shape(r)), f"iota_dimension {d} is out of range for result {r}")


@hlo_op("broadcast_in_dim")
class BroadcastInDimOp(PrettyOp):
    """`%r = hlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>`."""

    KEYWORD_PROPS = (("dims", "broadcast_dimensions", "ints"),)
    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    broadcast_dimensions = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        same_element(x, r, "operand and result")
        dims = ints(self.broadcast_dimensions)
        require(len(dims) == len(shape(x)),
                f"broadcast_dimensions {list(dims)} must have one entry per operand dimension (rank {len(shape(x))})")
        check_dims_in_range(dims, len(shape(r)), "broadcast_dimensions")
        for i, d in enumerate(dims):
            require(shape(x)[i] in (1, shape(r)[d]),
                    f"operand dimension {i} has size {shape(x)[i]}, which cannot broadcast to result "
                    f"dimension {d} of size {shape(r)[d]}")


@hlo_op("reshape")
class ReshapeOp(PrettyOp):
    """`%r = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>`."""

    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        same_element(x, r, "operand and result")
        require(prod(shape(x)) == prod(shape(r)),
                f"cannot reshape {x} ({prod(shape(x))} elements) to {r} ({prod(shape(r))} elements)")


@hlo_op("transpose")
class TransposeOp(PrettyOp):
    """`%r = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>`."""

    KEYWORD_PROPS = (("dims", "permutation", "ints"),)
    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    permutation = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        same_element(x, r, "operand and result")
        perm = ints(self.permutation)
        require(sorted(perm) == list(range(len(shape(x)))),
                f"permutation {list(perm)} is not a permutation of the operand's {len(shape(x))} dimensions")
        expected = tuple(shape(x)[p] for p in perm)
        require(shape(r) == expected, f"result shape {list(shape(r))} must be {list(expected)}")


@hlo_op("slice")
class SliceOp(PrettyOp):
    """`%r = hlo.slice %x [1:3, 0:4:2] : (tensor<4x4xf32>) -> tensor<2x2xf32>`."""

    PRETTY_PROPS = ("start_indices", "limit_indices", "strides")
    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    start_indices = prop_def(DenseArrayBase)
    limit_indices = prop_def(DenseArrayBase)
    strides = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    @classmethod
    def parse_middle(cls, parser: Parser) -> dict[str, Attribute]:
        def triple() -> tuple[int, int, int]:
            start = parser.parse_integer()
            parser.parse_punctuation(":")
            limit = parser.parse_integer()
            stride = parser.parse_integer() if parser.parse_optional_punctuation(":") else 1
            return start, limit, stride

        items = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, triple)
        return {"start_indices": i64_array([t[0] for t in items]),
                "limit_indices": i64_array([t[1] for t in items]),
                "strides": i64_array([t[2] for t in items])}

    def print_middle(self, printer: Printer) -> None:
        parts = [f"{s}:{l}" + (f":{k}" if k != 1 else "")
                 for s, l, k in zip(ints(self.start_indices), ints(self.limit_indices), ints(self.strides))]
        printer.print_string(" [" + ", ".join(parts) + "]")

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        same_element(x, r, "operand and result")
        st, li, sd = ints(self.start_indices), ints(self.limit_indices), ints(self.strides)
        rank = len(shape(x))
        require(len(st) == len(li) == len(sd) == rank,
                f"start_indices, limit_indices and strides need {rank} entries each, got {len(st)}, {len(li)}, {len(sd)}")
        expected = []
        for d, (s, l, k) in enumerate(zip(st, li, sd)):
            require(0 <= s <= l <= shape(x)[d],
                    f"dimension {d}: need 0 <= start ({s}) <= limit ({l}) <= size ({shape(x)[d]})")
            require(k > 0, f"dimension {d}: stride must be positive, got {k}")
            expected.append(-(-(l - s) // k))
        require(list(shape(r)) == expected, f"result shape {list(shape(r))} must be {expected}")


def _check_index_scalars(values, what: str) -> None:
    types = [tensor(v.type, f"{what} #{i}") for i, v in enumerate(values)]
    for i, t in enumerate(types):
        require(shape(t) == () and is_integer(t.element_type),
                f"{what} #{i} must be a 0-d integer tensor, got {t}")
    require(len({t for t in types}) <= 1, f"{what} must all have the same type, got {[str(t) for t in types]}")


@hlo_op("dynamic_slice")
class DynamicSliceOp(PrettyOp):
    """`%r = hlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (...) -> tensor<2x2xf32>`."""

    KEYWORD_PROPS = (("sizes", "slice_sizes", "ints"),)
    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    slice_sizes = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        same_element(x, r, "operand and result")
        sizes = ints(self.slice_sizes)
        rank = len(shape(x))
        require(len(self.start_indices) == rank, f"expected {rank} start indices, got {len(self.start_indices)}")
        _check_index_scalars(self.start_indices, "start index")
        require(len(sizes) == rank, f"slice_sizes {list(sizes)} needs {rank} entries")
        for d, s in enumerate(sizes):
            require(0 <= s <= shape(x)[d], f"slice size {s} of dimension {d} must be in [0, {shape(x)[d]}]")
        require(shape(r) == sizes, f"result shape {list(shape(r))} must equal slice_sizes {list(sizes)}")


@hlo_op("dynamic_update_slice")
class DynamicUpdateSliceOp(PrettyOp):
    """`%r = hlo.dynamic_update_slice %x, %update, %i, %j : (...) -> T`."""

    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    update = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        u = tensor(self.update.type, "update")
        r = tensor(self.result.type, "result")
        require(r == x, f"result type {r} must equal operand type {x}")
        same_element(x, u, "operand and update")
        rank = len(shape(x))
        require(len(shape(u)) == rank, f"update rank {len(shape(u))} must equal operand rank {rank}")
        for d in range(rank):
            require(shape(u)[d] <= shape(x)[d], f"update dimension {d} ({shape(u)[d]}) exceeds operand's ({shape(x)[d]})")
        require(len(self.start_indices) == rank, f"expected {rank} start indices, got {len(self.start_indices)}")
        _check_index_scalars(self.start_indices, "start index")


@hlo_op("concatenate")
class ConcatenateOp(PrettyOp):
    """`%r = hlo.concatenate %a, %b, dim = 0 : (...) -> T`."""

    KEYWORD_PROPS = (("dim", "dimension", "int"),)
    FUNCTIONAL_TYPE = True
    inputs = var_operand_def(TensorType)
    dimension = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        require(len(self.inputs) >= 1, "needs at least one input")
        ts = [tensor(v.type, f"input #{i}") for i, v in enumerate(self.inputs)]
        r = tensor(self.result.type, "result")
        d = int_value(self.dimension)
        rank = len(shape(ts[0]))
        require(0 <= d < rank, f"dimension {d} is out of range for rank {rank}")
        for i, t in enumerate(ts):
            same_element(t, r, f"input #{i} and result")
            require(len(shape(t)) == rank, f"input #{i} has rank {len(shape(t))}, expected {rank}")
            for k in range(rank):
                require(k == d or shape(t)[k] == shape(ts[0])[k],
                        f"input #{i} dimension {k} is {shape(t)[k]}, expected {shape(ts[0])[k]}")
        expected = list(shape(ts[0]))
        expected[d] = sum(shape(t)[d] for t in ts)
        require(list(shape(r)) == expected, f"result shape {list(shape(r))} must be {expected}")


@hlo_op("pad")
class PadOp(PrettyOp):
    """`%r = hlo.pad %x, %v, low = [1], high = [0], interior = [2] : (...) -> T`."""

    KEYWORD_PROPS = (("low", "edge_padding_low", "ints"), ("high", "edge_padding_high", "ints"),
                     ("interior", "interior_padding", "ints"))
    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    edge_padding_low = prop_def(DenseArrayBase)
    edge_padding_high = prop_def(DenseArrayBase)
    interior_padding = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        v = tensor(self.padding_value.type, "padding_value")
        r = tensor(self.result.type, "result")
        same_element(x, v, "operand and padding_value")
        same_element(x, r, "operand and result")
        require(shape(v) == (), f"padding_value must be a 0-d tensor, got {v}")
        lo, hi, inner = ints(self.edge_padding_low), ints(self.edge_padding_high), ints(self.interior_padding)
        rank = len(shape(x))
        require(len(lo) == len(hi) == len(inner) == rank,
                f"low, high and interior padding need {rank} entries each, got {len(lo)}, {len(hi)}, {len(inner)}")
        require(all(i >= 0 for i in inner), f"interior padding must be non-negative, got {list(inner)}")
        expected = [l + h + n + max(n - 1, 0) * i for l, h, n, i in zip(lo, hi, shape(x), inner)]
        require(all(e >= 0 for e in expected), f"padding gives a negative result shape {expected}")
        require(list(shape(r)) == expected, f"result shape {list(shape(r))} must be {expected}")


@hlo_op("reverse")
class ReverseOp(PrettyOp):
    """`%r = hlo.reverse %x, dims = [0] : T`."""

    KEYWORD_PROPS = (("dims", "dimensions", "ints"),)
    operand = operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        require(r == x, f"result type {r} must equal operand type {x}")
        check_dims_in_range(ints(self.dimensions), len(shape(x)), "dimensions")
