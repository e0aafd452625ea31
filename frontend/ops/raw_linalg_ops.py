"""Linear-algebra raw ops (Cholesky, MatrixTriangularSolve, MatrixInverse, MatrixSolve, TridiagonalSolve):
the textbook algorithms (column-by-column Cholesky, substitution, Gauss-Jordan with partial pivoting, the
Thomas algorithm) unrolled over the static matrix size with batched slices and broadcasts, so they
compile to straight-line hlo and differentiate through their decompositions; Cholesky registers TF's
symmetrized gradient (its decomposition reads only the lower triangle). Eagerly, a matrix that is not
positive definite / invertible raises TF's error; compiled, it gives NaN or inf as XLA does.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import broadcast_shape, op_error, register, register_gradient, shape_text


def _col(b, x, j):
    """x[..., :, j] as [..., n]."""
    r = len(x.shape)
    start, limit = [0] * r, list(x.shape)
    start[-1], limit[-1] = j, j + 1
    return b.reshape(b.slice(x, start, limit), list(x.shape[:-1]))


def _entry(b, v, j):
    """v[..., j] broadcast back over v's last axis."""
    r = len(v.shape)
    start, limit = [0] * r, list(v.shape)
    start[-1], limit[-1] = j, j + 1
    return b.broadcast_in_dim(b.reshape(b.slice(v, start, limit), list(v.shape[:-1])), v.shape, list(range(r - 1)))


def cholesky(b, input):
    a = input
    if len(a.shape) < 2 or a.shape[-1] != a.shape[-2]:
        raise op_error("Cholesky", f"Input matrix must be square. {shape_text(a.shape)}" if len(a.shape) >= 2
                       else f"Input tensor must have rank >= 2, got {shape_text(a.shape)}")
    n = a.shape[-1]
    rank = len(a.shape)
    vec = list(a.shape[:-1])
    rows = b.iota(vec, rank - 2, np.int32)
    cols = []
    for j in range(n):
        v = _col(b, a, j)
        for ck in cols:
            v = b.subtract(v, b.multiply(ck, _entry(b, ck, j)))
        pivot = _entry(b, v, j)
        if isinstance(pivot, np.ndarray) and not np.all(pivot > 0):
            raise op_error("Cholesky", "Cholesky decomposition was not successful. The input might not be valid.")
        below = b.compare(rows, b.full(vec, j, np.int32), "GE")
        cols.append(b.select(below, b.divide(v, b.sqrt(pivot)), b.full(vec, 0, a.dtype)))
    return b.concatenate([b.reshape(c, vec + [1]) for c in cols], rank - 1)


def matrix_triangular_solve(b, matrix, rhs, lower=True, adjoint=False):
    m, r = matrix, rhs
    if len(m.shape) < 2 or m.shape[-1] != m.shape[-2] or len(r.shape) < 2 or r.shape[-2] != m.shape[-1]:
        raise op_error("MatrixTriangularSolve", f"Input matrix must be square and match rhs: {shape_text(m.shape)}, "
                                                f"{shape_text(r.shape)}")
    batch = broadcast_shape("MatrixTriangularSolve", m.shape[:-2], r.shape[:-2])
    n, k = m.shape[-1], r.shape[-1]
    m = b.broadcast_to(m, list(batch) + [n, n])
    r = b.broadcast_to(r, list(batch) + [n, k])
    nb = len(batch)
    if adjoint:  # real matrices: the transpose, whose triangle is the other one
        m = b.transpose(m, list(range(nb)) + [nb + 1, nb])
        lower = not lower

    def entry(i, j):  # m[..., i, j] as [..., k] (broadcast along the rhs columns)
        start, limit = [0] * (nb + 2), list(m.shape)
        start[nb:], limit[nb:] = [i, j], [i + 1, j + 1]
        return b.broadcast_in_dim(b.reshape(b.slice(m, start, limit), list(batch)), list(batch) + [k],
                                  list(range(nb)))

    def row(x, i):
        start, limit = [0] * (nb + 2), list(x.shape)
        start[nb], limit[nb] = i, i + 1
        return b.reshape(b.slice(x, start, limit), list(batch) + [k])

    order = range(n) if lower else range(n - 1, -1, -1)
    xs: dict[int, object] = {}
    for i in order:
        v = row(r, i)
        for j, xj in xs.items():
            v = b.subtract(v, b.multiply(entry(i, j), xj))
        xs[i] = b.divide(v, entry(i, i))
    return b.concatenate([b.reshape(xs[i], list(batch) + [1, k]) for i in range(n)], nb)


register("Cholesky", ("input",), cholesky)
register("MatrixTriangularSolve", ("matrix", "rhs"), matrix_triangular_solve, attrs={"lower": True, "adjoint": False})


@register_gradient("Cholesky")
def _cholesky_grad(b, op, grad):
    """TF's _CholeskyGrad: L^-H Phi(L^H dL) L^-1, symmetrized (Phi: the lower triangle, half the diagonal)."""
    chol = op.outputs[0]
    n = chol.shape[-1]
    nb = len(chol.shape) - 2
    batch = list(chol.shape[:-2])
    eye = b.broadcast_in_dim(b.constant(np.eye(n), chol.dtype), batch + [n, n], [nb, nb + 1])
    l_inv = matrix_triangular_solve(b, chol, eye)
    bd = list(range(nb))

    def mm(x, y, tx=False):
        return b.dot_general(x, y, ([nb] if tx else [nb + 1], [nb]), (bd, bd))

    def t(x):
        return b.transpose(x, bd + [nb + 1, nb])

    middle = mm(chol, grad, tx=True)
    i, j = b.iota([n, n], 0, np.int32), b.iota([n, n], 1, np.int32)
    weight = b.select(b.compare(i, j, "GT"), b.full([n, n], 1, chol.dtype),
                      b.select(b.compare(i, j, "EQ"), b.full([n, n], 0.5, chol.dtype), b.full([n, n], 0, chol.dtype)))
    middle = b.multiply(middle, b.broadcast_in_dim(weight, middle.shape, [nb, nb + 1]))
    grad_a = mm(mm(l_inv, middle, tx=True), l_inv)
    return [b.multiply(b.add(grad_a, t(grad_a)), b.full(grad_a.shape, 0.5, grad_a.dtype))]


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
