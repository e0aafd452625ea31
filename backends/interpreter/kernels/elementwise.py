"""Elementwise kernels with StableHLO semantics on numpy arrays.

Arrays carry their element type as dtype (i1 = bool, bf16 and fp8/fp6/fp4 =
ml_dtypes, whose arithmetic is float32 rounded once, as ml_dtypes computes it).
Integer arithmetic wraps (numpy does it in the dtype; callers silence the
overflow warnings with `np.errstate`). Transcendental float functions are
computed in float64 (complex128) and rounded once to the element type, as
StableHLO's reference interpreter does, so results for f16/bf16/f32 are the
correctly rounded value of the double result.
"""

from __future__ import annotations

import numpy as np

from minixla.dialects.numpy_types import (
    bfloat16,
    bit_width,
    is_ml_float,
    is_narrow_float,
    int_of,
    is_bool,
    is_complex,
    is_float,
    is_int,
    is_unsigned,
    uint_of,
)


def _wide(x: np.ndarray) -> np.ndarray:
    """float -> float64, complex -> complex128 (exact)."""
    return x.astype(np.complex128 if is_complex(x.dtype) else np.float64)


def _in_double(fn, x: np.ndarray) -> np.ndarray:
    """fn evaluated in double precision, rounded once to x's type."""
    from minixla.backends.interpreter.kernels.conversions import convert

    return convert(np.asarray(fn(_wide(x))), x.dtype)


# -- unary --------------------------------------------------------------------

def abs_(x: np.ndarray) -> np.ndarray:
    """Complex -> modulus in the component type; INT_MIN stays INT_MIN (wraps)."""
    if is_complex(x.dtype):
        part = np.float32 if x.dtype == np.complex64 else np.float64
        return np.abs(x.astype(np.complex128)).astype(part)
    if is_ml_float(x.dtype):
        return np.abs(x.astype(np.float32)).astype(x.dtype)
    return np.abs(x)


def negate(x: np.ndarray) -> np.ndarray:
    if is_ml_float(x.dtype):
        return (-x.astype(np.float32)).astype(x.dtype)
    return np.negative(x)


def not_(x: np.ndarray) -> np.ndarray:
    return np.logical_not(x) if is_bool(x.dtype) else np.invert(x)


def sign(x: np.ndarray) -> np.ndarray:
    """-1/0/1; floats keep ±0.0 and NaN; complex x/|x| (NaN -> (NaN, NaN))."""
    if is_int(x.dtype):
        return np.sign(x)
    if is_complex(x.dtype):
        w = x.astype(np.complex128)
        mag = np.abs(w)
        nan = np.isnan(w.real) | np.isnan(w.imag)
        out = np.where(mag == 0, 0j, w / np.where(mag == 0, 1, mag))
        return np.where(nan, complex(np.nan, np.nan), out).astype(x.dtype)
    w = x.astype(np.float64)
    return np.where(w == 0, w, np.sign(w)).astype(x.dtype)


def _float_unary(np_fn):
    def kernel(x: np.ndarray) -> np.ndarray:
        return _in_double(np_fn, x)

    kernel.__name__ = np_fn.__name__
    return kernel


exponential = _float_unary(np.exp)
exponential_minus_one = _float_unary(np.expm1)
log = _float_unary(np.log)
log_plus_one = _float_unary(np.log1p)
sqrt = _float_unary(np.sqrt)
tanh = _float_unary(np.tanh)
sine = _float_unary(np.sin)
cosine = _float_unary(np.cos)
tan = _float_unary(np.tan)


def cbrt(x: np.ndarray) -> np.ndarray:
    if is_complex(x.dtype):
        return _in_double(lambda w: w ** (1 / 3), x)
    return _in_double(np.cbrt, x)


def rsqrt(x: np.ndarray) -> np.ndarray:
    return _in_double(lambda w: 1.0 / np.sqrt(w), x)


def logistic(x: np.ndarray) -> np.ndarray:
    return _in_double(lambda w: 1.0 / (1.0 + np.exp(-w)), x)


def floor(x: np.ndarray) -> np.ndarray:
    return np.floor(x.astype(np.float64)).astype(x.dtype)


def ceil(x: np.ndarray) -> np.ndarray:
    return np.ceil(x.astype(np.float64)).astype(x.dtype)


def round_nearest_even(x: np.ndarray) -> np.ndarray:
    return np.rint(x.astype(np.float64)).astype(x.dtype)


def round_nearest_afz(x: np.ndarray) -> np.ndarray:
    w = x.astype(np.float64)
    return np.copysign(np.floor(np.abs(w) + 0.5), w).astype(x.dtype)


def is_finite(x: np.ndarray) -> np.ndarray:
    return np.isfinite(x.astype(np.float64))


def popcnt(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x.view(uint_of(x.dtype))).astype(x.dtype)


def count_leading_zeros(x: np.ndarray) -> np.ndarray:
    u = x.view(uint_of(x.dtype)).astype(np.uint64)
    width = bit_width(x.dtype)
    n = np.zeros(u.shape, dtype=np.int64)
    for b in range(width):  # number of significant bits
        n = np.where((u >> np.uint64(b)) != 0, b + 1, n)
    return (width - n).astype(x.dtype)


# -- binary arithmetic --------------------------------------------------------

def add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if is_bool(a.dtype):
        return a | b
    if is_ml_float(a.dtype):
        return (a.astype(np.float32) + b.astype(np.float32)).astype(a.dtype)
    return np.add(a, b)


def subtract(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if is_ml_float(a.dtype):
        return (a.astype(np.float32) - b.astype(np.float32)).astype(a.dtype)
    return np.subtract(a, b)


def multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if is_bool(a.dtype):
        return a & b
    if is_ml_float(a.dtype):
        return (a.astype(np.float32) * b.astype(np.float32)).astype(a.dtype)
    return np.multiply(a, b)


def _int_divmod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """C-style (truncating) quotient and remainder with XLA's edge cases:
    x / 0 = -1 (all ones), x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0."""
    a, b = np.broadcast_arrays(a, b)
    zero = b == 0
    if is_unsigned(a.dtype):
        safe = np.where(zero, 1, b).astype(a.dtype)
        q = a // safe
        r = a - q * safe
    else:
        overflow = (a == np.iinfo(a.dtype).min) & (b == -1)
        safe = np.where(zero | overflow, 1, b).astype(a.dtype)
        q = np.floor_divide(a, safe)
        r = a - q * safe
        fix = (r != 0) & ((a < 0) != (safe < 0))
        q = np.where(fix, q + 1, q).astype(a.dtype)
        r = np.where(fix, r - safe, r).astype(a.dtype)
    q = np.where(zero, np.array(-1).astype(a.dtype), q).astype(a.dtype)
    r = np.where(zero, a, r).astype(a.dtype)
    return q, r


def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if is_int(a.dtype):
        return _int_divmod(a, b)[0]
    if is_complex(a.dtype):
        return (a.astype(np.complex128) / b.astype(np.complex128)).astype(a.dtype)
    if is_ml_float(a.dtype) and a.dtype != bfloat16:
        return (a.astype(np.float32) / b.astype(np.float32)).astype(a.dtype)
    if a.dtype == bfloat16 or a.dtype == np.float16:
        return (a.astype(np.float64) / b.astype(np.float64)).astype(a.dtype)
    return np.true_divide(a, b)


def remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sign follows the dividend; floats use fmod (exact)."""
    if is_int(a.dtype):
        return _int_divmod(a, b)[1]
    if is_complex(a.dtype):
        raise NotImplementedError("remainder of complex numbers is TBD in the spec")
    return np.fmod(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype)


def _is_splat(b: np.ndarray, value) -> bool:
    """Whether every element of `b` equals `value` (first element first: a
    mismatch usually costs nothing; eager broadcasts are materialized)."""
    b = np.asarray(b)
    if b.size == 0 or not bool(b.reshape(-1)[0] == value):
        return False
    if b.size == 1 or all(st == 0 for st, n in zip(b.strides, b.shape) if n > 1):
        return True
    return bool((b == value).all())


def power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integers: exact wrapping exponentiation; a negative exponent gives 0
    unless |base| = 1 (StableHLO reference semantics)."""
    if not is_int(a.dtype):
        if a.dtype.itemsize < 8 and not is_complex(a.dtype) and _is_splat(b, 2):
            # x**2, the common case (the lecture's x**2): the product of two f32 (or
            # narrower) floats is exact in f64, so x*x rounds exactly like
            # pow(f64(x), 2) does, at a fraction of pow's cost
            with np.errstate(over="ignore", invalid="ignore"):
                square = np.multiply(a, a, dtype=a.dtype)
            shape = np.broadcast_shapes(a.shape, b.shape)
            return square if square.shape == shape else np.broadcast_to(square, shape).copy()
        return np.power(_wide(a), _wide(b)).astype(a.dtype)
    a, b = np.broadcast_arrays(a, b)
    dt = a.dtype
    result = np.ones(a.shape, dtype=dt)
    base = a.copy()
    exp = b.astype(dt)
    negative = np.zeros(a.shape, dtype=bool) if is_unsigned(dt) else exp < 0
    if negative.any():
        exp = np.where(negative, np.abs(exp.astype(np.int64) % 2), exp).astype(dt)  # parity suffices for |base| = 1
    e = exp.view(uint_of(dt)).copy()
    while e.any():
        odd = (e & 1).astype(bool)
        result = np.where(odd, result * base, result).astype(dt)
        base = (base * base).astype(dt)
        e >>= np.array(1, dtype=e.dtype)
    if negative.any():
        unit = (a == 1) | (a == np.array(-1).astype(dt))
        result = np.where(negative & ~unit, np.zeros((), dt), result).astype(dt)
    return result


def _complex_pick(a: np.ndarray, b: np.ndarray, greater: bool) -> np.ndarray:
    """Lexicographic (real, imag) max/min as StableHLO's reference does."""
    if greater:
        take_a = np.where(a.real == b.real, a.imag > b.imag, a.real > b.real)
    else:
        take_a = np.where(a.real == b.real, a.imag < b.imag, a.real < b.real)
    return np.where(take_a, a, b)


def maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE maximum: NaN propagates and max(-0.0, +0.0) = +0.0."""
    if is_complex(a.dtype):
        return _complex_pick(a, b, True)
    if not is_float(a.dtype):
        return np.maximum(a, b)
    wa, wb = a.astype(np.float64), b.astype(np.float64)
    r = np.maximum(wa, wb)
    zeros = (wa == 0) & (wb == 0)
    if zeros.any():
        r = np.where(zeros, np.where(np.signbit(wa) & np.signbit(wb), -0.0, 0.0), r)
    return r.astype(a.dtype)


def minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE minimum: NaN propagates and min(-0.0, +0.0) = -0.0."""
    if is_complex(a.dtype):
        return _complex_pick(a, b, False)
    if not is_float(a.dtype):
        return np.minimum(a, b)
    wa, wb = a.astype(np.float64), b.astype(np.float64)
    r = np.minimum(wa, wb)
    zeros = (wa == 0) & (wb == 0)
    if zeros.any():
        r = np.where(zeros, np.where(np.signbit(wa) | np.signbit(wb), -0.0, 0.0), r)
    return r.astype(a.dtype)


def and_(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.bitwise_and(a, b)


def or_(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.bitwise_or(a, b)


def xor(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.bitwise_xor(a, b)


def atan2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if is_complex(a.dtype):
        y, x = a.astype(np.complex128), b.astype(np.complex128)
        return (-1j * np.log((x + 1j * y) / np.sqrt(x * x + y * y))).astype(a.dtype)
    return np.arctan2(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype)


# -- shifts: amounts are read as unsigned; >= bit width is out of range -------

def _shift_parts(a: np.ndarray, b: np.ndarray):
    a, b = np.broadcast_arrays(a, b)
    u = uint_of(a.dtype)
    amount = b.view(u) if b.dtype != u else b
    out_of_range = amount >= bit_width(a.dtype)
    return a, u, np.where(out_of_range, 0, amount).astype(u), out_of_range


def shift_left(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, u, amt, oor = _shift_parts(a, b)
    r = (a.view(u) << amt).view(a.dtype)
    return np.where(oor, np.zeros((), a.dtype), r)


def shift_right_logical(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, u, amt, oor = _shift_parts(a, b)
    r = (a.view(u) >> amt).view(a.dtype)
    return np.where(oor, np.zeros((), a.dtype), r)


def shift_right_arithmetic(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, _, amt, oor = _shift_parts(a, b)
    s = int_of(a.dtype)
    signed = a.view(s)
    amt = np.where(oor, bit_width(a.dtype) - 1, amt).astype(s)
    return (signed >> amt).view(a.dtype)


# -- compare, select, clamp ---------------------------------------------------

def default_compare_type(dt: np.dtype) -> str:
    if is_float(dt) or is_complex(dt):
        return "FLOAT"
    if is_bool(dt) or is_unsigned(dt):
        return "UNSIGNED"
    return "SIGNED"


def total_order_key(x: np.ndarray) -> np.ndarray:
    """Signed integers ordered like IEEE totalOrder of the floats in `x`:
    -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN. fp8/fp6/fp4 are ordered by their
    exact f32 values (an fp6 byte has its sign in bit 5)."""
    if is_narrow_float(x.dtype):
        x = x.astype(np.float32)
    s = int_of(x.dtype)
    bits = x.view(np.uint16).view(np.int16) if x.dtype == bfloat16 else x.view(s)
    mask = np.iinfo(bits.dtype).max
    return np.where(bits < 0, bits ^ np.array(mask, bits.dtype), bits)


_CMP = {"EQ": np.equal, "NE": np.not_equal, "GE": np.greater_equal, "GT": np.greater,
        "LE": np.less_equal, "LT": np.less}


def compare(a: np.ndarray, b: np.ndarray, direction: str, compare_type: str | None = None) -> np.ndarray:
    ct = compare_type if compare_type not in (None, "NOTYPE") else default_compare_type(a.dtype)
    fn = _CMP[direction]
    if is_complex(a.dtype):
        if direction in ("EQ", "NE"):
            return fn(a, b)
        eq_real = a.real == b.real
        return np.where(eq_real, fn(a.imag, b.imag), fn(a.real, b.real))
    if is_float(a.dtype):
        if ct == "TOTALORDER":
            return fn(total_order_key(a), total_order_key(b))
        return fn(a.astype(np.float64), b.astype(np.float64))
    return fn(compare_view(a, ct), compare_view(b, ct))


def compare_view(x: np.ndarray, compare_type: str) -> np.ndarray:
    """Integers/booleans reinterpreted so numpy ordering is `compare_type`'s
    (booleans order false < true whatever the type, as StableHLO does)."""
    if is_bool(x.dtype):
        return x.astype(np.uint8)
    if compare_type == "UNSIGNED" and not is_unsigned(x.dtype):
        return x.view(uint_of(x.dtype))
    if compare_type == "SIGNED" and is_unsigned(x.dtype):
        return x.view(int_of(x.dtype))
    return x


def select(pred: np.ndarray, on_true: np.ndarray, on_false: np.ndarray) -> np.ndarray:
    return np.where(pred, on_true, on_false)


def clamp(lo: np.ndarray, x: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """min(max(x, lo), hi) with `maximum`/`minimum` semantics (NaN propagates)."""
    return minimum(maximum(x, lo), hi)
