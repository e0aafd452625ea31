"""fp8/fp6/fp4 and i2/i4/ui2/ui4 on the CPU backend, bit for bit against the interpreter
(whose narrow-float semantics are ml_dtypes'; tests/backends/interpreter/test_narrow_types.py
checks the interpreter against ml_dtypes and Python integers): conversions on every byte
and on f32 edge patterns, arithmetic on every pair of values, and the f32 -> narrow
encoder itself (numpy form) on three million f32 patterns."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.dialects import load_all
from minixla.dialects.numpy_types import NARROW_FLOATS
from minixla.passes.lower_to_llvm.narrow_float_codec import Format, NumpyOps, encode

CTX = load_all()
FLOATS = {cls().name: dt for cls, dt in NARROW_FLOATS.items()}
INTS = {"i2": np.dtype(ml_dtypes.int2), "i4": np.dtype(ml_dtypes.int4), "ui2": np.dtype(ml_dtypes.uint2),
        "ui4": np.dtype(ml_dtypes.uint4)}


def compile_both(text: str):
    """{name: cpu function}, {name: interpreter function} of every public function in `text`."""
    from minixla.backends.cpu.backend import _with_unsigned_views
    from minixla.backends.cpu.compiler import SYMBOL_PREFIX, compile_lowered, lower, prefix_symbols, public_functions
    from minixla.backends.interpreter import InterpreterBackend
    from minixla.passes.pipelines import hlo_to_cpu

    module = Parser(CTX, text).parse_module()
    module.verify()
    types = {f.sym_name.data: f.function_type for f in public_functions(module)}
    interp = InterpreterBackend()
    ref = {n: interp.compile(module, n, verify=False) for n in types}
    cpu_mod = module.clone()
    prefix_symbols(cpu_mod)
    signatures: dict = {}
    lower(cpu_mod, hlo_to_cpu(), {SYMBOL_PREFIX + n: len(t.outputs.data) for n, t in types.items()}, signatures)
    compiled = compile_lowered(cpu_mod, signatures)
    return {n: _with_unsigned_views(compiled[n], t) for n, t in types.items()}, ref


def fn(name: str, args: list[str], result: str, body: str) -> str:
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    return f"func.func @{name}({params}) -> {result} {{\n  %r = {body}\n  func.return %r : {result}\n}}\n"


def same_bits(got: np.ndarray, want: np.ndarray, what: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (what, got.dtype, want.dtype)
    g = got.view(np.uint8) if got.dtype.itemsize == 1 else got.view(f"u{got.dtype.itemsize}")
    w = want.view(np.uint8) if want.dtype.itemsize == 1 else want.view(f"u{want.dtype.itemsize}")
    bad = np.nonzero(g != w)[0]
    assert bad.size == 0, f"{what}: {bad.size} differ, e.g. at {bad[:5]}: {g[bad[:5]]} vs {w[bad[:5]]}"


def f32_patterns(n_random: int = 0) -> np.ndarray:
    """f32 bit patterns around every narrow rounding point: every sign/exponent with the
    top 8 mantissa bits and low bits 0, 1, just under/at/over the halfway points."""
    hi = np.arange(512, dtype=np.uint32) << 23
    top = np.arange(256, dtype=np.uint32) << 15
    lows = np.array([0, 1, 0x3FFF, 0x4000, 0x4001, 0x7FFF, 0x2000, 0x1000], np.uint32)
    bits = (hi[:, None] | (top[:, None] | lows[None, :]).reshape(-1)[None, :]).reshape(-1)
    rng = np.random.default_rng(1)
    return np.concatenate([bits, rng.integers(0, 2**32, n_random, dtype=np.uint64).astype(np.uint32)])


def every_byte(dt: np.dtype) -> np.ndarray:
    """Every encoding of a narrow float type."""
    return np.arange(1 << ml_dtypes.finfo(dt).bits, dtype=np.uint32).astype(np.uint8).view(dt)


@pytest.mark.parametrize("name", sorted(FLOATS))
def test_encoder_matches_ml_dtypes(name):
    """The f32 -> narrow rounding code the CPU runs, in its numpy form."""
    bits = f32_patterns(200_000)
    cls = next(c for c in NARROW_FLOATS if c().name == name)
    got = encode(NumpyOps, bits, Format.of(cls())).astype(np.uint8)
    with np.errstate(all="ignore"):
        want = bits.view(np.float32).astype(FLOATS[name]).view(np.uint8)
    same_bits(got, want, name)


def _float_module(t: str, m: int) -> str:
    """Conversions from m f32/f64/i32 values to `t` and of 256 `t` values, and arithmetic."""
    out = []
    v = f"tensor<256x{t}>"
    for name, src in [("from_f32", "f32"), ("from_f64", "f64"), ("from_i32", "i32")]:
        a, r = f"tensor<{m}x{src}>", f"tensor<{m}x{t}>"
        out.append(fn(f"{name}_{t}", [a], r, f"hlo.convert %a0 : ({a}) -> {r}"))
    for name, dst in [("to_f32", "f32"), ("to_f16", "f16"), ("to_bf16", "bf16"), ("to_i32", "i32"),
                      ("to_e5m2", "f8E5M2")]:
        r = f"tensor<256x{dst}>"
        out.append(fn(f"{name}_{t}", [v], r, f"hlo.convert %a0 : ({v}) -> {r}"))
    for op in ("add", "multiply", "divide", "subtract", "maximum"):
        out.append(fn(f"{op}_{t}", [v, v], v, f"hlo.{op} %a0, %a1 : {v}"))
    out.append(fn(f"sqrt_{t}", [v], v, f"hlo.sqrt %a0 : {v}"))
    out.append(fn(f"lt_{t}", [v, v], "tensor<256xi1>", f"hlo.compare LT, %a0, %a1 : ({v}, {v}) -> tensor<256xi1>"))
    out.append(fn(f"total_lt_{t}", [v, v], "tensor<256xi1>",
                  f"hlo.compare LT, %a0, %a1, TOTALORDER : ({v}, {v}) -> tensor<256xi1>"))
    bits = {8: "ui8", 4: "i4"}.get(ml_dtypes.finfo(FLOATS[t]).bits)
    if bits is not None:  # bitcasts: to the same-width integer and back; 8 bits <-> two fp4
        w = f"tensor<256x{bits}>"
        out.append(fn(f"to_bits_{t}", [v], w, f"hlo.bitcast_convert %a0 : ({v}) -> {w}"))
        out.append(fn(f"from_bits_{t}", [w], v, f"hlo.bitcast_convert %a0 : ({w}) -> {v}"))
    if bits == "ui8":
        out.append(fn(f"split_{t}", [v], "tensor<256x2xf4E2M1FN>",
                      f"hlo.bitcast_convert %a0 : ({v}) -> tensor<256x2xf4E2M1FN>"))
    return "".join(out)


#: one type runs by default (about 3 s of compiling each; the encoder's numpy form is checked for
#: every type above, and the conformance suite runs every type's constants on the CPU); all with -m slow
DEFAULT_FLOATS = ("f8E4M3FN",)


@pytest.mark.parametrize("name", [n if n in DEFAULT_FLOATS else pytest.param(n, marks=pytest.mark.slow)
                                  for n in sorted(FLOATS)])
def test_float_conversions_and_arithmetic_on_cpu(name):
    cpu, ref = compile_both(_float_module(name, len(f32_patterns())))
    dt = FLOATS[name]
    x32 = f32_patterns().view(np.float32)
    rng = np.random.default_rng(2)
    ints = np.concatenate([rng.integers(-2**31, 2**31, x32.size - 64, dtype=np.int64),
                           np.arange(-32, 32)]).astype(np.int32)
    with np.errstate(all="ignore"):  # f64 inputs just off the f32 ones: f64 -> f32 -> narrow, as ml_dtypes
        inputs = {"from_f32": x32, "from_f64": x32.astype(np.float64) * (1 + 2.0 ** -30), "from_i32": ints}
    for fname, x in inputs.items():
        with np.errstate(all="ignore"):
            same_bits(cpu[f"{fname}_{name}"](x)[0], ref[f"{fname}_{name}"](x)[0], f"{fname} {name}")
    codes = every_byte(dt)
    x = np.resize(codes, 256)
    for fname in ("to_f32", "to_f16", "to_bf16", "to_i32", "to_e5m2"):
        with np.errstate(all="ignore"):
            same_bits(cpu[f"{fname}_{name}"](x)[0], ref[f"{fname}_{name}"](x)[0], f"{fname} {name}")
    a, b = np.repeat(codes, codes.size), np.tile(codes, codes.size)  # every pair, 256 at a time
    for start in range(0, a.size, 256 * 16):
        sa, sb = np.resize(a[start:], 256), np.resize(b[start:], 256)
        for op in ("add", "multiply", "divide", "subtract", "maximum", "lt", "total_lt"):
            with np.errstate(all="ignore"):
                same_bits(cpu[f"{op}_{name}"](sa, sb)[0], ref[f"{op}_{name}"](sa, sb)[0], f"{op} {name}")
    with np.errstate(all="ignore"):
        same_bits(cpu[f"sqrt_{name}"](x)[0], ref[f"sqrt_{name}"](x)[0], f"sqrt {name}")
    for fname in ("to_bits", "split"):
        if f"{fname}_{name}" in cpu:
            same_bits(cpu[f"{fname}_{name}"](x)[0], ref[f"{fname}_{name}"](x)[0], f"{fname} {name}")
    if f"from_bits_{name}" in cpu:
        b = ref[f"to_bits_{name}"](x)[0]
        same_bits(cpu[f"from_bits_{name}"](b)[0], x, f"from_bits {name}")


INT_BINARY = ("add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
              "shift_left", "shift_right_logical", "shift_right_arithmetic", "power")
INT_UNARY = ("negate", "not", "popcnt", "count_leading_zeros")


def _int_module(t: str) -> str:
    out = []
    v = f"tensor<256x{t}>"
    for op in INT_BINARY:
        out.append(fn(f"{op}_{t}", [v, v], v, f"hlo.{op} %a0, %a1 : {v}"))
    for op in INT_UNARY + (("abs", "sign") if not t.startswith("u") else ()):
        out.append(fn(f"{op}_{t}", [v], v, f"hlo.{op} %a0 : {v}"))
    out.append(fn(f"lt_{t}", [v, v], "tensor<256xi1>", f"hlo.compare LT, %a0, %a1 : ({v}, {v}) -> tensor<256xi1>"))
    for other in ("i32", "f32", "ui8"):
        w = f"tensor<256x{other}>"
        out.append(fn(f"to_{other}_{t}", [v], w, f"hlo.convert %a0 : ({v}) -> {w}"))
        out.append(fn(f"from_{other}_{t}", [w], v, f"hlo.convert %a0 : ({w}) -> {v}"))
    return "".join(out)


@pytest.mark.parametrize("t", ["i4", *(pytest.param(t, marks=pytest.mark.slow) for t in ("ui4", "i2", "ui2"))])
def test_sub_byte_integers_on_cpu(t):
    cpu, ref = compile_both(_int_module(t))
    rng = np.random.default_rng(3)
    dt = INTS[t]
    values = np.arange(1 << int(t.lstrip("ui"))).astype(dt)  # every value (wrapping into the signed range)
    a, b = np.resize(np.repeat(values, values.size), 256), np.resize(np.tile(values, values.size), 256)
    for op in (*INT_BINARY, "lt"):
        same_bits(cpu[f"{op}_{t}"](a, b)[0], ref[f"{op}_{t}"](a, b)[0], f"{op} {t}")
    for op in INT_UNARY + (("abs", "sign") if not t.startswith("u") else ()):
        same_bits(cpu[f"{op}_{t}"](a)[0], ref[f"{op}_{t}"](a)[0], f"{op} {t}")
    wide = {"i32": rng.integers(-2**31, 2**31, 256).astype(np.int32),
            "f32": (rng.standard_normal(256) * 10).astype(np.float32),
            "ui8": rng.integers(0, 256, 256).astype(np.uint8)}
    wide["f32"][:4] = [np.nan, np.inf, -np.inf, -0.0]
    for other, x in wide.items():
        same_bits(cpu[f"to_{other}_{t}"](a)[0], ref[f"to_{other}_{t}"](a)[0], f"{t} -> {other}")
        same_bits(cpu[f"from_{other}_{t}"](x)[0], ref[f"from_{other}_{t}"](x)[0], f"{other} -> {t}")


def _structural_module(t: str) -> str:
    v, fl = f"tensor<4x8x{t}>", t.startswith("f")
    out = f"""
func.func @reduce(%a: {v}) -> tensor<4x{t}> {{
  %z = hlo.constant dense<{"0.0" if fl else "0"}> : tensor<{t}>
  %r = hlo.reduce(%a init: %z) applies hlo.add across dimensions = [1] : ({v}, tensor<{t}>) -> tensor<4x{t}>
  func.return %r : tensor<4x{t}>
}}
func.func @iota() -> {v} {{
  %r = hlo.iota dim = 1 : {v}
  func.return %r : {v}
}}
func.func @dot(%a: {v}, %b: tensor<8x3x{t}>) -> tensor<4x3x{t}> {{
  %r = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({v}, tensor<8x3x{t}>) -> tensor<4x3x{t}>
  func.return %r : tensor<4x3x{t}>
}}
func.func @chain(%a: {v}, %b: {v}) -> {v} {{
  %0 = hlo.multiply %a, %b : {v}
  %1 = hlo.{"maximum" if fl else "add"} %0, %a : {v}
  %2 = hlo.subtract %1, %b : {v}
  func.return %2 : {v}
}}
"""
    if fl:
        out += f"""
func.func @sort(%a: {v}) -> {v} {{
  %r = "hlo.sort"(%a) ({{
  ^bb0(%x: tensor<{t}>, %y: tensor<{t}>):
    %c = hlo.compare LT, %x, %y, TOTALORDER : (tensor<{t}>, tensor<{t}>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }}) {{dimension = 1 : i64, is_stable = true}} : ({v}) -> {v}
  func.return %r : {v}
}}
func.func @exp(%a: {v}) -> {v} {{
  %r = hlo.exponential %a : {v}
  func.return %r : {v}
}}
"""
    return out


@pytest.mark.slow
@pytest.mark.parametrize("t", ["f8E5M2FNUZ", "f8E4M3FN", "f4E2M1FN", "i4", "ui4"])
def test_reduce_dot_sort_iota_and_fused_chains(t):
    """Reductions and dot_general (accumulated in f32 for narrow floats, rounded once, as the
    interpreter), iota, a sort with a TOTALORDER comparator and an elementwise chain."""
    cpu, ref = compile_both(_structural_module(t))
    rng = np.random.default_rng(4)
    dt = FLOATS.get(t) or INTS[t]

    def gen(shape):
        if t in FLOATS:
            return (rng.standard_normal(shape) * 2).astype(np.float32).astype(dt)
        return rng.integers(-8, 16, shape).astype(dt)

    a, b, c = gen((4, 8)), gen((4, 8)), gen((8, 3))
    for name, args in [("reduce", [a]), ("iota", []), ("dot", [a, c]), ("chain", [a, b]), ("sort", [a]),
                       ("exp", [a])]:
        if name in cpu:
            with np.errstate(all="ignore"):
                same_bits(cpu[name](*args)[0].reshape(-1), ref[name](*args)[0].reshape(-1), f"{name} {t}")


@pytest.mark.slow
@pytest.mark.parametrize("t", sorted(FLOATS) + sorted(INTS))
def test_every_elementwise_op_on_cpu(t):
    """Every unary/binary table op the type allows (plus is_finite and reduce_precision), on 64
    random encodings; NaN results need only be NaN (payloads are not specified)."""
    from minixla.dialects.hlo_ops.base import ELEMENT_CLASSES
    from minixla.dialects.hlo_ops.elementwise import BINARY_OPS, UNARY_OPS

    et, v = Parser(CTX, t).parse_type(), f"tensor<64x{t}>"
    ops = [(op, 1) for op, (_, cls) in UNARY_OPS.items() if ELEMENT_CLASSES[cls](et)]
    ops += [(op, 2) for op, (_, cls) in BINARY_OPS.items() if ELEMENT_CLASSES[cls](et)]
    text = "".join(fn(op, [v] * n, v, f"hlo.{op} {', '.join(f'%a{i}' for i in range(n))} : {v}") for op, n in ops)
    if t in FLOATS:
        text += fn("is_finite", [v], "tensor<64xi1>", f"hlo.is_finite %a0 : ({v}) -> tensor<64xi1>")
        text += fn("reduce_precision", [v], v, f"hlo.reduce_precision %a0, format = e2m1 : {v}")
        ops += [("is_finite", 1), ("reduce_precision", 1)]
    cpu, ref = compile_both(text)
    dt = FLOATS.get(t) or INTS[t]
    width = ml_dtypes.finfo(dt).bits if t in FLOATS else int(t.lstrip("ui"))
    rng = np.random.default_rng(6)
    codes = [rng.integers(0, 1 << width, 64).astype(np.uint8) for _ in range(2)]
    args = [c.view(dt) for c in codes] if t in FLOATS else [c.astype(dt) for c in codes]
    for op, n in ops:
        with np.errstate(all="ignore"):
            got, want = cpu[op](*args[:n])[0], ref[op](*args[:n])[0]
        if t in FLOATS and got.dtype == dt:
            nan = np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32))
            got, want = np.where(nan, 0, got.view(np.uint8)), np.where(nan, 0, want.view(np.uint8))
        same_bits(got, want, f"{op} {t}")


@pytest.mark.slow
def test_aot_library_with_narrow_types(tmp_path):
    """A shared library (self-contained: the f32 tables are private globals) takes fp8 and i4
    arrays as uint8_t pointers and computes what the interpreter computes."""
    import ctypes

    from minixla.backends.cpu.aot import AotError, compile_aot, find_c_compiler

    try:
        find_c_compiler()
    except AotError:
        pytest.skip("no C compiler")
    text = ("func.func @f(%a: tensor<4xf8E4M3FN>, %b: tensor<4xi4>) -> (tensor<4xf8E4M3FN>, tensor<4xi4>) {\n"
            "  %0 = hlo.multiply %a, %a : tensor<4xf8E4M3FN>\n  %1 = hlo.multiply %b, %b : tensor<4xi4>\n"
            "  func.return %0, %1 : tensor<4xf8E4M3FN>, tensor<4xi4>\n}\n")
    compiled = compile_aot(text)
    assert "void minixla_f(const uint8_t *arg0, const uint8_t *arg1, uint8_t *result0, uint8_t *result1);" \
        in compiled.header()
    lib = ctypes.CDLL(compiled.write_shared_library(str(tmp_path / "libn.so")))
    a = np.array([1.5, -0.5, 300.0, 20.0], np.float32).astype(ml_dtypes.float8_e4m3fn)
    b = np.array([3, -2, 7, -8]).astype(ml_dtypes.int4)
    ra, rb = np.empty(4, a.dtype), np.empty(4, b.dtype)
    lib.minixla_f(*(ctypes.c_void_p(x.ctypes.data) for x in (a, b, ra, rb)))
    _, ref = compile_both(text)
    want_a, want_b = ref["f"](a, b)
    same_bits(ra, want_a, "f8E4M3FN")
    same_bits(rb, want_b, "i4")
