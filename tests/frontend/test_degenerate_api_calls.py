"""Degenerate but legal calls that TensorFlow accepts (bool zeros/ones, a one-tensor concat) and one it
rejects (gather by an empty Python list, which converts to float32 indices; raw Abs of a complex
tensor, whose magnitude tf.abs takes with ComplexAbs): the same answer eagerly,
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


@pytest.mark.parametrize("mode", ["eager", "function", "jit"])
def test_raw_abs_rejects_complex_and_tf_abs_takes_its_magnitude(mode):
    z = tf.constant(np.array([3 + 4j, -1 - 1j], np.complex64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of complex64"):
        _run(mode, lambda a: tf.raw_ops.Abs(x=a), z)
    out = _run(mode, tf.abs, z)
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), np.abs(z.numpy()), rtol=1e-6)


def test_tf_abs_gradient_of_complex_input():
    z = tf.constant(np.array([3 + 4j, 1 - 2j], np.complex128))
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.reduce_sum(tf.abs(z))
    np.testing.assert_allclose(tape.gradient(y, z).numpy(), z.numpy() / np.abs(z.numpy()), rtol=1e-12)
