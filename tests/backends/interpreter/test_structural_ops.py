"""tuple/get_tuple_element, map, composite, get_dimension_size, the dynamic-shape ops (shapes
given at run time, `?` result dimensions), uniform_quantize/uniform_dequantize and
interpreter.probe/check.expect_serialized_eq on the reference interpreter, each against
numpy written from the spec's formulas; and the CPU backend's located error for a shape
that stays dynamic."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.backends.interpreter import CheckFailure, run_function
from minixla.dialects import load_all
from minixla.dialects.diagnostics import DiagnosticError, parse_and_verify

CTX = load_all()
rng = np.random.default_rng(7)


def run(text: str, *args, entry: str = "main"):
    return run_function(parse_and_verify(text, "<test>", CTX), entry, [np.asarray(a) for a in args])


def test_tuple_and_get_tuple_element_nested():
    a, b = rng.normal(size=(2, 3)).astype(np.float32), np.arange(4, dtype=np.int8)
    text = """func.func @main(%a: tensor<2x3xf32>, %b: tensor<4xi8>) -> (tensor<4xi8>, tensor<2x3xf32>) {
  %i = hlo.tuple %b, %a : tuple<tensor<4xi8>, tensor<2x3xf32>>
  %t = hlo.tuple %a, %i : tuple<tensor<2x3xf32>, tuple<tensor<4xi8>, tensor<2x3xf32>>>
  %x = hlo.get_tuple_element %t[1] : (tuple<tensor<2x3xf32>, tuple<tensor<4xi8>, tensor<2x3xf32>>>) -> tuple<tensor<4xi8>, tensor<2x3xf32>>
  %r0 = hlo.get_tuple_element %x[0] : (tuple<tensor<4xi8>, tensor<2x3xf32>>) -> tensor<4xi8>
  %r1 = hlo.get_tuple_element %x[1] : (tuple<tensor<4xi8>, tensor<2x3xf32>>) -> tensor<2x3xf32>
  func.return %r0, %r1 : tensor<4xi8>, tensor<2x3xf32>
}"""
    r0, r1 = run(text, a, b)
    np.testing.assert_array_equal(r0, b)
    np.testing.assert_array_equal(r1, a)


def test_map_applies_the_scalar_body_elementwise():
    x, y = rng.normal(size=(3, 4)).astype(np.float32), rng.normal(size=(3, 4)).astype(np.float32)
    text = """func.func @main(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = "hlo.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.constant dense<2.0> : tensor<f32>
    %m = hlo.multiply %a, %b : tensor<f32>
    %s = hlo.maximum %m, %c : tensor<f32>
    hlo.return %s : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}"""
    np.testing.assert_array_equal(run(text, x, y)[0], np.maximum(x * y, np.float32(2)))


def test_composite_calls_its_decomposition():
    x = rng.integers(-50, 50, (5,)).astype(np.int32)
    text = """func.func private @sq_plus(%x: tensor<5xi32>) -> tensor<5xi32> {
  %m = hlo.multiply %x, %x : tensor<5xi32>
  %r = hlo.add %m, %x : tensor<5xi32>
  func.return %r : tensor<5xi32>
}
func.func @main(%x: tensor<5xi32>) -> tensor<5xi32> {
  %r = hlo.composite "my.sq_plus" %x {decomposition = @sq_plus, version = 1 : i32} : (tensor<5xi32>) -> tensor<5xi32>
  func.return %r : tensor<5xi32>
}"""
    np.testing.assert_array_equal(run(text, x)[0], x * x + x)


def test_dynamic_shapes_come_from_operands_at_run_time():
    text = """func.func @main(%x: tensor<?x3xf32>, %s: tensor<2xi64>, %b: tensor<3xi32>) -> (tensor<i32>, tensor<?x?xi32>, tensor<?x?xf32>, tensor<?x?x?xf32>) {
  %n = hlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %i = hlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<?x?xi32>
  %r = hlo.dynamic_reshape %x, %s : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %bc = hlo.dynamic_broadcast_in_dim %x, %b, dims = [0, 2] : (tensor<?x3xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  func.return %n, %i, %r, %bc : tensor<i32>, tensor<?x?xi32>, tensor<?x?xf32>, tensor<?x?x?xf32>
}"""
    module = parse_and_verify(text, "<test>", CTX)
    for rows in (2, 4):
        x = rng.normal(size=(rows, 3)).astype(np.float32)
        shape = (3, rows) if rows != 4 else (6, 2)
        n, i, r, bc = run_function(module, "main", [x, np.array(shape, np.int64), np.array([rows, 5, 3], np.int32)])
        assert n == rows and n.dtype == np.int32
        np.testing.assert_array_equal(i, np.broadcast_to(np.arange(shape[1], dtype=np.int32), shape))
        np.testing.assert_array_equal(r, x.reshape(shape))
        np.testing.assert_array_equal(bc, np.broadcast_to(x[:, None, :], (rows, 5, 3)))


def _pad_reference(x, value, low, high, interior):
    """Interior padding, then edges (negative edges crop), from the spec's definition."""
    dil = [(n - 1) * (i + 1) + 1 if n else 0 for n, i in zip(x.shape, interior)]
    out = np.full(dil, value, x.dtype)
    out[tuple(slice(None, None, i + 1) for i in interior)] = x
    for d, (lo, hi) in enumerate(zip(low, high)):
        out = np.moveaxis(out, d, 0)
        out = np.concatenate([np.full((max(lo, 0), *out.shape[1:]), value, x.dtype), out[max(-lo, 0):],
                              np.full((max(hi, 0), *out.shape[1:]), value, x.dtype)])
        out = out[:len(out) + min(hi, 0)] if hi < 0 else out
        out = np.moveaxis(out, 0, d)
    return out


def test_dynamic_pad_gather_conv_against_numpy():
    text = """func.func @main(%x: tensor<4x5xi32>, %v: tensor<i32>, %lo: tensor<2xi64>, %hi: tensor<2xi64>, %in: tensor<2xi64>, %idx: tensor<3x1xi32>, %ss: tensor<2xi32>) -> (tensor<?x?xi32>, tensor<3x?xi32>) {
  %p = hlo.dynamic_pad %x, %v, %lo, %hi, %in : (tensor<4x5xi32>, tensor<i32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xi32>
  %g = "hlo.dynamic_gather"(%x, %idx, %ss) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<4x5xi32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x?xi32>
  func.return %p, %g : tensor<?x?xi32>, tensor<3x?xi32>
}"""
    module = parse_and_verify(text, "<test>", CTX)
    x = rng.integers(-9, 9, (4, 5)).astype(np.int32)
    for lo, hi, inner, k in (([1, -1], [0, 2], [1, 0], 3), ([0, 2], [-2, 0], [0, 2], 5)):
        idx = np.array([[0], [3], [9]], np.int32)  # 9: clamped to the last valid start
        p, g = run_function(module, "main", [x, np.int32(-7), np.array(lo), np.array(hi), np.array(inner), idx,
                                             np.array([1, k], np.int32)])
        np.testing.assert_array_equal(p, _pad_reference(x, -7, lo, hi, inner))
        np.testing.assert_array_equal(g, np.stack([x[0, :k], x[3, :k], x[3, :k]]))

    conv = """func.func @main(%l: tensor<1x6x1xf64>, %k: tensor<3x1x1xf64>, %p: tensor<1x2xi64>) -> tensor<1x?x1xf64> {
  %r = "hlo.dynamic_conv"(%l, %k, %p) <{dimension_numbers = #hlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x6x1xf64>, tensor<3x1x1xf64>, tensor<1x2xi64>) -> tensor<1x?x1xf64>
  func.return %r : tensor<1x?x1xf64>
}"""
    lhs, ker = rng.normal(size=(1, 6, 1)), rng.normal(size=(3, 1, 1))
    for lo, hi in ((0, 0), (2, 1)):
        padded = np.concatenate([np.zeros(lo), lhs[0, :, 0], np.zeros(hi)])
        want = np.correlate(padded, ker[:, 0, 0], mode="valid")
        got = run(conv, lhs, ker, np.array([[lo, hi]]))[0]
        np.testing.assert_allclose(got[0, :, 0], want, rtol=1e-12)


def test_dynamic_shape_that_disagrees_with_the_result_type_is_an_error():
    text = """func.func @main(%s: tensor<1xi64>) -> tensor<3xi32> {
  %i = hlo.dynamic_iota %s, dim = 0 : (tensor<1xi64>) -> tensor<3xi32>
  func.return %i : tensor<3xi32>
}"""
    np.testing.assert_array_equal(run(text, np.array([3]))[0], [0, 1, 2])
    with pytest.raises(Exception, match="disagrees with the result type"):
        run(text, np.array([4]))


QUANT = {"per-tensor": "!quant.uniform<i8:f32, 0.25:-3>", "per-axis": "!quant.uniform<i8:f32:1, {0.5:2,0.1:-100,2.0}>"}


def _quantize_reference(x, scales, zps, lo=-128, hi=127):
    return np.round(np.clip(x / scales + zps, lo, hi)).astype(np.int8)


@pytest.mark.parametrize("kind", sorted(QUANT))
def test_uniform_quantize_dequantize_against_formula(kind):
    q = QUANT[kind]
    scales, zps = ((np.float32(0.25), np.float32(-3)) if kind == "per-tensor" else
                   (np.array([0.5, 0.1, 2.0], np.float32), np.array([2, -100, 0], np.float32)))
    text = f"""func.func @main(%x: tensor<4x3xf32>) -> (tensor<4x3xi8>, tensor<4x3xf32>) {{
  %q = hlo.uniform_quantize %x : (tensor<4x3xf32>) -> tensor<4x3x{q}>
  %s = hlo.bitcast_convert %q : (tensor<4x3x{q}>) -> tensor<4x3xi8>
  %d = hlo.uniform_dequantize %q : (tensor<4x3x{q}>) -> tensor<4x3xf32>
  func.return %s, %d : tensor<4x3xi8>, tensor<4x3xf32>
}}"""
    x = (rng.normal(size=(4, 3)) * 30).astype(np.float32)
    x[0, 0], x[1, 1] = 1000.0, 0.125  # saturates; a tie rounds to even under scale 0.25
    stored, back = run(text, x)
    want = _quantize_reference(x, scales, zps)
    np.testing.assert_array_equal(stored, want)
    np.testing.assert_allclose(back, (want.astype(np.float32) - zps) * scales, rtol=1e-6)


def test_requantize_and_storage_range():
    src, dst = "!quant.uniform<i8:f32, 0.5:-20>", "!quant.uniform<i8<-10:10>:f32, 0.25>"
    text = f"""func.func @main(%s: tensor<4xi8>) -> tensor<4xi8> {{
  %q = hlo.bitcast_convert %s : (tensor<4xi8>) -> tensor<4x{src}>
  %r = hlo.uniform_quantize %q : (tensor<4x{src}>) -> tensor<4x{dst}>
  %o = hlo.bitcast_convert %r : (tensor<4x{dst}>) -> tensor<4xi8>
  func.return %o : tensor<4xi8>
}}"""
    stored = np.array([-20, -19, -16, 0], np.int8)
    real = (stored.astype(np.float32) + 20) * 0.5
    np.testing.assert_array_equal(run(text, stored)[0], _quantize_reference(real, 0.25, 0, -10, 10))


def test_quantized_elementwise_ops_dequantize_compute_quantize():
    a, b, r = ("!quant.uniform<i8:f32, 0.1:-30>", "!quant.uniform<i8:f32, 0.5:-20>",
               "!quant.uniform<i8:f32:0, {0.5:-20,0.25:4}>")
    text = f"""func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xi8>, tensor<2xi8>) {{
  %qa = hlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x{a}>
  %qb = hlo.uniform_quantize %y : (tensor<2xf32>) -> tensor<2x{b}>
  %s = hlo.add %qa, %qb : (tensor<2x{a}>, tensor<2x{b}>) -> tensor<2x{r}>
  %n = hlo.negate %qb : (tensor<2x{b}>) -> tensor<2x{b}>
  %o = hlo.bitcast_convert %s : (tensor<2x{r}>) -> tensor<2xi8>
  %m = hlo.bitcast_convert %n : (tensor<2x{b}>) -> tensor<2xi8>
  func.return %o, %m : tensor<2xi8>, tensor<2xi8>
}}"""
    x, y = np.array([1.0, 2.0], np.float32), np.array([3.0, -4.0], np.float32)
    got, neg = run(text, x, y)
    qa = (_quantize_reference(x, 0.1, -30).astype(np.float32) + 30) * np.float32(0.1)
    qb = (_quantize_reference(y, 0.5, -20).astype(np.float32) + 20) * np.float32(0.5)
    np.testing.assert_array_equal(got, _quantize_reference(qa + qb, np.array([0.5, 0.25], np.float32),
                                                           np.array([-20, 4], np.float32)))
    np.testing.assert_array_equal(neg, _quantize_reference(-qb, 0.5, -20))


PROBE = """func.func @main() {
  %zero = hlo.constant dense<0> : tensor<i64>
  %one = hlo.constant dense<1> : tensor<i64>
  %three = hlo.constant dense<3> : tensor<i64>
  %r:2 = hlo.while(%i = %zero, %s = %zero) : tensor<i64>, tensor<i64>
  cond {
    %c = hlo.compare LT, %i, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %sq = hlo.multiply %i, %i : tensor<i64>
    %p = interpreter.probe %sq, probe_id = "squares" : tensor<i64>
    %i1 = hlo.add %i, %one : tensor<i64>
    hlo.return %i1, %p : tensor<i64>, tensor<i64>
  }
  %four = hlo.constant dense<4> : tensor<i64>
  check.expect_serialized_eq %four, probe_id = "squares", iter = ITER : tensor<i64>
  func.return
}"""


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_probe_records_every_iteration(backend):
    """The interpreter records each execution; compiled backends carry the probed iteration out of
    the loop (backends/probe_loops.py), so both judge the same checks."""
    from minixla.backends import get_backend
    from minixla.backends.check_outlining import run_case

    def case(iteration: int) -> None:
        run_case(get_backend(backend), parse_and_verify(PROBE.replace("ITER", str(iteration)), "<t>", CTX), "main")

    case(2)
    with pytest.raises(CheckFailure, match="differ from probe 'squares' \\(iter 1\\)"):
        case(1)
    with pytest.raises(CheckFailure, match="recorded 3 values, no iteration 3"):
        case(3)


def test_cpu_rejects_a_shape_that_stays_dynamic_with_a_location():
    from minixla.backends.cpu.backend import CpuBackend

    text = """func.func @main(%s: tensor<1xi64>) -> tensor<3xi32> {
  %i = hlo.dynamic_iota %s, dim = 0 : (tensor<1xi64>) -> tensor<3xi32>
  func.return %i : tensor<3xi32>
}"""
    with pytest.raises(DiagnosticError, match=r"prog\.mlir:2:8: .*'hlo\.dynamic_iota' op output_shape is not a "
                                              r"constant, so the shape stays dynamic"):
        CpuBackend().compile(parse_and_verify(text, "prog.mlir", CTX))


def test_cpu_evaluates_shape_arithmetic_on_constants():
    """A shape computed from dimension sizes and constants (JAX's shape-polymorphic pattern) is
    evaluated at compile time; the CPU result equals numpy's reshape."""
    from minixla.backends.cpu.backend import CpuBackend

    text = """func.func @main(%x: tensor<4x6xf32>) -> tensor<8x3xf32> {
  %d0 = hlo.get_dimension_size %x, dim = 0 : (tensor<4x6xf32>) -> tensor<i32>
  %two = hlo.constant dense<2> : tensor<i32>
  %a = hlo.multiply %d0, %two : tensor<i32>
  %ra = hlo.reshape %a : (tensor<i32>) -> tensor<1xi32>
  %rb = hlo.constant dense<3> : tensor<1xi32>
  %s = hlo.concatenate %ra, %rb, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = hlo.dynamic_reshape %x, %s : (tensor<4x6xf32>, tensor<2xi32>) -> tensor<8x3xf32>
  func.return %r : tensor<8x3xf32>
}"""
    x = rng.normal(size=(4, 6)).astype(np.float32)
    np.testing.assert_array_equal(CpuBackend().compile(parse_and_verify(text, "<t>", CTX))(x)[0], x.reshape(8, 3))
