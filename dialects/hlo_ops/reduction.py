"""Ops with a reduction body: reduce, reduce_window, select_and_scatter, sort
(all_reduce lives with the collectives). Only `reduce` has a pretty form in StableHLO; the others print
generically."""

from __future__ import annotations

from xdsl.dialects.builtin import (BoolAttr, DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr, TensorType,
                                   i1)
from xdsl.ir import Attribute, Block, Region
from xdsl.irdl import (IRDLOperation, SameVariadicOperandSize, operand_def, opt_prop_def, prop_def, region_def,
                       result_def, traits_def, var_operand_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect

from minixla.dialects.hlo_ops.base import check_dims_in_range, hlo_op, int_value, ints, require, same_shapes, shape, tensor
from minixla.dialects.hlo_ops.control import block_arg_types, region_results
from minixla.dialects.hlo_ops.syntax import i64_array, parse_int_list, parse_trailing, print_trailing, split_props

_COMBINERS = ("add", "multiply", "maximum", "minimum", "and", "or", "xor")


def scalar(t: TensorType) -> TensorType:
    return TensorType(t.element_type, [])


def check_body(region: Region, inputs: list[TensorType], what: str, n_returns: int | None = None) -> list[Attribute]:
    """A reduction body takes (acc_0..acc_n-1, x_0..x_n-1) as 0-d tensors of the
    inputs' element types and returns n of them (or `n_returns` 0-d tensors)."""
    n = len(inputs)
    args = block_arg_types(region)
    require(len(args) == 2 * n, f"{what} must take {2 * n} arguments, got {len(args)}")
    want_args = [scalar(t) for t in inputs] * 2
    require(args == want_args, f"{what} must take ({', '.join(map(str, want_args))}), "
                               f"got ({', '.join(map(str, args))})")
    got = region_results(region, what)
    if n_returns is None:
        require(got == want_args[:n], f"{what} must return ({', '.join(map(str, want_args[:n]))}), "
                                      f"got ({', '.join(map(str, got))})")
    else:
        require(len(got) == n_returns, f"{what} must return {n_returns} values, got {len(got)}")
        for i, t in enumerate(got):
            require(isinstance(t, TensorType) and shape(t) == (), f"{what} result #{i} must be a 0-d tensor, got {t}")
    return got


def check_inits(inputs: list[TensorType], inits: list[TensorType]) -> None:
    """Init values are 0-d tensors of the matching input's element type (spec C2)."""
    for i, (x, init) in enumerate(zip(inputs, inits)):
        require(shape(init) == (), f"init value #{i} must be a 0-d tensor, got {init}")
        require(init.element_type == x.element_type,
                f"init value #{i} element type {init.element_type} must equal input #{i}'s {x.element_type}")


def padding_pairs(attr: DenseIntOrFPElementsAttr | None, rank: int) -> list[tuple[int, int]]:
    if attr is None:
        return [(0, 0)] * rank
    flat = [int(v) for v in attr.get_values()]
    require(len(attr.get_shape()) == 2 and attr.get_shape()[1] == 2 and attr.get_shape()[0] == rank,
            f"padding must have shape [{rank}, 2], got {list(attr.get_shape())}")
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(rank)]


def windowed_shape(base: tuple[int, ...], window: tuple[int, ...], strides: tuple[int, ...],
                   base_dil: tuple[int, ...], win_dil: tuple[int, ...], pads: list[tuple[int, int]]) -> list[int]:
    """Result shape of a windowed reduction (spec: reduce_window, C13)."""
    out = []
    for d, w, s, bd, wd, (lo, hi) in zip(base, window, strides, base_dil, win_dil, pads):
        dilated = 0 if d == 0 else (d - 1) * bd + 1
        padded = dilated + lo + hi
        span = 0 if w == 0 else (w - 1) * wd + 1
        out.append(0 if padded < span else (padded - span) // s + 1)
    return out


@hlo_op("reduce")
class ReduceOp(IRDLOperation):
    """`%r = hlo.reduce(%x init: %zero) applies hlo.add across dimensions = [1] : (...) -> ...`,
    or with an explicit `reducer(%acc: T, %x: T) { ... }` body."""

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    results_ = var_result_def(TensorType)
    body = region_def("single_block")
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos

        def pair():
            parser.parse_punctuation("(")
            x = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            init = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            return x, init

        pairs = parser.parse_comma_separated_list(parser.Delimiter.NONE, pair)
        combiner = None
        if parser.parse_optional_keyword("applies"):
            combiner = parser.ctx.get_optional_op(parser.parse_identifier())
            if combiner is None:
                parser.raise_error("unknown combiner op", start, parser.pos)
        parser.parse_keyword("across")
        dims = i64_array(_parse_dims(parser))
        attrs = parse_trailing(parser, ("dimensions",))
        parser.parse_punctuation(":")
        sig = parser.parse_type()
        ins, outs = list(sig.inputs.data), list(sig.outputs.data)  # type: ignore[attr-defined]
        n = len(pairs)
        if len(ins) != 2 * n:
            parser.raise_error(f"expected {2 * n} operand types, got {len(ins)}", start, parser.pos)
        xs = [parser.resolve_operand(p[0], t) for p, t in zip(pairs, ins[:n])]
        inits = [parser.resolve_operand(p[1], t) for p, t in zip(pairs, ins[n:])]
        if combiner is not None:
            elem = [scalar(t) for t in ins[n:]]
            block = Block(arg_types=elem + elem)
            combined = [combiner.create(operands=[block.args[i], block.args[n + i]], result_types=[elem[i]])
                        for i in range(n)]
            ret = parser.ctx.get_op(cls.name.split(".")[0] + ".return")
            for op in combined:
                block.add_op(op)
            block.add_op(ret.create(operands=[op.results[0] for op in combined]))
            region = Region(block)
        else:
            parser.parse_keyword("reducer")
            acc_args, x_args = [], []
            for _ in range(n):
                parser.parse_punctuation("(")
                acc_args.append(parser.parse_argument())
                parser.parse_punctuation(",")
                x_args.append(parser.parse_argument())
                parser.parse_punctuation(")")
            region = parser.parse_region(acc_args + x_args)
        props, rest = split_props(cls, attrs)
        return cls.create(operands=xs + inits, result_types=outs, properties={**props, "dimensions": dims},
                          attributes=rest, regions=[region])

    def _combiner(self) -> IRDLOperation | None:
        """The single elementwise op of a body that just combines its two arguments."""
        ops = list(self.body.block.ops) if self.body.blocks else []
        args = self.body.block.args if self.body.blocks else ()
        if len(self.inputs) != 1 or len(ops) != 2:
            return None
        op, ret = ops
        if (op.name.split(".", 1)[1] in _COMBINERS and tuple(op.operands) == tuple(args)
                and tuple(ret.operands) == tuple(op.results) and op.results[0].type == args[0].type == args[1].type
                and not op.attributes and not ret.attributes):  # the compact form would drop them
            return op
        return None

    def print(self, printer: Printer) -> None:
        n = len(self.inputs)
        printer.print_string("")
        for i in range(n):
            printer.print_string(", " if i else "")
            printer.print_string("(")
            printer.print_operand(self.inputs[i])
            printer.print_string(" init: ")
            printer.print_operand(self.init_values[i])
            printer.print_string(")")
        combiner = self._combiner()
        if combiner is not None:
            printer.print_string(f" applies {combiner.name}")
        printer.print_string(f" across dimensions = [{', '.join(str(d) for d in ints(self.dimensions))}]")
        print_trailing(printer, self, ("dimensions",))
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [r.type for r in self.results])
        if combiner is None:
            args = self.body.block.args
            printer.print_string(" reducer")
            for i in range(n):
                printer.print_string("(")
                printer.print_block_argument(args[i])
                printer.print_string(", ")
                printer.print_block_argument(args[n + i])
                printer.print_string(")")
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        n = len(self.inputs)
        require(n >= 1, "needs at least one input")
        xs = [tensor(v.type, f"input #{i}") for i, v in enumerate(self.inputs)]
        inits = [tensor(v.type, f"init value #{i}") for i, v in enumerate(self.init_values)]
        same_shapes(xs, "input")
        check_inits(xs, inits)
        dims = ints(self.dimensions)
        check_dims_in_range(dims, len(shape(xs[0])), "dimensions")
        got = check_body(self.body, xs, "reduction body")
        kept = [s for d, s in enumerate(shape(xs[0])) if d not in dims]
        require(len(self.results) == n, f"expected {n} results, got {len(self.results)}")
        for i, (r, t) in enumerate(zip(self.results, got)):
            want = TensorType(t.element_type, kept)  # type: ignore[attr-defined]
            require(r.type == want, f"result #{i} type {r.type} must be {want}")


def _parse_dims(parser: Parser) -> list[int]:
    parser.parse_keyword("dimensions")
    parser.parse_punctuation("=")
    return parse_int_list(parser)


@hlo_op("reduce_window")
class ReduceWindowOp(IRDLOperation):
    """Windowed reduction (generic form): `"hlo.reduce_window"(%x, %init) ({...}) {window_dimensions = ...}`."""

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    window_dimensions = prop_def(DenseArrayBase)
    window_strides = opt_prop_def(DenseArrayBase)
    base_dilations = opt_prop_def(DenseArrayBase)
    window_dilations = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    results_ = var_result_def(TensorType)
    body = region_def("single_block")
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveMemoryEffect())

    def window(self, rank: int):
        """(window, strides, base dilations, window dilations, padding) with spec defaults."""
        ones = (1,) * rank
        return (ints(self.window_dimensions), ints(self.window_strides) or ones, ints(self.base_dilations) or ones,
                ints(self.window_dilations) or ones, padding_pairs(self.padding, rank))

    def verify_(self) -> None:
        xs = [tensor(v.type, f"input #{i}") for i, v in enumerate(self.inputs)]
        inits = [tensor(v.type, f"init value #{i}") for i, v in enumerate(self.init_values)]
        require(len(xs) >= 1, "needs at least one input")
        rank = len(shape(xs[0]))
        same_shapes(xs, "input")
        check_inits(xs, inits)
        window, strides, bd, wd, pads = self.window(rank)
        for name, vals in (("window_dimensions", window), ("window_strides", strides), ("base_dilations", bd),
                           ("window_dilations", wd)):
            require(len(vals) == rank, f"{name} needs {rank} entries, got {list(vals)}")
            require(all(v > 0 for v in vals), f"{name} must be positive, got {list(vals)}")
        got = check_body(self.body, xs, "reduction body")
        out_shape = windowed_shape(shape(xs[0]), window, strides, bd, wd, pads)
        for i, (r, t) in enumerate(zip(self.results, got)):
            want = TensorType(t.element_type, out_shape)  # type: ignore[attr-defined]
            require(r.type == want, f"result #{i} type {r.type} must be {want}")


@hlo_op("select_and_scatter")
class SelectAndScatterOp(IRDLOperation):
    """Scatter `source` onto the window positions picked by `select` (max-pool gradient)."""

    operand = operand_def(TensorType)
    source = operand_def(TensorType)
    init_value = operand_def(TensorType)
    window_dimensions = opt_prop_def(DenseArrayBase)
    window_strides = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)
    select = region_def("single_block")
    scatter = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        src = tensor(self.source.type, "source")
        init = tensor(self.init_value.type, "init_value")
        rank = len(shape(x))
        check_inits([src], [init])
        require(src.element_type == x.element_type,
                f"source element type {src.element_type} must equal operand element type {x.element_type}")
        window = ints(self.window_dimensions) or (1,) * rank
        strides = ints(self.window_strides) or (1,) * rank
        require(len(window) == rank and len(strides) == rank,
                f"window_dimensions and window_strides need {rank} entries each")
        pads = padding_pairs(self.padding, rank)
        out = windowed_shape(shape(x), window, strides, (1,) * rank, (1,) * rank, pads)
        require(list(shape(src)) == out, f"source shape {list(shape(src))} must be {out}")
        sel = check_body(self.select, [x], "select region", n_returns=1)
        require(sel == [TensorType(i1, [])], f"select region must return tensor<i1>, got {[str(t) for t in sel]}")
        check_body(self.scatter, [src], "scatter region")
        require(self.result.type == x, f"result type {self.result.type} must equal operand type {x}")


@hlo_op("sort")
class SortOp(IRDLOperation):
    """`%r = "hlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({ comparator }) : ...`."""

    inputs = var_operand_def(TensorType)
    dimension = opt_prop_def(IntegerAttr)
    is_stable = opt_prop_def(BoolAttr)
    results_ = var_result_def(TensorType)
    comparator = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    @property
    def sort_dimension(self) -> int:
        """The sorted dimension, made non-negative (default -1: the last)."""
        rank = len(shape(self.inputs[0].type))  # type: ignore[arg-type]
        d = int_value(self.dimension, -1)
        return d + rank if d < 0 else d

    def verify_(self) -> None:
        xs = [tensor(v.type, f"input #{i}") for i, v in enumerate(self.inputs)]
        require(len(xs) >= 1, "needs at least one input")
        rank = len(shape(xs[0]))
        same_shapes(xs, "input")
        d = int_value(self.dimension, -1)
        require(-rank <= d < rank, f"dimension {d} is out of range for rank {rank}")
        args = block_arg_types(self.comparator)
        want_args = [scalar(x) for x in xs for _ in range(2)]
        require(args == want_args, f"comparator must take {[str(t) for t in want_args]}, got {[str(t) for t in args]}")
        got = region_results(self.comparator, "comparator")
        require(got == [TensorType(i1, [])], f"comparator must return tensor<i1>, got {[str(t) for t in got]}")
        require([r.type for r in self.results] == xs, "result types must equal input types")
