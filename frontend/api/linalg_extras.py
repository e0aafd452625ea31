"""The rest of `tf.linalg` that builds on ops and the solvers of linalg_solvers.py: cross,
normalize, set_diag, tensor_diag(_part), tridiagonal and banded systems, and expm (Taylor series
with scaling and squaring: the scaling count comes from the data, so it is a while loop)."""

from __future__ import annotations

import numpy as np

from minixla.frontend.api import linalg_solvers as solvers, linear_operators

tf = None  # the public `tf` module, set by install()


def cross(a, b, name=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        raise ValueError(f"cross: the last dimension of both arguments must be 3, got {a.shape} and {b.shape}")
    a0, a1, a2 = tf.unstack(a, axis=-1)
    b0, b1, b2 = tf.unstack(b, axis=-1)
    return tf.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 -- TF's argument name
    tensor = tf.convert_to_tensor(tensor)
    norm = tf.norm(tensor, ord=ord, axis=axis, keepdims=True)
    return tensor / norm, norm


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """input with its k-th diagonal replaced (one diagonal; k > 0 above the main one)."""
    x, d = tf.convert_to_tensor(input), tf.convert_to_tensor(diagonal)
    if not isinstance(k, int):
        raise NotImplementedError("tf.linalg.set_diag with a range of diagonals is not implemented in minixla")
    m, n = x.shape[-2], x.shape[-1]
    rows, cols = np.indices((m, n))
    on = tf.constant(cols - rows == k)
    length = int((cols - rows == k).sum())
    if d.shape[-1] != length:
        raise ValueError(f"set_diag: diagonal {k} of a {m}x{n} matrix has {length} entries, got {d.shape[-1]}")
    start = max(-k, 0)  # the row of the diagonal's first entry
    row_of = np.clip(np.arange(m) - start, 0, max(length - 1, 0))
    spread = tf.gather(d, tf.constant(row_of.astype(np.int32)), axis=-1)[..., :, None]  # entry of row i
    return tf.where(on, tf.broadcast_to(spread, x.shape), x)


def tensor_diag(diagonal, name=None):
    d = tf.convert_to_tensor(diagonal)
    shape = d.shape.as_list()
    flat = tf.reshape(d, [-1])
    return tf.reshape(tf.linalg.diag(flat), shape + shape)


def tensor_diag_part(input, name=None):  # noqa: A002
    x = tf.convert_to_tensor(input)
    shape = x.shape.as_list()
    half = len(shape) // 2
    if len(shape) % 2 or shape[:half] != shape[half:]:
        raise ValueError(f"tensor_diag_part: input must have shape D1..Dk,D1..Dk, got {shape}")
    size = int(np.prod(shape[:half]))
    return tf.reshape(tf.linalg.diag_part(tf.reshape(x, [size, size])), shape[:half])


def _tridiagonal_dense(diagonals, diagonals_format):
    if diagonals_format == "matrix":
        return tf.convert_to_tensor(diagonals)
    if diagonals_format == "sequence":
        sup, main, sub = (tf.convert_to_tensor(d) for d in diagonals)
    elif diagonals_format == "compact":
        sup, main, sub = tf.unstack(tf.convert_to_tensor(diagonals), axis=-2)
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    n = main.shape[-1]
    dense = tf.linalg.diag(main)
    if n > 1:
        dense = set_diag(dense, sup[..., :-1], k=1)  # superdiagonal: the last entry is padding
        dense = set_diag(dense, sub[..., 1:], k=-1)  # subdiagonal: the first entry is padding
    return dense


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    return tf.matmul(_tridiagonal_dense(diagonals, diagonals_format), tf.convert_to_tensor(rhs))


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    rhs = tf.convert_to_tensor(rhs)
    if transpose_rhs:
        rhs = tf.linalg.matrix_transpose(rhs)
    return solvers.solve(_tridiagonal_dense(diagonals, diagonals_format), rhs)


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """bands [..., K, n]: lower: row k is the k-th subdiagonal, padded on the left; upper: row
    K-1-k is the k-th superdiagonal, padded on the right (TF's LEFT_RIGHT alignment)."""
    bands = tf.convert_to_tensor(bands)
    k_count, n = bands.shape[-2], bands.shape[-1]
    dense = tf.zeros(bands.shape.as_list()[:-2] + [n, n], bands.dtype)
    for k in range(k_count):
        if k >= n:
            break
        if lower:
            dense = set_diag(dense, bands[..., k, k:], k=-k)
        else:
            dense = set_diag(dense, bands[..., k_count - 1 - k, :n - k], k=k)
    return solvers.triangular_solve(dense, rhs, lower=lower, adjoint=adjoint)


TAYLOR_TERMS = 14


def expm(input, name=None):  # noqa: A002
    """exp(A) = (exp(A / 2^s))^(2^s), the inner one by its Taylor series (|A / 2^s|_1 <= 1/2)."""
    a = solvers._square(input, "MatrixExponential")
    n = a.shape[-1]
    norm = tf.reduce_max(tf.reduce_sum(tf.abs(a), axis=-2))  # the 1-norm (the largest over the batch)
    squarings = tf.maximum(tf.cast(tf.math.ceil(tf.math.log(norm * 2.0 + 1e-30) / np.log(2.0)), tf.int32), 0)
    scaled = a / tf.cast(tf.pow(2.0, tf.cast(squarings, tf.float32)), a.dtype)
    eye = tf.broadcast_to(tf.eye(n, dtype=a.dtype), a.shape)
    result, term = eye, eye
    for k in range(1, TAYLOR_TERMS + 1):
        term = tf.matmul(term, scaled) / float(k)
        result = result + term
    return tf.while_loop(lambda i, r: i < squarings, lambda i, r: (i + 1, tf.matmul(r, r)), [tf.constant(0), result])[1]


def install(tf_module) -> None:
    global tf
    tf = tf_module
    solvers.tf = tf_module
    for fn in (solvers.cholesky, solvers.triangular_solve, solvers.cholesky_solve, solvers.lu, solvers.lu_solve,
               solvers.lu_reconstruct, solvers.lu_matrix_inverse, solvers.solve, solvers.inv, solvers.det,
               solvers.slogdet, solvers.logdet, solvers.lstsq, solvers.qr, solvers.eigh, solvers.eigvalsh,
               solvers.svd, solvers.pinv, solvers.matrix_rank, cross, normalize, set_diag, tensor_diag,
               tensor_diag_part, tridiagonal_matmul, tridiagonal_solve, banded_triangular_solve, expm,
               eigh_tridiagonal):
        setattr(tf_module.linalg, fn.__name__, fn)
    from types import SimpleNamespace

    tf_module.linalg.experimental = SimpleNamespace(conjugate_gradient=conjugate_gradient)
    linear_operators.install(tf_module)


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """Eigen-decomposition of the symmetric tridiagonal matrix with diagonal alpha and off-diagonal beta."""
    if select != "a":
        raise NotImplementedError("tf.linalg.eigh_tridiagonal(select='v'/'i') is not implemented in minixla")
    alpha, beta = tf.convert_to_tensor(alpha), tf.convert_to_tensor(beta)
    dense = tf.linalg.diag(alpha)
    if alpha.shape[-1] > 1:
        dense = set_diag(set_diag(dense, beta, k=1), beta, k=-1)
    w, v = solvers.eigh(dense)
    return w if eigvals_only else (w, v)


class CGState(tuple):
    """tf.linalg.experimental.conjugate_gradient's result: (i, x, r, p, gamma)."""

    def __new__(cls, i, x, r, p, gamma):
        return super().__new__(cls, (i, x, r, p, gamma))

    i = property(lambda self: self[0])
    x = property(lambda self: self[1])
    r = property(lambda self: self[2])
    p = property(lambda self: self[3])
    gamma = property(lambda self: self[4])


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20, name="conjugate_gradient"):
    """CG for a symmetric positive definite operator (a LinearOperator or anything with matvec),
    stopping when |r| <= tol |rhs| or after max_iter steps -- one while loop."""
    rhs = tf.convert_to_tensor(rhs)
    matvec = operator.matvec
    precond = (lambda v: v) if preconditioner is None else preconditioner.matvec
    x0 = tf.zeros_like(rhs) if x is None else tf.convert_to_tensor(x)
    r0 = rhs - matvec(x0)
    z0 = precond(r0)
    gamma0 = tf.reduce_sum(r0 * z0, axis=-1)
    limit = tol * tf.norm(rhs, axis=-1)

    def cond(i, x, r, p, gamma):
        return tf.logical_and(i < max_iter, tf.reduce_any(tf.norm(r, axis=-1) > limit))

    def body(i, x, r, p, gamma):
        q = matvec(p)
        step = gamma / tf.reduce_sum(p * q, axis=-1)
        x = x + step[..., None] * p
        r = r - step[..., None] * q
        z = precond(r)
        new_gamma = tf.reduce_sum(r * z, axis=-1)
        p = z + (new_gamma / gamma)[..., None] * p
        return i + 1, x, r, p, new_gamma

    return CGState(*tf.while_loop(cond, body, [tf.constant(0), x0, r0, z0, gamma0]))
