"""hlo.cholesky and hlo.triangular_solve on the reference interpreter, from IR
text, against numpy.linalg (an independent LAPACK computation); their
verifiers' located diagnostics."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from minixla.backends.interpreter import run_function
from minixla.dialects import load_all
from minixla.dialects.diagnostics import DiagnosticError, parse_and_verify

CTX = load_all()
TYPES = {np.float32: "f32", np.float64: "f64", np.complex64: "complex<f32>", np.complex128: "complex<f64>"}
RTOL = {np.float32: 1e-4, np.float64: 1e-11, np.complex64: 1e-4, np.complex128: 1e-11}


def T(shape, dt) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + TYPES[dt] + ">"


def run(text: str, *args):
    return run_function(parse_and_verify(text, "<test>", CTX), "main", [np.asarray(a) for a in args])


def solve_program(sa, sb, dt, left: bool, lower: bool, unit: bool, trans: str) -> str:
    ta, tb = T(sa, dt), T(sb, dt)
    return (f"func.func @main(%a: {ta}, %b: {tb}) -> {tb} {{\n"
            f'  %r = "hlo.triangular_solve"(%a, %b) <{{left_side = {str(left).lower()}, lower = {str(lower).lower()}, '
            f"unit_diagonal = {str(unit).lower()}, transpose_a = #hlo<transpose {trans}>}}> : ({ta}, {tb}) -> {tb}\n"
            f"  func.return %r : {tb}\n}}")


def cholesky_program(sa, dt, lower: bool | None) -> str:
    ta = T(sa, dt)
    attr = "" if lower is None else f" <{{lower = {str(lower).lower()}}}>"
    return (f"func.func @main(%a: {ta}) -> {ta} {{\n  %r = \"hlo.cholesky\"(%a){attr} : ({ta}) -> {ta}\n"
            f"  func.return %r : {ta}\n}}")


def random(rng, shape, dt) -> np.ndarray:
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def cast(x: np.ndarray, dt) -> np.ndarray:
    return (x if np.dtype(dt).kind == "c" else x.real).astype(dt)


def op_of(m: np.ndarray, trans: str) -> np.ndarray:
    if trans == "NO_TRANSPOSE":
        return m
    m = np.swapaxes(m, -1, -2)
    return np.conj(m) if trans == "ADJOINT" else m


@pytest.mark.parametrize("left,lower,unit,trans", list(itertools.product(
    [True, False], [True, False], [True, False], ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])))
def test_triangular_solve_matches_numpy(left, lower, unit, trans):
    rng = np.random.default_rng(7)
    for dt in (np.float32, np.complex128):
        n, m = 6, 3
        a = random(rng, (2, n, n), dt) + np.eye(n, dtype=dt) * 4  # garbage in the triangle not read
        b = random(rng, (2, n, m) if left else (2, m, n), dt)
        (x,) = run(solve_program(a.shape, b.shape, dt, left, lower, unit, trans), a, b)
        tri = np.tril(a) if lower else np.triu(a)
        if unit:
            tri = tri - tri * np.eye(n) + np.eye(n)
        op = op_of(tri.astype(np.complex128), trans)
        want = (np.linalg.solve(op, b) if left
                else np.swapaxes(np.linalg.solve(np.swapaxes(op, -1, -2), np.swapaxes(b, -1, -2)), -1, -2))
        assert x.dtype == dt and x.shape == b.shape
        np.testing.assert_allclose(x, cast(want, dt), rtol=RTOL[dt], atol=RTOL[dt])


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("lower", [True, False, None])
def test_cholesky_matches_numpy(dt, lower):
    rng = np.random.default_rng(3)
    n = 7
    f = random(rng, (3, n, n), dt)
    spd = (f @ np.conj(np.swapaxes(f, -1, -2)) + n * np.eye(n)).astype(dt)
    want = np.linalg.cholesky(spd.astype(np.complex128))
    want = want if lower else np.conj(np.swapaxes(want, -1, -2))  # lower absent: false
    garbage = np.triu(random(rng, (3, n, n), dt), 1)  # in the triangle not read
    a = spd + (garbage if lower else np.conj(np.swapaxes(garbage, -1, -2))) * 100
    (got,) = run(cholesky_program(a.shape, dt, lower), a)
    assert got.dtype == dt
    np.testing.assert_allclose(got, cast(want, dt), rtol=RTOL[dt], atol=RTOL[dt] * 10)
    other = np.triu(got, 1) if lower else np.tril(got, -1)
    assert not other.any()  # the other triangle is zero, as in XLA and TF


def test_cholesky_not_positive_definite_gives_nan_from_the_failing_column():
    a = np.array([[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 9.0]])  # the second pivot is 0 - 0: 1 - 1 = 0
    a[1, 1] = 0.5  # now negative
    (got,) = run(cholesky_program(a.shape, np.float64, True), a)
    np.testing.assert_array_equal(got[0], [2.0, 0.0, 0.0])
    assert np.isnan(got[1, 1]) and np.isnan(got[2, 1])


def test_zero_size_batches_and_matrices():
    (x,) = run(solve_program((0, 3, 3), (0, 3, 2), np.float32, True, True, False, "NO_TRANSPOSE"),
               np.zeros((0, 3, 3), np.float32), np.zeros((0, 3, 2), np.float32))
    assert x.shape == (0, 3, 2)
    (x,) = run(solve_program((0, 0), (0, 4), np.float64, True, False, False, "TRANSPOSE"),
               np.zeros((0, 0)), np.zeros((0, 4)))
    assert x.shape == (0, 4)
    (c,) = run(cholesky_program((2, 0, 0), np.float32, True), np.zeros((2, 0, 0), np.float32))
    assert c.shape == (2, 0, 0)


@pytest.mark.parametrize("body,message", [
    ('"hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, '
     "transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>",
     r"with left_side = true, dimension 0 of b \(4\) must equal the size of a's matrices \(3\)"),
    ('"hlo.triangular_solve"(%a, %b) <{left_side = false, lower = true, unit_diagonal = false, '
     "transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>",
     r"with left_side = false, dimension 1 of b \(2\) must equal the size of a's matrices \(3\)"),
    ('"hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, '
     "transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<2x3x3xf32>, tensor<3x3x2xf32>) -> tensor<3x3x2xf32>",
     r"batch dimensions of a \[2\] and b \[3\] must be equal"),
    ('"hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, '
     "transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x4xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>",
     "a's matrices must be square"),
    ('"hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, '
     "transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<3x2xf64>) -> tensor<3x2xf64>",
     "a and b element types f32 and f64 must be equal"),
    ('"hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, '
     "transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x3xf32>",
     "result type tensor<3x3xf32> must equal b's type tensor<3x2xf32>"),
    ('"hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, '
     "transpose_a = #hlo<transpose TRANSPOSE_INVALID>}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>",
     "transpose_a must not be TRANSPOSE_INVALID"),
    ('"hlo.cholesky"(%a) <{lower = true}> : (tensor<3xf32>) -> tensor<3xf32>',
     r"operand must have rank >= 2 \(a batch of matrices\)"),
    ('"hlo.cholesky"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>', "operand matrices must be square"),
    ('"hlo.cholesky"(%a) : (tensor<3x3xi32>) -> tensor<3x3xi32>',
     "operand must have a floating-point or complex element type, got i32"),
    ('"hlo.cholesky"(%a) : (tensor<3x3xf32>) -> tensor<3x3xf64>', "result type tensor<3x3xf64> must equal"),
])
def test_verifier_errors_are_located(body, message):
    types = body.rsplit(": (", 1)[1].split(") ->")[0].split(", ")
    params = ", ".join(f"%{n}: {t}" for n, t in zip("ab", types))
    text = f"func.func @main({params}) {{\n  %r = {body}\n  func.return\n}}"
    with pytest.raises(DiagnosticError, match=message) as info:
        parse_and_verify(text, "prog.mlir", CTX)
    assert "prog.mlir:2:8" in str(info.value)
