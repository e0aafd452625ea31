"""Linear-algebra raw ops (Cholesky, MatrixTriangularSolve, MatrixInverse, MatrixSolve, TridiagonalSolve).
Cholesky and MatrixTriangularSolve are one `hlo.cholesky` / `hlo.triangular_solve` each (blocked gemm
code on the CPU), differentiated by those ops' VJP rules (frontend/autodiff/vjp_linalg.py: TF's
gradients, Cholesky's symmetrized since it reads only the lower triangle). The others are textbook
algorithms (Gauss-Jordan with partial pivoting, the Thomas algorithm) unrolled over the static matrix
size with batched slices and broadcasts, so they compile to straight-line hlo and differentiate through
their decompositions. Eagerly, a matrix that is not
positive definite / invertible raises TF's error; compiled, it gives NaN or inf as XLA does.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import broadcast_shape, op_error, register, shape_text


def cholesky(b, input):
    a = input
    if len(a.shape) < 2 or a.shape[-1] != a.shape[-2]:
        raise op_error("Cholesky", f"Input matrix must be square. {shape_text(a.shape)}" if len(a.shape) >= 2
                       else f"Input tensor must have rank >= 2, got {shape_text(a.shape)}")
    low = b.cholesky(a, lower=True)
    if isinstance(low, np.ndarray) and not np.all(np.diagonal(low, 0, -2, -1) > 0):
        raise op_error("Cholesky", "Cholesky decomposition was not successful. The input might not be valid.")
    return low


def _broadcast_pair(b, m, r):
    batch = list(broadcast_shape("MatrixTriangularSolve", m.shape[:-2], r.shape[:-2]))
    return b.broadcast_to(m, batch + list(m.shape[-2:])), b.broadcast_to(r, batch + list(r.shape[-2:]))


def matrix_triangular_solve(b, matrix, rhs, lower=True, adjoint=False):
    m, r = matrix, rhs
    if len(m.shape) < 2 or m.shape[-1] != m.shape[-2] or len(r.shape) < 2 or r.shape[-2] != m.shape[-1]:
        raise op_error("MatrixTriangularSolve", f"Input matrix must be square and match rhs: {shape_text(m.shape)}, "
                                                f"{shape_text(r.shape)}")
    m, r = _broadcast_pair(b, m, r)
    return b.triangular_solve(m, r, left_side=True, lower=bool(lower), unit_diagonal=False,
                              transpose_a="ADJOINT" if adjoint else "NO_TRANSPOSE")


register("Cholesky", ("input",), cholesky)
register("MatrixTriangularSolve", ("matrix", "rhs"), matrix_triangular_solve, attrs={"lower": True, "adjoint": False})


# -- inverse and general solve: Gauss-Jordan with partial pivoting on [A | B] ------------------------------

def _gauss_jordan(b, op, a, rhs):
    """A^-1 B for a batch of square A (the row with the largest |pivot| swapped up at each column, as LU
    with partial pivoting does); eagerly, a zero pivot raises TF's "not invertible" error."""
    nb = len(a.shape) - 2
    n, k = a.shape[-1], rhs.shape[-1]
    batch = list(a.shape[:-2])
    m = b.concatenate([a, rhs], nb + 1)
    shape = batch + [n, n + k]
    col_rows = b.iota(batch + [n], nb, np.int32)
    bd = list(range(nb))

    def column(x, j):  # x[..., :, j] as [..., n]
        start, limit = [0] * (nb + 2), list(x.shape)
        start[-1], limit[-1] = j, j + 1
        return b.reshape(b.slice(x, start, limit), batch + [n])

    def pick_row(x, onehot):  # sum over rows of x where onehot: [..., n + k]
        mask = b.broadcast_in_dim(onehot, shape, bd + [nb])
        return b.reduce(b.select(mask, x, b.full(shape, 0, x.dtype)), b.scalar(0, x.dtype), [nb], "add")

    for j in range(n):
        c = b.abs(column(m, j))
        c = b.select(b.compare(col_rows, b.full(batch + [n], j, np.int32), "GE"), c, b.full(batch + [n], -1, c.dtype))
        best = b.reduce(c, b.scalar(-np.inf, c.dtype), [nb], "maximum")
        hit = b.compare(c, b.broadcast_in_dim(best, batch + [n], bd), "EQ")
        first = b.reduce(b.select(hit, col_rows, b.full(batch + [n], n, np.int32)), b.scalar(n, np.int32), [nb],
                         "minimum")
        is_p = b.compare(col_rows, b.broadcast_in_dim(first, batch + [n], bd), "EQ")
        is_j = b.compare(col_rows, b.full(batch + [n], j, np.int32), "EQ")
        row_p, row_j = pick_row(m, is_p), pick_row(m, is_j)
        pivot = b.reshape(b.slice(row_p, [0] * nb + [j], batch + [j + 1]), batch)
        if isinstance(pivot, np.ndarray) and np.any(pivot == 0):
            raise op_error(op, "Input is not invertible.")
        row_p = b.divide(row_p, b.broadcast_in_dim(pivot, batch + [n + k], bd))
        spread = b.broadcast_in_dim
        m = b.select(spread(is_j, shape, bd + [nb]), spread(row_p, shape, bd + [nb + 1]),
                     b.select(spread(is_p, shape, bd + [nb]), spread(row_j, shape, bd + [nb + 1]), m))
        factor = b.select(is_j, b.full(batch + [n], 0, m.dtype), column(m, j))
        m = b.subtract(m, b.multiply(spread(factor, shape, bd + [nb]), spread(row_p, shape, bd + [nb + 1])))
    start = [0] * (nb + 2)
    start[-1] = n
    return b.slice(m, start, shape)


def _square(op, x):
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2]:
        raise op_error(op, f"Input matrix must be square. {shape_text(x.shape)}")


def _adjoint(b, x):
    nb = len(x.shape) - 2
    return b.transpose(x, list(range(nb)) + [nb + 1, nb])


def matrix_inverse(b, input, adjoint=False):
    _square("MatrixInverse", input)
    a = _adjoint(b, input) if adjoint else input
    n, nb = a.shape[-1], len(a.shape) - 2
    eye = b.broadcast_in_dim(b.constant(np.eye(n), a.dtype), list(a.shape), [nb, nb + 1])
    return _gauss_jordan(b, "MatrixInverse", a, eye)


def matrix_solve(b, matrix, rhs, adjoint=False):
    _square("MatrixSolve", matrix)
    if tuple(matrix.shape[:-1]) != tuple(rhs.shape[:-1]):
        raise op_error("MatrixSolve", f"Input matrix and right-hand side must have the same number of rows: "
                                      f"{shape_text(matrix.shape)} vs. {shape_text(rhs.shape)}")
    return _gauss_jordan(b, "MatrixSolve", _adjoint(b, matrix) if adjoint else matrix, rhs)


register("MatrixInverse", ("input",), matrix_inverse, attrs={"adjoint": False})
register("MatrixSolve", ("matrix", "rhs"), matrix_solve, attrs={"adjoint": False})


def tridiagonal_solve(b, diagonals, rhs, partial_pivoting=True, perturb_singular=False):
    """The Thomas algorithm (XLA's TridiagonalSolver; no pivoting, which TF's CPU kernel adds for stability:
    the same solution wherever elimination without pivoting is well defined). diagonals: [..., 3, m]
    (super, main, sub), rhs: [..., m, k]."""
    d = diagonals
    if len(d.shape) < 2 or d.shape[-2] != 3 or len(rhs.shape) != len(d.shape) or rhs.shape[-2] != d.shape[-1]:
        raise op_error("TridiagonalSolve", f"Expected diagonals of shape [..., 3, M] and rhs [..., M, K], got "
                                           f"{shape_text(d.shape)} and {shape_text(rhs.shape)}")
    nb = len(d.shape) - 2
    batch, m, k = list(d.shape[:-2]), d.shape[-1], rhs.shape[-1]
    bd = list(range(nb))

    def diag(row, i):  # diagonals[..., row, i] broadcast to [..., k]
        start, limit = [0] * (nb + 2), list(d.shape)
        start[nb:], limit[nb:] = [row, i], [row + 1, i + 1]
        return b.broadcast_in_dim(b.reshape(b.slice(d, start, limit), batch), batch + [k], bd)

    def rhs_row(i):
        start, limit = [0] * (nb + 2), list(rhs.shape)
        start[nb], limit[nb] = i, i + 1
        return b.reshape(b.slice(rhs, start, limit), batch + [k])

    cp, dp = [], []
    for i in range(m):
        w = diag(1, i)
        num = rhs_row(i)
        if i:
            a_i = diag(2, i)
            w = b.subtract(w, b.multiply(a_i, cp[-1]))
            num = b.subtract(num, b.multiply(a_i, dp[-1]))
        if isinstance(w, np.ndarray) and np.any(w == 0) and not perturb_singular:
            raise op_error("TridiagonalSolve", "The matrix is not invertible.")
        cp.append(b.divide(diag(0, i), w) if i < m - 1 else None)
        dp.append(b.divide(num, w))
    xs = [None] * m
    xs[m - 1] = dp[m - 1]
    for i in range(m - 2, -1, -1):
        xs[i] = b.subtract(dp[i], b.multiply(cp[i], xs[i + 1]))
    return b.concatenate([b.reshape(x, batch + [1, k]) for x in xs], nb)


register("TridiagonalSolve", ("diagonals", "rhs"), tridiagonal_solve,
         attrs={"partial_pivoting": True, "perturb_singular": False})
