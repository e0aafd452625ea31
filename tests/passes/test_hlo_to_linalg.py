"""Numerical tests of convert-hlo-to-linalg (+ bufferize + lower-linalg-to-loops):
each small hlo program is lowered to loops, evaluated with the numpy loop
evaluator and compared with the hlo interpreter on random inputs."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.dialects import load_all
from minixla.passes.pipelines import PASSES

from tests.passes.loop_ir_eval import LoopEvaluator

STAGES = ["convert-hlo-to-linalg", "bufferize", "lower-linalg-to-loops"]


def lower(text: str, stages=STAGES):
    ctx = load_all()
    m = Parser(ctx, text).parse_module()
    for p in stages:
        PASSES[p]().apply(ctx, m)
        m.verify()
    return m


def reference(text: str, args):
    from minixla.backends.registry import get_backend

    return get_backend("interpreter").compile(Parser(load_all(), text).parse_module())(*args)


def check(text: str, *args, rtol=1e-5):
    ref = reference(text, [a.copy() for a in args])
    out = LoopEvaluator(lower(text)).run("main", *args)
    assert len(ref) == len(out)
    for r, o in zip(ref, out):
        r = np.asarray(r)
        o = o.view(r.dtype) if o.dtype.itemsize == r.dtype.itemsize and o.dtype != r.dtype and r.dtype != bool else o
        assert r.shape == o.shape
        if np.issubdtype(r.dtype, np.floating) or r.dtype.kind == "V" or str(r.dtype) == "bfloat16":
            np.testing.assert_allclose(o.astype(np.float64), r.astype(np.float64), rtol=rtol, atol=1e-6,
                                       equal_nan=True)
        else:
            np.testing.assert_array_equal(o.astype(r.dtype), r)


rng = np.random.default_rng(0)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def i32(*shape, lo=-20, hi=20):
    return rng.integers(lo, hi, shape).astype(np.int32)


def fn(sig: str, body: str) -> str:
    return f"func.func @main({sig} {{\n{body}\n}}"


RUNNING = fn("%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32>", """
  %0 = hlo.multiply %x, %x : tensor<4x8xf32>
  %c3 = hlo.constant dense<3.0> : tensor<f32>
  %b = hlo.broadcast_in_dim %c3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %1 = hlo.multiply %0, %b : tensor<4x8xf32>
  %2 = hlo.add %1, %y : tensor<4x8xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %3 = hlo.reduce(%2 init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %n = hlo.constant dense<8.0> : tensor<4xf32>
  %4 = hlo.divide %3, %n : tensor<4xf32>
  return %4 : tensor<4xf32>""")


def test_running_example():
    check(RUNNING, f32(4, 8), f32(4, 8))


FLOAT_UNARY = ["abs", "negate", "exponential", "exponential_minus_one", "log", "log_plus_one", "sqrt", "rsqrt",
               "tanh", "logistic", "sine", "cosine", "floor", "ceil", "round_nearest_even", "sign"]


@pytest.mark.parametrize("op", FLOAT_UNARY)
def test_float_unary(op):
    x = f32(5) * 3
    x[0] = 0.0
    x[1] = np.nan
    check(fn("%x: tensor<5xf32>) -> tensor<5xf32>", f"%r = hlo.{op} %x : tensor<5xf32>\n return %r : tensor<5xf32>"),
          x)


FLOAT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2"]


@pytest.mark.parametrize("op", FLOAT_BINARY)
def test_float_binary(op):
    x, y = f32(6) * 3, f32(6) * 3
    x[0], y[1] = np.nan, np.nan
    check(fn("%x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<6xf32>",
             f"%r = hlo.{op} %x, %y : tensor<6xf32>\n return %r : tensor<6xf32>"), x, y)


INT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "and", "or", "xor",
              "shift_left", "shift_right_logical", "shift_right_arithmetic"]


@pytest.mark.parametrize("ty", ["i32", "ui32", "i8"])
@pytest.mark.parametrize("op", INT_BINARY)
def test_int_binary(op, ty):
    dt = {"i32": np.int32, "ui32": np.uint32, "i8": np.int8}[ty]
    info = np.iinfo(dt)
    x = np.array([7, -7, 0, 5, info.min, 3, 100, -1], dtype=np.int64).astype(dt)
    y = np.array([2, 2, 0, 0, -1, 40, 3, 9], dtype=np.int64).astype(dt)
    if op == "power":
        y = np.array([2, 3, 0, -1, 1, 5, 0, -2], dtype=np.int64).astype(dt)
    t = f"tensor<8x{ty}>"
    check(fn(f"%x: {t}, %y: {t}) -> {t}", f"%r = hlo.{op} %x, %y : {t}\n return %r : {t}"), x, y)


@pytest.mark.parametrize("op", ["abs", "negate", "sign", "not"])
def test_int_unary(op):
    x = np.array([3, -4, 0, np.iinfo(np.int32).min], dtype=np.int32)
    check(fn("%x: tensor<4xi32>) -> tensor<4xi32>", f"%r = hlo.{op} %x : tensor<4xi32>\n return %r : tensor<4xi32>"),
          x)


@pytest.mark.parametrize("direction", ["EQ", "NE", "LT", "LE", "GT", "GE"])
@pytest.mark.parametrize("ty,ct", [("f32", "FLOAT"), ("f32", "TOTALORDER"), ("i32", "SIGNED"), ("ui32", "UNSIGNED")])
def test_compare(direction, ty, ct):
    if ty == "f32":
        x = np.array([1.0, np.nan, -0.0, 2.0, -np.inf, 1.0], np.float32)
        y = np.array([1.0, 1.0, 0.0, np.nan, 3.0, -2.0], np.float32)
    else:
        dt = np.int32 if ty == "i32" else np.uint32
        x = np.array([1, -1, 0, 5, 7, 2], np.int64).astype(dt)
        y = np.array([1, 1, 0, -5, 3, 9], np.int64).astype(dt)
    t = f"tensor<6x{ty}>"
    check(fn(f"%x: {t}, %y: {t}) -> tensor<6xi1>",
             f"%r = hlo.compare {direction}, %x, %y, {ct} : ({t}, {t}) -> tensor<6xi1>\n return %r : tensor<6xi1>"),
          x, y)


def test_select_clamp():
    text = fn("%p: tensor<5xi1>, %x: tensor<5xf32>, %y: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)", """
  %s = hlo.select %p, %x, %y : (tensor<5xi1>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %lo = hlo.constant dense<-0.5> : tensor<f32>
  %hi = hlo.constant dense<0.5> : tensor<f32>
  %c = hlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  return %s, %c : tensor<5xf32>, tensor<5xf32>""")
    check(text, np.array([True, False, True, False, True]), f32(5), f32(5))


@pytest.mark.parametrize("src,dst", [("f32", "i32"), ("f32", "ui8"), ("i32", "f32"), ("ui32", "f32"), ("f32", "i1"),
                                     ("i32", "i1"), ("i1", "f32"), ("i32", "i8"), ("i8", "i32"), ("ui8", "i32"),
                                     ("f32", "f64"), ("f64", "f32"), ("f32", "f16")])
def test_convert(src, dst):
    vals = {"f32": np.array([1.7, -2.5, 3e9, -3e9, np.nan, 0.0], np.float32),
            "f64": np.array([1.7, -2.5, 3e9, -3e9, np.nan, 0.0]),
            "i32": np.array([1, -2, 300, -300, 0, 7], np.int32), "ui32": np.array([1, 2, 300, 2**31 + 5, 0, 7], np.uint32),
            "i8": np.array([1, -2, 100, -100, 0, 7], np.int8), "ui8": np.array([1, 2, 200, 255, 0, 7], np.uint8),
            "i1": np.array([True, False, True, True, False, False])}[src]
    check(fn(f"%x: tensor<6x{src}>) -> tensor<6x{dst}>",
             f"%r = hlo.convert %x : (tensor<6x{src}>) -> tensor<6x{dst}>\n return %r : tensor<6x{dst}>"), vals)


def test_is_finite():
    x = np.array([1.0, np.inf, -np.inf, np.nan], np.float32)
    check(fn("%x: tensor<4xf32>) -> tensor<4xi1>",
             "%r = hlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>\n return %r : tensor<4xi1>"), x)


SHAPE_CASES = {
    "broadcast": ("%x: tensor<3x1xf32>) -> tensor<2x3x4xf32>",
                  "%r = hlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<3x1xf32>) -> tensor<2x3x4xf32>", [(3, 1)]),
    "transpose": ("%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32>",
                  "%r = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>", [(2, 3, 4)]),
    "reverse": ("%x: tensor<3x4xf32>) -> tensor<3x4xf32>", "%r = hlo.reverse %x, dims = [1] : tensor<3x4xf32>",
                [(3, 4)]),
    "reshape": ("%x: tensor<2x6xf32>) -> tensor<3x2x2xf32>",
                "%r = hlo.reshape %x : (tensor<2x6xf32>) -> tensor<3x2x2xf32>", [(2, 6)]),
    "reshape0": ("%x: tensor<1x1xf32>) -> tensor<f32>", "%r = hlo.reshape %x : (tensor<1x1xf32>) -> tensor<f32>",
                 [(1, 1)]),
    "slice": ("%x: tensor<6x5xf32>) -> tensor<2x2xf32>",
              "%r = hlo.slice %x [1:5:2, 0:4:3] : (tensor<6x5xf32>) -> tensor<2x2xf32>", [(6, 5)]),
    "concat": ("%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<2x4xf32>",
               "%r = hlo.concatenate %x, %y, dim = 1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>",
               [(2, 3), (2, 1)]),
    "pad": ("%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<5x8xf32>",
            "%r = hlo.pad %x, %v, low = [1, 0], high = [2, 1], interior = [0, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x8xf32>",
            [(2, 3), ()]),
    "pad_negative": ("%x: tensor<4x3xf32>, %v: tensor<f32>) -> tensor<3x6xf32>",
                     "%r = hlo.pad %x, %v, low = [-1, 1], high = [0, 0], interior = [0, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3x6xf32>",
                     [(4, 3), ()]),
}


@pytest.mark.parametrize("case", SHAPE_CASES)
def test_shape_ops(case):
    sig, body, shapes = SHAPE_CASES[case]
    ret = sig.split("-> ")[1]
    check(fn(sig, f"{body}\n return %r : {ret}"), *[f32(*s) for s in shapes])


def test_iota():
    check(fn(") -> (tensor<3x4xi32>, tensor<3x4xf32>)", """
  %a = hlo.iota dim = 1 : tensor<3x4xi32>
  %b = hlo.iota dim = 0 : tensor<3x4xf32>
  return %a, %b : tensor<3x4xi32>, tensor<3x4xf32>"""))


@pytest.mark.parametrize("i,j", [(1, 2), (-3, 9), (5, 0)])
def test_dynamic_slices(i, j):
    text = fn("%x: tensor<5x6xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<2x3xf32>, tensor<5x6xf32>)", """
  %s = hlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<5x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %d = hlo.dynamic_update_slice %x, %u, %i, %j : (tensor<5x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<5x6xf32>
  return %s, %d : tensor<2x3xf32>, tensor<5x6xf32>""")
    check(text, f32(5, 6), f32(2, 3), np.array(i, np.int32), np.array(j, np.int32))


def test_reduce_multi_input_argmax():
    text = fn("%x: tensor<3x5xf32>, %i: tensor<3x5xi32>) -> (tensor<3xf32>, tensor<3xi32>)", """
  %z = hlo.constant dense<0xFF800000> : tensor<f32>
  %zi = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.reduce(%x init: %z), (%i init: %zi) across dimensions = [1] : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = hlo.select %gt, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %mi = hlo.select %gt, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %m, %mi : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xi32>""")
    check(text, f32(3, 5), np.tile(np.arange(5, dtype=np.int32), (3, 1)))


def test_reduce_all_dims():
    check(fn("%x: tensor<3x4xi32>) -> tensor<i32>", """
  %z = hlo.constant dense<0> : tensor<i32>
  %r = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [0, 1] : (tensor<3x4xi32>, tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>"""), i32(3, 4))


def test_dot_general():
    text = fn("%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %n: tensor<4x5xf32>) -> (tensor<2x3x5xf32>, tensor<3x5xf32>)", """
  %r = hlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %s = hlo.dot_general %m, %n, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r, %s : tensor<2x3x5xf32>, tensor<3x5xf32>""")
    check(text, f32(2, 3, 4), f32(2, 4, 5), f32(3, 4), f32(4, 5))


def test_reduce_window_maxpool():
    text = fn("%x: tensor<1x5x5x1xf32>) -> tensor<1x3x3x1xf32>", """
  %z = hlo.constant dense<0xFF800000> : tensor<f32>
  %r = "hlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.maximum %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,
      padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x5x5x1xf32>, tensor<f32>) -> tensor<1x3x3x1xf32>
  return %r : tensor<1x3x3x1xf32>""")
    check(text, f32(1, 5, 5, 1))


def test_convolution():
    text = fn("%x: tensor<1x6x6x2xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>", """
  %r = hlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>""")
    check(text, f32(1, 6, 6, 2), f32(3, 3, 2, 4), rtol=1e-4)


def test_grouped_convolution():
    text = fn("%x: tensor<1x5x4xf32>, %k: tensor<3x2x6xf32>) -> tensor<1x3x6xf32>", """
  %r = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x5x4xf32>, tensor<3x2x6xf32>) -> tensor<1x3x6xf32>
  return %r : tensor<1x3x6xf32>""")
    check(text, f32(1, 5, 4), f32(3, 2, 6), rtol=1e-4)


def test_while_loop():
    text = fn("%x: tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>)", """
  %i0 = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.while(%i = %i0, %acc = %x) : tensor<i32>, tensor<3xf32>
   cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    %a2 = hlo.add %acc, %x : tensor<3xf32>
    hlo.return %i2, %a2 : tensor<i32>, tensor<3xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<3xf32>""")
    check(text, f32(3))


@pytest.mark.parametrize("p", [True, False])
def test_if(p):
    text = fn("%p: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32>", """
  %r = "hlo.if"(%p) ({
    %a = hlo.add %x, %x : tensor<3xf32>
    hlo.return %a : tensor<3xf32>
  }, {
    %b = hlo.negate %x : tensor<3xf32>
    hlo.return %b : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  return %r : tensor<3xf32>""")
    check(text, np.array(p), f32(3))


@pytest.mark.parametrize("k", [0, 1, 7, -1])
def test_case(k):
    text = fn("%k: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32>", """
  %r = "hlo.case"(%k) ({
    %a = hlo.add %x, %x : tensor<3xf32>
    hlo.return %a : tensor<3xf32>
  }, {
    %b = hlo.negate %x : tensor<3xf32>
    hlo.return %b : tensor<3xf32>
  }, {
    hlo.return %x : tensor<3xf32>
  }) : (tensor<i32>) -> tensor<3xf32>
  return %r : tensor<3xf32>""")
    check(text, np.array(k, np.int32), f32(3))


def test_unsupported_op_is_a_diagnostic():
    from xdsl.utils.exceptions import DiagnosticException

    text = fn("%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>", """
  %r = hlo.add %x, %x : tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>""")
    with pytest.raises(DiagnosticException, match="convert-hlo-to-linalg: cannot lower 'hlo.add'"):
        lower(text, STAGES[:1])
