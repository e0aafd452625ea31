"""The blocked cholesky / triangular_solve lowering (passes/hlo_to_linalg/triangular.py)
on the CPU against the reference interpreter and numpy.linalg. The leaf size is
lowered to 3 so that 6x6 matrices take every blocked path (a split in halves, the
inverse-and-gemm leaves, the right-side solve of cholesky's panel) in one small
compile (each leaf is a loop nest: a compile of the 1024² sizes takes seconds); test_cpu_vs_interpreter.py covers the scalar kernels at their default size."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from minixla.backends import get_backend
from minixla.backends.interpreter import run_function
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes.hlo_to_linalg import triangular

CTX = load_all()
N, M = 6, 5
#: (left_side, lower, unit_diagonal, transpose_a): the blocked form itself, and the one that needs
#: every rewrite to reach it (transposed b and x, transposed and reversed a)
FORMS = [(True, True, False, "NO_TRANSPOSE"), (False, False, True, "ADJOINT")]
RTOL = {"f16": 2e-2, "bf16": 6e-2, "f32": 2e-5, "f64": 1e-12}
NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}


def T(shape, ty: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + ty + ">"


def program(ty: str) -> str:
    """One function: the solves of FORMS and an upper cholesky (it factors the transpose as lower)."""
    ta, tl, tr = T((2, N, N), ty), T((2, N, M), ty), T((2, M, N), ty)
    lines, results = [], []
    for i, (left, lower, unit, trans) in enumerate(FORMS):
        tb = tl if left else tr
        lines.append(f'  %x{i} = "hlo.triangular_solve"(%a, %{"l" if left else "r"}) <{{left_side = {str(left).lower()}, '
                     f"lower = {str(lower).lower()}, unit_diagonal = {str(unit).lower()}, "
                     f"transpose_a = #hlo<transpose {trans}>}}> : ({ta}, {tb}) -> {tb}")
        results.append((f"%x{i}", tb))
    lines.append(f'  %c = "hlo.cholesky"(%s) <{{lower = false}}> : ({ta}) -> {ta}')
    results.append(("%c", ta))
    rets = ", ".join(v for v, _ in results)
    rtypes = ", ".join(t for _, t in results)
    return (f"func.func @main(%a: {ta}, %l: {tl}, %r: {tr}, %s: {ta}) -> ({rtypes}) {{\n" + "\n".join(lines)
            + f"\n  func.return {rets} : {rtypes}\n}}")


def inputs(ty: str):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((2, N, N)) * 0.3 + np.eye(N) * 2  # both triangles filled: each solve reads one
    f = np.tril(rng.standard_normal((2, N, N))) * 0.5 + np.eye(N) * 2
    spd = f @ np.swapaxes(f, -1, -2)
    return [x.astype(NP[ty]) for x in (a, rng.standard_normal((2, N, M)), rng.standard_normal((2, M, N)), spd)]


def numpy_reference(a, l, r, s) -> list[np.ndarray]:
    out = []
    a, l, r, s = (x.astype(np.float64) for x in (a, l, r, s))
    for left, lower, unit, trans in FORMS:
        tri = np.tril(a) if lower else np.triu(a)
        if unit:
            tri = tri - tri * np.eye(N) + np.eye(N)
        op = tri if trans == "NO_TRANSPOSE" else np.swapaxes(tri, -1, -2)
        out.append(np.linalg.solve(op, l) if left else
                   np.swapaxes(np.linalg.solve(np.swapaxes(op, -1, -2), np.swapaxes(r, -1, -2)), -1, -2))
    low = np.linalg.cholesky(s)
    return [*out, np.swapaxes(low, -1, -2)]


# bf16 (computed in f32, converted at both ends) is slow-only: ~6 s of compile, and the table cases of
# test_cpu_vs_interpreter.py already take the f16/bf16 conversions through the kernels
@pytest.mark.parametrize("ty", ["f64", pytest.param("bf16", marks=pytest.mark.slow)])
def test_blocked_lowering_matches_interpreter_and_numpy(ty, monkeypatch):
    monkeypatch.setattr(triangular, "LEAF", 3)
    module = parse_and_verify(program(ty), "<blocked>", CTX)
    args = inputs(ty)
    want = run_function(module, "main", [x.copy() for x in args])
    got = get_backend("cpu").compile(module, "main")(*[x.copy() for x in args])
    ref = numpy_reference(*args)
    assert len(got) == len(want) == len(ref)
    for k, (g, w, r) in enumerate(zip(got, want, ref)):
        assert g.dtype == w.dtype == NP[ty]
        scale = np.abs(r).max()
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=0, atol=RTOL[ty] * scale,
                                   err_msg=f"result {k}: cpu vs interpreter")
        np.testing.assert_allclose(g.astype(np.float64), r, rtol=0, atol=RTOL[ty] * scale,
                                   err_msg=f"result {k}: cpu vs numpy.linalg")


def test_complex_is_a_clear_lowering_error():
    """The blocked kernels are real only: complex is a clear error here (the CPU pipeline expands complex
    cholesky/triangular_solve in hlo-complex-to-real first: tests/backends/cpu/test_complex_fft_solve.py)."""
    from xdsl.context import Context

    from minixla.passes.hlo_to_linalg import ConvertHloToLinalg

    t = T((3, 3), "complex<f32>")
    module = parse_and_verify(f'func.func @main(%a: {t}) -> {t} {{\n  %r = "hlo.cholesky"(%a) : ({t}) -> {t}\n'
                              f"  func.return %r : {t}\n}}", "c.mlir", CTX)
    with pytest.raises(Exception, match=r"cannot lower 'hlo.cholesky': element type complex<f32> is not supported"):
        ConvertHloToLinalg().apply(Context(), module)
