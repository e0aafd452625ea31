"""`convert` and `bitcast_convert`.

convert follows StableHLO's reference interpreter (APFloat semantics) where
the spec says TBD: float -> int truncates toward zero and saturates, NaN -> 0;
int/float -> float rounds to nearest even, once (no double rounding, which
numpy/ml_dtypes would do for f64 -> bf16 and large ints -> bf16); anything ->
bool is "!= 0" (NaN -> true); complex -> real type drops the imaginary part.
To and from the fp8/fp6/fp4 types, conversions are ml_dtypes' (`astype`: float
and int sources round through float32, RNE, with each format's overflow/NaN
rules) except float -> int, which saturates as above; sub-byte integers wrap
like the others.
"""

from __future__ import annotations

import numpy as np

import ml_dtypes

from minixla.dialects.numpy_types import (
    bfloat16,
    bit_width,
    is_bool,
    is_complex,
    is_int,
    is_narrow_float,
    is_sub_byte_int,
    wide_int,
)


def _f64_to_f32_round_odd(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 rounding to odd: a later RNE rounding to a format of
    <= 22 significant bits is then correctly rounded (no double rounding)."""
    r = x.astype(np.float32)
    back = r.astype(np.float64)
    inexact = (back != x) & np.isfinite(x)
    if not inexact.any():
        return r
    toward_zero = np.where(np.abs(back) > np.abs(x), np.nextafter(r, np.float32(0)), r)
    bits = toward_zero.view(np.uint32) | np.uint32(1)
    return np.where(inexact, bits.view(np.float32), r)


def _float_to_float(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    if dt == bfloat16 and x.dtype == np.float64:
        return _f64_to_f32_round_odd(x).astype(bfloat16)
    if x.dtype == bfloat16:
        x = x.astype(np.float32)  # exact
    return x.astype(dt)


def _int_to_float(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    if dt == bfloat16:
        # exact in f64 below 2**53; beyond, one extra rounding (documented)
        return _float_to_float(x.astype(np.float64), dt)
    if dt == np.float16:
        return x.astype(np.float64).astype(np.float16)  # ints < 2**53 exact; f16 range is tiny
    return x.astype(dt)  # C casts: correctly rounded


def _float_to_int(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    w = np.trunc(x.astype(np.float64))
    info = ml_dtypes.iinfo(dt)
    hi = float(info.max) + 1.0  # 2**(bits) or 2**(bits-1): exact in f64
    lo = float(info.min)
    nan = np.isnan(w)
    too_big = w >= hi
    too_small = w < lo
    safe = np.where(nan | too_big | too_small, 0.0, w)
    out = safe.astype(dt)
    out = np.where(too_big, info.max, out)
    out = np.where(too_small, info.min, out)
    return out.astype(dt)


def convert(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Elementwise conversion of `x` to dtype `dt` (see module docstring)."""
    dt = np.dtype(dt)
    src = x.dtype
    if src == dt:
        return x.copy()
    if is_sub_byte_int(src):
        return convert(x.astype(wide_int(src)), dt)  # exact
    if is_narrow_float(src) and not is_int(dt) and not is_bool(dt):
        return x.astype(np.float32).astype(dt)  # exact, then one rounding (ml_dtypes' order)
    if is_narrow_float(dt) and not is_complex(src):
        return x.astype(np.uint8).astype(dt) if is_bool(src) else x.astype(dt)
    if is_complex(src) and not is_complex(dt):
        x = x.real.copy()
        src = x.dtype
    if is_bool(dt):
        return x != 0
    if is_bool(src):
        return x.astype(np.uint8).astype(dt) if dt != bfloat16 else x.astype(np.float32).astype(bfloat16)
    if is_complex(dt):
        part = np.float32 if dt == np.complex64 else np.float64
        if is_complex(src):
            re = _float_to_float(x.real.copy(), np.dtype(part))
            im = _float_to_float(x.imag.copy(), np.dtype(part))
            return _pack(re, im, dt)
        re = convert(x, np.dtype(part))
        return re.astype(dt)
    if is_int(dt):
        if is_int(src):
            return x.astype(dt)  # wraps (two's complement truncation / extension)
        return _float_to_int(x, dt)
    if is_int(src):
        return _int_to_float(x, dt)
    return _float_to_float(x, dt)


def _pack(re: np.ndarray, im: np.ndarray, dt: np.dtype) -> np.ndarray:
    out = np.empty(re.shape, dtype=dt)
    out.real = re
    out.imag = im
    return out


def _bits_of(x: np.ndarray, width: int) -> np.ndarray:
    """Each element's bit pattern as uint64 (one byte per element for sub-byte types)."""
    raw = np.array(x, order="C", copy=True)
    u = raw.view(np.uint8) if raw.dtype.itemsize == 1 else raw.view(f"u{raw.dtype.itemsize}")
    return u.astype(np.uint64) & np.uint64((1 << width) - 1)


def _from_bits(bits: np.ndarray, dt: np.dtype) -> np.ndarray:
    if dt.itemsize == 1:  # int2/int4 wrap into range; fp8/fp6/fp4 are their byte
        return bits.astype(np.uint8).view(dt) if not is_int(dt) else bits.astype(np.uint8).astype(dt)
    return bits.astype(f"u{dt.itemsize}").view(dt)


def _bitcast_bits(x: np.ndarray, dt: np.dtype, ws: int, wd: int) -> np.ndarray:
    """bitcast_convert where a side is narrower than a byte, on explicit bit patterns."""
    bits = _bits_of(x, ws)
    if ws == wd:
        return _from_bits(bits, dt)
    if ws > wd:
        shifts = np.arange(ws // wd, dtype=np.uint64) * np.uint64(wd)
        return _from_bits((bits[..., None] >> shifts) & np.uint64((1 << wd) - 1), dt)
    ratio = wd // ws
    if x.ndim == 0 or x.shape[-1] != ratio:
        raise ValueError(f"bitcast from {x.dtype}{list(x.shape)} to {dt} needs a trailing dimension of {ratio}")
    shifts = np.arange(ratio, dtype=np.uint64) * np.uint64(ws)
    return _from_bits(np.bitwise_or.reduce(bits << shifts, axis=-1), dt)


def bitcast_convert(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Reinterpret bits (little-endian element order, as `bits` in the spec is
    implementation-defined): narrowing adds a trailing dimension holding the
    low-order part first; widening consumes the trailing dimension."""
    dt = np.dtype(dt)
    if x.dtype == dt:
        return x.copy()
    if is_bool(x.dtype):  # i1 -> wider: bit k of the result is element k (LSB first)
        ratio = bit_width(dt)
        packed = np.packbits(x.reshape(-1, ratio), axis=-1, bitorder="little")
        return packed.view(dt).reshape(x.shape[:-1]).copy()
    if is_bool(dt):
        ratio = bit_width(x.dtype)
        raw = np.array(x, order="C").reshape(-1).view(np.uint8)
        bits = np.unpackbits(raw, bitorder="little").astype(bool)
        return bits.reshape(x.shape + (ratio,))
    src_bits, dst_bits = bit_width(x.dtype), bit_width(dt)
    if min(src_bits, dst_bits) < 8:
        return _bitcast_bits(x, dt, src_bits, dst_bits)
    data = np.array(x, order="C", copy=True)
    if src_bits == dst_bits:
        return data.view(dt).copy()
    if src_bits > dst_bits:
        ratio = src_bits // dst_bits
        return data.reshape(x.shape + (1,)).view(dt).reshape(x.shape + (ratio,)).copy()
    ratio = dst_bits // src_bits
    if x.ndim == 0 or x.shape[-1] != ratio:
        raise ValueError(f"bitcast from {x.dtype}{list(x.shape)} to {dt} needs a trailing dimension of {ratio}")
    return data.view(dt).reshape(x.shape[:-1]).copy()
