"""`hlo.fusion`: a fused computation (XLA's fusion instruction), made by the
`hlo-fusion` pass and lowered as one loop nest by `convert-hlo-to-linalg`.

    %r = hlo.fusion kind = input (%p0 = %x, %p1 = %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32> {
      ... hlo ops on %p0, %p1 ...
      hlo.return %m : tensor<f32>
    }

The region is isolated from above: it reads only its block arguments (one per
operand, same types) and returns the op's results. `kind` says what the pass
built: `loop` (elementwise/data-movement chain), `input` (a reduction with its
producers and elementwise epilogue), `multi_output` (siblings merged because
they read the same inputs). StableHLO has no fusion op, so unlike the core
ops it has no `stablehlo.` twin and is not in `HLO_OPS` (the 64 core ops).
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, region_def, traits_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, RecursiveMemoryEffect

from minixla.dialects.hlo_ops.base import require, tensor
from minixla.dialects.hlo_ops.control import block_arg_types, region_results

FUSION_KINDS = ("loop", "input", "multi_output")


@irdl_op_definition
class FusionOp(IRDLOperation):
    """A fused region: `hlo.fusion kind = loop (%p = %x) : (T) -> R { ... }`."""

    name = "hlo.fusion"
    fused_operands = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    kind = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    def __init__(self, kind: str, operands: list[SSAValue], result_types: list[Attribute], body: Region):
        super().__init__(operands=[operands], result_types=[result_types], properties={"kind": StringAttr(kind)},
                         regions=[body])

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        parser.parse_keyword("kind")
        parser.parse_punctuation("=")
        kind = parser.parse_identifier()

        def binding():
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            return arg, parser.parse_unresolved_operand()

        pairs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, binding)
        parser.parse_punctuation(":")
        sig = parser.parse_function_type()
        ins, outs = list(sig.inputs.data), list(sig.outputs.data)
        if len(ins) != len(pairs):
            parser.raise_error(f"{len(pairs)} operands but {len(ins)} operand types", start, parser.pos)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        operands = [parser.resolve_operand(p[1], t) for p, t in zip(pairs, ins)]
        body = parser.parse_region([p[0].resolve(t) for p, t in zip(pairs, ins)])
        return cls.create(operands=operands, result_types=outs, properties={"kind": StringAttr(kind)},
                          regions=[body], attributes=attrs.data if attrs else {})

    def print(self, printer: Printer) -> None:
        printer.print_string(f" kind = {self.kind.data} (")
        for i, (arg, val) in enumerate(zip(self.body.block.args, self.operands)):
            if i:
                printer.print_string(", ")
            printer.print_ssa_value(arg)
            printer.print_string(" = ")
            printer.print_operand(val)
        printer.print_string(") : ")
        printer.print_function_type([o.type for o in self.operands], [r.type for r in self.results])
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        require(self.kind.data in FUSION_KINDS,
                f"kind must be one of {', '.join(FUSION_KINDS)}, got '{self.kind.data}'")
        types = [tensor(o.type, f"operand #{i}") for i, o in enumerate(self.operands)]
        require(block_arg_types(self.body) == types,
                f"region arguments {[str(t) for t in block_arg_types(self.body)]} must match the operand types "
                f"{[str(t) for t in types]}")
        got = region_results(self.body, "fusion region")
        want = [r.type for r in self.results]
        require(got == want, f"fusion region returns {[str(t) for t in got]}, but the op's results are "
                             f"{[str(t) for t in want]}")
        require(len(want) >= 1, "a fusion must have at least one result")

    @property
    def block(self) -> Block:
        return self.body.block


__all__ = ["FUSION_KINDS", "FusionOp"]
