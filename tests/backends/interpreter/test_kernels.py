"""Elementwise and conversion kernels of the interpreter against independent
computations: Python integers, struct, fractions, hand-worked spec values."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from minixla.backends.interpreter.kernels import conversions as cv
from minixla.backends.interpreter.kernels import elementwise as ew

BF16 = np.dtype(ml_dtypes.bfloat16)
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, BF16, np.float32, np.float64]
ALL = [np.bool_, *INTS, *FLOATS, np.complex64, np.complex128]


@pytest.fixture(autouse=True)
def _quiet():
    with np.errstate(all="ignore"):
        yield


def wrap(v: int, dt) -> int:
    """Python int -> the value a two's complement `dt` holds."""
    info = np.iinfo(dt)
    bits = info.bits
    v &= (1 << bits) - 1
    if info.min < 0 and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def edge_ints(dt) -> list[int]:
    info = np.iinfo(dt)
    vals = [0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1]
    if info.min < 0:
        vals += [-1, -2, -3, -7]
    return vals


def pairs(dt):
    vals = edge_ints(dt)
    a = np.array([x for x in vals for _ in vals], dtype=dt)
    b = np.array([y for _ in vals for y in vals], dtype=dt)
    return a, b


# -- integer arithmetic: wraps, truncating division, XLA's zero rules ----------

@pytest.mark.parametrize("dt", INTS)
@pytest.mark.parametrize("name,fn", [("add", lambda x, y: x + y), ("subtract", lambda x, y: x - y),
                                     ("multiply", lambda x, y: x * y)])
def test_int_arithmetic_wraps(dt, name, fn):
    a, b = pairs(dt)
    got = getattr(ew, name)(a, b)
    assert got.dtype == np.dtype(dt)
    assert [int(v) for v in got] == [wrap(fn(int(x), int(y)), dt) for x, y in zip(a, b)]


def c_div(x: int, y: int, dt) -> tuple[int, int]:
    if y == 0:
        return wrap(-1, dt), x
    q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    return wrap(q, dt), wrap(x - q * y, dt)


@pytest.mark.parametrize("dt", INTS)
def test_int_divide_remainder_c_semantics(dt):
    a, b = pairs(dt)
    q, r = ew.divide(a, b), ew.remainder(a, b)
    want = [c_div(int(x), int(y), dt) for x, y in zip(a, b)]
    assert [int(v) for v in q] == [w[0] for w in want]
    assert [int(v) for v in r] == [w[1] for w in want]


def test_divide_spec_examples():
    a = np.array([17, -17, 17, -17], np.int64)
    b = np.array([3, 3, -3, -3], np.int64)
    assert ew.divide(a, b).tolist() == [5, -5, -5, 5]
    assert ew.remainder(a, b).tolist() == [2, -2, 2, -2]
    mn = np.iinfo(np.int32).min
    assert ew.divide(np.array([mn, 5], np.int32), np.array([-1, 0], np.int32)).tolist() == [mn, -1]
    assert ew.remainder(np.array([mn, 5], np.int32), np.array([-1, 0], np.int32)).tolist() == [0, 5]
    assert ew.divide(np.array([7], np.uint8), np.array([0], np.uint8)).tolist() == [255]


def test_float_remainder_is_fmod():
    a = np.array([17.1, -17.1, 17.1, -17.1, 5.0, -0.0], np.float64)
    b = np.array([3.0, 3.0, -3.0, -3.0, np.inf, 1.0])
    got = ew.remainder(a, b)
    assert got.tolist()[:5] == [math.fmod(x, y) for x, y in zip(a[:5], b[:5])]
    assert math.copysign(1, got[5]) == -1
    assert np.isnan(ew.remainder(np.array([1.0], np.float32), np.array([0.0], np.float32)))[0]


@pytest.mark.parametrize("dt", INTS)
def test_int_power(dt):
    vals = [v for v in edge_ints(dt) if v >= -3] + [5]
    exps = [0, 1, 2, 3, 7, 63] + ([-1, -2, -3] if np.iinfo(dt).min < 0 else [])
    a = np.array([x for x in vals for _ in exps], dtype=dt)
    b = np.array([e for _ in vals for e in exps], dtype=dt)

    def ref(x, e):
        if e < 0:
            return 1 if x == 1 else (-1) ** (-e) if x == -1 else 0
        return wrap(pow(x, e), dt)

    assert [int(v) for v in ew.power(a, b)] == [wrap(ref(int(x), int(e)), dt) for x, e in zip(a, b)]


def test_power_spec_examples():
    got = ew.power(np.array([-1, -1, -3, 1, -3, 0], np.int64), np.array([1, 0, -3, -3, 3, 2], np.int64))
    assert got.tolist() == [-1, 1, 0, 1, -27, 0]
    f = ew.power(np.array([-2.0, -0.0, -36.0, 5.0, 3.0], np.float64), np.array([2.0, 2.0, 1.1, 2.0, -1.0]))
    assert f[0] == 4 and f[1] == 0 and np.isnan(f[2]) and f[3] == 25 and f[4] == pytest.approx(1 / 3)


# -- shifts: amounts are unsigned, out of range gives 0 / the sign fill --------

@pytest.mark.parametrize("dt", INTS)
def test_shifts(dt):
    bits = np.iinfo(dt).bits
    vals = edge_ints(dt)
    amounts = [0, 1, 3, bits - 1, bits, bits + 1, 200] + ([-1] if np.iinfo(dt).min < 0 else [])
    a = np.array([x for x in vals for _ in amounts], dtype=dt)
    b = np.array([wrap(s, dt) for _ in vals for s in amounts], dtype=dt)
    mask = (1 << bits) - 1

    def ref(x, s, kind):
        u, s = x & mask, s & mask
        if s >= bits:
            return 0 if kind != "sra" else (-1 if (u >> (bits - 1)) else 0)
        if kind == "sl":
            return u << s
        if kind == "srl":
            return u >> s
        signed = u - (1 << bits) if u >> (bits - 1) else u
        return signed >> s

    for kind, fn in (("sl", ew.shift_left), ("srl", ew.shift_right_logical), ("sra", ew.shift_right_arithmetic)):
        got = fn(a, b)
        assert got.dtype == np.dtype(dt)
        assert [int(v) for v in got] == [wrap(ref(int(x), int(s), kind), dt) for x, s in zip(a, b)], kind


# -- float semantics --------------------------------------------------------

@pytest.mark.parametrize("dt", FLOATS)
def test_maximum_minimum_nan_and_signed_zero(dt):
    a = np.array([np.nan, 1.0, -0.0, 0.0, -0.0, -np.inf, 2.0], dt)
    b = np.array([1.0, np.nan, 0.0, -0.0, -0.0, 3.0, np.inf], dt)
    mx, mn = ew.maximum(a, b).astype(np.float64), ew.minimum(a, b).astype(np.float64)
    assert np.isnan(mx[:2]).all() and np.isnan(mn[:2]).all()
    assert [math.copysign(1, v) for v in mx[2:5]] == [1, 1, -1]
    assert [math.copysign(1, v) for v in mn[2:5]] == [-1, -1, -1]
    assert mx[5:].tolist() == [3.0, np.inf] and mn[5:].tolist() == [-np.inf, 2.0]


def test_maximum_bool_and_complex():
    t, f = np.array([True, False, True, False]), np.array([True, True, False, False])
    assert ew.maximum(t, f).tolist() == [True, True, True, False]
    assert ew.minimum(t, f).tolist() == [True, False, False, False]
    a = np.array([1 + 5j, 2 + 1j, 1 + 1j])
    b = np.array([1 + 6j, 1 + 9j, 1 + 1j])
    assert ew.maximum(a, b).tolist() == [1 + 6j, 2 + 1j, 1 + 1j]
    assert ew.minimum(a, b).tolist() == [1 + 5j, 1 + 9j, 1 + 1j]


@pytest.mark.parametrize("dt", FLOATS)
def test_sign_keeps_signed_zero_and_nan(dt):
    got = ew.sign(np.array([-2.5, 3.0, -0.0, 0.0, np.nan, -np.inf], dt)).astype(np.float64)
    assert got[:2].tolist() == [-1, 1] and got[5] == -1
    assert math.copysign(1, got[2]) == -1 and math.copysign(1, got[3]) == 1 and np.isnan(got[4])
    assert ew.sign(np.array([-5, 0, 7], np.int32)).tolist() == [-1, 0, 1]
    c = ew.sign(np.array([3 + 4j, 0j, complex(np.nan, 0)]))
    assert c[0] == pytest.approx(0.6 + 0.8j) and c[1] == 0 and np.isnan(c[2].real) and np.isnan(c[2].imag)


@pytest.mark.parametrize("dt", FLOATS)
def test_rounding(dt):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1.25, -1.75], dt)
    assert ew.round_nearest_even(x).astype(np.float64).tolist() == [round(float(v)) for v in x]
    assert ew.round_nearest_afz(x).astype(np.float64).tolist() == [1, 2, 3, -1, -2, -3, 1, -2]
    assert ew.floor(x).astype(np.float64).tolist() == [math.floor(float(v)) for v in x]
    assert ew.ceil(x).astype(np.float64).tolist() == [math.ceil(float(v)) for v in x]
    assert math.copysign(1, float(ew.round_nearest_even(np.array([-0.25], dt))[0])) == -1


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("name,ref", [
    ("exponential", math.exp), ("log", math.log), ("sqrt", math.sqrt), ("tanh", math.tanh),
    ("sine", math.sin), ("cosine", math.cos), ("exponential_minus_one", math.expm1),
    ("log_plus_one", math.log1p), ("rsqrt", lambda v: 1 / math.sqrt(v)),
    ("logistic", lambda v: 1 / (1 + math.exp(-v)))])
def test_transcendental_correctly_rounded_from_double(dt, name, ref):
    x = np.array([0.5, 1.0, 2.0, 3.25], dt)
    got = getattr(ew, name)(x)
    assert got.dtype == np.dtype(dt)
    exact = [ref(float(v)) for v in x]
    if dt == np.float64:  # numpy's and libm's double results may differ by an ulp
        assert np.allclose(got, exact, rtol=4e-16, atol=0)
    elif dt == BF16:
        assert got.astype(np.float64).tolist() == [rne(Fraction(v), 8) for v in exact]
    else:
        assert got.tobytes() == np.array(exact, np.float64).astype(dt).tobytes()


def test_special_values():
    assert np.isnan(ew.log(np.array([-1.0], np.float32)))[0]
    assert ew.log(np.array([0.0], np.float32))[0] == -np.inf
    assert ew.rsqrt(np.array([0.0], np.float16))[0] == np.inf
    assert ew.logistic(np.array([-1000.0, 1000.0], np.float32)).tolist() == [0.0, 1.0]
    assert ew.is_finite(np.array([1.0, np.inf, -np.inf, np.nan], BF16)).tolist() == [True, False, False, False]
    assert ew.abs_(np.array([-128], np.int8)).tolist() == [-128]
    assert ew.abs_(np.array([3 + 4j], np.complex64)).dtype == np.float32


@pytest.mark.parametrize("dt", ALL)
def test_every_dtype_add_multiply_and_rank0(dt):
    a = np.array([1, 0, 1, 1], dt)
    b = np.array([1, 1, 0, 1], dt)
    s, p = ew.add(a, b), ew.multiply(a, b)
    assert s.dtype == np.dtype(dt) and p.dtype == np.dtype(dt)
    if dt is np.bool_:
        assert s.tolist() == [True, True, True, True] and p.tolist() == [True, False, False, True]
    else:
        assert s.astype(np.complex128).tolist() == [2, 1, 1, 2]
        assert p.astype(np.complex128).tolist() == [1, 0, 0, 1]
    z = ew.add(np.array(1, dt), np.array(0, dt))
    assert np.asarray(z).shape == ()
    empty = ew.add(np.zeros((0, 3), dt), np.zeros((0, 3), dt))
    assert empty.shape == (0, 3)


# -- compare -------------------------------------------------------------------

def test_compare_float_ieee():
    a = np.array([1.0, np.nan, -0.0, 2.0], np.float32)
    b = np.array([1.0, np.nan, 0.0, 1.0], np.float32)
    assert ew.compare(a, b, "EQ").tolist() == [True, False, True, False]
    assert ew.compare(a, b, "NE").tolist() == [False, True, False, True]
    assert ew.compare(a, b, "LT").tolist() == [False, False, False, False]
    assert ew.compare(a, b, "GE", "FLOAT").tolist() == [True, False, True, True]


@pytest.mark.parametrize("dt", [np.float16, BF16, np.float32, np.float64])
def test_compare_totalorder(dt):
    ordered = np.array([-np.nan, -np.inf, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan], dt)
    ordered[0] = -abs(ordered[0].astype(np.float64)).astype(dt) if dt != BF16 else ordered[0]
    neg_nan = np.array([np.nan], np.float64)
    neg_nan.view(np.uint64)[0] |= np.uint64(1 << 63)
    ordered[0] = cv.convert(neg_nan, np.dtype(dt))[0] if dt != np.float64 else neg_nan[0]
    n = len(ordered)
    a = np.repeat(ordered, n)
    b = np.tile(ordered, n)
    lt = ew.compare(a, b, "LT", "TOTALORDER").reshape(n, n)
    eq = ew.compare(a, b, "EQ", "TOTALORDER").reshape(n, n)
    assert (lt == np.triu(np.ones((n, n), bool), 1)).all()
    assert (eq == np.eye(n, dtype=bool)).all()


def test_compare_integer_types():
    a = np.array([-1, 1], np.int8)
    b = np.array([1, 1], np.int8)
    assert ew.compare(a, b, "LT").tolist() == [True, False]
    assert ew.compare(a, b, "LT", "UNSIGNED").tolist() == [False, False]
    u = np.array([255, 0], np.uint8)
    assert ew.compare(u, np.array([0, 0], np.uint8), "GT").tolist() == [True, False]
    t = np.array([True, False])
    assert ew.compare(t, np.array([False, False]), "GT", "SIGNED").tolist() == [True, False]
    c = np.array([1 + 2j, 1 + 2j, 2 + 0j])
    d = np.array([1 + 3j, 1 + 2j, 1 + 9j])
    assert ew.compare(c, d, "LT").tolist() == [True, False, False]
    assert ew.compare(c, d, "EQ").tolist() == [False, True, False]


def test_select_clamp():
    assert ew.select(np.array(True), np.array([1, 2]), np.array([3, 4])).tolist() == [1, 2]
    assert ew.select(np.array([True, False]), np.array([1, 2]), np.array([3, 4])).tolist() == [1, 4]
    got = ew.clamp(np.array(0.0), np.array([-1.0, 0.5, 2.0, np.nan]), np.array(1.0))
    assert got[:3].tolist() == [0.0, 0.5, 1.0] and np.isnan(got[3])
    assert ew.clamp(np.array([5, 0]), np.array([1, 1]), np.array([6, 0])).tolist() == [5, 0]


# -- convert ---------------------------------------------------------------

def rne(value: Fraction, mantissa_bits: int) -> float:
    """Round a rational to `mantissa_bits` significant bits, ties to even."""
    if value < 0:
        return -rne(-value, mantissa_bits)
    if value == 0:
        return 0.0
    e = math.floor(math.log2(value))
    while Fraction(2) ** e > value:
        e -= 1
    while Fraction(2) ** (e + 1) <= value:
        e += 1
    scale = Fraction(2) ** (e - mantissa_bits + 1)
    q = value / scale
    n = math.floor(q)
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    return float(n * scale)


def test_convert_f64_to_bf16_rounds_once():
    x = np.array([1 + 2**-8 + 2**-30, 1 + 2**-8, 1 + 3 * 2**-8, 3.0e38, -(1 + 2**-8 + 2**-40)])
    got = cv.convert(x, BF16).astype(np.float64)
    assert got[0] == rne(Fraction(x[0]), 8) == 1 + 2**-7
    assert got[1] == 1.0  # exact tie -> even
    assert got[2] == 1 + 2**-6
    assert got[4] == -(1 + 2**-7)


def test_convert_int_to_bf16_rounds_once():
    v = 2**24 + 2**16 + 1
    got = cv.convert(np.array([v], np.int64), BF16).astype(np.float64)[0]
    assert got == rne(Fraction(v), 8) == 2**24 + 2**17


@pytest.mark.parametrize("dt", INTS)
def test_convert_float_to_int_truncates_and_saturates(dt):
    info = np.iinfo(dt)
    x = np.array([2.9, -2.9, np.nan, np.inf, -np.inf, 1e30, -1e30, -0.5, 0.0], np.float64)
    got = cv.convert(x, np.dtype(dt)).tolist()

    def ref(v):
        if math.isnan(v):
            return 0
        if math.isinf(v):
            return info.max if v > 0 else info.min
        return min(max(math.trunc(v), info.min), info.max)

    assert got == [ref(v) for v in x]


def test_convert_bool_and_complex():
    assert cv.convert(np.array([0.0, -0.0, np.nan, 2.0]), np.dtype(np.bool_)).tolist() == [False, False, True, True]
    assert cv.convert(np.array([True, False]), np.dtype(np.float32)).tolist() == [1.0, 0.0]
    assert cv.convert(np.array([True, False]), BF16).astype(np.float32).tolist() == [1.0, 0.0]
    assert cv.convert(np.array([1.5 + 2j]), np.dtype(np.float32)).tolist() == [1.5]
    assert cv.convert(np.array([-3.7 + 2j]), np.dtype(np.int32)).tolist() == [-3]
    assert cv.convert(np.array([1.5], np.float32), np.dtype(np.complex128)).tolist() == [1.5 + 0j]
    assert cv.convert(np.array([1 + 2j], np.complex128), np.dtype(np.complex64)).tolist() == [1 + 2j]
    assert cv.convert(np.array([300, -1], np.int32), np.dtype(np.uint8)).tolist() == [44, 255]
    assert cv.convert(np.array([2**64 - 1], np.uint64), np.dtype(np.float32))[0] == np.float32(2**64)


def test_bitcast_convert():
    f = np.array([1.0, -2.5], np.float32)
    got = cv.bitcast_convert(f, np.dtype(np.int32))
    assert got.tolist() == list(struct.unpack("<2i", struct.pack("<2f", 1.0, -2.5)))
    parts = cv.bitcast_convert(np.array(0x0123456789ABCDEF, np.int64), np.dtype(np.uint16))
    assert parts.shape == (4,) and parts.tolist() == [0xCDEF, 0x89AB, 0x4567, 0x0123]
    back = cv.bitcast_convert(parts, np.dtype(np.int64))
    assert back.shape == () and int(back) == 0x0123456789ABCDEF
    scalar = cv.bitcast_convert(np.array(1.0, np.float64), np.dtype(np.int64))
    assert scalar.shape == () and int(scalar) == 0x3FF0000000000000
    bits = cv.bitcast_convert(np.array(5, np.int8), np.dtype(np.bool_))
    assert bits.tolist() == [True, False, True, False, False, False, False, False]
    assert int(cv.bitcast_convert(bits, np.dtype(np.int8))) == 5
    c = cv.bitcast_convert(np.array(1 + 2j, np.complex64), np.dtype(np.float32))
    assert c.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.float64])
def test_power_square_fast_path_is_pow_bit_for_bit(dtype):
    """x**2 takes x*x (exact in the wider type); it must round exactly like
    pow(wide(x), 2), for every exponent form (scalar, stride-0, materialized)
    and for special values; an exponent that is 2 only in places is not squared."""
    from minixla.backends.interpreter.kernels.elementwise import _wide, power

    rng = np.random.default_rng(7)
    scale = rng.choice([1e-30, 1e-5, 1.0, 1e5, 1e30], 4096)
    a = (rng.standard_normal(4096) * scale).astype(dtype)
    a[:6] = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45]).astype(dtype)
    mixed = np.full(a.shape, 2, dtype)
    mixed[1::3] = 3
    with np.errstate(all="ignore"):
        for b in (np.array(2, dtype), np.broadcast_to(np.array(2, dtype), a.shape), np.full(a.shape, 2, dtype), mixed):
            got, want = power(a, b), np.power(_wide(a), _wide(b)).astype(dtype)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(got.view(np.uint8), want.view(np.uint8))
