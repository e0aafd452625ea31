"""i2/i4/ui2/ui4 and fp8/fp6/fp4 in the interpreter, against independent oracles: Python
integers reduced modulo 2^N for the sub-byte integers, ml_dtypes' own ufuncs and casts for
the narrow floats (StableHLO's reference computes them as ml_dtypes does: in f32, rounded
once); and their dense attributes (xDSL's byte layout) through parse, numpy and print."""

from __future__ import annotations

import operator

import ml_dtypes
import numpy as np
import pytest

from minixla.backends.interpreter import run_function
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.dialects.numpy_types import NARROW_FLOATS, dense_attr_to_numpy, numpy_to_dense_attr

CTX = load_all()
FLOATS = {cls().name: dt for cls, dt in NARROW_FLOATS.items()}
INTS = {"i2": ml_dtypes.int2, "i4": ml_dtypes.int4, "ui2": ml_dtypes.uint2, "ui4": ml_dtypes.uint4}


def run(body: str, arg_types: list[str], result: str, *args):
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(arg_types))
    text = f"func.func @main({params}) -> {result} {{\n  %r = {body}\n  func.return %r : {result}\n}}"
    (out,) = run_function(parse_and_verify(text, "<test>", CTX), "main", list(args))
    return out


# -- sub-byte integers: Python ints modulo 2^N ------------------------------------------

def _wrap(v: int, width: int, signed: bool) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if signed and v >> (width - 1) else v


def _tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _int_oracle(op: str, a: int, b: int, w: int, signed: bool) -> int:
    ua, ub = a & ((1 << w) - 1), b & ((1 << w) - 1)
    lo = -(1 << (w - 1)) if signed else 0
    if op == "divide":
        r = -1 if b == 0 else (lo if signed and a == lo and b == -1 else _tdiv(a, b))
    elif op == "remainder":
        r = a if b == 0 else (0 if signed and a == lo and b == -1 else a - _tdiv(a, b) * b)
    elif op == "shift_left":
        r = 0 if ub >= w else ua << ub
    elif op == "shift_right_logical":
        r = 0 if ub >= w else ua >> ub
    elif op == "shift_right_arithmetic":
        r = _wrap(ua, w, True) >> min(ub, w - 1)
    elif op == "power":
        r = 0 if b < 0 and a not in (1, -1) else (a ** (b % 2) if b < 0 else a ** b)
    else:
        r = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "maximum": max,
             "minimum": min, "and": operator.and_, "or": operator.or_, "xor": operator.xor}[op](a, b)
    return _wrap(r, w, signed)


BINARY = ("add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
          "shift_left", "shift_right_logical", "shift_right_arithmetic", "power")


@pytest.mark.parametrize("t", sorted(INTS))
def test_sub_byte_integer_ops_on_every_pair(t):
    w, signed, dt = int(t.lstrip("ui")), not t.startswith("u"), np.dtype(INTS[t])
    vals = [_wrap(v, w, signed) for v in range(1 << w)]
    pairs = [(a, b) for a in vals for b in vals]
    n = len(pairs)
    x = np.array([a for a, _ in pairs]).astype(dt)
    y = np.array([b for _, b in pairs]).astype(dt)
    ty = f"tensor<{n}x{t}>"
    for op in BINARY:
        got = run(f"hlo.{op} %a0, %a1 : {ty}", [ty, ty], ty, x, y)
        want = [_int_oracle(op, a, b, w, signed) for a, b in pairs]
        assert got.dtype == dt and [int(v) for v in got] == want, op
    unary = {"negate": lambda a: -a, "not": lambda a: ~a, "popcnt": lambda a: bin(a & ((1 << w) - 1)).count("1"),
             "count_leading_zeros": lambda a: w - (a & ((1 << w) - 1)).bit_length()}
    if signed:
        unary.update(abs=abs, sign=lambda a: (a > 0) - (a < 0))
    for op, ref in unary.items():
        got = run(f"hlo.{op} %a0 : {ty}", [ty], ty, x)
        assert [int(v) for v in got] == [_wrap(ref(a), w, signed) for a, _ in pairs], op
    lt = run(f"hlo.compare LT, %a0, %a1 : ({ty}, {ty}) -> tensor<{n}xi1>", [ty, ty], f"tensor<{n}xi1>", x, y)
    assert list(lt) == [a < b for a, b in pairs]
    wide = run(f"hlo.convert %a0 : ({ty}) -> tensor<{n}xi32>", [ty], f"tensor<{n}xi32>", x)
    assert list(wide) == [a for a, _ in pairs]
    back = run(f"hlo.convert %a0 : (tensor<{n}xi32>) -> {ty}", [f"tensor<{n}xi32>"], ty, wide * 5 + 3)
    assert [int(v) for v in back] == [_wrap(a * 5 + 3, w, signed) for a, _ in pairs]


# -- narrow floats: ml_dtypes' own arithmetic and casts ------------------------------------

@pytest.mark.parametrize("t", sorted(FLOATS))
def test_narrow_float_arithmetic_and_conversions_match_ml_dtypes(t):
    dt = np.dtype(FLOATS[t])
    codes = np.arange(1 << ml_dtypes.finfo(dt).bits, dtype=np.uint32).astype(np.uint8).view(dt)
    x, y = np.repeat(codes, codes.size), np.tile(codes, codes.size)
    ty = f"tensor<{x.size}x{t}>"
    with np.errstate(all="ignore"):
        for op, ufunc in (("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
                          ("divide", np.divide)):
            got = run(f"hlo.{op} %a0, %a1 : {ty}", [ty, ty], ty, x, y)
            want = ufunc(x, y)  # ml_dtypes' ufunc: f32 arithmetic rounded once
            assert np.array_equal(np.isnan(got.astype(np.float32)), np.isnan(want.astype(np.float32))), op
            ok = ~np.isnan(want.astype(np.float32))
            assert (got.view(np.uint8)[ok] == want.view(np.uint8)[ok]).all(), op
        f32 = (np.random.default_rng(5).standard_normal(4000) * 100).astype(np.float32)
        f32[:6] = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0]
        n = f32.size
        got = run(f"hlo.convert %a0 : (tensor<{n}xf32>) -> tensor<{n}x{t}>", [f"tensor<{n}xf32>"],
                  f"tensor<{n}x{t}>", f32)
        assert (got.view(np.uint8) == f32.astype(dt).view(np.uint8)).all()
        back = run(f"hlo.convert %a0 : (tensor<{codes.size}x{t}>) -> tensor<{codes.size}xf64>",
                   [f"tensor<{codes.size}x{t}>"], f"tensor<{codes.size}xf64>", codes)
        np.testing.assert_array_equal(back, codes.astype(np.float64))


@pytest.mark.parametrize("t", sorted(FLOATS) + sorted(INTS))
def test_dense_attributes_round_trip_through_numpy_and_text(t):
    """Parse -> numpy (ml_dtypes) -> attribute -> print -> parse keeps every byte."""
    if t in INTS:
        w, signed = int(t.lstrip("ui")), not t.startswith("u")
        vals = [_wrap(v, w, signed) for v in range(1 << w)]
        literal, want = ", ".join(map(str, vals)), np.array(vals).astype(INTS[t])
    else:
        want = np.array([0.0, 1.0, 0.5, 2.0, 0.25, 4.0], np.float32).astype(FLOATS[t])
        literal = "0x00, 1.0, 0.5, 2.0, 0.25, 4.0" if t == "f8E8M0FNU" else "0.0, 1.0, 0.5, 2.0, 0.25, 4.0"
        if t == "f8E8M0FNU":
            want[0] = np.uint8(0).view(FLOATS[t])  # no zero: 0x00 is 2^-127
    text = f"%0 = hlo.constant dense<[{literal}]> : tensor<{want.size}x{t}>"
    attr = parse_and_verify(text, "<test>", CTX).body.block.first_op.value
    arr = dense_attr_to_numpy(attr)
    assert arr.dtype == want.dtype and (arr.view(np.uint8) == want.view(np.uint8)).all()
    again = numpy_to_dense_attr(arr)
    assert again == attr
    printed = parse_and_verify(f"%0 = hlo.constant {again}", "<test>", CTX).body.block.first_op.value
    assert bytes(printed.data.data) == bytes(attr.data.data)


def test_hex_literals_are_bit_patterns_for_narrow_floats():
    text = "%0 = hlo.constant dense<[0x7F, 0xFF, 0x01, 0x38]> : tensor<4xf8E4M3FN>"
    arr = dense_attr_to_numpy(parse_and_verify(text, "<test>", CTX).body.block.first_op.value)
    assert list(arr.view(np.uint8)) == [0x7F, 0xFF, 0x01, 0x38]
    assert np.isnan(arr[:2].astype(np.float32)).all() and arr[2] == 2.0 ** -9 and arr[3] == 1.0


def test_printing_matches_stablehlo_interpret():
    """The CHECK lines of StableHLO's printing.mlir @test_sub_byte."""
    from minixla.backends.interpreter.printing import format_tensor

    assert format_tensor(np.array([1, -2]).astype(ml_dtypes.int2), "tensor<2xi2>") == "tensor<2xi2> {\n  [1, -2]\n}"
    assert format_tensor(np.array([1, 2, 3, 4]).astype(ml_dtypes.int4), "tensor<4xi4>") == \
        "tensor<4xi4> {\n  [1, 2, 3, 4]\n}"
    for t in ("f6E2M3FN", "f8E3M4"):
        x = np.array([1.0, 2.0, -3.0, -4.0]).astype(FLOATS[t])
        assert format_tensor(x, f"tensor<4x{t}>") == \
            f"tensor<4x{t}> {{\n  [1.000000e+00, 2.000000e+00, -3.000000e+00, -4.000000e+00]\n}}"


@pytest.mark.parametrize("t", ["f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f6E3M2FN", "f4E2M1FN"])
def test_total_order_compare(t):
    """TOTALORDER: -NaN < -inf < ... < -0 < +0 < ... < inf < NaN, by value (fp6/fp4 carry their
    sign in bit 5/3 of the byte, so their bytes do not order as integers)."""
    import math

    dt = np.dtype(FLOATS[t])
    codes = np.arange(1 << ml_dtypes.finfo(dt).bits, dtype=np.uint32).astype(np.uint8).view(dt)
    x, y = np.repeat(codes, codes.size), np.tile(codes, codes.size)
    ty = f"tensor<{x.size}x{t}>"
    got = run(f"hlo.compare LT, %a0, %a1, TOTALORDER : ({ty}, {ty}) -> tensor<{x.size}xi1>", [ty, ty],
              f"tensor<{x.size}xi1>", x, y)

    def key(v) -> tuple:
        f = float(v)
        neg = math.copysign(1.0, f) < 0
        if math.isnan(f):
            return (-2 if neg else 2, 0.0)
        return (0, f, 0 if neg else 1) if f == 0 else (0, f, 0)

    want = [key(a) < key(b) for a, b in zip(x, y)]
    assert list(got) == want


def test_bitcast_convert_narrow_types():
    """fp8 <-> ui8 is the byte; fp4 <-> i4 the nibble; an fp8 splits into two fp4, low nibble first."""
    x = np.array([0x00, 0x01, 0x7F, 0x80, 0xA5, 0xFF], np.uint8)
    f8 = x.view(ml_dtypes.float8_e4m3fn)
    t8, tu = "tensor<6xf8E4M3FN>", "tensor<6xui8>"
    np.testing.assert_array_equal(run(f"hlo.bitcast_convert %a0 : ({t8}) -> {tu}", [t8], tu, f8), x)
    halves = run(f"hlo.bitcast_convert %a0 : ({t8}) -> tensor<6x2xf4E2M1FN>", [t8], "tensor<6x2xf4E2M1FN>", f8)
    np.testing.assert_array_equal(halves.view(np.uint8), np.stack([x & 0xF, x >> 4], axis=-1))
    back = run(f"hlo.bitcast_convert %a0 : (tensor<6x2xf4E2M1FN>) -> {t8}", ["tensor<6x2xf4E2M1FN>"], t8, halves)
    np.testing.assert_array_equal(back.view(np.uint8), x)
    nibbles = (x & 0xF).view(ml_dtypes.float4_e2m1fn)
    t4 = "tensor<6xf4E2M1FN>"
    ints = run(f"hlo.bitcast_convert %a0 : ({t4}) -> tensor<6xi4>", [t4], "tensor<6xi4>", nibbles)
    assert [int(v) for v in ints] == [_wrap(int(v), 4, True) for v in x & 0xF]


def test_expect_close_counts_ulps_of_narrow_formats():
    """check.expect_close on fp6/fp4 (sign in bit 5/3) and E8M0 (no sign bit): -1.0 and -1.25
    are one f6E2M3FN step apart (three mantissa bits), 1.0 and 4.0 two E8M0 steps."""
    from minixla.backends.interpreter.ops_check import close

    f6 = np.dtype(ml_dtypes.float6_e2m3fn)
    a, b = np.array([-1.0, 2.0], np.float32).astype(f6), np.array([-1.125, 2.5], np.float32).astype(f6)
    assert close(a, b, max_ulp=1).tolist() == [True, False]
    assert close(a, b, max_ulp=2).tolist() == [True, True]
    e8 = np.dtype(ml_dtypes.float8_e8m0fnu)
    x, y = np.array([1.0, 1.0], np.float32).astype(e8), np.array([2.0, 4.0], np.float32).astype(e8)
    assert close(x, y, max_ulp=1).tolist() == [True, False]
