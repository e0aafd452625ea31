"""Control flow and state: return, while, if, case, optimization_barrier,
rng_bit_generator. `if`/`case` use the generic form, as StableHLO prints them."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, TensorType, i1
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (IRDLOperation, operand_def, prop_def, region_def, result_def, traits_def, var_operand_def,
                       var_region_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect

from minixla.dialects.hlo_ops.attrs import RngAlgorithmAttrBase, attributes_for
from minixla.dialects.hlo_ops.base import hlo_op, is_float, is_integer, is_unsigned, require, shape, tensor
from minixla.dialects.hlo_ops.pretty import PrettyOp
from minixla.dialects.hlo_ops.syntax import parse_operands, parse_trailing, print_trailing


def region_results(region: Region, what: str) -> list[Attribute]:
    """Types returned by the `hlo.return` ending a single-block region."""
    require(len(region.blocks) == 1, f"{what} must have exactly one block, got {len(region.blocks)}")
    last = region.block.last_op
    require(last is not None and last.name.endswith(".return"),
            f"{what} must end with a return op, got {last.name if last else 'an empty block'}")
    assert last is not None
    return [o.type for o in last.operands]


def block_arg_types(region: Region) -> list[Attribute]:
    return [a.type for a in region.block.args] if region.blocks else []


@hlo_op("return")
class ReturnOp(IRDLOperation):
    """`hlo.return %a, %b : T, U`: terminates hlo regions."""

    results_ = var_operand_def(TensorType)
    traits = traits_def(IsTerminator(), Pure())

    def __init__(self, values: list[SSAValue]):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        operands = parse_operands(parser)
        attrs = parse_trailing(parser)
        types = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(operands):
            parser.raise_error(f"{len(operands)} operands but {len(types)} types", start, parser.pos)
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        return cls.create(operands=values, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_trailing(printer, self, ())
        if self.operands:
            printer.print_string(" : ")
            printer.print_list([o.type for o in self.operands], printer.print_attribute)


@hlo_op("while")
class WhileOp(IRDLOperation):
    """`%r = hlo.while(%i = %init) : tensor<i64> cond { ... } do { ... }`."""

    operand = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    cond = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos

        def binding():
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            return arg, parser.parse_unresolved_operand()

        pairs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, binding)
        types: list[Attribute] = []
        if pairs:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(pairs):
            parser.raise_error(f"{len(pairs)} loop-carried values but {len(types)} types", start, parser.pos)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        operands = [parser.resolve_operand(p[1], t) for p, t in zip(pairs, types)]
        args = [p[0].resolve(t) for p, t in zip(pairs, types)]
        parser.parse_keyword("cond")
        cond = parser.parse_region(args)
        parser.parse_keyword("do")
        body = parser.parse_region(args)
        return cls.create(operands=operands, result_types=types, regions=[cond, body],
                          attributes=attrs.data if attrs else {})

    def print(self, printer: Printer) -> None:
        args = self.cond.block.args if self.cond.blocks else ()
        printer.print_string("(")
        for i, (arg, val) in enumerate(zip(args, self.operands)):
            if i:
                printer.print_string(", ")
            printer.print_ssa_value(arg)
            printer.print_string(" = ")
            printer.print_operand(val)
        printer.print_string(")")
        if self.operands:
            printer.print_string(" : ")
            printer.print_list([o.type for o in self.operands], printer.print_attribute)
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" cond ")
        printer.print_region(self.cond, print_entry_block_args=False)
        printer.print_string(" do ")
        # StableHLO's syntax names the loop values once: the body's block arguments
        # print under the same names as cond's (the printer keys names by value).
        for body_arg, cond_arg in zip(self.body.block.args, args):
            printer._ssa_values[body_arg] = printer._ssa_values[cond_arg]  # noqa: SLF001
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        types = [tensor(o.type, f"operand #{i}") for i, o in enumerate(self.operand)]
        require([r.type for r in self.results] == types,
                f"result types {[str(r.type) for r in self.results]} must equal operand types {[str(t) for t in types]}")
        require(block_arg_types(self.cond) == types, "cond region arguments must match the operand types")
        require(block_arg_types(self.body) == types, "body region arguments must match the operand types")
        cond = region_results(self.cond, "cond region")
        require(cond == [TensorType(i1, [])], f"cond region must return one tensor<i1>, got {[str(t) for t in cond]}")
        body = region_results(self.body, "body region")
        require(body == types, f"body region returns {[str(t) for t in body]}, expected {[str(t) for t in types]}")


@hlo_op("if")
class IfOp(IRDLOperation):
    """`%r = "hlo.if"(%pred) ({ ... }, { ... }) : (tensor<i1>) -> T`."""

    pred = operand_def(TensorType)
    results_ = var_result_def(TensorType)
    true_branch = region_def("single_block")
    false_branch = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        p = tensor(self.pred.type, "pred")
        require(p == TensorType(i1, []), f"pred must be tensor<i1>, got {p}")
        want = [r.type for r in self.results]
        for name in ("true_branch", "false_branch"):
            region = getattr(self, name)
            require(not block_arg_types(region), f"{name} must not have block arguments")
            got = region_results(region, name)
            require(got == want, f"{name} returns {[str(t) for t in got]}, but the op's results are {[str(t) for t in want]}")


@hlo_op("case")
class CaseOp(IRDLOperation):
    """`%r = "hlo.case"(%index) ({...}, {...}) : (tensor<i32>) -> T`; out-of-range index runs the last branch."""

    index = operand_def(TensorType)
    results_ = var_result_def(TensorType)
    branches = var_region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        idx = tensor(self.index.type, "index")
        require(shape(idx) == () and isinstance(idx.element_type, IntegerType) and idx.element_type.width.data == 32,
                f"index must be tensor<i32>, got {idx}")
        require(len(self.branches) >= 1, "needs at least one branch")
        want = [r.type for r in self.results]
        for i, region in enumerate(self.branches):
            require(not block_arg_types(region), f"branch #{i} must not have block arguments")
            got = region_results(region, f"branch #{i}")
            require(got == want, f"branch #{i} returns {[str(t) for t in got]}, but the op's results are {[str(t) for t in want]}")


@hlo_op("optimization_barrier")
class OptimizationBarrierOp(IRDLOperation):
    """`%a, %b = hlo.optimization_barrier %x, %y : T, U`: identity that blocks optimizations across it."""

    operand = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        # `()` spells "no operands", so a following `%x = ...` is not read as an operand
        operands = [] if parser.parse_optional_punctuation("(") and parser.parse_punctuation(")") \
            else parse_operands(parser)
        attrs = parse_trailing(parser)
        types = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(operands):
            parser.raise_error(f"{len(operands)} operands but {len(types)} types", start, parser.pos)
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        return cls.create(operands=values, result_types=types, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.operands:
            printer.print_list(self.operands, printer.print_operand)
        else:
            printer.print_string("()")
        print_trailing(printer, self, ())
        if self.operands:
            printer.print_string(" : ")
            printer.print_list([o.type for o in self.operands], printer.print_attribute)

    def verify_(self) -> None:
        ins = [tensor(o.type, f"operand #{i}") for i, o in enumerate(self.operand)]
        outs = [r.type for r in self.results]
        require(ins == outs, f"result types {[str(t) for t in outs]} must equal operand types {[str(t) for t in ins]}")


@hlo_op("rng_bit_generator")
class RngBitGeneratorOp(PrettyOp):
    """`%s, %x = hlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, T)`."""

    PRETTY_PROPS = ("rng_algorithm",)
    FUNCTIONAL_TYPE = True
    initial_state = operand_def(TensorType)
    rng_algorithm = prop_def(RngAlgorithmAttrBase)
    output_state = result_def(TensorType)
    output = result_def(TensorType)

    @classmethod
    def parse_middle(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_punctuation(",")
        parser.parse_keyword("algorithm")
        parser.parse_punctuation("=")
        attr_cls = attributes_for(cls.name).rng_algorithm
        return {"rng_algorithm": attr_cls(parser.parse_str_enum(attr_cls.enum_type))}

    def print_middle(self, printer: Printer) -> None:
        printer.print_string(f", algorithm = {self.rng_algorithm.data.value}")

    def verify_(self) -> None:
        s = tensor(self.initial_state.type, "initial_state")
        o = tensor(self.output.type, "output")
        require(len(shape(s)) == 1 and is_unsigned(s.element_type) and s.element_type.width.data == 64,
                f"initial_state must be a 1-d tensor of ui64, got {s}")
        require(self.output_state.type == s, f"output_state type {self.output_state.type} must equal initial_state type {s}")
        require(is_integer(o.element_type) or is_float(o.element_type), f"output must be integer or float, got {o}")
        algo = self.rng_algorithm.data.value
        allowed = {"THREE_FRY": (2,), "PHILOX": (2, 3)}.get(algo)
        if allowed:
            require(shape(s)[0] in allowed, f"{algo} needs an initial_state of size {' or '.join(map(str, allowed))}, got {shape(s)[0]}")
