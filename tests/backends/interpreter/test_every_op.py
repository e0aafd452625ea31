"""Every hlo op through the reference interpreter, from IR text, against an
independent numpy computation: scalars (rank 0), 0-size dimensions and every
element type each op accepts. The kernel-level edge cases (overflow, NaN,
signed zero, division by zero, ...) are in test_kernels.py; this
file makes sure no op is left without an IR-level numerical test."""

from __future__ import annotations

import zlib

import ml_dtypes

from pathlib import Path

import numpy as np
import pytest

from minixla.backends.interpreter import run_function
from minixla.dialects import hlo, load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.dialects.hlo_ops.elementwise import BINARY_OPS, UNARY_OPS

CTX = load_all()
BF16 = np.dtype(ml_dtypes.bfloat16)
SIGNED = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}
UNSIGNED = {"ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64}
FLOATS = {"f16": np.float16, "bf16": BF16, "f32": np.float32, "f64": np.float64}
ALL = {"i1": np.bool_, **SIGNED, **UNSIGNED, **FLOATS}
SHAPES = [(), (0,), (2, 3), (0, 4)]
#: relative tolerance of transcendental results per float type (numpy computes in the
#: narrow type, the interpreter in double rounded once: they may differ by an ulp)
RTOL = {"f16": 2e-3, "bf16": 1.6e-2, "f32": 2e-6, "f64": 1e-13}


def tensor_type(shape, elt: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elt + ">"


def run(text: str, *args):
    module = parse_and_verify(text, "<test>", CTX)
    return run_function(module, "main", [np.asarray(a) for a in args])


def random_array(shape, elt: str, rng, positive: bool = False, small: bool = False) -> np.ndarray:
    dt = np.dtype(ALL[elt])
    if elt == "i1":
        return rng.integers(0, 2, shape).astype(bool)
    if elt in FLOATS:
        lo = 0.25 if positive else -4.0
        return rng.uniform(lo, 4.0, shape).astype(dt)
    info = np.iinfo(dt)
    lo, hi = (1 if positive else (-5 if info.min < 0 else 0), 6) if small else (info.min, info.max)
    values = rng.integers(lo, hi, shape, dtype=dt, endpoint=True)
    if positive:  # full range, but never 0: x/0 has its own (XLA-defined) tests
        values = np.where(values == 0, np.ones_like(values), values)
    return values


def assert_same(got: np.ndarray, want: np.ndarray, elt: str, rtol: float = 0.0) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    if elt in FLOATS:
        g, w = got.astype(np.float64), want.astype(np.float64)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * 1e-3, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


# --------------------------------------------------------------------------
# Elementwise ops: one numpy reference per op, every accepted element type
# --------------------------------------------------------------------------

def _wrap(fn):
    def call(*xs):
        with np.errstate(all="ignore"):
            return fn(*xs)
    return call


def _ref_in_double(fn):
    """Reference for transcendentals: computed in float64, rounded once."""
    def call(x):
        return fn(x.astype(np.float64)).astype(x.dtype)
    return call


def _trunc_div(x, y):
    q = np.abs(x.astype(np.int64) if x.dtype.kind == "i" else x) // np.abs(y.astype(np.int64) if y.dtype.kind == "i" else y)
    return (np.sign(x.astype(np.int64)) * np.sign(y.astype(np.int64)) * q).astype(x.dtype) if x.dtype.kind == "i" \
        else (x // y).astype(x.dtype)


def _trunc_rem(x, y):
    return np.fmod(x, y).astype(x.dtype)


UNARY_REFS = {
    "abs": lambda x: np.abs(x),
    "negate": lambda x: (-x).astype(x.dtype),
    "exponential": _ref_in_double(np.exp),
    "exponential_minus_one": _ref_in_double(np.expm1),
    "log": _ref_in_double(np.log),
    "log_plus_one": _ref_in_double(np.log1p),
    "sqrt": _ref_in_double(np.sqrt),
    "rsqrt": _ref_in_double(lambda x: 1.0 / np.sqrt(x)),
    "tanh": _ref_in_double(np.tanh),
    "logistic": _ref_in_double(lambda x: 1.0 / (1.0 + np.exp(-x))),
    "sine": _ref_in_double(np.sin),
    "cosine": _ref_in_double(np.cos),
    "floor": lambda x: np.floor(x),
    "ceil": lambda x: np.ceil(x),
    "round_nearest_even": lambda x: np.round(x),
    "sign": lambda x: np.sign(x).astype(x.dtype),
    "not": lambda x: np.logical_not(x) if x.dtype == np.bool_ else np.invert(x),
    "tan": _ref_in_double(np.tan),
    "cbrt": _ref_in_double(np.cbrt),
    # ties (fraction exactly 0.5) away from zero, everything else to nearest
    "round_nearest_afz": lambda x: np.where(np.abs(x.astype(np.float64) % 1) == 0.5,
                                            np.trunc(x.astype(np.float64)) + np.sign(x.astype(np.float64)),
                                            np.rint(x.astype(np.float64))).astype(x.dtype),
    "popcnt": lambda x: np.array([bin(int(v) % (1 << (8 * x.itemsize))).count("1") for v in x.reshape(-1)],
                                 dtype=np.int64).astype(x.dtype).reshape(x.shape),
    "count_leading_zeros": lambda x: np.array([8 * x.itemsize - (int(v) % (1 << (8 * x.itemsize))).bit_length()
                                               for v in x.reshape(-1)], dtype=np.int64).astype(x.dtype)
    .reshape(x.shape),
}
POSITIVE_DOMAIN = {"log", "sqrt", "rsqrt"}

BINARY_REFS = {
    "add": lambda x, y: (x | y) if x.dtype == np.bool_ else (x + y).astype(x.dtype),
    "subtract": lambda x, y: (x - y).astype(x.dtype),
    "multiply": lambda x, y: (x & y) if x.dtype == np.bool_ else (x * y).astype(x.dtype),
    "divide": lambda x, y: (x / y).astype(x.dtype) if x.dtype.kind == "f" or x.dtype == BF16 else _trunc_div(x, y),
    "remainder": _trunc_rem,
    "power": lambda x, y: _ref_in_double(lambda a: np.power(a, y.astype(np.float64)))(x)
    if x.dtype.kind == "f" or x.dtype == BF16 else np.power(x, y).astype(x.dtype),
    "maximum": lambda x, y: np.maximum(x, y),
    "minimum": lambda x, y: np.minimum(x, y),
    "and": lambda x, y: x & y,
    "or": lambda x, y: x | y,
    "xor": lambda x, y: x ^ y,
    "atan2": lambda x, y: np.arctan2(x.astype(np.float64), y.astype(np.float64)).astype(x.dtype),
    "shift_left": lambda x, y: np.left_shift(x, y).astype(x.dtype),
    # arithmetic: the sign bit fills, also for unsigned types (APInt::ashr in StableHLO's interpreter)
    "shift_right_arithmetic": lambda x, y: np.right_shift(x.view(f"i{x.dtype.itemsize}"), y.view(f"i{y.dtype.itemsize}"))
    .view(x.dtype),
    "shift_right_logical": lambda x, y: (np.right_shift(x.view(f"u{x.dtype.itemsize}"), y.view(f"u{y.dtype.itemsize}"))
                                         .view(x.dtype)),
}
TRANSCENDENTAL = {"tan", "cbrt", "exponential", "exponential_minus_one", "log", "log_plus_one", "sqrt", "rsqrt", "tanh",
                  "logistic", "sine", "cosine", "power", "atan2", "divide"}


def _accepts(op_name: str, elt: str) -> bool:
    from minixla.dialects.hlo_ops.base import ELEMENT_CLASSES
    from xdsl.parser import Parser

    element_class = (UNARY_OPS.get(op_name) or BINARY_OPS[op_name])[1]
    return ELEMENT_CLASSES[element_class](Parser(CTX, elt).parse_type())


def _unary_cases():
    for name in UNARY_OPS:
        for elt in ALL:
            if _accepts(name, elt):
                yield name, elt


def _binary_cases():
    for name in BINARY_OPS:
        for elt in ALL:
            if _accepts(name, elt):
                yield name, elt


def test_tables_cover_every_elementwise_op():
    assert set(UNARY_REFS) == set(UNARY_OPS) and set(BINARY_REFS) == set(BINARY_OPS)


@pytest.mark.parametrize("name,elt", list(_unary_cases()))
def test_unary_op(name, elt):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{elt}".encode()))
    for shape in SHAPES:
        t = tensor_type(shape, elt)
        x = random_array(shape, elt, rng, positive=name in POSITIVE_DOMAIN)
        (got,) = run(f"func.func @main(%x: {t}) -> {t} {{\n  %0 = hlo.{name} %x : {t}\n  func.return %0 : {t}\n}}", x)
        assert_same(got, _wrap(UNARY_REFS[name])(x), elt, RTOL.get(elt, 0) if name in TRANSCENDENTAL else 0.0)


@pytest.mark.parametrize("name,elt", list(_binary_cases()))
def test_binary_op(name, elt):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{elt}".encode()))
    for shape in SHAPES:
        t = tensor_type(shape, elt)
        small = name in ("power", "shift_left", "shift_right_arithmetic", "shift_right_logical")
        x = random_array(shape, elt, rng, small=name == "power")
        y = random_array(shape, elt, rng, positive=name in ("divide", "remainder", "power") or small, small=small)
        if elt in FLOATS and name == "power":
            x = np.abs(x) + np.asarray(0.5, x.dtype)
        (got,) = run(f"func.func @main(%x: {t}, %y: {t}) -> {t} {{\n  %0 = hlo.{name} %x, %y : {t}\n"
                     f"  func.return %0 : {t}\n}}", x, y)
        assert_same(got, _wrap(BINARY_REFS[name])(x, y), elt, RTOL.get(elt, 0) if name in TRANSCENDENTAL else 0.0)


# --------------------------------------------------------------------------
# Every other op: IR programs with numpy references, over shapes incl. 0-size
# --------------------------------------------------------------------------

def _program(args: list[tuple[str, str]], result: str, body: str) -> str:
    params = ", ".join(f"%{n}: {t}" for n, t in args)
    return f"func.func @main({params}) -> {result} {{\n{body}\n}}"


CMP = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal, "GT": np.greater, "GE": np.greater_equal}


@pytest.mark.parametrize("elt", list(ALL))
@pytest.mark.parametrize("direction", list(CMP))
def test_compare(elt, direction):
    rng = np.random.default_rng(7)
    for shape in SHAPES:
        t, r = tensor_type(shape, elt), tensor_type(shape, "i1")
        x, y = random_array(shape, elt, rng, small=elt not in FLOATS), random_array(shape, elt, rng, small=elt not in FLOATS)
        (got,) = run(_program([("x", t), ("y", t)], r,
                              f"  %0 = hlo.compare {direction}, %x, %y : ({t}, {t}) -> {r}\n  func.return %0 : {r}"), x, y)
        np.testing.assert_array_equal(got, CMP[direction](x, y))


@pytest.mark.parametrize("elt", ["i1", "i32", "ui8", "f32", "bf16"])
def test_select_clamp_constant_iota(elt):
    rng = np.random.default_rng(1)
    for shape in SHAPES:
        t, p = tensor_type(shape, elt), tensor_type(shape, "i1")
        c, x, y = random_array(shape, "i1", rng), random_array(shape, elt, rng), random_array(shape, elt, rng)
        (got,) = run(_program([("c", p), ("x", t), ("y", t)], t,
                              f"  %0 = hlo.select %c, %x, %y : ({p}, {t}, {t}) -> {t}\n  func.return %0 : {t}"), c, x, y)
        np.testing.assert_array_equal(got, np.where(c, x, y))
        if elt != "i1":
            lo, hi = np.minimum(x, y), np.maximum(x, y)
            z = random_array(shape, elt, rng)
            (got,) = run(_program([("lo", t), ("z", t), ("hi", t)], t,
                                  f"  %0 = hlo.clamp %lo, %z, %hi : {t}\n  func.return %0 : {t}"), lo, z, hi)
            np.testing.assert_array_equal(got, np.minimum(np.maximum(z, lo), hi))
    t = tensor_type((2, 3), elt)
    if elt != "i1":
        (got,) = run(_program([], t, f"  %0 = hlo.iota dim = 1 : {t}\n  func.return %0 : {t}"))
        np.testing.assert_array_equal(got, np.broadcast_to(np.arange(3), (2, 3)).astype(ALL[elt]))
    value = "[[true, false, true], [false, false, true]]" if elt == "i1" else "[[1, 2, 3], [4, 5, 6]]"
    (got,) = run(_program([], t, f"  %0 = hlo.constant dense<{value}> : {t}\n  func.return %0 : {t}"))
    want = np.array([[1, 0, 1], [0, 0, 1]], bool) if elt == "i1" else np.arange(1, 7).reshape(2, 3).astype(ALL[elt])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("src,dst", [("i32", "f32"), ("f32", "i32"), ("f64", "bf16"), ("i1", "f16"),
                                     ("ui8", "i64"), ("f16", "ui16"), ("i64", "i1")])
def test_convert_and_is_finite(src, dst):
    rng = np.random.default_rng(2)
    for shape in SHAPES:
        a, b = tensor_type(shape, src), tensor_type(shape, dst)
        x = random_array(shape, src, rng, small=True)
        (got,) = run(_program([("x", a)], b, f"  %0 = hlo.convert %x : ({a}) -> {b}\n  func.return %0 : {b}"), x)
        if dst == "i1":
            want = x != 0
        elif src in FLOATS and dst not in FLOATS:  # truncate toward zero, saturate (XLA's choice)
            info = np.iinfo(ALL[dst])
            want = np.clip(np.trunc(x.astype(np.float64)), info.min, info.max).astype(ALL[dst])
        else:
            want = x.astype(np.float64).astype(ALL[dst]) if src in FLOATS else x.astype(ALL[dst])
        assert_same(got, want, dst)
    x = np.array([1.0, np.inf, -np.inf, np.nan, -0.0], np.float32)
    (got,) = run(_program([("x", "tensor<5xf32>")], "tensor<5xi1>",
                          "  %0 = hlo.is_finite %x : (tensor<5xf32>) -> tensor<5xi1>\n  func.return %0 : tensor<5xi1>"), x)
    np.testing.assert_array_equal(got, np.isfinite(x))


def test_bitcast_convert():
    x = np.array([1.0, -2.5, np.inf], np.float32)
    (got,) = run(_program([("x", "tensor<3xf32>")], "tensor<3xi32>",
                          "  %0 = hlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3xi32>\n"
                          "  func.return %0 : tensor<3xi32>"), x)
    np.testing.assert_array_equal(got, x.view(np.int32))
    (got,) = run(_program([("x", "tensor<3xf32>")], "tensor<3x4xui8>",
                          "  %0 = hlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3x4xui8>\n"
                          "  func.return %0 : tensor<3x4xui8>"), x)
    np.testing.assert_array_equal(got, x.view(np.uint8).reshape(3, 4))


@pytest.mark.parametrize("rows", [0, 3])
@pytest.mark.parametrize("elt", ["i8", "ui32", "f16", "f64"])
def test_data_movement(rows, elt):
    """broadcast_in_dim, reshape, transpose, slice, reverse, concatenate, pad."""
    rng = np.random.default_rng(3)
    x = random_array((rows, 4), elt, rng)
    t = tensor_type((rows, 4), elt)

    def one(body: str, result_shape, want):
        r = tensor_type(result_shape, elt)
        (got,) = run(_program([("x", t)], r, f"  %0 = {body.format(t=t, r=r)}\n  func.return %0 : {r}"), x)
        np.testing.assert_array_equal(got, want)

    one("hlo.broadcast_in_dim %x, dims = [1, 2] : ({t}) -> {r}", (2, rows, 4), np.broadcast_to(x, (2, rows, 4)))
    one("hlo.reshape %x : ({t}) -> {r}", (4, rows), x.reshape(4, rows))
    one("hlo.transpose %x, dims = [1, 0] : ({t}) -> {r}", (4, rows), x.T)
    one("hlo.slice %x [0:" + str(rows) + ", 1:4:2] : ({t}) -> {r}", (rows, 2), x[:, 1:4:2])
    one("hlo.reverse %x, dims = [0, 1] : {t}", (rows, 4), x[::-1, ::-1])
    one("hlo.concatenate %x, %x, dim = 1 : ({t}, {t}) -> {r}", (rows, 8), np.concatenate([x, x], 1))
    pad = np.zeros((rows + 1, 4 + 1 + 3), dtype=x.dtype)
    pad[1:, 1:8:2] = x
    zero = "false" if elt == "i1" else "0"
    r = tensor_type((rows + 1, 8), elt)
    s = tensor_type((), elt)
    (got,) = run(_program([("x", t)], r, f"  %z = hlo.constant dense<{zero}> : {s}\n"
                          f"  %0 = hlo.pad %x, %z, low = [1, 1], high = [0, 0], interior = [0, 1] : ({t}, {s}) -> {r}\n"
                          f"  func.return %0 : {r}"), x)
    np.testing.assert_array_equal(got, pad)


def test_dynamic_slice_and_update_clamp_start_indices():
    x = np.arange(20, dtype=np.int32).reshape(4, 5)
    u = np.full((2, 2), -1, np.int32)
    for i, j in [(0, 0), (1, 2), (3, 9), (-4, -1)]:
        ci, cj = min(max(i, 0), 2), min(max(j, 0), 3)
        body = (f"  %i = hlo.constant dense<{i}> : tensor<i64>\n  %j = hlo.constant dense<{j}> : tensor<i64>\n"
                )
        (got,) = run(_program([("x", "tensor<4x5xi32>")], "tensor<2x2xi32>", body +
                              "  %0 = hlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<4x5xi32>, tensor<i64>, "
                              "tensor<i64>) -> tensor<2x2xi32>\n  func.return %0 : tensor<2x2xi32>"), x)
        np.testing.assert_array_equal(got, x[ci:ci + 2, cj:cj + 2])
        (got,) = run(_program([("x", "tensor<4x5xi32>"), ("u", "tensor<2x2xi32>")], "tensor<4x5xi32>", body +
                              "  %0 = hlo.dynamic_update_slice %x, %u, %i, %j : (tensor<4x5xi32>, tensor<2x2xi32>, "
                              "tensor<i64>, tensor<i64>) -> tensor<4x5xi32>\n  func.return %0 : tensor<4x5xi32>"), x, u)
        want = x.copy()
        want[ci:ci + 2, cj:cj + 2] = u
        np.testing.assert_array_equal(got, want)


def test_gather_and_scatter_against_numpy_indexing():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((5, 3)).astype(np.float32)
    idx = np.array([[4], [0], [2], [2]], np.int32)
    (got,) = run(_program([("x", "tensor<5x3xf32>"), ("i", "tensor<4x1xi32>")], "tensor<4x3xf32>",
                          '  %0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], '
                          'collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, '
                          'slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>\n'
                          "  func.return %0 : tensor<4x3xf32>"), x, idx)
    np.testing.assert_array_equal(got, x[idx[:, 0]])
    u = rng.standard_normal((4, 3)).astype(np.float32)
    (got,) = run(_program([("x", "tensor<5x3xf32>"), ("i", "tensor<4x1xi32>"), ("u", "tensor<4x3xf32>")],
                          "tensor<5x3xf32>",
                          '  %0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<'
                          'update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], '
                          'index_vector_dim = 1>}> ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n'
                          '    %s = hlo.add %a, %b : tensor<f32>\n    hlo.return %s : tensor<f32>\n'
                          '  }) : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>\n'
                          "  func.return %0 : tensor<5x3xf32>"), x, idx, u)
    want = x.copy()
    np.add.at(want, idx[:, 0], u)
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("k", [0, 4])
@pytest.mark.parametrize("elt", ["i32", "f32", "f64"])
def test_dot_general_and_convolution(k, elt):
    rng = np.random.default_rng(5)
    a, b = random_array((2, 3, k), elt, rng, small=True), random_array((2, k, 5), elt, rng, small=True)
    ta, tb, tr = tensor_type((2, 3, k), elt), tensor_type((2, k, 5), elt), tensor_type((2, 3, 5), elt)
    (got,) = run(_program([("a", ta), ("b", tb)], tr,
                          f"  %0 = hlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : "
                          f"({ta}, {tb}) -> {tr}\n  func.return %0 : {tr}"), a, b)
    want = np.matmul(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype)  # accumulate wide, round once
    assert_same(got, want, elt, 1e-12 if elt == "f64" else 1e-6)
    # a 1-d valid convolution (cross-correlation), NWC layout
    x, w = random_array((1, 7, 1), elt, rng, small=True), random_array((3, 1, 1), elt, rng, small=True)
    tx, tw, to = tensor_type((1, 7, 1), elt), tensor_type((3, 1, 1), elt), tensor_type((1, 5, 1), elt)
    (got,) = run(_program([("x", tx), ("w", tw)], to,
                          f"  %0 = hlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], "
                          "window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
                          f"({tx}, {tw}) -> {to}\n  func.return %0 : {to}"), x, w)
    want = np.correlate(x[0, :, 0].astype(np.float64), w[:, 0, 0].astype(np.float64), "valid")
    assert_same(got, want.reshape(1, 5, 1).astype(x.dtype), elt, 1e-6)


@pytest.mark.parametrize("rows", [0, 1, 4])
@pytest.mark.parametrize("elt", ["i64", "ui16", "f32", "bf16"])
def test_reductions(rows, elt):
    rng = np.random.default_rng(6)
    x = random_array((rows, 6), elt, rng, small=True)
    t, s, r = tensor_type((rows, 6), elt), tensor_type((), elt), tensor_type((6,), elt)
    for combiner, init, ref in (("add", "0", np.sum), ("maximum", "-inf" if elt in FLOATS else "0", np.max)):
        init_text = "0xFF80" if elt == "bf16" and init == "-inf" else "0xFF800000" if init == "-inf" else init
        (got,) = run(_program([("x", t)], r, f"  %z = hlo.constant dense<{init_text}> : {s}\n"
                              f"  %0 = hlo.reduce(%x init: %z) applies hlo.{combiner} across dimensions = [0] : "
                              f"({t}, {s}) -> {r}\n  func.return %0 : {r}"), x)
        if ref is np.max:
            want = np.max(np.concatenate([x, np.full((1, 6), -np.inf if elt in FLOATS else 0, x.dtype)]), 0)
        else:
            want = np.sum(x.astype(np.float64), 0).astype(x.dtype) if elt in FLOATS else np.sum(x, 0, dtype=x.dtype)
        assert_same(got, want.astype(x.dtype), elt, 1e-2 if elt == "bf16" else 1e-6)
    # 2x2 windowed sum with stride 2 (sum pooling)
    if rows == 4:
        p = tensor_type((2, 3), elt)
        (got,) = run(_program([("x", t)], p, f"  %z = hlo.constant dense<0> : {s}\n"
                              f'  %0 = "hlo.reduce_window"(%x, %z) <{{window_dimensions = array<i64: 2, 2>, '
                              f'window_strides = array<i64: 2, 2>}}> ({{\n  ^bb0(%a: {s}, %b: {s}):\n'
                              f"    %c = hlo.add %a, %b : {s}\n    hlo.return %c : {s}\n"
                              f"  }}) : ({t}, {s}) -> {p}\n  func.return %0 : {p}"), x)
        want = x.astype(np.float64).reshape(2, 2, 3, 2).sum((1, 3)).astype(x.dtype)
        assert_same(got, want, elt, 1e-2 if elt == "bf16" else 1e-6)


def test_select_and_scatter_is_the_max_pool_gradient():
    x = np.array([[1, 5, 2, 0], [3, 4, 8, 1]], np.float32)
    src = np.array([[10, 20]], np.float32)
    (got,) = run(_program([("x", "tensor<2x4xf32>"), ("s", "tensor<1x2xf32>")], "tensor<2x4xf32>",
                          "  %z = hlo.constant dense<0.0> : tensor<f32>\n"
                          '  %0 = "hlo.select_and_scatter"(%x, %s, %z) <{window_dimensions = array<i64: 2, 2>, '
                          "window_strides = array<i64: 2, 2>}> ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                          "    %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                          "    hlo.return %c : tensor<i1>\n  }, {\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                          "    %c = hlo.add %a, %b : tensor<f32>\n    hlo.return %c : tensor<f32>\n"
                          "  }) : (tensor<2x4xf32>, tensor<1x2xf32>, tensor<f32>) -> tensor<2x4xf32>\n"
                          "  func.return %0 : tensor<2x4xf32>"), x, src)
    want = np.zeros_like(x)
    want[0, 1], want[1, 2] = 10, 20
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", [0, 1, 9])
def test_sort_is_stable_argsort(n):
    rng = np.random.default_rng(8)
    keys = rng.integers(0, 3, (2, n)).astype(np.int32)
    vals = np.broadcast_to(np.arange(n, dtype=np.float32), (2, n)).copy()
    t, u = f"tensor<2x{n}xi32>", f"tensor<2x{n}xf32>"
    got = run(_program([("k", t), ("v", u)], f"({t}, {u})",
                       f'  %0:2 = "hlo.sort"(%k, %v) <{{dimension = 1 : i64, is_stable = true}}> ({{\n'
                       "  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):\n"
                       "    %p = hlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                       f"    hlo.return %p : tensor<i1>\n  }}) : ({t}, {u}) -> ({t}, {u})\n"
                       f"  func.return %0#0, %0#1 : {t}, {u}"), keys, vals)
    order = np.argsort(keys, axis=1, kind="stable")
    np.testing.assert_array_equal(got[0], np.take_along_axis(keys, order, 1))
    np.testing.assert_array_equal(got[1], np.take_along_axis(vals, order, 1))


def test_control_flow_and_identities():
    # while: sum of 0..9; if/case: branch selection; barrier and all_reduce are identities
    (got,) = run(_program([], "tensor<i64>",
                          "  %i0 = hlo.constant dense<0> : tensor<i64>\n  %one = hlo.constant dense<1> : tensor<i64>\n"
                          "  %ten = hlo.constant dense<10> : tensor<i64>\n"
                          "  %r:2 = hlo.while(%i = %i0, %s = %i0) : tensor<i64>, tensor<i64> cond {\n"
                          "    %c = hlo.compare LT, %i, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
                          "    hlo.return %c : tensor<i1>\n  } do {\n    %s2 = hlo.add %s, %i : tensor<i64>\n"
                          "    %i2 = hlo.add %i, %one : tensor<i64>\n    hlo.return %i2, %s2 : tensor<i64>, tensor<i64>\n"
                          "  }\n  func.return %r#1 : tensor<i64>"))
    assert got == sum(range(10))
    for pred in (True, False):
        (got,) = run(_program([("p", "tensor<i1>"), ("x", "tensor<3xf32>")], "tensor<3xf32>",
                              '  %0 = "hlo.if"(%p) ({\n    %a = hlo.negate %x : tensor<3xf32>\n'
                              "    hlo.return %a : tensor<3xf32>\n  }, {\n    hlo.return %x : tensor<3xf32>\n"
                              "  }) : (tensor<i1>) -> tensor<3xf32>\n  func.return %0 : tensor<3xf32>"),
                     np.bool_(pred), np.arange(3, dtype=np.float32))
        np.testing.assert_array_equal(got, -np.arange(3) if pred else np.arange(3))
    for index, want in ((0, 10), (1, 20), (5, 20), (-1, 20)):
        (got,) = run(_program([("i", "tensor<i32>")], "tensor<i32>",
                              '  %0 = "hlo.case"(%i) ({\n    %a = hlo.constant dense<10> : tensor<i32>\n'
                              "    hlo.return %a : tensor<i32>\n  }, {\n    %b = hlo.constant dense<20> : tensor<i32>\n"
                              "    hlo.return %b : tensor<i32>\n  }) : (tensor<i32>) -> tensor<i32>\n"
                              "  func.return %0 : tensor<i32>"), np.int32(index))
        assert got == want
    x = np.arange(4, dtype=np.float32)
    got = run(_program([("x", "tensor<4xf32>")], "(tensor<4xf32>, tensor<4xf32>)",
                       "  %0 = hlo.optimization_barrier %x : tensor<4xf32>\n"
                       '  %1 = "hlo.all_reduce"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({\n'
                       "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n    %c = hlo.add %a, %b : tensor<f32>\n"
                       "    hlo.return %c : tensor<f32>\n  }) : (tensor<4xf32>) -> tensor<4xf32>\n"
                       "  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>"), x)
    np.testing.assert_array_equal(got[0], x)
    np.testing.assert_array_equal(got[1], x)


def test_rng_bit_generator_shapes_determinism_and_state():
    state = np.array([1, 2], np.uint64)
    text = _program([("s", "tensor<2xui64>")], "(tensor<2xui64>, tensor<3x4xui32>)",
                    "  %0:2 = hlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> "
                    "(tensor<2xui64>, tensor<3x4xui32>)\n  func.return %0#0, %0#1 : tensor<2xui64>, tensor<3x4xui32>")
    s1, out1 = run(text, state)
    s2, out2 = run(text, state)
    np.testing.assert_array_equal(out1, out2)
    assert out1.dtype == np.uint32 and out1.shape == (3, 4) and not np.array_equal(s1, state)
    assert len(np.unique(out1)) > 6  # bits, not a constant
    _, out3 = run(text, s1)
    assert not np.array_equal(out1, out3)


def _dft(x: np.ndarray, axis: int, inverse: bool) -> np.ndarray:
    """The DFT along one axis as a matrix product in float64 (independent of numpy.fft)."""
    n = x.shape[axis]
    k = np.arange(n)
    w = np.exp((2j if inverse else -2j) * np.pi * np.outer(k, k) / n) / (n if inverse else 1)
    return np.moveaxis(np.tensordot(w, np.moveaxis(x, axis, 0), axes=1), 0, axis)


def _dft_reference(x: np.ndarray, kind: str, length: list[int]) -> np.ndarray:
    """StableHLO's definition: 1-d transforms along the trailing axes (RFFT/IRFFT: last axis real)."""
    axes = list(range(x.ndim - len(length), x.ndim))
    y = x.astype(np.complex128)
    if kind in ("FFT", "RFFT"):
        for a in reversed(axes):
            y = _dft(y, a, False)
        return y[..., :length[-1] // 2 + 1] if kind == "RFFT" else y
    for a in axes[:-1] if kind == "IRFFT" else axes:
        y = _dft(y, a, True)
    if kind == "IRFFT":  # the last axis: rebuild its Hermitian half, invert, keep the real part
        n, h = length[-1], x.shape[-1]
        full = np.zeros(x.shape[:-1] + (n,), np.complex128)
        full[..., :h] = y
        full[..., h:] = np.conj(y[..., 1:n - h + 1][..., ::-1])
        y = _dft(full, x.ndim - 1, True).real
    return y


@pytest.mark.parametrize("fty", ["f32", "f64"])
@pytest.mark.parametrize("kind,shape,length", [
    ("FFT", (3, 8), [8]), ("FFT", (2, 3, 5), [3, 5]), ("IFFT", (2, 2, 3, 4), [2, 3, 4]), ("IFFT", (7,), [7]),
    ("RFFT", (2, 6), [6]), ("RFFT", (3, 5), [3, 5]), ("IRFFT", (2, 4), [6]), ("IRFFT", (3, 4), [3, 7]),
    ("FFT", (0, 4), [4]), ("RFFT", (2, 0), [0]), ("FFT", (1,), [1])])
def test_fft_against_a_dft_matrix(fty, kind, shape, length):
    rng = np.random.default_rng(11)
    real = np.dtype(FLOATS[fty])
    cplx = np.dtype(np.complex64 if fty == "f32" else np.complex128)
    x = rng.standard_normal(shape).astype(real)
    if kind != "RFFT":
        x = (x + 1j * rng.standard_normal(shape)).astype(cplx)
    out_shape = list(shape)
    if kind == "RFFT":
        out_shape[-1] = length[-1] // 2 + 1 if length[-1] else 0
    if kind == "IRFFT":
        out_shape[-1] = length[-1]
    out_elt = fty if kind == "IRFFT" else f"complex<{fty}>"
    in_t, out_t = tensor_type(shape, fty if kind == "RFFT" else f"complex<{fty}>"), tensor_type(out_shape, out_elt)
    (got,) = run(_program([("x", in_t)], out_t,
                          f"  %0 = hlo.fft %x, type = {kind}, length = {length} : ({in_t}) -> {out_t}\n"
                          f"  func.return %0 : {out_t}"), x)
    assert got.dtype == (real if kind == "IRFFT" else cplx) and got.shape == tuple(out_shape)
    want = _dft_reference(x, kind, length) if 0 not in shape else np.zeros(out_shape)
    np.testing.assert_allclose(got, want, rtol=1e-4 if fty == "f32" else 1e-11, atol=1e-4 if fty == "f32" else 1e-11)


def test_every_op_has_an_interpreter_test_here():
    """Each hlo op's mnemonic appears in the programs of this folder's tests (return and fusion are
    structural; the collectives run on a process grid in test_collectives.py, the structural, dynamic
    and quantization ops are in test_structural_ops.py, cholesky and triangular_solve in test_linalg.py)."""
    text = "".join(p.read_text() for p in sorted(Path(__file__).parent.glob("test_*.py")))
    missing = [m for m in hlo.OPS if m not in ("return", "fusion") and m not in UNARY_REFS and m not in BINARY_REFS
               and f"hlo.{m}" not in text]
    assert not missing, missing


def test_reduce_precision_matches_ml_dtypes_formats():
    """e5m10 of f32 is float16 rounding (normal range and overflow to inf), e8m7 is
    bfloat16 rounding (subnormals too: same exponent width); NaN stays NaN, and
    becomes inf with no mantissa bit (StableHLO's reduce_precision test)."""
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.standard_normal(500) * 1000, 2.0 ** rng.uniform(-14, 17, 500) * rng.choice([-1, 1], 500),
                        [65504.0, 65519.0, 65520.0, -70000.0, 1.5e-38, 3e-40, np.inf]]).astype(np.float32)
    prog = ("func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n"
            "  %0 = hlo.reduce_precision %x, format = e{e}m{m} : tensor<{n}xf32>\n  func.return %0 : tensor<{n}xf32>\n}}")
    half = x[(np.abs(x) >= 2.0 ** -14) | ~np.isfinite(x)]
    (got,) = run(prog.format(n=half.size, e=5, m=10), half)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got, half.astype(np.float16).astype(np.float32))
    (got,) = run(prog.format(n=x.size, e=8, m=7), x)
    np.testing.assert_array_equal(got.view(np.uint32), x.astype(BF16).astype(np.float32).view(np.uint32))
    nan = np.array([np.nan, -np.nan, 1.0], np.float32)
    (got,) = run(prog.format(n=3, e=5, m=0), nan)
    np.testing.assert_array_equal(got, np.array([np.inf, -np.inf, 1.0], np.float32))
    (got,) = run(prog.format(n=3, e=5, m=2), nan)
    assert np.isnan(got[:2]).all() and got[2] == 1.0
