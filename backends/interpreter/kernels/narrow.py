"""Sub-byte integers (i2/i4/ui2/ui4) and `reduce_precision` for the elementwise kernels.

ml_dtypes' int2/int4/uint2/uint4 hold one value per byte, but numpy's ufuncs on
them do not all wrap (negating a uint4 gives -15), and `np.iinfo` rejects them.
So the kernels compute in int8/uint8 and wrap back once (`astype` keeps the low
bits, as two's-complement arithmetic modulo 2^N needs); only the ops that see
the bit width (shifts, popcnt, count_leading_zeros) are written for it here.
"""

from __future__ import annotations

import numpy as np

from minixla.dialects.numpy_types import bfloat16, bit_width, is_sub_byte_int, wide_int

#: kernels that must see the real width of a sub-byte integer (defined below)
WIDTH_AWARE = ("popcnt", "count_leading_zeros", "shift_left", "shift_right_logical", "shift_right_arithmetic")


def widened(kernel):
    """`kernel` on sub-byte integer operands computed in int8/uint8 and wrapped back."""

    def run(*args: np.ndarray) -> np.ndarray:
        dt = next((a.dtype for a in args if is_sub_byte_int(getattr(a, "dtype", None) or np.dtype(object))), None)
        if dt is None:
            return kernel(*args)
        out = kernel(*[a.astype(wide_int(a.dtype)) if isinstance(a, np.ndarray) and is_sub_byte_int(a.dtype) else a
                        for a in args])
        return out.astype(dt) if out.dtype == wide_int(dt) else out

    run.__name__ = getattr(kernel, "__name__", "kernel")
    return run


def _parts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(unsigned bits, signed value) of a sub-byte integer array as int64, and the width."""
    w = bit_width(x.dtype)
    u = x.astype(np.int64) & ((1 << w) - 1)
    s = np.where(u >= 1 << (w - 1), u - (1 << w), u)
    return u, s, w


def popcnt(x: np.ndarray) -> np.ndarray:
    u, _, _ = _parts(x)
    return np.bitwise_count(u).astype(x.dtype)


def count_leading_zeros(x: np.ndarray) -> np.ndarray:
    u, _, w = _parts(x)
    n = np.zeros(u.shape, dtype=np.int64)
    for b in range(w):  # number of significant bits
        n = np.where((u >> b) != 0, b + 1, n)
    return (w - n).astype(x.dtype)


def _shift(a: np.ndarray, b: np.ndarray, how: str) -> np.ndarray:
    a, b = np.broadcast_arrays(a, b)
    u, s, w = _parts(a)
    amount, _, _ = _parts(b)  # shift amounts are unsigned
    oor = amount >= w
    safe = np.where(oor, 0, amount)
    if how == "left":
        r = np.where(oor, 0, u << safe)
    elif how == "logical":
        r = np.where(oor, 0, u >> safe)
    else:
        r = s >> np.where(oor, w - 1, safe)
    return r.astype(a.dtype)  # keeps the low w bits


def shift_left(a, b):
    return _shift(a, b, "left")


def shift_right_logical(a, b):
    return _shift(a, b, "logical")


def shift_right_arithmetic(a, b):
    return _shift(a, b, "arithmetic")


SUB_BYTE_KERNELS = {"popcnt": popcnt, "count_leading_zeros": count_leading_zeros, "shift_left": shift_left,
                    "shift_right_logical": shift_right_logical, "shift_right_arithmetic": shift_right_arithmetic}


def width_aware(name: str, kernel):
    """The kernel for `name`, switching to the sub-byte version on i2/i4/ui2/ui4 operands."""
    special = SUB_BYTE_KERNELS[name]

    def run(*args: np.ndarray) -> np.ndarray:
        return special(*args) if is_sub_byte_int(args[0].dtype) else kernel(*args)

    run.__name__ = name
    return run


#: float dtype -> (unsigned view, exponent bits, mantissa bits) of its IEEE-like encoding
_LAYOUT = {np.dtype(np.float16): (np.uint16, 5, 10), np.dtype(bfloat16): (np.uint16, 8, 7),
           np.dtype(np.float32): (np.uint32, 8, 23), np.dtype(np.float64): (np.uint64, 11, 52)}


def reduce_precision(x: np.ndarray, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """StableHLO's (XLA's) reduce_precision on x's own bits: round the mantissa to
    nearest even, then values above the reduced range become inf and values at or
    below its smallest normal exponent become (signed) zero; NaN stays NaN, or
    becomes inf when no mantissa bit is left. fp8/fp6/fp4 go through float32."""
    if x.dtype not in _LAYOUT:
        return reduce_precision(x.astype(np.float32), exponent_bits, mantissa_bits).astype(x.dtype)
    udt, src_e, src_m = _LAYOUT[x.dtype]
    width = np.dtype(udt).itemsize * 8
    one = udt(1)
    bits = np.array(x, order="C").view(udt).copy()
    if mantissa_bits < src_m:
        drop = udt(src_m - mantissa_bits)
        last = (bits >> drop) & one
        bias = udt((1 << (src_m - mantissa_bits - 1)) - 1)
        bits = ((bits + bias + last) >> drop) << drop
    if exponent_bits < src_e:
        src_bias = (1 << (src_e - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exp_mask = udt(((1 << src_e) - 1) << src_m)
        sign = bits & udt(1 << (width - 1))
        exponent = bits & exp_mask
        overflow = exponent > udt((src_bias + reduced_bias) << src_m)
        underflow = exponent <= udt((src_bias - reduced_bias) << src_m)
        bits = np.where(overflow, sign | exp_mask, np.where(underflow, sign, bits))
    nan = np.isnan(x.astype(np.float64))
    if nan.any():
        orig = np.array(x, order="C").view(udt)
        inf = (orig & udt(1 << (width - 1))) | udt(((1 << src_e) - 1) << src_m)
        bits = np.where(nan, orig if mantissa_bits > 0 else inf, bits)
    return bits.astype(udt).view(x.dtype)
