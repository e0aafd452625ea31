"""Complex fft and triangular_solve on the CPU backend (`hlo-complex-to-real`: fft's
{interleaved} form, triangular_solve as complex forward substitution) against the
reference interpreter (numpy.fft; the numpy substitution of kernels/linalg.py).

Each test compiles one module with several results, to keep compile time down.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.parser import Parser

from minixla.backends.cpu.backend import CpuBackend
from minixla.backends.interpreter import InterpreterBackend
from minixla.dialects import load_all
from minixla.passes.complex_to_real import HloComplexToReal

CTX = load_all()
REAL = {"f32": np.float32, "f64": np.float64}
CPLX = {"f32": np.complex64, "f64": np.complex128}
TOL = {"f32": 3e-6, "f64": 1e-13}


def parse(text: str):
    module = Parser(CTX, text).parse_module()
    module.verify()
    return module


def run_both(text: str, *args):
    cpu = CpuBackend().compile(parse(text))(*[a.copy() for a in args])
    ref = InterpreterBackend().compile(parse(text))(*[a.copy() for a in args])
    return cpu, ref


def assert_close(got, want, tol: float, where: str) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, f"{where}: {got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    err = np.abs(got.astype(np.complex128) - want).max(initial=0.0)
    assert err <= tol * max(np.abs(want).max(initial=0.0), 1.0), f"{where}: max error {err}"


def random(rng, shape, fty: str, cplx: bool) -> np.ndarray:
    x = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if cplx else 0)
    return x.astype(CPLX[fty] if cplx else REAL[fty])


# -- fft -------------------------------------------------------------------------------

#: the transformed dims of the rank-1, 2 and 3 cases (powers of two, odd and Bluestein lengths),
#: each under a batch dimension of 2
LENGTHS = ([8], [3, 5], [2, 4, 7])


def fft_case(kind: str, fty: str, length: list[int]):
    """(operand type, result type, operand shape) of a `kind` fft over `length`."""
    c = f"complex<{fty}>"
    full = [2, *length]
    half = [*full[:-1], full[-1] // 2 + 1]
    dims = {"FFT": (full, c, full, c), "IFFT": (full, c, full, c), "RFFT": (full, fty, half, c),
            "IRFFT": (half, c, full, fty)}[kind]
    xs, xe, rs, re = dims
    t = lambda s, e: f"tensor<{'x'.join(map(str, s))}x{e}>"
    return t(xs, xe), t(rs, re), xs, xe != fty


def fft_module(kind: str, fty: str) -> tuple[str, list[tuple[int, ...]], bool]:
    cases = [fft_case(kind, fty, n) for n in LENGTHS]
    args = ", ".join(f"%x{i}: {xt}" for i, (xt, _, _, _) in enumerate(cases))
    results = ", ".join(rt for _, rt, _, _ in cases)
    body = "".join(f"  %r{i} = hlo.fft %x{i}, type = {kind}, length = {n} : ({xt}) -> {rt}\n"
                   for i, ((xt, rt, _, _), n) in enumerate(zip(cases, LENGTHS)))
    ret = ", ".join(f"%r{i}" for i in range(len(cases)))
    text = f"func.func @main({args}) -> ({results}) {{\n{body}  func.return {ret} : {results}\n}}"
    return text, [tuple(s) for _, _, s, _ in cases], cases[0][3]


#: each kind in one precision by default, the other one in the slow run
FFT_CASES = [pytest.param(kind, fty, marks=[pytest.mark.slow] if (i + j) % 2 else [])
             for i, kind in enumerate(["FFT", "IFFT", "RFFT", "IRFFT"]) for j, fty in enumerate(["f32", "f64"])]


@pytest.mark.parametrize("kind,fty", FFT_CASES)
def test_fft_kinds_ranks_on_cpu(kind, fty):
    """Each fft type over 1, 2 and 3 dims (one module), CPU against numpy.fft."""
    text, shapes, cplx = fft_module(kind, fty)
    rng = np.random.default_rng(len(kind))
    args = [random(rng, s, fty, cplx) for s in shapes]
    got, want = run_both(text, *args)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, TOL[fty], f"{kind} {fty} rank {i + 1}")


def test_fft_in_complex_math_on_cpu():
    """fft results used by complex math and fed to another fft (unpacked and packed again), and
    an fft of a value computed in the function: a spectral filter, rfft -> scale -> irfft."""
    text = """func.func @main(%x: tensor<3x10xf32>, %w: tensor<3x6xcomplex<f32>>, %z: tensor<4x6xcomplex<f32>>)
    -> (tensor<3x10xf32>, tensor<4x6xcomplex<f32>>) {
  %s = hlo.fft %x, type = RFFT, length = [10] : (tensor<3x10xf32>) -> tensor<3x6xcomplex<f32>>
  %m = hlo.multiply %s, %w : tensor<3x6xcomplex<f32>>
  %y = hlo.fft %m, type = IRFFT, length = [10] : (tensor<3x6xcomplex<f32>>) -> tensor<3x10xf32>
  %e = hlo.exponential %z : tensor<4x6xcomplex<f32>>
  %f = hlo.fft %e, type = FFT, length = [4, 6] : (tensor<4x6xcomplex<f32>>) -> tensor<4x6xcomplex<f32>>
  %g = hlo.add %f, %z : tensor<4x6xcomplex<f32>>
  func.return %y, %g : tensor<3x10xf32>, tensor<4x6xcomplex<f32>>
}"""
    rng = np.random.default_rng(7)
    args = [random(rng, (3, 10), "f32", False), random(rng, (3, 6), "f32", True), random(rng, (4, 6), "f32", True)]
    got, want = run_both(text, *args)
    for g, w in zip(got, want):
        assert_close(g, w, 1e-5, "filter")


def test_interleaved_fft_on_the_interpreter():
    """The interpreter runs the {interleaved} form too (so `--bisect` can run the IR after
    hlo-complex-to-real): same values as the complex form."""
    text, shapes, _ = fft_module("IRFFT", "f64")
    rng = np.random.default_rng(3)
    args = [random(rng, s, "f64", True) for s in shapes]
    want = InterpreterBackend().compile(parse(text))(*args)
    module = parse(text)
    HloComplexToReal(fuse=False).apply(Context(), module)
    module.verify()
    assert "interleaved" in str(module)
    got = InterpreterBackend().compile(module)(*[a.view(np.float64).reshape(*a.shape, 2) for a in args])
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


# -- triangular_solve and cholesky -------------------------------------------------------

#: (left_side, lower, unit_diagonal, transpose_a): every combination
FLAGS = [(left, lower, unit, trans) for left in (True, False) for lower in (True, False) for unit in (False, True)
         for trans in ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")]
#: each value of each flag at least once, for the default run (a solve compiles in about a second,
#: and a module of many much slower: every combination is the slow test below)
SOME_FLAGS = [(True, False, True, "ADJOINT"), (False, True, False, "TRANSPOSE")]


def linalg_module(fty: str, batch: list[int], n: int, m: int, flags, cholesky: bool) -> str:
    """triangular_solve with each of `flags`, then (if `cholesky`) cholesky lower and upper; one
    module, one result each. Lower ops read %a1 / %h1, upper ones %a0 / %h0."""
    t = lambda *s: f"tensor<{'x'.join(map(str, [*batch, *s]))}xcomplex<{fty}>>"
    lines, results = [], []
    for k, (left, lower, unit, trans) in enumerate(flags):
        bt = t(n, m) if left else t(m, n)
        lines.append(f'  %x{k} = "hlo.triangular_solve"(%a{int(lower)}, %b{int(left)}) {{left_side = {str(left).lower()}, '
                     f'lower = {str(lower).lower()}, unit_diagonal = {str(unit).lower()}, '
                     f'transpose_a = #hlo<transpose {trans}>}} : ({t(n, n)}, {bt}) -> {bt}')
        results.append(bt)
    for lower in (True, False) if cholesky else ():
        lines.append(f'  %x{len(results)} = "hlo.cholesky"(%h{int(lower)}) <{{lower = {str(lower).lower()}}}> : ({t(n, n)}) -> {t(n, n)}')
        results.append(t(n, n))
    rets = ", ".join(f"%x{k}" for k in range(len(results)))
    return (f"func.func @main(%a0: {t(n, n)}, %a1: {t(n, n)}, %b0: {t(m, n)}, %b1: {t(n, m)}, %h0: {t(n, n)}, "
            f"%h1: {t(n, n)}) -> ({', '.join(results)}) {{\n" + "\n".join(lines)
            + f"\n  func.return {rets} : {', '.join(results)}\n}}")


def triangles(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`a` with NaN in its strictly lower triangle (read as upper), and with NaN in its strictly upper one."""
    n = a.shape[-1]
    upper, lower = a.copy(), a.copy()
    upper[..., np.tril_indices(n, -1)[0], np.tril_indices(n, -1)[1]] = np.nan
    lower[..., np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]] = np.nan
    return upper, lower


def check_linalg(fty: str, batch: list[int], flags, cholesky: bool) -> None:
    """CPU against the interpreter; the triangle that is not read holds NaN, so reading it shows."""
    n, m = 5, 3
    rng = np.random.default_rng(11)
    a = random(rng, (*batch, n, n), fty, True) + 4 * np.eye(n, dtype=CPLX[fty])
    g = random(rng, (*batch, n, n), fty, True)
    h = g @ np.conj(np.swapaxes(g, -1, -2)) + n * np.eye(n, dtype=CPLX[fty])  # Hermitian positive definite
    args = [*triangles(a), random(rng, (*batch, m, n), fty, True), random(rng, (*batch, n, m), fty, True),
            *triangles(h)]
    got, want = run_both(linalg_module(fty, batch, n, m, flags, cholesky), *args)
    names = [f"left={left} lower={low} unit={unit} {trans}" for left, low, unit, trans in flags]
    for where, g, w in zip([*names, "cholesky lower", "cholesky upper"], got, want):
        assert np.isfinite(w).all(), where
        assert_close(g, w, 10 * TOL[fty], where)


def test_triangular_solve_and_cholesky_on_cpu():
    """Each value of every flag, and cholesky lower and upper (batched complex<f64>; the
    complex<f32> conformance cases run too)."""
    check_linalg("f64", [2], SOME_FLAGS, cholesky=True)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(0, len(FLAGS), 6))
@pytest.mark.parametrize("fty,batch", [("f32", []), ("f64", [2])])
def test_triangular_solve_every_flag_on_cpu(fty, batch, chunk):
    """All 24 combinations, six per module, and cholesky."""
    check_linalg(fty, batch, FLAGS[chunk:chunk + 6], cholesky=chunk == 0)
