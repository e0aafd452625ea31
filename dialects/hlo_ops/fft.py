"""`hlo.fft`: FFT, IFFT, RFFT and IRFFT over the 1-3 trailing dimensions.

`%r = hlo.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>`

The verifier applies StableHLO's rules (C1-C5) and XLA's stricter one for
FFT/IFFT (the trailing dimensions equal `fft_length`): the CPU kernel and the
interpreter never pad or truncate, so a disagreeing length is a located
verifier error instead of a shape surprise later.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ComplexType, DenseArrayBase, Float32Type, Float64Type, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from minixla.dialects.hlo_ops.attrs import FftTypeAttrBase, attributes_for
from minixla.dialects.hlo_ops.base import hlo_op, ints, require, shape, tensor
from minixla.dialects.hlo_ops.pretty import PrettyOp
from minixla.dialects.hlo_ops.syntax import i64_array, parse_int_list, print_int_list


def _real(t: Attribute) -> bool:
    return isinstance(t, (Float32Type, Float64Type))


def _complex(t: Attribute) -> bool:
    return isinstance(t, ComplexType) and _real(t.element_type)


@hlo_op("fft")
class FftOp(PrettyOp):
    """Discrete Fourier transforms over the trailing `len(fft_length)` dimensions."""

    PRETTY_PROPS = ("fft_type", "fft_length")
    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    fft_type = prop_def(FftTypeAttrBase)
    fft_length = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse_middle(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_punctuation(",")
        parser.parse_keyword("type")
        parser.parse_punctuation("=")
        attr_cls = attributes_for(cls.name).fft_type
        kind = attr_cls(parser.parse_str_enum(attr_cls.enum_type))
        parser.parse_punctuation(",")
        parser.parse_keyword("length")
        parser.parse_punctuation("=")
        return {"fft_type": kind, "fft_length": i64_array(parse_int_list(parser))}

    def print_middle(self, printer: Printer) -> None:
        printer.print_string(f", type = {self.fft_type.data.value}, length = ")
        print_int_list(printer, ints(self.fft_length))

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        kind = self.fft_type.data.value
        length = list(ints(self.fft_length))
        xs, rs = list(shape(x)), list(shape(r))
        require(1 <= len(length) <= 3, f"fft_length must have 1 to 3 entries, got {length}")
        require(len(length) <= len(xs), f"fft_length {length} has more entries than the operand rank {len(xs)}")
        require(all(n >= 0 for n in length), f"fft_length must not be negative, got {length}")
        xe, re_ = x.element_type, r.element_type
        if kind in ("FFT", "IFFT"):
            require(_complex(xe), f"{kind} needs a complex<f32|f64> operand, got {x}")
            require(r == x, f"{kind} result type {r} must equal the operand type {x}")
            require(xs[-len(length):] == length,
                    f"{kind} operand's trailing dimensions {xs[-len(length):]} must equal fft_length {length}")
            return
        if kind == "RFFT":
            require(_real(xe), f"RFFT needs an f32 or f64 operand, got {x}")
            require(re_ == ComplexType(xe), f"RFFT result element type must be {ComplexType(xe)}, got {re_}")
            real, real_shape, other_shape = "operand", xs, rs
        else:
            require(_complex(xe), f"IRFFT needs a complex<f32|f64> operand, got {x}")
            require(re_ == xe.element_type, f"IRFFT result element type must be {xe.element_type}, got {re_}")
            real, real_shape, other_shape = "result", rs, xs
        require(real_shape[-len(length):] == length,
                f"{kind} {real}'s trailing dimensions {real_shape[-len(length):]} must equal fft_length {length}")
        last = real_shape[-1]
        expected = real_shape[:-1] + [0 if last == 0 else last // 2 + 1]
        other = "result" if kind == "RFFT" else "operand"
        require(other_shape == expected, f"{kind} {other} shape {other_shape} must be {expected} "
                                         f"(the last dimension n // 2 + 1 of the real side's {last})")
