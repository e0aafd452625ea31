"""VJP rules of cholesky and triangular_solve (real types), so code that emits them directly and
higher-order gradients (through Cholesky's own gradient, which solves) differentiate."""

from __future__ import annotations

import numpy as np

from minixla.frontend.autodiff.backprop import defvjp

_FLIP = {"NO_TRANSPOSE": "TRANSPOSE", "TRANSPOSE": "NO_TRANSPOSE", "ADJOINT": "NO_TRANSPOSE"}


def _t(b, x):
    """Transpose of each matrix."""
    r = len(x.shape)
    return b.transpose(x, [*range(r - 2), r - 1, r - 2])


def _mm(b, x, y):
    """x @ y per batch."""
    r = len(x.shape)
    bd = list(range(r - 2))
    return b.dot_general(x, y, ([r - 1], [r - 2]), (bd, bd))


def _triangle(b, x, lower: bool, strict: bool):
    """x on the triangle a solve reads (without the diagonal when it is a unit one), zero elsewhere."""
    n, r = x.shape[-1], len(x.shape)
    i, j = b.iota([n, n], 0, np.int32), b.iota([n, n], 1, np.int32)
    keep = b.compare(i, j, ("GT" if strict else "GE") if lower else ("LT" if strict else "LE"))
    keep = b.broadcast_in_dim(keep, list(x.shape), [r - 2, r - 1])
    return b.select(keep, x, b.full(list(x.shape), 0, x.dtype))


@defvjp("triangular_solve")
def _triangular_solve(b, p, cts):
    """left: op(a) x = b, so ct_b = op(a)^-T ct and ct_op(a) = -ct_b x^T; right: x op(a) = b, so
    ct_b = ct op(a)^-T and ct_op(a) = -x^T ct_b; ct_a is ct_op(a) (transposed back) on the read triangle."""
    a, _ = p.operands
    x = p.results[0]
    at = p.attrs
    left, lower, unit, trans = at["left_side"], at["lower"], at["unit_diagonal"], at["transpose_a"]
    ct_b = b.triangular_solve(a, cts[0], left_side=left, lower=lower, unit_diagonal=unit, transpose_a=_FLIP[trans])
    ct_op = b.negate(_mm(b, ct_b, _t(b, x)) if left else _mm(b, _t(b, x), ct_b))
    ct_tri = ct_op if trans == "NO_TRANSPOSE" else _t(b, ct_op)
    return [_triangle(b, ct_tri, lower, unit), ct_b]


@defvjp("cholesky")
def _cholesky(b, p, cts):
    """TF's _CholeskyGrad: with L the lower factor, L^-T Phi(L^T ct_L) L^-1 symmetrized (Phi: the lower
    triangle with half the diagonal); an upper factor U = L^T has ct_L = ct_U^T."""
    lower = p.attrs["lower"]
    low = p.results[0] if lower else _t(b, p.results[0])
    ct = cts[0] if lower else _t(b, cts[0])
    n, r = low.shape[-1], len(low.shape)
    eye = b.broadcast_in_dim(b.constant(np.eye(n), low.dtype), list(low.shape), [r - 2, r - 1])
    l_inv = b.triangular_solve(low, eye, left_side=True, lower=True, unit_diagonal=False, transpose_a="NO_TRANSPOSE")
    middle = _mm(b, _t(b, low), ct)
    i, j = b.iota([n, n], 0, np.int32), b.iota([n, n], 1, np.int32)
    half = b.select(b.compare(i, j, "EQ"), b.full([n, n], 0.5, low.dtype), b.full([n, n], 1, low.dtype))
    middle = _triangle(b, b.multiply(middle, b.broadcast_in_dim(half, list(low.shape), [r - 2, r - 1])), True, False)
    grad = _mm(b, _mm(b, _t(b, l_inv), middle), l_inv)
    return [b.multiply(b.add(grad, _t(b, grad)), b.full(list(low.shape), 0.5, low.dtype))]
