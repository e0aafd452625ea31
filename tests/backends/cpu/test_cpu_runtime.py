"""Hand-written memref/scf/arith/math programs compiled for the CPU and run
against numpy: element types, integer edge cases (division by zero, shifts
past the width), saturating conversions, views with strides, globals,
temporaries, and the runtime's argument checking."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends.cpu import ArgumentError, compile_module
from minixla.dialects import load_all


def compile_text(text: str, **kwargs):
    return compile_module(Parser(load_all(), text).parse_module(), **kwargs)


def elementwise(name: str, in_types: list[str], out_type: str, n: int, body: str) -> str:
    """@name(%a0.., %out): for i: %x_k = a_k[i]; <body defines %r>; out[i] = %r."""
    params = ", ".join(f"%a{k}: memref<{n}x{t}>" for k, t in enumerate(in_types))
    loads = "\n".join(f"    %x{k} = memref.load %a{k}[%i] : memref<{n}x{t}>" for k, t in enumerate(in_types))
    return f"""
func.func @{name}({params}, %out: memref<{n}x{out_type}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {n} : index
  scf.for %i = %c0 to %cn step %c1 {{
{loads}
{body}
    memref.store %r, %out[%i] : memref<{n}x{out_type}>
  }}
  return
}}"""


def run1(text: str, name: str, *args):
    return compile_text(text)[name](*args)[0]


# --- control flow ---------------------------------------------------------------------

LOOPS = """
func.func @sum(%a: memref<8xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (f32) {
    %x = memref.load %a[%i] : memref<8xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  memref.store %r, %out[] : memref<f32>
  return
}
func.func @collatz(%n: memref<i32>, %out: memref<i32>) {
  %x0 = memref.load %n[] : memref<i32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %res:2 = scf.while (%x = %x0, %k = %c0) : (i32, i32) -> (i32, i32) {
    %cond = arith.cmpi ne, %x, %c1 : i32
    scf.condition(%cond) %x, %k : i32, i32
  } do {
  ^bb0(%y: i32, %j: i32):
    %r = arith.remsi %y, %c2 : i32
    %even = arith.cmpi eq, %r, %c0 : i32
    %next = scf.if %even -> (i32) {
      %h = arith.divsi %y, %c2 : i32
      scf.yield %h : i32
    } else {
      %t = arith.muli %y, %c3 : i32
      %t1 = arith.addi %t, %c1 : i32
      scf.yield %t1 : i32
    }
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %next, %j1 : i32, i32
  }
  memref.store %res#1, %out[] : memref<i32>
  return
}
func.func @pick(%k: memref<i32>, %out: memref<f32>) {
  %x = memref.load %k[] : memref<i32>
  %i = arith.index_cast %x : i32 to index
  %r = scf.index_switch %i -> f32
  case 2 {
    %a = arith.constant 20.0 : f32
    scf.yield %a : f32
  }
  case 5 {
    %b = arith.constant 50.0 : f32
    scf.yield %b : f32
  }
  default {
    %d = arith.constant -1.0 : f32
    scf.yield %d : f32
  }
  memref.store %r, %out[] : memref<f32>
  return
}
"""


def test_reduction_with_iter_args():
    a = np.arange(8, dtype=np.float32) * 0.5
    assert compile_text(LOOPS)["sum"](a)[0] == a.sum()


def test_scf_while_and_if():
    assert compile_text(LOOPS)["collatz"](np.array(27, np.int32))[0] == 111


def test_index_switch():
    f = compile_text(LOOPS)["pick"]
    assert [float(f(np.array(k, np.int32))[0]) for k in (2, 5, 3, -7)] == [20.0, 50.0, -1.0, -1.0]


VIEWS = """
"memref.global"() <{sym_name = "w", sym_visibility = "private", type = memref<2x2xf32>,
    initial_value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, constant}> : () -> ()
func.func @par(%a: memref<4x6xf32>, %out: memref<2x3xf32>, %tot: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %sv = memref.subview %a[1, 2] [2, 3] [2, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[12, 1], offset: 8>>
  %g = memref.get_global @w : memref<2x2xf32>
  %tmp = memref.alloc() : memref<2x3xf32>
  %z = arith.constant 0.0 : f32
  %s = "scf.parallel"(%c0, %c0, %c2, %c3, %c1, %c1, %z) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %x = memref.load %sv[%i, %j] : memref<2x3xf32, strided<[12, 1], offset: 8>>
    %w = memref.load %g[%i, %c1] : memref<2x2xf32>
    %y = arith.mulf %x, %w : f32
    memref.store %y, %tmp[%i, %j] : memref<2x3xf32>
    "scf.reduce"(%y) ({
    ^bb0(%l: f32, %r: f32):
      %q = arith.addf %l, %r : f32
      "scf.reduce.return"(%q) : (f32) -> ()
    }) : (f32) -> ()
  }) : (index, index, index, index, index, index, f32) -> f32
  "memref.copy"(%tmp, %out) : (memref<2x3xf32>, memref<2x3xf32>) -> ()
  memref.dealloc %tmp : memref<2x3xf32>
  memref.store %s, %tot[] : memref<f32>
  return
}
func.func @transpose_copy(%a: memref<3x4xi16>, %out: memref<4x3xi16>) {
  %t = memref.reinterpret_cast %a to offset: [0], sizes: [4, 3], strides: [1, 4] : memref<3x4xi16> to memref<4x3xi16, strided<[1, 4]>>
  "memref.copy"(%t, %out) : (memref<4x3xi16, strided<[1, 4]>>, memref<4x3xi16>) -> ()
  return
}
func.func @reshape(%a: memref<2x3xf64>, %out: memref<6xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x3xf64> into memref<6xf64>
  %e = memref.expand_shape %flat [[0, 1]] output_shape [3, 2] : memref<6xf64> into memref<3x2xf64>
  %v = memref.subview %e[1, 0] [2, 2] [1, 1] : memref<3x2xf64> to memref<2x2xf64, strided<[2, 1], offset: 2>>
  %s = memref.alloca() : memref<2x2xf64>
  "memref.copy"(%v, %s) : (memref<2x2xf64, strided<[2, 1], offset: 2>>, memref<2x2xf64>) -> ()
  scf.for %i = %c0 to %c6 step %c1 {
    %x = memref.load %flat[%i] : memref<6xf64>
    memref.store %x, %out[%i] : memref<6xf64>
  }
  %y = memref.load %s[%c1, %c1] : memref<2x2xf64>
  memref.store %y, %out[%c0] : memref<6xf64>
  return
}
"""


def test_parallel_reduce_subview_global_alloc_copy():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    out, tot = compile_text(VIEWS, num_outputs={"par": 2})["par"](a)
    expect = a[1:4:2, 2:5] * np.array([[2.0], [4.0]], np.float32)
    np.testing.assert_array_equal(out, expect)
    assert tot == expect.sum()


def test_strided_copy_loop():
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    np.testing.assert_array_equal(compile_text(VIEWS)["transpose_copy"](a)[0], a.T)


def test_collapse_expand_alloca():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    out = compile_text(VIEWS)["reshape"](a)[0]
    np.testing.assert_array_equal(out, [5.0, 1, 2, 3, 4, 5])


# --- element types ---------------------------------------------------------------------


def test_i1_in_memory():
    text = elementwise("land", ["i1", "i1"], "i1", 5, "    %r = arith.xori %x0, %x1 : i1")
    a = np.array([True, False, True, False, True])
    b = np.array([True, True, False, False, False])
    np.testing.assert_array_equal(run1(text, "land", a, b), a ^ b)


def test_ui8_division_and_uitofp():
    text = elementwise("udiv", ["ui8", "ui8"], "f32", 4, """
    %d = arith.divui %x0, %x1 : ui8
    %r = arith.uitofp %d : ui8 to f32""")
    a = np.array([255, 200, 7, 9], np.uint8)
    b = np.array([1, 3, 2, 0], np.uint8)
    np.testing.assert_array_equal(run1(text, "udiv", a, b), [255.0, 66.0, 3.0, 255.0])


@pytest.mark.parametrize("dtype,mlir", [(np.float16, "f16"), (ml_dtypes.bfloat16, "bf16"), (np.float64, "f64")])
def test_narrow_and_wide_floats(dtype, mlir):
    text = elementwise("f", [mlir, mlir], mlir, 6, f"""
    %m = arith.mulf %x0, %x1 : {mlir}
    %e = math.exp %x0 : {mlir}
    %t = math.tanh %m : {mlir}
    %r = arith.addf %e, %t : {mlir}""")
    a = np.linspace(-2, 2, 6).astype(dtype)
    b = np.linspace(0.5, 3, 6).astype(dtype)
    got = run1(text, "f", a, b)
    assert got.dtype == np.dtype(dtype)
    af, bf = a.astype(np.float64), b.astype(np.float64)
    m = (af * bf).astype(dtype).astype(np.float64)
    expect = np.exp(af).astype(dtype).astype(np.float64) + np.tanh(m).astype(dtype).astype(np.float64)
    np.testing.assert_allclose(got.astype(np.float64), expect, rtol=2e-2 if mlir != "f64" else 1e-12)


def test_bf16_constants_and_globals():
    text = """
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<3xbf16>,
    initial_value = dense<[1.5, -2.25, 3.0e+03]> : tensor<3xbf16>, constant}> : () -> ()
""" + elementwise("f", ["bf16"], "bf16", 3, """
    %g = memref.get_global @g : memref<3xbf16>
    %y = memref.load %g[%i] : memref<3xbf16>
    %c = arith.constant 0.5 : bf16
    %s = arith.mulf %y, %c : bf16
    %r = arith.addf %s, %x0 : bf16""")
    a = np.array([1, 2, 3], ml_dtypes.bfloat16)
    got = run1(text, "f", a)
    bf = ml_dtypes.bfloat16
    g = np.array([1.5, -2.25, 3.0e3], np.float32).astype(bf)
    expect = ((g.astype(np.float32) * 0.5).astype(bf).astype(np.float32) + a.astype(np.float32)).astype(bf)
    np.testing.assert_array_equal(got, expect)
    assert got[2] == 1504  # 3000 -> 3008 in bf16; 1504 + 3 rounds back to 1504


# --- integer semantics ----------------------------------------------------------------

INT_OPS = {
    "divsi": "%r = arith.divsi %x0, %x1 : i32",
    "remsi": "%r = arith.remsi %x0, %x1 : i32",
    "divui": "%r = arith.divui %x0, %x1 : i32",
    "remui": "%r = arith.remui %x0, %x1 : i32",
    "floordivsi": "%r = arith.floordivsi %x0, %x1 : i32",
    "ceildivsi": "%r = arith.ceildivsi %x0, %x1 : i32",
    "shli": "%r = arith.shli %x0, %x1 : i32",
    "shrsi": "%r = arith.shrsi %x0, %x1 : i32",
    "shrui": "%r = arith.shrui %x0, %x1 : i32",
    "addi": "%r = arith.addi %x0, %x1 : i32",
    "muli": "%r = arith.muli %x0, %x1 : i32",
    "maxsi": "%r = arith.maxsi %x0, %x1 : i32",
    "minui": "%r = arith.minui %x0, %x1 : i32",
}
INT_MIN = np.iinfo(np.int32).min
A = np.array([7, -7, 7, -7, 5, INT_MIN, INT_MIN, 0, 2**31 - 1, -1], np.int32)
B = np.array([2, 2, -2, -2, 0, -1, 1, 0, 2, 40], np.int32)


def _int_reference(op: str) -> np.ndarray:
    a, b = A.astype(np.int64), B.astype(np.int64)
    ua, ub = A.view(np.uint32).astype(np.int64), B.view(np.uint32).astype(np.int64)
    sb = np.where(b == 0, 1, b)
    trunc_q = np.where(b == 0, -1, np.trunc(a / sb).astype(np.int64))
    trunc_r = np.where(b == 0, a, a - np.trunc(a / sb).astype(np.int64) * sb)
    shift_ok = (ub < 32)
    ref = {
        "divsi": trunc_q, "remsi": trunc_r,
        "divui": np.where(ub == 0, 0xFFFFFFFF, ua // np.where(ub == 0, 1, ub)),
        "remui": np.where(ub == 0, ua, ua % np.where(ub == 0, 1, ub)),
        "floordivsi": np.where(b == 0, -1, np.floor_divide(a, sb)),
        "ceildivsi": np.where(b == 0, -1, -np.floor_divide(-a, sb)),
        "shli": np.where(shift_ok, ua << np.where(shift_ok, ub, 0), 0),
        "shrsi": a >> np.where(shift_ok, ub, 31),
        "shrui": np.where(shift_ok, ua >> np.where(shift_ok, ub, 0), 0),
        "addi": a + b, "muli": a * b,
        "maxsi": np.maximum(a, b), "minui": np.minimum(ua, ub),
    }[op]
    return (ref & 0xFFFFFFFF).astype(np.uint32).view(np.int32)


def test_integer_ops_do_not_trap_and_wrap():
    text = "\n".join(elementwise(op, ["i32", "i32"], "i32", len(A), "    " + body) for op, body in INT_OPS.items())
    mod = compile_text(text)
    for op in INT_OPS:
        np.testing.assert_array_equal(mod[op](A, B)[0], _int_reference(op), err_msg=op)


def test_float_to_int_saturates():
    text = "\n".join([
        elementwise("tosi", ["f32"], "i8", 7, "    %r = arith.fptosi %x0 : f32 to i8"),
        elementwise("toui", ["f32"], "ui8", 7, "    %r = arith.fptoui %x0 : f32 to ui8"),
        elementwise("f16tosi", ["f16"], "i32", 7, "    %r = arith.fptosi %x0 : f16 to i32"),
    ])
    mod = compile_text(text)
    x = np.array([1.9, -1.9, 300.0, -300.0, np.nan, np.inf, -np.inf], np.float32)
    np.testing.assert_array_equal(mod["tosi"](x)[0], [1, -1, 127, -128, 0, 127, -128])
    np.testing.assert_array_equal(mod["toui"](x)[0], [1, 0, 255, 0, 0, 255, 0])
    h = np.array([2.5, -2.5, 65504, -65504, np.nan, np.inf, -np.inf], np.float16)
    np.testing.assert_array_equal(mod["f16tosi"](h)[0], [2, -2, 65504, -65504, 0, 2**31 - 1, -2**31])


def test_int_to_float_unsigned():
    text = "\n".join([
        elementwise("u64", ["ui64"], "f32", 4, "    %r = arith.uitofp %x0 : ui64 to f32"),
        elementwise("u32", ["ui32"], "f64", 4, "    %r = arith.uitofp %x0 : ui32 to f64"),
        elementwise("s64", ["i64"], "f64", 4, "    %r = arith.sitofp %x0 : i64 to f64"),
    ])
    mod = compile_text(text)
    u = np.array([0, 1, 2**63 + 2**40 + 1, 2**64 - 1], np.uint64)
    np.testing.assert_array_equal(mod["u64"](u)[0], u.astype(np.float32))
    u32 = np.array([0, 1, 2**31, 2**32 - 1], np.uint32)
    np.testing.assert_array_equal(mod["u32"](u32)[0], u32.astype(np.float64))
    s = np.array([-5, 0, -(2**62), 2**62], np.int64)
    np.testing.assert_array_equal(mod["s64"](s)[0], s.astype(np.float64))


def test_int_width_changes():
    text = elementwise("w", ["i16"], "i64", 3, """
    %a = arith.extsi %x0 : i16 to i32
    %b = arith.extui %x0 : i16 to i32
    %c = arith.trunci %x0 : i16 to i8
    %d = arith.extsi %c : i8 to i32
    %s = arith.addi %a, %b : i32
    %s2 = arith.addi %s, %d : i32
    %r = arith.extsi %s2 : i32 to i64""")
    x = np.array([-1, 300, -32768], np.int16)
    expect = x.astype(np.int64) + x.view(np.uint16).astype(np.int64) + x.astype(np.int8).astype(np.int64)
    np.testing.assert_array_equal(run1(text, "w", x), expect)


# --- math -----------------------------------------------------------------------------

MATH = {
    "tanh": np.tanh, "expm1": np.expm1, "log1p": np.log1p, "sqrt": np.sqrt, "atan": np.arctan,
    "cbrt": np.cbrt, "erf": None, "exp2": np.exp2, "log10": np.log10, "floor": np.floor,
    "roundeven": np.round, "rsqrt": lambda x: 1 / np.sqrt(x), "absf": np.abs, "sin": np.sin,
}


@pytest.mark.parametrize("mlir,dtype", [("f32", np.float32), ("f64", np.float64)])
def test_math_unary(mlir, dtype):
    names = [n for n in MATH if MATH[n] is not None]
    text = "\n".join(elementwise(n, [mlir], mlir, 5, f"    %r = math.{n} %x0 : {mlir}") for n in names)
    text += elementwise("atan2", [mlir, mlir], mlir, 5, f"    %r = math.atan2 %x0, %x1 : {mlir}")
    text += elementwise("powf", [mlir, mlir], mlir, 5, f"    %r = math.powf %x0, %x1 : {mlir}")
    mod = compile_text(text)
    x = np.array([0.25, 0.5, 1.5, 2.5, 3.0], dtype)
    y = np.array([1.0, -2.0, 0.5, 2.0, -1.0], dtype)
    for n in names:
        np.testing.assert_allclose(mod[n](x)[0], MATH[n](x), rtol=1e-6 if mlir == "f32" else 1e-13, err_msg=n)
    np.testing.assert_allclose(mod["atan2"](x, y)[0], np.arctan2(x, y), rtol=1e-6)
    np.testing.assert_allclose(mod["powf"](x, y)[0], np.power(x, y), rtol=1e-6)


def test_sqrt_f32_and_f64_in_one_module_and_int_bits():
    text = elementwise("both", ["f32", "f64"], "f64", 3, """
    %a = math.sqrt %x0 : f32
    %b = math.sqrt %x1 : f64
    %c = arith.extf %a : f32 to f64
    %r = arith.addf %b, %c : f64""") + elementwise("bits", ["i32"], "i32", 4, """
    %a = math.ctlz %x0 : i32
    %b = math.ctpop %x0 : i32
    %c = math.absi %x0 : i32
    %s = arith.addi %a, %b : i32
    %r = arith.addi %s, %c : i32""")
    mod = compile_text(text)
    got = mod["both"](np.array([4, 9, 2], np.float32), np.array([16, 25, 2], np.float64))[0]
    np.testing.assert_allclose(got, [6, 8, np.sqrt(2) + np.float32(np.sqrt(np.float32(2)))])
    x = np.array([0, 1, -1, INT_MIN], np.int32)
    np.testing.assert_array_equal(mod["bits"](x)[0], [32 + 0 + 0, 31 + 1 + 1, 0 + 32 + 1, 0 + 1 + INT_MIN])


def test_nan_semantics_of_min_max():
    text = elementwise("mx", ["f32", "f32"], "f32", 3, "    %r = arith.maximumf %x0, %x1 : f32") + \
        elementwise("mn", ["f32", "f32"], "f32", 3, "    %r = arith.minnumf %x0, %x1 : f32")
    mod = compile_text(text)
    a = np.array([np.nan, 1.0, -0.0], np.float32)
    b = np.array([1.0, np.nan, 0.0], np.float32)
    got = mod["mx"](a, b)[0]
    assert np.isnan(got[0]) and np.isnan(got[1]) and got[2] == 0 and not np.signbit(got[2])
    np.testing.assert_array_equal(mod["mn"](a, b)[0][:2], [1.0, 1.0])


# --- calls, scalars, the runtime --------------------------------------------------------

CALLS = """
func.func private @divmod(%a: i32, %b: i32) -> (i32, i32) {
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  return %q, %r : i32, i32
}
func.func @scalar(%a: i32, %b: i32) -> (i32, i1) {
  %q, %r = func.call @divmod(%a, %b) : (i32, i32) -> (i32, i32)
  %z = arith.constant 0 : i32
  %odd = arith.cmpi ne, %r, %z : i32
  return %q, %odd : i32, i1
}
"""


def test_calls_multiple_results_and_scalar_abi():
    f = compile_text(CALLS)["scalar"]
    q, odd = f(np.int32(17), np.array(5, np.int32))
    assert (int(q), bool(odd)) == (3, True)
    assert q.shape == () and odd.dtype == np.bool_


def test_argument_errors_name_the_argument():
    f = compile_text(LOOPS)["sum"]
    with pytest.raises(ArgumentError, match=r"argument 0 \('arg0'\) of @sum: expected dtype float32, got float64"):
        f(np.zeros(8))
    with pytest.raises(ArgumentError, match=r"expected shape \(8,\), got \(4,\)"):
        f(np.zeros(4, np.float32))
    with pytest.raises(ArgumentError, match="takes 1 arguments, got 2"):
        f(np.zeros(8, np.float32), np.zeros(8, np.float32))


def test_non_contiguous_inputs_are_copied_and_lists_accepted():
    f = compile_text(LOOPS)["sum"]
    a = np.arange(16, dtype=np.float32)[::2]
    assert f(a)[0] == a.sum()
    assert f(np.array([1, 2, 3, 4, 5, 6, 7, 8], np.float32).tolist() and np.arange(8, dtype=np.float32))[0] == 28


def test_compile_cache_and_large_outputs_aligned():
    text = elementwise("big", ["f32"], "f32", 4096, "    %r = arith.negf %x0 : f32")
    m1, m2 = compile_text(text), compile_text(text)
    assert m1.jit is m2.jit  # the native code is reused (cached by LLVM IR text)
    x = np.arange(4096, dtype=np.float32)
    out = m1["big"](x)[0]
    np.testing.assert_array_equal(out, -x)
    assert out.ctypes.data % 64 == 0


def test_reentrant_from_threads():
    from concurrent.futures import ThreadPoolExecutor

    f = compile_text(LOOPS)["sum"]
    xs = [np.full(8, k, np.float32) for k in range(64)]
    with ThreadPoolExecutor(4) as pool:
        sums = list(pool.map(lambda x: float(f(x)[0]), xs))
    assert sums == [8.0 * k for k in range(64)]


def test_function_that_only_returns_its_arguments():
    """Found by the fuzzer: no hlo op at all, tensors only in the signature (was taken for lowered IR)."""
    from xdsl.parser import Parser

    from minixla.backends import get_backend
    from minixla.dialects import load_all

    module = Parser(load_all(), """func.func @main(%a: tensor<5x5xi32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<5x5xi32>) {
      func.return %b, %a : tensor<2xf32>, tensor<5x5xi32>
    }""").parse_module()
    a, b = np.arange(25, dtype=np.int32).reshape(5, 5), np.array([1.5, -2.0], np.float32)
    out_b, out_a = get_backend("cpu").compile(module, "main")(a, b)
    np.testing.assert_array_equal(out_a, a)
    np.testing.assert_array_equal(out_b, b)
    out_a[0, 0] = 99
    assert a[0, 0] == 0  # the result is a copy, not the argument's buffer
