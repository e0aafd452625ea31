"""cholesky and triangular_solve in plain numpy (the oracle: no LAPACK, no scipy).

Both work on batches (leading dimensions), compute in double precision (f32
and narrower in f64, complex64 in complex128) and round once at the end.
Each reads only the triangle of its matrix that StableHLO says it reads; the
other triangle of a cholesky result is zero (as XLA's and TF's).
"""

from __future__ import annotations

import numpy as np


def _wide(dt: np.dtype) -> np.dtype:
    return np.result_type(dt, np.float64)


def _h(x: np.ndarray) -> np.ndarray:
    """Conjugate transpose of each matrix."""
    return np.conj(np.swapaxes(x, -1, -2))


def _tri(a: np.ndarray, lower: bool) -> np.ndarray:
    return np.tril(a) if lower else np.triu(a)


def _substitute(m: np.ndarray, b: np.ndarray, lower: bool, unit: bool) -> np.ndarray:
    """x with m x = b, m lower (forward substitution) or upper triangular (backward)."""
    n = m.shape[-1]
    x = np.zeros(np.broadcast_shapes(m.shape[:-2], b.shape[:-2]) + b.shape[-2:], b.dtype)
    for i in (range(n) if lower else range(n - 1, -1, -1)):
        done = slice(0, i) if lower else slice(i + 1, n)
        row = b[..., i, :] - np.einsum("...k,...kj->...j", m[..., i, done], x[..., done, :])
        x[..., i, :] = row if unit else row / m[..., i, i][..., None]
    return x


def triangular_solve(a: np.ndarray, b: np.ndarray, left_side: bool, lower: bool, unit_diagonal: bool,
                     transpose_a: str) -> np.ndarray:
    """x with op(a) x = b (left_side) or x op(a) = b; op by `transpose_a`."""
    wide = _wide(b.dtype)
    m = _tri(a.astype(wide), lower)
    if transpose_a != "NO_TRANSPOSE":  # TRANSPOSE, ADJOINT
        m = np.swapaxes(m, -1, -2)
        m = np.conj(m) if transpose_a == "ADJOINT" else m
        lower = not lower
    rhs = b.astype(wide)
    if left_side:
        x = _substitute(m, rhs, lower, unit_diagonal)
    else:  # x m = b  <=>  m^T x^T = b^T
        x = np.swapaxes(_substitute(np.swapaxes(m, -1, -2), np.swapaxes(rhs, -1, -2), not lower, unit_diagonal),
                        -1, -2)
    with np.errstate(all="ignore"):
        return x.astype(b.dtype)


def cholesky(a: np.ndarray, lower: bool) -> np.ndarray:
    """l (lower) with a = l l^H, or u = l^H with a = u^H u, column by column; a matrix
    that is not positive definite gets NaNs from its first failing column on."""
    wide = _wide(a.dtype)
    x = a.astype(wide)
    x = x if lower else _h(x)  # the upper triangle of a is the lower one of a^H
    n = x.shape[-1]
    low = np.zeros_like(x)
    with np.errstate(all="ignore"):
        for j in range(n):
            left = low[..., j, :j]
            d = np.real(x[..., j, j]) - np.sum(np.abs(left) ** 2, axis=-1)
            djj = np.sqrt(d)  # a real NaN where d < 0: not positive definite
            low[..., j, j] = djj
            below = x[..., j + 1:, j] - np.einsum("...ik,...k->...i", low[..., j + 1:, :j], np.conj(left))
            low[..., j + 1:, j] = below / djj[..., None]
        out = low if lower else _h(low)
        return out.astype(a.dtype)
