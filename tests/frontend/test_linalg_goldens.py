"""tf.linalg factorizations and solvers (frontend/api/linalg_solvers.py, linalg_extras.py) against
real TensorFlow 2.21 (tests/golden/linalg/, recorded by `record_tf_goldens.py --cases
tests/frontend/linalg_cases.py --out tests/golden/linalg`): every case eagerly, in tf.function and
under jit_compile=True, forward and gradient, plus numpy references where the table has them.

Tolerances (rtol = atol): SOLVE = 2e-5 for factorizations and solves (float32; TF calls LAPACK/
Eigen, we run the textbook loops: the same algorithms, other summation orders, and errors grow
with the condition number, here below 100); ITERATIVE = 1e-4 for Jacobi eigen/singular values,
expm and least squares through the normal equations (which square the condition number).
Gradients get twice the forward tolerance, and 1e-3 where TF's own gradient goes through an
explicit inverse (det, slogdet, inverses).
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.linalg_cases import CASES
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "linalg"
TABLE = "tests/frontend/linalg_cases.py"
SOLVE, ITERATIVE = 2e-5, 1e-4
TOLERANCE = {name: SOLVE for name in CASES}
TOLERANCE.update(dict.fromkeys(["la_eigh", "la_eigvalsh", "la_svd_values", "la_svd_parts", "la_svd_wide", "la_pinv",
                                "la_lstsq", "la_lstsq_wide", "la_expm", "la_matrix_rank"], ITERATIVE))
GRAD_TOLERANCE = {name: 2 * tol for name, tol in TOLERANCE.items()}
GRAD_TOLERANCE.update(dict.fromkeys(["la_det", "la_det_3x3", "la_slogdet", "la_inv", "la_lu_matrix_inverse",
                                     "la_solve", "la_solve_adjoint", "la_lu_solve", "la_pinv", "la_expm"], 1e-3))
NAMES = sorted(CASES)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_linalg_forward_against_tensorflow(name, mode):
    replay.check_forward(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, TOLERANCE[name])


#: cases whose TF gradient is not the derivative (compared with the analytic one below instead)
NOT_TF_GRADIENT = {"la_eigh_tridiagonal"}  # TF differentiates its bisection loop: mostly zeros
GRAD_NAMES = [n for n in NAMES if replay.has_gradient(GOLDEN, n) and n not in NOT_TF_GRADIENT]


# Gradients of the loop-expanded solvers compile slowly under jit (10-30 s each on 2 cores), and
# those through the Jacobi sweeps also in tf.function: these run with `python -m pytest -m slow`.
JACOBI = ("la_eigh", "la_eigvalsh", "la_svd", "la_pinv", "la_matrix_rank")
GRAD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" or (m == "function" and n.startswith(JACOBI))
              else (n, m) for n in GRAD_NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", GRAD_CASES)
def test_linalg_gradient_against_tensorflow(name, mode):
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, GRAD_TOLERANCE[name])


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_linalg_against_numpy(name):
    fn, inputs, want = CASES[name]
    got = fn(tf, *[tf.constant(a) for a in inputs])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


def test_expm_against_its_series_in_float64():
    a = np.random.default_rng(5).standard_normal((3, 3)) * 1.5
    want, term = np.eye(3), np.eye(3)
    for k in range(1, 60):
        term = term @ a / k
        want = want + term
    np.testing.assert_allclose(tf.linalg.expm(tf.constant(a)).numpy(), want, rtol=1e-10, atol=1e-10)


def test_non_square_input_is_a_clear_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cholesky: input must be a square matrix"):
        tf.linalg.cholesky(tf.zeros([2, 3]))


def test_eigh_tridiagonal_gradient_is_analytic():
    """d(sum u w)/d alpha_i = sum_k u_k v_ik^2 and d/d beta_i = 2 sum_k u_k v_ik v_(i+1)k."""
    data = replay.load(GOLDEN, "la_eigh_tridiagonal", TABLE)
    a, b, up = (tf.constant(data[k]) for k in ("input_0", "input_1", "upstream"))
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        w = tf.linalg.eigh_tridiagonal(a, b)
    ga, gb = tape.gradient(w, [a, b], output_gradients=up)
    t = np.diag(data["input_0"]) + np.diag(data["input_1"], 1) + np.diag(data["input_1"], -1)
    _, v = np.linalg.eigh(t.astype(np.float64))
    u = data["upstream"].astype(np.float64)
    np.testing.assert_allclose(ga.numpy(), v ** 2 @ u, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gb.numpy(), [2 * np.sum(u * v[i] * v[i + 1]) for i in range(len(v) - 1)],
                               rtol=1e-4, atol=1e-4)
