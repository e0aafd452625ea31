"""tf.raw_ops gradient kernels, older op names and small ops (frontend/ops/raw_grad_ops.py,
raw_alias_ops.py) against real TensorFlow 2.21 (tests/golden/raw/, recorded by `record_tf_goldens.py
--cases tests/frontend/raw_cases.py --out tests/golden/raw`): every case eagerly, in tf.function and
under jit_compile=True, forward and gradient (where TF has one), plus numpy references where the
table has them. Tolerance 1e-5 (float32 elementwise; reductions and convolutions sum in another order).
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.raw_cases import CASES
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "raw"
TABLE = "tests/frontend/raw_cases.py"
TOL = 1e-5
TOLERANCE = dict.fromkeys(CASES, TOL)
TOLERANCE.update(dict.fromkeys([n for n in CASES if "conv" in n or "depthwise" in n or "matmul" in n], 2e-5))
NAMES = sorted(CASES)


# compiling these takes 2-4 s each on 2 cores (while loops, HSV round trips, unrolled Gauss-Jordan):
# `python -m pytest -m slow` (raw_matrix_solve keeps one Gauss-Jordan compile in the default run)
SLOW_JIT = {"raw_igamma", "raw_igammac", "raw_igamma_grad_a", "raw_adjust_hue", "raw_adjust_hue_neg",
            "raw_adjust_saturation", "raw_matrix_inverse", "raw_matrix_inverse_adjoint", "raw_matrix_solve_adjoint",
            "raw_tridiagonal_solve"}
FORWARD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" and n in SLOW_JIT else (n, m)
                 for n in NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", FORWARD_CASES)
def test_raw_forward_against_tensorflow(name, mode):
    replay.check_forward(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, TOLERANCE[name])


GRAD_NAMES = [n for n in NAMES if replay.has_gradient(GOLDEN, n)]
# gradients under jit compile a second program per case (~25 s for all on 2 cores): `python -m pytest -m slow`
GRAD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" else (n, m) for n in GRAD_NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", GRAD_CASES)
def test_raw_gradient_against_tensorflow(name, mode):
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 4 * TOLERANCE[name])


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_raw_against_numpy(name):
    fn, inputs, want = CASES[name]
    got = fn(tf, *[tf.constant(a) for a in inputs])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


def test_check_numerics_raises_on_nan():
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad : Tensor had NaN values"):
        tf.raw_ops.CheckNumerics(tensor=tf.constant([1.0, np.nan]), message="bad")


def test_invert_permutation_rejects_a_non_permutation():
    with pytest.raises(tf.errors.InvalidArgumentError, match="InvertPermutation"):
        tf.raw_ops.InvertPermutation(x=tf.constant([0, 0, 1]))


def test_cholesky_of_a_non_positive_definite_matrix_is_tf_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cholesky decomposition was not successful"):
        tf.raw_ops.Cholesky(input=tf.constant([[1.0, 2.0], [2.0, 1.0]]))


def test_matrix_inverse_of_a_singular_matrix_is_tf_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
        tf.raw_ops.MatrixInverse(input=tf.constant([[1.0, 2.0], [2.0, 4.0]]))


def test_broadcast_gradient_args_rejects_incompatible_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        tf.raw_ops.BroadcastGradientArgs(s0=tf.constant([2, 3]), s1=tf.constant([4]))
