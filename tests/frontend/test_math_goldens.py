"""tf.math breadth (frontend/api/math_extras.py, math_special.py) against real TensorFlow 2.21
(tests/golden/math/, recorded by `record_tf_goldens.py --cases tests/frontend/math_cases.py --out
tests/golden/math`): every case eagerly, in tf.function and under jit_compile=True (or TF's own jit
error where TF cannot compile the case: the sorted segment reductions), forward and gradient, plus
numpy references where the table has them.

Tolerances (rtol = atol): EXACT = 1e-5 for the compositions; SPECIAL = 1e-4 for the special functions,
which TF evaluates with Eigen/Cephes kernels eagerly and we with XLA's approximations (Lanczos,
Chebyshev, Giles), so the last few ulps differ, and more in the derivatives of those approximations;
DOUBLE = 1e-9 for the float64 cases (1e-6 for their gradients).
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.math_cases import CASES
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "math"
TABLE = "tests/frontend/math_cases.py"
EXACT, SPECIAL, DOUBLE = 1e-5, 1e-4, 1e-9
TOLERANCE = {name: DOUBLE if name.endswith("_f64") else SPECIAL if name.startswith("sp_") else EXACT for name in CASES}
#: the derivatives of the approximations are less exact than the approximations
GRAD_TOLERANCE = {name: 1e-6 if tol == DOUBLE else 2 * tol for name, tol in TOLERANCE.items()}
NAMES = sorted(CASES)


def _jit_error(data: dict, fn) -> None:
    """TF cannot compile the case: the same error type, message and unsupported op names."""
    err_type, message = str(data["jit_error"]).split(": ", 1)
    tensors = [tf.constant(a) for a in replay._inputs(data)]
    with pytest.raises(getattr(tf.errors, err_type)) as info:
        tf.function(lambda *a: fn(tf, *a), jit_compile=True)(*tensors)
    assert str(info.value).startswith(message.split(" graph ")[0])
    for op in data["jit_unsupported_ops"].tolist():
        assert f"No registered '{op}' OpKernel for XLA_CPU_JIT" in str(info.value), (op, str(info.value))


#: jit compiles of the while-loop cases take ~4 s each on 2 cores; igamma's float32 case keeps the loops
#: compiled in the default run, and these (the same loops) run with `python -m pytest -m slow`
SLOW_JIT_FORWARD = ("sp_igammac", "sp_igamma_f64")
FORWARD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" and n in SLOW_JIT_FORWARD else (n, m)
                 for n in NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", FORWARD_CASES)
def test_math_forward_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    if mode == "jit" and "jit_error" in data:
        _jit_error(data, CASES[name][0])
        return
    replay.check_forward(data, CASES[name][0], name, mode, TOLERANCE[name])


GRAD_NAMES = [n for n in NAMES if replay.has_gradient(GOLDEN, n)]
# Gradients under jit compile the forward and backward programs together (0.3-10 s each on 2 cores, ~25 s
# in all): like linalg's, they run with `python -m pytest -m slow`.
GRAD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" else (n, m) for n in GRAD_NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", GRAD_CASES)
def test_math_gradient_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    if mode == "jit" and "jit_error" in data:
        pytest.skip("TensorFlow cannot compile this case (the forward test checks the error)")
    replay.check_gradient(data, CASES[name][0], name, mode, GRAD_TOLERANCE[name])


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_math_against_numpy(name):
    fn, inputs, want = CASES[name]
    got = fn(tf, *[tf.constant(a) for a in inputs])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)


def test_unsorted_segment_ids_out_of_range_are_dropped():
    got = tf.math.unsorted_segment_max(tf.constant([1.0, 5.0, 3.0]), tf.constant([0, 7, -1]), 2)
    np.testing.assert_array_equal(got.numpy(), [1.0, np.finfo(np.float32).min])


@pytest.mark.parametrize("jit", [False, True])
def test_unsorted_segment_sum_gradient_is_zero_for_dropped_ids(jit):
    """TF's gradient gathers with _GatherDropNegatives: skipped rows (id < 0 or >= n) get 0."""
    data = np.arange(10, dtype=np.float32).reshape(5, 2) + 1
    ids = np.array([0, -1, 2, 7, 0], np.int32)
    weight = np.array([[3.0, -1.0], [5.0, 2.0], [0.5, 4.0]], np.float32)

    def loss_and_grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.math.unsorted_segment_sum(x, tf.constant(ids), 3) * weight)
        return tape.gradient(loss, x)

    fn = tf.function(loss_and_grad, jit_compile=True) if jit else loss_and_grad
    kept = (ids >= 0) & (ids < 3)
    want = np.where(kept[:, None], weight[np.clip(ids, 0, 2)], 0.0)
    np.testing.assert_array_equal(fn(tf.constant(data)).numpy(), want)


def test_segment_ids_must_be_sorted():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Segment id 1 out of range"):
        tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 2, 1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Segment id -1 out of range \[0, 1\)"):
        tf.math.segment_sum(tf.constant([1.0, 2.0]), tf.constant([-1, 0]))


#: bad input raises TF 2.21's error type and message (recorded by hand from real TF)
BAD_INPUT = {
    "lgamma_int": (lambda: tf.math.lgamma(tf.constant([1, 2])), tf.errors.InvalidArgumentError,
                   "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double"),
    "invert_permutation_2d": (lambda: tf.math.invert_permutation(tf.constant([[0, 1]])),
                              tf.errors.InvalidArgumentError, "invert_permutation expects a 1D vector"),
    "lbeta_scalar": (lambda: tf.math.lbeta(tf.constant(2.0)), tf.errors.InvalidArgumentError,
                     "Invalid reduction dimension"),
    "nextafter_f16": (lambda: tf.math.nextafter(tf.constant([1.0], tf.float16), tf.constant([2.0], tf.float16)),
                      tf.errors.InvalidArgumentError, "Value for attr 'T' of half is not in the list"),
    "unsorted_segment_ids_shape": (lambda: tf.math.unsorted_segment_max(tf.constant([1.0, 2.0]),
                                                                        tf.constant([0, 1, 1]), 2),
                                   tf.errors.InvalidArgumentError, "does not start with segment_ids.shape"),
    "approx_k_too_big": (lambda: tf.math.approx_max_k(tf.constant([[1.0, 2.0]]), 3), tf.errors.InvalidArgumentError,
                         "input must have at least k columns. Had 2, needed 3"),
    "polyval_not_list": (lambda: tf.math.polyval(tf.constant([1.0, 2.0]), 2.0), ValueError,
                         "Argument coeffs must be list type"),
    "sobol_dim_0": (lambda: tf.math.sobol_sample(0, 2), tf.errors.InvalidArgumentError, "dim must be at least one"),
    "sobol_negative_skip": (lambda: tf.math.sobol_sample(2, 2, skip=-1), tf.errors.InvalidArgumentError,
                            "skip must be non-negative"),
    "sobol_beyond_table": (lambda: tf.math.sobol_sample(22, 2), NotImplementedError,
                           "more than 21 dimensions is not implemented in minixla"),
    "in_top_k_float_targets": (lambda: tf.math.in_top_k(tf.constant([0.0]), tf.constant([[1.0, 2.0]]), 1),
                               tf.errors.InvalidArgumentError, "Value for attr 'T' of float"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUT))
def test_bad_input_raises_tensorflows_error(name):
    fn, err, message = BAD_INPUT[name]
    with pytest.raises(err) as info:
        fn()
    assert message in str(info.value)
