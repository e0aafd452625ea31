"""`hlo.complex`, `hlo.real`, `hlo.imag`: building complex tensors from float parts and
taking them apart (StableHLO spec). Kept apart from the other elementwise ops because
their result element type differs from the operand's, which changes the pretty syntax:
`hlo.complex %re, %im : tensor<2xcomplex<f64>>` names the result type, and
`hlo.real %x : (tensor<2xcomplex<f64>>) -> tensor<2xf64>` both."""

from __future__ import annotations

from xdsl.dialects.builtin import ComplexType, Float32Type, Float64Type, FunctionType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from minixla.dialects.hlo_ops.base import HloCanonicalization, hlo_op, is_complex, is_float, require, shape, tensor
from minixla.dialects.hlo_ops.pretty import PrettyOp
from minixla.dialects.hlo_ops.syntax import print_signature


def part_type(t: Attribute) -> Attribute:
    """The float tensor type holding one part of `t`'s elements (`t` itself when real)."""
    assert isinstance(t, TensorType)
    et = t.element_type
    return TensorType(et.element_type, t.get_shape()) if isinstance(et, ComplexType) else t


@hlo_op("complex")
class ComplexOp(PrettyOp):
    """`%z = hlo.complex %re, %im : tensor<..xcomplex<E>>` with %re, %im of type tensor<..xE>."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        t = lhs.type
        assert isinstance(t, TensorType)
        super().__init__(operands=[lhs, rhs], result_types=[TensorType(ComplexType(t.element_type), t.get_shape())])

    @classmethod
    def parse_types(cls, parser: Parser, n_operands: int):
        t = parser.parse_type()
        if isinstance(t, FunctionType):
            return list(t.inputs.data), list(t.outputs.data)
        if not (isinstance(t, TensorType) and isinstance(t.element_type, ComplexType)):
            parser.raise_error(f"expected a complex tensor type, got {t}")
        return [part_type(t)] * n_operands, [t]

    def print_types(self, printer: Printer) -> None:
        if self.lhs.type == self.rhs.type == part_type(self.result.type):
            printer.print_string(" : ")
            printer.print_attribute(self.result.type)
        else:
            print_signature(printer, self, functional=True)

    def verify_(self) -> None:
        a = tensor(self.lhs.type, "lhs")
        b = tensor(self.rhs.type, "rhs")
        r = tensor(self.result.type, "result")
        require(isinstance(a.element_type, (Float32Type, Float64Type)), f"lhs must have element type f32 or f64, got {a}")
        require(a == b, f"lhs type {a} and rhs type {b} must be equal")
        expected = TensorType(ComplexType(a.element_type), shape(a))
        require(r == expected, f"result type {r} must be {expected}")


class _PartOp(PrettyOp):
    """`%p = hlo.real|imag %z : (tensor<..xcomplex<E>>) -> tensor<..xE>` (or `: T` on floats)."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[part_type(operand.type)])

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        et = x.element_type
        require(is_complex(et) or is_float(et),
                f"operand must have a floating-point or complex element type, got {x}")
        require(r == part_type(x), f"result type {r} must be {part_type(x)}")


@hlo_op("real")
class RealOp(_PartOp):
    """`hlo.real`: the real part (a float operand is its own real part)."""


@hlo_op("imag")
class ImagOp(_PartOp):
    """`hlo.imag`: the imaginary part (zeros for a float operand)."""
