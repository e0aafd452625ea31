"""Degenerate but legal calls that TensorFlow accepts (bool zeros/ones, a one-tensor concat) and one it
rejects (gather by an empty Python list, which converts to float32 indices): the same answer eagerly,
under a GradientTape (the general eager path), in a tf.function and under jit_compile=True. The
expected values are numpy's; the error is the one TF 2.21 raises (InvalidArgumentError)."""

import numpy as np
import pytest

from minixla import tf

X = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)


def _run(mode, fn, *args):
    if mode == "eager":
        return fn(*args)
    if mode == "tape":
        with tf.GradientTape():
            return fn(*args)
    return tf.function(fn, jit_compile=(mode == "jit"))(*args)


MODES = ["eager", "tape", "function", "jit"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("maker, value", [("zeros", False), ("ones", True)])
def test_bool_zeros_and_ones(mode, maker, value):
    out = _run(mode, lambda: getattr(tf, maker)([2, 3], tf.bool))
    assert out.dtype == tf.bool
    np.testing.assert_array_equal(out.numpy(), np.full((2, 3), value))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat_of_one_tensor_is_that_tensor(mode, axis):
    out = _run(mode, lambda a: tf.concat([a], axis), tf.constant(X))
    np.testing.assert_array_equal(out.numpy(), np.concatenate([X], axis))


def test_concat_of_one_tensor_has_identity_gradient():
    x = tf.Variable(X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.concat([x * 3.0], 0))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.full_like(X, 3.0))


@pytest.mark.parametrize("mode", MODES)
def test_gather_by_empty_list_is_rejected_as_float_indices(mode):
    with pytest.raises(tf.errors.InvalidArgumentError, match="integer"):
        _run(mode, lambda a: tf.gather(a, []), tf.constant(X))


@pytest.mark.parametrize("mode", MODES)
def test_gather_by_empty_int_tensor(mode):
    out = _run(mode, lambda a: tf.gather(a, tf.constant([], tf.int32)), tf.constant(X))
    np.testing.assert_array_equal(out.numpy(), np.take(X, np.array([], np.int32), axis=0))
