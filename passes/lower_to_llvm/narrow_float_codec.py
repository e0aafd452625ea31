"""f32 <-> fp8/fp6/fp4 as integer code, written once against a small "ops" interface so the
same algorithm runs on numpy arrays (tests compare it with ml_dtypes bit for bit) and
emits `arith` ops (`emulate_narrow_floats`).

Encoding (f32 bits -> the format's byte) follows ml_dtypes exactly: round to nearest
even (subnormals included, carries into the exponent), then each format's rules:
IEEE-like types (E5M2, E4M3, E3M4) overflow to inf and keep NaN's sign (quiet NaN);
E4M3FN overflows to NaN with the sign; the FNUZ types have one NaN (0x80) and no -0;
E8M0FNU (no sign, no zero) maps zero, negatives, inf and NaN to NaN (0xFF) and rounds
below its range to 2^-127 or 2^-126 (ties round up); the FN fp6/fp4 types saturate and turn NaN into a zero
with the opposite sign. Decoding is a 256-entry f32 table made by ml_dtypes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import FloatNanEncoding, FloatNonfiniteBehavior, ReducedPrecisionFloatType

from minixla.dialects.numpy_types import numpy_dtype


@dataclass(frozen=True)
class Format:
    bits: int
    exponent: int
    mantissa: int
    bias: int
    nonfinite: FloatNonfiniteBehavior
    nan_encoding: FloatNanEncoding
    signed: bool

    @staticmethod
    def of(t: ReducedPrecisionFloatType) -> Format:
        s = t.SEMANTICS
        return Format(s.bitwidth, s.exponent_bits, s.mantissa_bits, s.exponent_bias, s.nonfinite, s.nan_encoding,
                      s.has_sign)

    @property
    def max_code(self) -> int:
        """The largest finite magnitude's encoding."""
        top = ((1 << self.exponent) - 1) << self.mantissa
        if self.nonfinite is FloatNonfiniteBehavior.IEEE:  # the all-ones exponent is inf/NaN
            return (((1 << self.exponent) - 2) << self.mantissa) | ((1 << self.mantissa) - 1)
        if self.nan_encoding is FloatNanEncoding.ALL_ONES and self.nonfinite is FloatNonfiniteBehavior.NAN_ONLY:
            return (top | ((1 << self.mantissa) - 1)) - 1
        return top | ((1 << self.mantissa) - 1)


def _rne(o, v, s):
    """v / 2^s rounded to nearest even (s >= 1, a value or a constant)."""
    one = o.c(1)
    half_minus_one = o.sub(o.shl(one, o.sub(s, one)), one)
    lsb = o.and_(o.shr(v, s), one)
    return o.shr(o.add(o.add(v, half_minus_one), lsb), s)


def encode(o, bits, fmt: Format):
    """The format's encoding (in the low `fmt.bits` bits of an i32) of f32 bit pattern `bits`."""
    c = o.c
    absolute = o.and_(bits, c(0x7FFFFFFF))
    sign = o.shr(bits, c(31))
    e32 = o.shr(absolute, c(23))
    if not fmt.signed:  # E8M0: exponent only; ml_dtypes rounds its ties up, not to even
        code = o.shr(o.add(absolute, c(1 << 22)), c(23))
        # f32 subnormals: ml_dtypes gives 2^-127 up to it exactly and 2^-126 above
        code = o.select(o.eq(e32, c(0)), o.select(o.ugt(absolute, c(0x400000)), c(1), c(0)), code)
    else:
        normal_code = _rne(o, o.sub(absolute, c((127 - fmt.bias) << 23)), c(23 - fmt.mantissa))
        significand = o.or_(o.and_(absolute, c(0x7FFFFF)), o.select(o.eq(e32, c(0)), c(0), c(0x800000)))
        shift = o.sub(c(151 - fmt.bias - fmt.mantissa), o.umax(e32, c(1)))
        sub_code = _rne(o, significand, o.umin(shift, c(31)))
        code = o.select(o.uge(e32, c(128 - fmt.bias)), normal_code, sub_code)
    is_nan = o.ugt(absolute, c(0x7F800000))
    is_inf = o.eq(absolute, c(0x7F800000))
    too_big = o.or_(is_inf, o.ugt(code, c(fmt.max_code)))
    sign_bit = o.shl(sign, c(fmt.bits - 1))
    top = ((1 << fmt.exponent) - 1) << fmt.mantissa
    if fmt.nonfinite is FloatNonfiniteBehavior.IEEE:
        mag = o.select(too_big, c(top), code)
        mag = o.select(is_nan, c(top | 1 << (fmt.mantissa - 1)), mag)
        return o.or_(mag, sign_bit)
    if fmt.nonfinite is FloatNonfiniteBehavior.FINITE_ONLY:
        value = o.or_(o.select(too_big, c(fmt.max_code), code), sign_bit)
        return o.select(is_nan, o.shl(o.xor(sign, c(1)), c(fmt.bits - 1)), value)
    if fmt.nan_encoding is FloatNanEncoding.NEGATIVE_ZERO:
        value = o.select(o.eq(code, c(0)), c(0), o.or_(code, sign_bit))
        return o.select(o.or_(is_nan, too_big), c(1 << (fmt.bits - 1)), value)
    nan = (1 << fmt.bits) - 1 if not fmt.signed else (1 << (fmt.bits - 1)) - 1
    if not fmt.signed:  # E8M0FNU: zero and negative values are NaN too
        bad = o.or_(o.or_(is_nan, too_big), o.or_(o.eq(absolute, c(0)), o.eq(sign, c(1))))
        return o.select(bad, c(nan), code)
    return o.or_(o.select(o.or_(is_nan, too_big), c(nan), code), sign_bit)


def decode_table(t: ReducedPrecisionFloatType) -> np.ndarray:
    """f32 value of each byte (bits above the format's width ignored), by ml_dtypes."""
    width = t.SEMANTICS.bitwidth
    codes = (np.arange(256, dtype=np.uint32) & ((1 << width) - 1)).astype(np.uint8)
    return codes.view(numpy_dtype(t)).astype(np.float32)


class NumpyOps:
    """The ops interface on uint32 numpy arrays (wrapping arithmetic)."""

    @staticmethod
    def c(v: int):
        return np.uint32(v)

    add = staticmethod(np.add)
    sub = staticmethod(np.subtract)
    and_ = staticmethod(np.bitwise_and)
    or_ = staticmethod(np.bitwise_or)
    xor = staticmethod(np.bitwise_xor)
    umin = staticmethod(np.minimum)
    umax = staticmethod(np.maximum)

    @staticmethod
    def shl(a, s):
        return np.left_shift(np.uint32(a) if np.isscalar(a) else a, s).astype(np.uint32)

    @staticmethod
    def shr(a, s):
        return np.right_shift(a, s).astype(np.uint32)

    @staticmethod
    def eq(a, b):
        return np.equal(a, b)

    @staticmethod
    def ugt(a, b):
        return np.greater(a, b)

    @staticmethod
    def uge(a, b):
        return np.greater_equal(a, b)

    @staticmethod
    def select(cond, a, b):
        return np.where(cond, a, b).astype(np.uint32)
