"""Chapter 1: a dialect with two ops, a verifier and a custom syntax.

    %y = toy.scale %x by 2.5 : tensor<4xf32>            // y = x * 2.5
    %z = toy.clamp %y between 0.0 and 1.0 : tensor<4xf32>  // z = min(max(y, 0), 1)
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, Float64Type, FloatAttr, TensorType, f64
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def _float_tensor(op: IRDLOperation) -> TensorType:
    t = op.operands[0].type
    if not isinstance(t, TensorType) or not isinstance(t.element_type, AnyFloat):
        raise VerifyException(f"needs a tensor of floats, got {t}")
    if op.results[0].type != t:
        raise VerifyException(f"result type {op.results[0].type} must equal the operand type {t}")
    return t


def _float(parser: Parser) -> FloatAttr:
    return FloatAttr(parser.parse_float(), f64)


@irdl_op_definition
class ScaleOp(IRDLOperation):
    """Multiplies every element by a constant `factor`."""

    name = "toy.scale"
    input = operand_def(TensorType)
    factor = prop_def(FloatAttr[Float64Type])
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, x: SSAValue, factor: float):
        super().__init__(operands=[x], result_types=[x.type], properties={"factor": FloatAttr(factor, f64)})

    def verify_(self) -> None:
        _float_tensor(self)

    @classmethod
    def parse(cls, parser: Parser) -> ScaleOp:
        x = parser.parse_unresolved_operand()
        parser.parse_keyword("by")
        factor = _float(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(x, t)], result_types=[t], properties={"factor": factor})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" by {self.factor.value.data} : ")
        printer.print_attribute(self.input.type)


@irdl_op_definition
class ClampOp(IRDLOperation):
    """Clamps every element into [lo, hi]."""

    name = "toy.clamp"
    input = operand_def(TensorType)
    lo = prop_def(FloatAttr[Float64Type])
    hi = prop_def(FloatAttr[Float64Type])
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        _float_tensor(self)
        if self.lo.value.data > self.hi.value.data:
            raise VerifyException(f"needs lo <= hi, got {self.lo.value.data} > {self.hi.value.data}")

    @classmethod
    def parse(cls, parser: Parser) -> ClampOp:
        x = parser.parse_unresolved_operand()
        parser.parse_keyword("between")
        lo = _float(parser)
        parser.parse_keyword("and")
        hi = _float(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(x, t)], result_types=[t], properties={"lo": lo, "hi": hi})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" between {self.lo.value.data} and {self.hi.value.data} : ")
        printer.print_attribute(self.input.type)


TOY = Dialect("toy", [ScaleOp, ClampOp], [])
