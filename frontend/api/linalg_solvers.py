"""`tf.linalg` factorizations and solvers expanded onto core ops, as XLA expands them in a pass:
each is a `tf.while_loop` over rows or columns (or Jacobi rotations) of masked whole-matrix
updates, so one definition runs eagerly, in `tf.function` and under `jit_compile=True`, and is
differentiable through the loop (Cholesky's gradient is symmetrized as TF's is).

* Cholesky and triangular solves: one hlo op each (`tf.raw_ops.Cholesky`, `MatrixTriangularSolve`),
* LU with partial pivoting (LAPACK getrf's pivots; `tf.linalg.lu`'s packed result), and on it
  solve, inv, det, slogdet, lu_solve, lu_reconstruct, lu_matrix_inverse,
* QR by Householder reflections with LAPACK's signs (R[j, j] = -sign(a) * norm),
* eigh by cyclic Jacobi rotations (eigenvalues ascending), svd by one-sided Jacobi (descending).

Matrices are [..., m, n] with static m, n (batch dims broadcast through every op).
"""

from __future__ import annotations

import numpy as np

tf = None  # the public `tf` module, set by install()

JACOBI_SWEEPS = 10


def _eye_like(n, dtype):
    return tf.eye(n, dtype=dtype)


def _loop(n, body, state):
    """for j in range(n): state = body(j, *state) -- as one while loop."""
    out = tf.while_loop(lambda j, *s: j < n, lambda j, *s: (j + 1, *body(j, *s)), [tf.constant(0), *state])
    return out[1:]


def _row(m, j):
    return tf.gather(m, j, axis=-2)


def _col(m, j):
    return tf.gather(m, j, axis=-1)


def _square(a, what):
    a = tf.convert_to_tensor(a)
    if a.shape.rank < 2 or a.shape[-1] != a.shape[-2]:
        raise tf.errors.InvalidArgumentError(None, None, f"{what}: input must be a square matrix "
                                                         f"(shape [..., M, M]), got shape {a.shape}")
    return a


# -- Cholesky and triangular solves ------------------------------------------------------------

def cholesky(input, name=None):  # noqa: A002 -- TF's argument name
    """One `hlo.cholesky` (the Cholesky raw op, with TF's symmetrized gradient)."""
    return tf.raw_ops.Cholesky(input=_square(input, "Cholesky"))


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with op(matrix) X = rhs, op = identity or adjoint: one `hlo.triangular_solve` (the
    MatrixTriangularSolve raw op, batch dims broadcast)."""
    matrix, rhs = _square(matrix, "MatrixTriangularSolve"), tf.convert_to_tensor(rhs)
    n = matrix.shape[-1]
    if rhs.shape.rank < 2 or rhs.shape[-2] != n:
        raise tf.errors.InvalidArgumentError(None, None, f"MatrixTriangularSolve: rhs has {rhs.shape[-2]} rows, "
                                                         f"the matrix is {n}x{n}")
    return tf.raw_ops.MatrixTriangularSolve(matrix=matrix, rhs=rhs, lower=lower, adjoint=adjoint)


def cholesky_solve(chol, rhs, name=None):
    y = triangular_solve(chol, rhs, lower=True)
    return triangular_solve(chol, y, lower=True, adjoint=True)


# -- LU and what rests on it ---------------------------------------------------------------------

def _lu(a):
    """(packed LU, permutation int32 [..., n], sign of the permutation): P A = L U."""
    n = a.shape[-1]
    batch = a.shape.rank - 2
    rows = tf.range(n)

    def body(j, m, perm, sign):
        col = tf.abs(_col(m, j))
        candidates = tf.where(rows >= j, col, -tf.ones_like(col))
        pivot = tf.cast(tf.math.argmax(candidates, axis=-1), tf.int32)  # [...]
        p = pivot[..., None]
        swap = tf.where(rows == j, p, tf.where(rows == p, j, rows))  # [..., n]
        m = tf.gather(m, swap, axis=-2, batch_dims=batch)
        perm = tf.gather(perm, swap, axis=-1, batch_dims=batch)
        sign = tf.where(tf.equal(pivot, j), sign, -sign)
        top = _row(m, j)
        d = tf.gather(top, j, axis=-1)[..., None]
        below = tf.cast(rows > j, m.dtype)
        right = tf.cast(rows > j, m.dtype)
        factors = _col(m, j) / d * below  # [..., n]
        m = m - factors[..., :, None] * (top * right)[..., None, :]
        stored = factors - _col(m, j) * below  # L's column replaces what is below the pivot
        m = m + stored[..., :, None] * tf.one_hot(j, n, dtype=m.dtype)
        return m, perm, sign

    perm0 = tf.broadcast_to(rows, a.shape.as_list()[:-1])
    sign0 = tf.ones(a.shape.as_list()[:-2], a.dtype)
    return _loop(n, body, [a, perm0, sign0])


def lu(input, output_idx_type=None, name=None):  # noqa: A002
    lu_packed, perm, _ = _lu(_square(input, "Lu"))
    idx = tf.int32 if output_idx_type is None else tf.as_dtype(output_idx_type)
    return lu_packed, tf.cast(perm, idx)


def _unit_lower(lu_packed):
    n = lu_packed.shape[-1]
    return tf.linalg.band_part(lu_packed, -1, 0) - tf.linalg.band_part(lu_packed, 0, 0) + _eye_like(n, lu_packed.dtype)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    lower_upper, rhs = tf.convert_to_tensor(lower_upper), tf.convert_to_tensor(rhs)
    batch = max(lower_upper.shape.rank - 2, 0)
    shape = tf.broadcast_static_shape(lower_upper.shape[:-2], rhs.shape[:-2]).as_list()
    permuted = tf.gather(tf.broadcast_to(rhs, shape + rhs.shape.as_list()[-2:]),
                         tf.broadcast_to(tf.cast(perm, tf.int32), shape + [lower_upper.shape[-1]]),
                         axis=-2, batch_dims=len(shape) if shape else 0)
    del batch
    y = triangular_solve(_unit_lower(lower_upper), permuted, lower=True)
    return triangular_solve(lower_upper, y, lower=False)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    lower_upper = tf.convert_to_tensor(lower_upper)
    product = tf.matmul(_unit_lower(lower_upper), tf.linalg.band_part(lower_upper, 0, -1))
    inverse = tf.argsort(tf.cast(perm, tf.int32), axis=-1)
    return tf.gather(product, inverse, axis=-2, batch_dims=lower_upper.shape.rank - 2)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    lower_upper = tf.convert_to_tensor(lower_upper)
    n = lower_upper.shape[-1]
    eye = tf.broadcast_to(_eye_like(n, lower_upper.dtype), lower_upper.shape)
    return lu_solve(lower_upper, perm, eye)


def solve(matrix, rhs, adjoint=False, name=None):
    matrix = _square(matrix, "MatrixSolve")
    if adjoint:
        matrix = tf.linalg.matrix_transpose(matrix)
    lu_packed, perm, _ = _lu(matrix)
    return lu_solve(lu_packed, perm, rhs)


def inv(input, adjoint=False, name=None):  # noqa: A002
    a = _square(input, "MatrixInverse")
    eye = tf.broadcast_to(_eye_like(a.shape[-1], a.dtype), a.shape)
    return solve(a, eye, adjoint=adjoint)


def _diag(m):
    return tf.linalg.diag_part(m)


def det(input, name=None):  # noqa: A002
    lu_packed, _, sign = _lu(_square(input, "MatrixDeterminant"))
    return sign * tf.reduce_prod(_diag(lu_packed), axis=-1)


def slogdet(input, name=None):  # noqa: A002
    lu_packed, _, sign = _lu(_square(input, "LogMatrixDeterminant"))
    d = _diag(lu_packed)
    return sign * tf.reduce_prod(tf.sign(d), axis=-1), tf.reduce_sum(tf.math.log(tf.abs(d)), axis=-1)


def logdet(matrix, name=None):
    """log det of a Hermitian positive definite matrix: 2 sum log diag(cholesky)."""
    return 2.0 * tf.reduce_sum(tf.math.log(_diag(cholesky(matrix))), axis=-1)


# -- least squares ---------------------------------------------------------------------------------

def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The fast path of TF: normal equations solved by Cholesky (with l2_regularizer on the diagonal)."""
    if not fast:
        raise NotImplementedError("tf.linalg.lstsq(fast=False) (complete orthogonal decomposition) is not "
                                  "implemented in minixla; fast=True is")
    a, b = tf.convert_to_tensor(matrix), tf.convert_to_tensor(rhs)
    m, n = a.shape[-2], a.shape[-1]
    at = tf.linalg.matrix_transpose(a)
    reg = tf.cast(l2_regularizer, a.dtype)
    if m >= n:
        gram = tf.matmul(at, a) + reg * _eye_like(n, a.dtype)
        return cholesky_solve(cholesky(gram), tf.matmul(at, b))
    gram = tf.matmul(a, at) + reg * _eye_like(m, a.dtype)
    return tf.matmul(at, cholesky_solve(cholesky(gram), b))


# -- QR (Householder) --------------------------------------------------------------------------------

def qr(input, full_matrices=False, name=None):  # noqa: A002
    a = tf.convert_to_tensor(input)
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    rows = tf.range(m)
    batch = a.shape.as_list()[:-2]
    q0 = tf.broadcast_to(_eye_like(m, a.dtype), batch + [m, m])

    def body(j, r, q):
        x = _col(r, j) * tf.cast(rows >= j, a.dtype)  # [..., m]
        alpha = tf.gather(x, j, axis=-1)
        norm = tf.norm(x, axis=-1)
        beta = -tf.where(alpha >= 0, tf.ones_like(alpha), -tf.ones_like(alpha)) * norm
        v = x - (beta[..., None] * tf.one_hot(j, m, dtype=a.dtype))
        vv = tf.reduce_sum(v * v, axis=-1)
        # LAPACK's dlarfg: nothing below the diagonal -> no reflection (tau = 0), whatever alpha's sign
        reflect = tf.logical_and(vv > 0, tf.reduce_any(tf.logical_and(rows > j, tf.not_equal(x, 0.0)), axis=-1))
        scale = tf.where(reflect, 2.0 / tf.where(vv > 0, vv, tf.ones_like(vv)), tf.zeros_like(vv))[..., None]
        r = r - (scale * v)[..., :, None] * tf.linalg.matvec(tf.linalg.matrix_transpose(r), v)[..., None, :]
        q = q - tf.linalg.matvec(q, v)[..., :, None] * (scale * v)[..., None, :]
        return r, q

    r, q = _loop(k, body, [a, q0])
    r = tf.linalg.band_part(r, 0, -1)
    if full_matrices:
        return q, r
    return q[..., :, :k], r[..., :k, :]


# -- Jacobi: eigh and svd ------------------------------------------------------------------------------

def _pairs(n):
    p, q = np.triu_indices(n, 1)
    return tf.constant(np.tile(p, JACOBI_SWEEPS).astype(np.int32)), tf.constant(np.tile(q, JACOBI_SWEEPS).astype(np.int32))


def _rotation(n, p, q, c, s, dtype):
    """The n x n Givens matrix with c on (p, p), (q, q), s on (p, q) and -s on (q, p)."""
    ep, eq = tf.one_hot(p, n, dtype=dtype), tf.one_hot(q, n, dtype=dtype)
    outer = lambda u, v: u[..., :, None] * v[..., None, :]  # noqa: E731
    c, s = c[..., None, None], s[..., None, None]
    return (_eye_like(n, dtype) + (c - 1.0) * (outer(ep, ep) + outer(eq, eq)) + s * (outer(ep, eq) - outer(eq, ep)))


def _jacobi_angle(app, aqq, apq):
    """(c, s) zeroing apq of the symmetric 2 x 2 [[app, apq], [apq, aqq]] (Golub & Van Loan 8.5.2)."""
    nonzero = tf.abs(apq) > 0
    safe = tf.where(nonzero, apq, tf.ones_like(apq))
    theta = (aqq - app) / (2.0 * safe)
    t = tf.where(theta >= 0, tf.ones_like(theta), -tf.ones_like(theta)) / (tf.abs(theta) + tf.sqrt(theta * theta + 1.0))
    c = tf.math.rsqrt(t * t + 1.0)
    return tf.where(nonzero, c, tf.ones_like(c)), tf.where(nonzero, t * c, tf.zeros_like(c))


def eigh(tensor, name=None):
    """(eigenvalues ascending, eigenvectors as columns) of a symmetric matrix."""
    a = _square(tensor, "SelfAdjointEigV2")
    n = a.shape[-1]
    lower = tf.linalg.band_part(a, -1, 0)  # only the lower triangle is read, as TF's kernel does
    a = lower + tf.linalg.matrix_transpose(lower) - tf.linalg.band_part(a, 0, 0)
    if n == 1:
        return a[..., 0], tf.ones_like(a)
    ps, qs = _pairs(n)
    v0 = tf.broadcast_to(_eye_like(n, a.dtype), a.shape)

    def body(k, m, v):
        p, q = tf.gather(ps, k), tf.gather(qs, k)
        pick = lambda i, j: tf.gather(tf.gather(m, i, axis=-2), j, axis=-1)  # noqa: E731
        c, s = _jacobi_angle(pick(p, p), pick(q, q), pick(p, q))
        rot = _rotation(n, p, q, c, s, a.dtype)
        return tf.matmul(tf.matmul(rot, m, transpose_a=True), rot), tf.matmul(v, rot)

    m, v = _loop(int(ps.shape[0]), body, [a, v0])
    values = _diag(m)
    order = tf.argsort(values, axis=-1)
    batch = a.shape.rank - 2
    return tf.gather(values, order, axis=-1, batch_dims=batch), tf.gather(v, order, axis=-1, batch_dims=batch)


def eigvalsh(tensor, name=None):
    return eigh(tensor)[0]


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """One-sided Jacobi (Hestenes): rotate column pairs of A until orthogonal; singular values are
    the column norms, descending. Returns s, or (s, u, v) as TF does."""
    a = tf.convert_to_tensor(tensor)
    m, n = a.shape[-2], a.shape[-1]
    if m < n:  # work on the transpose: A^T = V S U^T
        out = svd(tf.linalg.matrix_transpose(a), full_matrices, compute_uv)
        return out if not compute_uv else (out[0], out[2], out[1])
    if full_matrices and m != n:
        raise NotImplementedError("tf.linalg.svd(full_matrices=True) of a non-square matrix is not implemented "
                                  "in minixla (full_matrices=False is)")
    batch = a.shape.rank - 2
    v0 = tf.broadcast_to(_eye_like(n, a.dtype), a.shape.as_list()[:-2] + [n, n])
    if n > 1:
        ps, qs = _pairs(n)

        def body(k, u, v):
            p, q = tf.gather(ps, k), tf.gather(qs, k)
            up, uq = _col(u, p), _col(u, q)
            c, s = _jacobi_angle(tf.reduce_sum(up * up, -1), tf.reduce_sum(uq * uq, -1), tf.reduce_sum(up * uq, -1))
            rot = _rotation(n, p, q, c, s, a.dtype)
            return tf.matmul(u, rot), tf.matmul(v, rot)

        u, v = _loop(int(ps.shape[0]), body, [a, v0])
    else:
        u, v = a, v0
    s = tf.norm(u, axis=-2)
    order = tf.argsort(s, axis=-1, direction="DESCENDING")
    s = tf.gather(s, order, axis=-1, batch_dims=batch)
    if not compute_uv:
        return s
    u = tf.gather(u, order, axis=-1, batch_dims=batch) / tf.where(s > 0, s, tf.ones_like(s))[..., None, :]
    return s, u, tf.gather(v, order, axis=-1, batch_dims=batch)


def _default_tol(s, m, n, dtype):
    return tf.reduce_max(s, axis=-1) * float(max(m, n)) * float(np.finfo(dtype.as_numpy_dtype).eps)


def pinv(a, rcond=None, validate_args=False, name=None):
    a = tf.convert_to_tensor(a)
    m, n = a.shape[-2], a.shape[-1]
    s, u, v = svd(a)
    if rcond is None:
        rcond = 10.0 * max(m, n) * float(np.finfo(a.dtype.as_numpy_dtype).eps)
    cutoff = tf.cast(rcond, a.dtype) * tf.reduce_max(s, axis=-1)
    inv_s = tf.where(s > cutoff[..., None], 1.0 / tf.where(s > 0, s, tf.ones_like(s)), tf.zeros_like(s))
    return tf.matmul(v * inv_s[..., None, :], u, transpose_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    a = tf.convert_to_tensor(a)
    s = svd(a, compute_uv=False)
    tol = _default_tol(s, a.shape[-2], a.shape[-1], a.dtype) if tol is None else tf.cast(tol, a.dtype)
    return tf.reduce_sum(tf.cast(s > tf.reshape(tol, tol.shape.as_list() + [1]), tf.int32), axis=-1)
