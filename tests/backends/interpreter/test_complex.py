"""complex64/complex128 through the reference interpreter, from IR text, against numpy:
hlo.complex/real/imag, the complex elementwise ops the spec allows, compare EQ/NE,
convert, and complex constants (hex parts included). The CPU backend is held to the
interpreter in tests/backends/cpu/test_complex.py."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.backends.interpreter import run_function
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify

CTX = load_all()
TYPES = {"complex<f32>": np.complex64, "complex<f64>": np.complex128}
PART = {"complex<f32>": "f32", "complex<f64>": "f64"}
RTOL = {"complex<f32>": 2e-6, "complex<f64>": 1e-13}


def run(text: str, *args):
    return run_function(parse_and_verify(text, "<test>", CTX), "main", [np.asarray(a) for a in args])


def sample(elt: str, shape=(2, 3), seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.uniform(-3, 3, shape) + 1j * rng.uniform(-3, 3, shape)).astype(TYPES[elt])


@pytest.mark.parametrize("elt", TYPES)
def test_complex_real_imag(elt):
    f, t, c = PART[elt], "tensor<2x3x" + PART[elt] + ">", "tensor<2x3x" + elt + ">"
    text = f"""func.func @main(%x: {t}, %y: {t}) -> ({c}, {t}, {t}, {t}, {t}) {{
  %z = hlo.complex %x, %y : {c}
  %r = hlo.real %z : ({c}) -> {t}
  %i = hlo.imag %z : ({c}) -> {t}
  %fr = hlo.real %x : {t}
  %fi = hlo.imag %x : {t}
  func.return %z, %r, %i, %fr, %fi : {c}, {t}, {t}, {t}, {t}
}}"""
    z = sample(elt)
    x, y = z.real.copy(), z.imag.copy()
    got_z, r, i, fr, fi = run(text, x, y)
    assert got_z.dtype == TYPES[elt] and f in ("f32", "f64")
    np.testing.assert_array_equal(got_z, z)
    np.testing.assert_array_equal(r, x)
    np.testing.assert_array_equal(i, y)
    np.testing.assert_array_equal(fr, x)
    np.testing.assert_array_equal(fi, np.zeros_like(x))


UNARY = {
    "negate": np.negative, "exponential": np.exp, "exponential_minus_one": np.expm1, "log": np.log,
    "log_plus_one": np.log1p, "sqrt": np.sqrt, "rsqrt": lambda z: 1 / np.sqrt(z), "cosine": np.cos,
    "sine": np.sin, "tanh": np.tanh, "logistic": lambda z: 1 / (1 + np.exp(-z)), "sign": lambda z: z / np.abs(z),
}
BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
          "power": np.power}


@pytest.mark.parametrize("elt", TYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name, elt):
    t = f"tensor<2x3x{elt}>"
    z = sample(elt, seed=len(name))
    (got,) = run(f"func.func @main(%x: {t}) -> {t} {{\n  %r = hlo.{name} %x : {t}\n  func.return %r : {t}\n}}", z)
    want = UNARY[name](z.astype(np.complex128)).astype(TYPES[elt])
    np.testing.assert_allclose(got, want, rtol=RTOL[elt] * 4, atol=1e-6 if elt == "complex<f32>" else 1e-14)


@pytest.mark.parametrize("elt", TYPES)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary(name, elt):
    t = f"tensor<2x3x{elt}>"
    a, b = sample(elt, seed=1), sample(elt, seed=2)
    (got,) = run(f"func.func @main(%a: {t}, %b: {t}) -> {t} {{\n  %r = hlo.{name} %a, %b : {t}\n"
                 f"  func.return %r : {t}\n}}", a, b)
    want = BINARY[name](a.astype(np.complex128), b.astype(np.complex128)).astype(TYPES[elt])
    np.testing.assert_allclose(got, want, rtol=RTOL[elt] * 4)


@pytest.mark.parametrize("elt", TYPES)
def test_abs_compare_convert(elt):
    t, f, b = f"tensor<4x{elt}>", f"tensor<4x{PART[elt]}>", "tensor<4xi1>"
    text = f"""func.func @main(%a: {t}, %b: {t}, %x: {f}) -> ({f}, {b}, {b}, {t}, {f}, tensor<4xcomplex<f64>>) {{
  %m = hlo.abs %a : ({t}) -> {f}
  %eq = hlo.compare EQ, %a, %b : ({t}, {t}) -> {b}
  %ne = hlo.compare NE, %a, %b, FLOAT : ({t}, {t}) -> {b}
  %c = hlo.convert %x : ({f}) -> {t}
  %r = hlo.convert %a : ({t}) -> {f}
  %w = hlo.convert %a : ({t}) -> tensor<4xcomplex<f64>>
  func.return %m, %eq, %ne, %c, %r, %w : {f}, {b}, {b}, {t}, {f}, tensor<4xcomplex<f64>>
}}"""
    a = np.array([3 + 4j, -0.0 + 0j, np.nan + 1j, 1e30 + 1e30j], TYPES[elt])
    bb = np.array([3 + 4j, 0.0 + 0j, np.nan + 1j, 1e30 - 1e30j], TYPES[elt])
    x = np.array([1.5, -2.0, np.inf, 0.0], PART[elt].replace("f", "float"))
    m, eq, ne, c, r, w = run(text, a, bb, x)
    np.testing.assert_allclose(m, np.abs(a.astype(np.complex128)).astype(m.dtype), rtol=RTOL[elt])
    np.testing.assert_array_equal(eq, [True, True, False, False])  # -0 == +0; NaN != NaN
    np.testing.assert_array_equal(ne, [False, False, True, True])
    np.testing.assert_array_equal(c, x.astype(TYPES[elt]))
    np.testing.assert_array_equal(r, a.real)
    np.testing.assert_array_equal(w, a.astype(np.complex128))


def test_constants_with_hex_parts_and_splats():
    text = """func.func @main() -> (tensor<3xcomplex<f64>>, tensor<2xcomplex<f32>>) {
  %a = hlo.constant dense<[(1.0, -2.0), (0x7FF0000000000000, 0x8000000000000000), (0.5, 0x0000000000000001)]> : tensor<3xcomplex<f64>>
  %b = hlo.constant dense<(0x3FC00000, -1.0)> : tensor<2xcomplex<f32>>
  func.return %a, %b : tensor<3xcomplex<f64>>, tensor<2xcomplex<f32>>
}"""
    a, b = run(text)
    assert a[0] == 1 - 2j and a[1].real == np.inf and a[1].imag == 0 and np.signbit(a[1].imag)
    assert a[2].imag == np.float64(5e-324)
    np.testing.assert_array_equal(b, np.array([1.5 - 1j, 1.5 - 1j], np.complex64))
