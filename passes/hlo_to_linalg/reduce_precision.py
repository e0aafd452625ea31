"""`hlo.reduce_precision` -> integer arithmetic on the element's bits (XLA's algorithm,
as the interpreter's `kernels/narrow.reduce_precision`): round the mantissa to
nearest even by adding a bias and masking, then map exponents above the reduced
range to inf and at or below its smallest normal to signed zero; NaN is kept
(or becomes inf when no mantissa bit is left). fp8/fp6/fp4 go through f32."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerType
from xdsl.ir import Attribute, Operation, SSAValue

from minixla.dialects import hlo
from minixla.passes.hlo_to_linalg.common import Emitter, elem, map_elementwise, signless
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering

#: float type -> (exponent bits, mantissa bits)
_LAYOUT = {Float16Type: (5, 10), BFloat16Type: (8, 7), Float32Type: (8, 23), Float64Type: (11, 52)}


def reduce_precision(e: Emitter, x: SSAValue, t: Attribute, exponent_bits: int, mantissa_bits: int) -> SSAValue:
    if type(t) not in _LAYOUT:
        wide = e(arith.ExtFOp(x, Float32Type()))
        return e(arith.TruncFOp(reduce_precision(e, wide, Float32Type(), exponent_bits, mantissa_bits), t))
    src_e, src_m = _LAYOUT[type(t)]
    width = 1 + src_e + src_m
    it = IntegerType(width)

    def c(v: int) -> SSAValue:
        return e.const(v, it)

    orig = e(arith.BitcastOp(x, it))
    bits = orig
    if mantissa_bits < src_m:
        drop = c(src_m - mantissa_bits)
        last = e(arith.AndIOp(e(arith.ShRUIOp(bits, drop)), c(1)))
        bias = e(arith.AddiOp(last, c((1 << (src_m - mantissa_bits - 1)) - 1)))
        bits = e(arith.ShLIOp(e(arith.ShRUIOp(e(arith.AddiOp(bits, bias)), drop)), drop))
    if exponent_bits < src_e:
        src_bias = (1 << (src_e - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exp_mask = ((1 << src_e) - 1) << src_m
        sign = e(arith.AndIOp(bits, c(1 << (width - 1))))
        exponent = e(arith.AndIOp(bits, c(exp_mask)))
        overflow = e(arith.CmpiOp(exponent, c((src_bias + reduced_bias) << src_m), "ugt"))
        underflow = e(arith.CmpiOp(exponent, c((src_bias - reduced_bias) << src_m), "ule"))
        bits = e(arith.SelectOp(underflow, sign, bits))
        bits = e(arith.SelectOp(overflow, e(arith.OrIOp(sign, c(exp_mask))), bits))
    is_nan = e(arith.CmpfOp(x, x, "uno"))
    if mantissa_bits > 0:
        nan_bits = orig
    else:
        nan_bits = e(arith.OrIOp(e(arith.AndIOp(orig, c(1 << (width - 1)))), c(((1 << src_e) - 1) << src_m)))
    bits = e(arith.SelectOp(is_nan, nan_bits, bits))
    return e(arith.BitcastOp(bits, t))


@lowering(hlo.ReducePrecisionOp)
def lower_reduce_precision(lw: Lowerer, op: Operation):
    t = elem(op.operand.type)
    eb, mb = int(op.exponent_bits.value.data), int(op.mantissa_bits.value.data)
    return [map_elementwise(lw.e, [lw.v(op.operand)], signless(op.result.type),
                            lambda b, a: reduce_precision(b, a[0], t, eb, mb))]
