"""tf.linalg factorization/solver cases, recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/linalg_cases.py --out tests/golden/linalg` and
replayed by tests/frontend/test_linalg_goldens.py. Same format as op_cases.py; numpy only.

Cases whose outputs are unique up to sign (eigenvectors, singular vectors) return sign-free
quantities (reconstructions, |v|), so they compare with any correct implementation.
"""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(11)

A = R.standard_normal((2, 4, 4)).astype(np.float32)
A3 = R.standard_normal((3, 3)).astype(np.float32)
SPD = (A @ A.transpose(0, 2, 1) + 4 * np.eye(4)).astype(np.float32)
LOWER = np.tril(R.standard_normal((2, 4, 4))).astype(np.float32) + 3 * np.eye(4, dtype=np.float32)
B = R.standard_normal((2, 4, 3)).astype(np.float32)
TALL = R.standard_normal((5, 3)).astype(np.float32)
WIDE = R.standard_normal((2, 5)).astype(np.float32)
RB = R.standard_normal((5, 2)).astype(np.float32)
V3 = R.standard_normal((4, 3)).astype(np.float32)
TRI = np.stack([R.uniform(0.1, 1, 5), R.uniform(3, 4, 5), R.uniform(0.1, 1, 5)]).astype(np.float32)
TRI_RHS = R.standard_normal((5, 2)).astype(np.float32)
BANDS = np.concatenate([R.uniform(2, 3, (1, 5)), R.standard_normal((1, 5))]).astype(np.float32)


def _eig_abs(tf, x):
    w, v = tf.linalg.eigh(x)
    return w, tf.abs(v)


def _svd_parts(tf, x):
    s, u, v = tf.linalg.svd(x)
    return s, tf.matmul(u * s[..., None, :], v, transpose_b=True)


CASES = {
    "la_cholesky": (lambda tf, x: tf.linalg.cholesky(x), [SPD], np.linalg.cholesky(SPD)),
    "la_triangular_solve": (lambda tf, m, b: tf.linalg.triangular_solve(m, b), [LOWER, B], np.linalg.solve(LOWER, B)),
    "la_triangular_solve_adjoint": (lambda tf, m, b: tf.linalg.triangular_solve(m, b, adjoint=True), [LOWER, B],
                                    np.linalg.solve(LOWER.transpose(0, 2, 1), B)),
    "la_triangular_solve_upper": (lambda tf, m, b: tf.linalg.triangular_solve(m, b, lower=False),
                                  [LOWER.transpose(0, 2, 1).copy(), B], np.linalg.solve(LOWER.transpose(0, 2, 1), B)),
    "la_cholesky_solve": (lambda tf, s, b: tf.linalg.cholesky_solve(tf.linalg.cholesky(s), b), [SPD, B],
                          np.linalg.solve(SPD, B)),
    "la_solve": (lambda tf, a, b: tf.linalg.solve(a, b), [A, B], np.linalg.solve(A, B)),
    "la_solve_adjoint": (lambda tf, a, b: tf.linalg.solve(a, b, adjoint=True), [A, B],
                         np.linalg.solve(A.transpose(0, 2, 1), B)),
    "la_inv": (lambda tf, a: tf.linalg.inv(a), [A], np.linalg.inv(A)),
    "la_det": (lambda tf, a: tf.linalg.det(a), [A], np.linalg.det(A)),
    "la_det_3x3": (lambda tf, a: tf.linalg.det(a), [A3], np.linalg.det(A3)),
    "la_slogdet": (lambda tf, a: tf.linalg.slogdet(a), [A], None),
    "la_logdet": (lambda tf, s: tf.linalg.logdet(s), [SPD], np.linalg.slogdet(SPD)[1]),
    "la_lu": (lambda tf, a: tf.linalg.lu(a), [A], None),
    "la_lu_reconstruct": (lambda tf, a: tf.linalg.lu_reconstruct(*tf.linalg.lu(a)), [A], A),
    "la_lu_solve": (lambda tf, a, b: tf.linalg.lu_solve(*tf.linalg.lu(a), b), [A, B], np.linalg.solve(A, B)),
    "la_lu_matrix_inverse": (lambda tf, a: tf.linalg.lu_matrix_inverse(*tf.linalg.lu(a)), [A], np.linalg.inv(A)),
    "la_qr": (lambda tf, a: tf.linalg.qr(a), [A], None),
    "la_qr_tall": (lambda tf, a: tf.linalg.qr(a), [TALL], None),
    "la_qr_full": (lambda tf, a: tf.linalg.qr(a, full_matrices=True), [TALL], None),
    "la_eigh": (_eig_abs, [SPD], None),
    "la_eigvalsh": (lambda tf, s: tf.linalg.eigvalsh(s), [SPD], np.linalg.eigvalsh(SPD)),
    "la_svd_values": (lambda tf, a: tf.linalg.svd(a, compute_uv=False), [A], np.linalg.svd(A, compute_uv=False)),
    "la_svd_parts": (_svd_parts, [TALL], None),
    "la_svd_wide": (lambda tf, a: tf.linalg.svd(a, compute_uv=False), [WIDE], np.linalg.svd(WIDE, compute_uv=False)),
    "la_pinv": (lambda tf, a: tf.linalg.pinv(a), [TALL], np.linalg.pinv(TALL)),
    "la_matrix_rank": (lambda tf, a: tf.linalg.matrix_rank(tf.matmul(a, a[:2], transpose_b=True)), [TALL], None),
    "la_lstsq": (lambda tf, a, b: tf.linalg.lstsq(a, b), [TALL, RB], None),
    "la_lstsq_wide": (lambda tf, a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.1), [WIDE, TALL[:2, :2]], None),
    "la_expm": (lambda tf, a: tf.linalg.expm(a * 0.8), [A], None),
    "la_cross": (lambda tf, a, b: tf.linalg.cross(a, b), [V3, V3[::-1].copy()], np.cross(V3, V3[::-1])),
    "la_normalize": (lambda tf, a: tf.linalg.normalize(a, axis=-1), [V3], None),
    "la_set_diag": (lambda tf, a, d: tf.linalg.set_diag(a, d), [A, B[:, :, 0].copy()], None),
    "la_set_diag_k": (lambda tf, a, d: tf.linalg.set_diag(a, d, k=1), [A, B[:, :3, 1].copy()], None),
    "la_tensor_diag": (lambda tf, d: tf.linalg.tensor_diag(d), [V3[:2, :2].copy()], None),
    "la_tensor_diag_part": (lambda tf, x: tf.linalg.tensor_diag_part(x), [A[0].reshape(2, 2, 2, 2).copy()], None),
    "la_tridiagonal_matmul": (lambda tf, d, r: tf.linalg.tridiagonal_matmul(d, r), [TRI, TRI_RHS], None),
    "la_tridiagonal_solve": (lambda tf, d, r: tf.linalg.tridiagonal_solve(d, r), [TRI, TRI_RHS], None),
    "la_banded_triangular_solve": (lambda tf, b, r: tf.linalg.banded_triangular_solve(b, r), [BANDS, TRI_RHS], None),
    "la_banded_triangular_solve_upper": (lambda tf, b, r: tf.linalg.banded_triangular_solve(b[::-1], r, lower=False),
                                         [BANDS, TRI_RHS], None),
}

D = R.uniform(1.0, 2.0, (2, 3)).astype(np.float32)
M3 = R.standard_normal((2, 3, 3)).astype(np.float32) + 3 * np.eye(3, dtype=np.float32)
X3 = R.standard_normal((2, 3, 2)).astype(np.float32)
U3 = R.standard_normal((3, 1)).astype(np.float32)
K2 = R.standard_normal((2, 2)).astype(np.float32) + 2 * np.eye(2, dtype=np.float32)
ALPHA, BETA = R.uniform(2, 3, 5).astype(np.float32), R.uniform(-1, 1, 4).astype(np.float32)
SPD3 = (M3 @ M3.transpose(0, 2, 1)).astype(np.float32)
RHS3 = R.standard_normal((2, 3)).astype(np.float32)


def _op_summary(op, x):
    """What a LinearOperator computes: its dense form, op @ x, op^-1 x, and its log |det|."""
    return op.to_dense(), op.matmul(x), op.solve(x), op.log_abs_determinant()


CASES.update({
    "la_op_full_matrix": (lambda tf, m, x: _op_summary(tf.linalg.LinearOperatorFullMatrix(m), x), [M3, X3], None),
    "la_op_lower_triangular": (lambda tf, m, x: _op_summary(tf.linalg.LinearOperatorLowerTriangular(m), x),
                               [M3, X3], None),
    "la_op_diag": (lambda tf, d, x: _op_summary(tf.linalg.LinearOperatorDiag(d), x), [D, X3], None),
    "la_op_scaled_identity": (lambda tf, x: tf.linalg.LinearOperatorScaledIdentity(3, 2.5).matmul(x), [X3], 2.5 * X3),
    "la_op_identity": (lambda tf, x: tf.linalg.LinearOperatorIdentity(3, batch_shape=[2]).matmul(x), [X3], X3),
    "la_op_zeros": (lambda tf, x: tf.linalg.LinearOperatorZeros(3, batch_shape=[2]).matmul(x), [X3], 0 * X3),
    "la_op_adjoint": (lambda tf, m, x: tf.linalg.LinearOperatorAdjoint(tf.linalg.LinearOperatorFullMatrix(m))
                      .matmul(x), [M3, X3], M3.transpose(0, 2, 1) @ X3),
    "la_op_inversion": (lambda tf, m, x: tf.linalg.LinearOperatorInversion(tf.linalg.LinearOperatorFullMatrix(m))
                        .matmul(x), [M3, X3], np.linalg.solve(M3, X3)),
    "la_op_composition": (lambda tf, m, d, x: tf.linalg.LinearOperatorComposition(
        [tf.linalg.LinearOperatorFullMatrix(m), tf.linalg.LinearOperatorDiag(d)]).to_dense(), [M3, D, X3], None),
    "la_op_kronecker": (lambda tf, a, b: tf.linalg.LinearOperatorKronecker(
        [tf.linalg.LinearOperatorFullMatrix(a), tf.linalg.LinearOperatorFullMatrix(b)]).to_dense(), [K2, M3[0]],
        np.kron(K2, M3[0])),
    "la_op_block_diag": (lambda tf, a, b: tf.linalg.LinearOperatorBlockDiag(
        [tf.linalg.LinearOperatorFullMatrix(a), tf.linalg.LinearOperatorFullMatrix(b)]).to_dense(), [K2, M3[0]],
        None),
    "la_op_block_lower_triangular": (lambda tf, a, b, c: tf.linalg.LinearOperatorBlockLowerTriangular(
        [[tf.linalg.LinearOperatorFullMatrix(a)],
         [tf.linalg.LinearOperatorFullMatrix(b), tf.linalg.LinearOperatorFullMatrix(c)]]).to_dense(),
        [K2, M3[0, :, :2].copy(), M3[1]], None),
    "la_op_permutation": (lambda tf, x: tf.linalg.LinearOperatorPermutation([2, 0, 1]).matmul(x), [X3], X3[:, [2, 0, 1]]),
    "la_op_householder": (lambda tf, v, x: tf.linalg.LinearOperatorHouseholder(v).matmul(x), [D, X3], None),
    "la_op_low_rank_update": (lambda tf, m, u: tf.linalg.LinearOperatorLowRankUpdate(
        tf.linalg.LinearOperatorFullMatrix(m[0]), u).to_dense(), [M3, U3], M3[0] + U3 @ U3.T),
    "la_op_toeplitz": (lambda tf, c, r: tf.linalg.LinearOperatorToeplitz(c, r).to_dense(), [D[0], D[1]], None),
    "la_op_tridiag": (lambda tf, d, x: tf.linalg.LinearOperatorTridiag(d).matmul(x), [TRI, TRI_RHS], None),
    "la_eigh_tridiagonal": (lambda tf, a, b: tf.linalg.eigh_tridiagonal(a, b), [ALPHA, BETA], None),
    "la_conjugate_gradient": (lambda tf, s, b: tf.linalg.experimental.conjugate_gradient(
        tf.linalg.LinearOperatorFullMatrix(s, is_self_adjoint=True, is_positive_definite=True), b, max_iter=10,
        tol=1e-6).x, [SPD3, RHS3], None),
})
