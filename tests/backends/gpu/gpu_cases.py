"""hlo programs for the GPU tests: one per core-op lowering the CPU pipeline
supports, plus the running example. `CASES[name] = (text, input makers)`;
inputs are built with a seeded generator, small enough for the SIMT simulator."""

from __future__ import annotations

import numpy as np


def fn(sig: str, body: str) -> str:
    return f"func.func @main({sig} {{\n{body}\n}}"


def unary(op: str, t: str = "tensor<5xf32>") -> str:
    return fn(f"%x: {t}) -> {t}", f"%r = hlo.{op} %x : {t}\n return %r : {t}")


def binary(op: str, t: str = "tensor<6xf32>") -> str:
    return fn(f"%x: {t}, %y: {t}) -> {t}", f"%r = hlo.{op} %x, %y : {t}\n return %r : {t}")


def f32(*shape):
    return lambda rng: (rng.standard_normal(shape) * 3).astype(np.float32)


def ints(dt, *shape, lo=-20, hi=20):
    return lambda rng: rng.integers(lo, hi, shape).astype(dt)


def bools(*shape):
    return lambda rng: rng.random(shape) < 0.5


RUNNING_EXAMPLE = fn("%x: tensor<32x48xf32>, %y: tensor<32x48xf32>) -> tensor<f32>", """
  %c2 = hlo.constant dense<2.0> : tensor<32x48xf32>
  %sq = hlo.power %x, %c2 : tensor<32x48xf32>
  %c3 = hlo.constant dense<3.0> : tensor<f32>
  %b3 = hlo.broadcast_in_dim %c3, dims = [] : (tensor<f32>) -> tensor<32x48xf32>
  %m = hlo.multiply %sq, %b3 : tensor<32x48xf32>
  %a = hlo.add %m, %y : tensor<32x48xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%a init: %z) applies hlo.add across dimensions = [0, 1] : (tensor<32x48xf32>, tensor<f32>) -> tensor<f32>
  %n = hlo.constant dense<1536.0> : tensor<f32>
  %r = hlo.divide %s, %n : tensor<f32>
  return %r : tensor<f32>""")

FLOAT_UNARY = ["abs", "negate", "exponential", "exponential_minus_one", "log", "log_plus_one", "sqrt", "rsqrt",
               "tanh", "logistic", "sine", "cosine", "floor", "ceil", "round_nearest_even", "sign"]
FLOAT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2"]
INT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "and", "or", "xor",
              "shift_left", "shift_right_logical", "shift_right_arithmetic"]

CASES: dict[str, tuple[str, list]] = {"running_example": (RUNNING_EXAMPLE, [f32(32, 48), f32(32, 48)])}
for _op in FLOAT_UNARY:
    CASES[f"f32_{_op}"] = (unary(_op), [f32(5)])
for _op in FLOAT_BINARY:
    CASES[f"f32_{_op}"] = (binary(_op), [f32(6), f32(6)])
for _ty, _dt in (("i32", np.int32), ("ui32", np.uint32), ("i8", np.int8), ("i64", np.int64)):
    for _op in INT_BINARY:
        CASES[f"{_ty}_{_op}"] = (binary(_op, f"tensor<6x{_ty}>"), [ints(_dt, 6, lo=0, hi=9), ints(_dt, 6, lo=1, hi=5)])
for _op in ("abs", "negate", "sign", "not"):
    CASES[f"i32_{_op}"] = (unary(_op, "tensor<4xi32>"), [ints(np.int32, 4)])
for _ty, _dt in (("f64", np.float64), ("f16", np.float16)):
    for _op in ("add", "multiply", "divide", "maximum", "power", "atan2"):
        CASES[f"{_ty}_{_op}"] = (binary(_op, f"tensor<6x{_ty}>"), [f32(6), f32(6)])
    for _op in ("exponential", "log", "tanh", "sqrt", "sine"):
        CASES[f"{_ty}_{_op}"] = (unary(_op, f"tensor<5x{_ty}>"), [f32(5)])
CASES["bf16_add_exp"] = (fn("%x: tensor<6xbf16>, %y: tensor<6xbf16>) -> tensor<6xbf16>", """
  %e = hlo.exponential %x : tensor<6xbf16>
  %r = hlo.add %e, %y : tensor<6xbf16>
  return %r : tensor<6xbf16>"""), [f32(6), f32(6)])
for _d in ("EQ", "NE", "LT", "LE", "GT", "GE"):
    for _ty, _ct, _mk in (("f32", "FLOAT", f32(6)), ("f32", "TOTALORDER", f32(6)), ("i32", "SIGNED", ints(np.int32, 6)),
                          ("ui32", "UNSIGNED", ints(np.uint32, 6, lo=0))):
        _t = f"tensor<6x{_ty}>"
        CASES[f"compare_{_d}_{_ty}_{_ct}"] = (fn(f"%x: {_t}, %y: {_t}) -> tensor<6xi1>",
                                              f"%r = hlo.compare {_d}, %x, %y, {_ct} : ({_t}, {_t}) -> tensor<6xi1>\n"
                                              " return %r : tensor<6xi1>"), [_mk, _mk])
CASES["select_clamp"] = (fn("%p: tensor<5xi1>, %x: tensor<5xf32>, %y: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)", """
  %s = hlo.select %p, %x, %y : (tensor<5xi1>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %lo = hlo.constant dense<-0.5> : tensor<f32>
  %hi = hlo.constant dense<0.5> : tensor<f32>
  %c = hlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  return %s, %c : tensor<5xf32>, tensor<5xf32>"""), [bools(5), f32(5), f32(5)])
for _src, _dst, _mk in (("f32", "i32", f32(6)), ("f32", "ui8", f32(6)), ("i32", "f32", ints(np.int32, 6)),
                        ("ui32", "f32", ints(np.uint32, 6, lo=0)), ("f32", "i1", f32(6)), ("i1", "f32", bools(6)),
                        ("f32", "f16", f32(6)), ("f32", "bf16", f32(6)), ("f32", "f64", f32(6)),
                        ("i32", "i8", ints(np.int32, 6)), ("i8", "i64", ints(np.int8, 6))):
    CASES[f"convert_{_src}_{_dst}"] = (fn(f"%x: tensor<6x{_src}>) -> tensor<6x{_dst}>",
                                          f"%r = hlo.convert %x : (tensor<6x{_src}>) -> tensor<6x{_dst}>\n"
                                          f" return %r : tensor<6x{_dst}>"), [_mk])
CASES["is_finite"] = (fn("%x: tensor<4xf32>) -> tensor<4xi1>",
                         "%r = hlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>\n return %r : tensor<4xi1>"), [f32(4)])
_SHAPE = {
    "broadcast_in_dim": ("%x: tensor<3x1xf32>) -> tensor<2x3x4xf32>",
                         "%r = hlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<3x1xf32>) -> tensor<2x3x4xf32>", [(3, 1)]),
    "transpose": ("%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32>",
                  "%r = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>", [(2, 3, 4)]),
    "reverse": ("%x: tensor<3x4xf32>) -> tensor<3x4xf32>", "%r = hlo.reverse %x, dims = [1] : tensor<3x4xf32>",
                [(3, 4)]),
    "reshape": ("%x: tensor<2x6xf32>) -> tensor<3x2x2xf32>",
                "%r = hlo.reshape %x : (tensor<2x6xf32>) -> tensor<3x2x2xf32>", [(2, 6)]),
    "slice": ("%x: tensor<6x5xf32>) -> tensor<2x2xf32>",
              "%r = hlo.slice %x [1:5:2, 0:4:3] : (tensor<6x5xf32>) -> tensor<2x2xf32>", [(6, 5)]),
    "concatenate": ("%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<2x4xf32>",
                    "%r = hlo.concatenate %x, %y, dim = 1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>",
                    [(2, 3), (2, 1)]),
    "pad": ("%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<5x8xf32>",
            "%r = hlo.pad %x, %v, low = [1, 0], high = [2, 1], interior = [0, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x8xf32>",
            [(2, 3), ()]),
}
for _name, (_sig, _body, _shapes) in _SHAPE.items():
    _ret = _sig.split("-> ")[1]
    CASES[_name] = (fn(_sig, f"{_body}\n return %r : {_ret}"), [f32(*s) for s in _shapes])
CASES["iota"] = (fn(") -> (tensor<3x4xi32>, tensor<3x4xf32>)", """
  %a = hlo.iota dim = 1 : tensor<3x4xi32>
  %b = hlo.iota dim = 0 : tensor<3x4xf32>
  return %a, %b : tensor<3x4xi32>, tensor<3x4xf32>"""), [])
CASES["dynamic_slice_update"] = (fn("%x: tensor<5x6xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<2x3xf32>, tensor<5x6xf32>)", """
  %s = hlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<5x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %d = hlo.dynamic_update_slice %x, %u, %i, %j : (tensor<5x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<5x6xf32>
  return %s, %d : tensor<2x3xf32>, tensor<5x6xf32>"""), [f32(5, 6), f32(2, 3), ints(np.int32, lo=0, hi=5),
                                                         ints(np.int32, lo=-2, hi=5)])
CASES["reduce_argmax_rows"] = (fn("%x: tensor<3x40xf32>, %i: tensor<3x40xi32>) -> (tensor<3xf32>, tensor<3xi32>)", """
  %z = hlo.constant dense<0xFF800000> : tensor<f32>
  %zi = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.reduce(%x init: %z), (%i init: %zi) across dimensions = [1] : (tensor<3x40xf32>, tensor<3x40xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = hlo.select %gt, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %mi = hlo.select %gt, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %m, %mi : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xi32>"""), [f32(3, 40), ints(np.int32, 3, 40, lo=0, hi=1000)])
CASES["reduce_all_i32"] = (fn("%x: tensor<3x4xi32>) -> tensor<i32>", """
  %z = hlo.constant dense<0> : tensor<i32>
  %r = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [0, 1] : (tensor<3x4xi32>, tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>"""), [ints(np.int32, 3, 4)])
CASES["reduce_full_multiblock"] = (fn("%x: tensor<700xf32>) -> tensor<f32>", """
  %z = hlo.constant dense<1.5> : tensor<f32>
  %r = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [0] : (tensor<700xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>"""), [f32(700)])
CASES["reduce_max_f64_full"] = (fn("%x: tensor<5x9xf64>) -> tensor<f64>", """
  %z = hlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %r = hlo.reduce(%x init: %z) applies hlo.maximum across dimensions = [0, 1] : (tensor<5x9xf64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>"""), [f32(5, 9)])
CASES["reduce_rows_and_columns"] = (fn("%x: tensor<4x300xf32>) -> (tensor<4xf32>, tensor<300xf32>)", """
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<4x300xf32>, tensor<f32>) -> tensor<4xf32>
  %c = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [0] : (tensor<4x300xf32>, tensor<f32>) -> tensor<300xf32>
  return %r, %c : tensor<4xf32>, tensor<300xf32>"""), [f32(4, 300)])
CASES["reduce_and_i1"] = (fn("%x: tensor<2x50xi1>) -> tensor<2xi1>", """
  %t = hlo.constant dense<true> : tensor<i1>
  %r = hlo.reduce(%x init: %t) applies hlo.and across dimensions = [1] : (tensor<2x50xi1>, tensor<i1>) -> tensor<2xi1>
  return %r : tensor<2xi1>"""), [lambda rng: rng.random((2, 50)) < 0.98])
CASES["dot_general"] = (fn("%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x40xf32>, %n: tensor<40x5xf32>) -> (tensor<2x3x5xf32>, tensor<3x5xf32>)", """
  %r = hlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %s = hlo.dot_general %m, %n, contracting_dims = [1] x [0] : (tensor<3x40xf32>, tensor<40x5xf32>) -> tensor<3x5xf32>
  return %r, %s : tensor<2x3x5xf32>, tensor<3x5xf32>"""), [f32(2, 3, 4), f32(2, 4, 5), f32(3, 40), f32(40, 5)])
CASES["reduce_window_maxpool"] = (fn("%x: tensor<1x5x5x1xf32>) -> tensor<1x3x3x1xf32>", """
  %z = hlo.constant dense<0xFF800000> : tensor<f32>
  %r = "hlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.maximum %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x5x5x1xf32>, tensor<f32>) -> tensor<1x3x3x1xf32>
  return %r : tensor<1x3x3x1xf32>"""), [f32(1, 5, 5, 1)])
CASES["convolution"] = (fn("%x: tensor<1x6x6x2xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>", """
  %r = hlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>"""), [f32(1, 6, 6, 2), f32(3, 3, 2, 4)])
CASES["while"] = (fn("%x: tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>)", """
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
  return %r#0, %r#1 : tensor<i32>, tensor<3xf32>"""), [f32(3)])
CASES["if"] = (fn("%p: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32>", """
  %r = "hlo.if"(%p) ({
    %a = hlo.add %x, %x : tensor<3xf32>
    hlo.return %a : tensor<3xf32>
  }, {
    %b = hlo.negate %x : tensor<3xf32>
    hlo.return %b : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  return %r : tensor<3xf32>"""), [bools(), f32(3)])
CASES["case"] = (fn("%k: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32>", """
  %r = "hlo.case"(%k) ({
    %a = hlo.add %x, %x : tensor<3xf32>
    hlo.return %a : tensor<3xf32>
  }, {
    %b = hlo.negate %x : tensor<3xf32>
    hlo.return %b : tensor<3xf32>
  }, {
    hlo.return %x : tensor<3xf32>
  }) : (tensor<i32>) -> tensor<3xf32>
  return %r : tensor<3xf32>"""), [ints(np.int32, lo=0, hi=3), f32(3)])
CASES["elementwise_multiblock"] = (fn("%x: tensor<3x700xf32>, %y: tensor<700xf32>) -> tensor<3x700xf32>", """
  %b = hlo.broadcast_in_dim %y, dims = [1] : (tensor<700xf32>) -> tensor<3x700xf32>
  %m = hlo.multiply %x, %b : tensor<3x700xf32>
  %e = hlo.exponential %m : tensor<3x700xf32>
  return %e : tensor<3x700xf32>"""), [f32(3, 700), f32(700)])
CASES["sort_pairs"] = (fn("%x: tensor<2x5xf32>, %i: tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>)", """
  %r:2 = "hlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = hlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  }) : (tensor<2x5xf32>, tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>)
  return %r#0, %r#1 : tensor<2x5xf32>, tensor<2x5xi32>"""), [f32(2, 5), ints(np.int32, 2, 5)])
CASES["gather"] = (fn("%x: tensor<5x3xf32>, %i: tensor<6x1xi32>) -> tensor<6x3xf32>", """
  %r = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<6x1xi32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>"""), [f32(5, 3), ints(np.int32, 6, 1, lo=-1, hi=6)])
CASES["scatter_add"] = (fn("%x: tensor<5xf32>, %i: tensor<2x1xui32>, %u: tensor<2xf32>) -> tensor<5xf32>", """
  %r = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<2x1xui32>, tensor<2xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>"""), [f32(5), ints(np.uint32, 2, 1, lo=0, hi=5), f32(2)])
CASES["rng_bit_generator"] = (fn("%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<6xui32>)", """
  %ns, %r = hlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<6xui32>)
  return %ns, %r : tensor<3xui64>, tensor<6xui32>"""), [ints(np.uint64, 3, lo=0, hi=1 << 40)])
CASES["bitcast_convert"] = (fn("%x: tensor<3xf32>) -> tensor<3x4xi8>", """
  %r = hlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3x4xi8>
  return %r : tensor<3x4xi8>"""), [f32(3)])
