"""A tf.py_function result has an unknown static shape inside tf.function (as
in TF); ops after it still trace with unknown result shapes and run with the
real values, and jit_compile=True reports the unsupported EagerPyFunc."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf


def _double(x):
    return x * 2.0


def test_ops_after_py_function_trace_and_run():
    seen = {}

    @tf.function
    def f(x, y):
        h = tf.py_function(_double, [x], tf.float32)
        seen["h"] = h.shape.rank
        z = tf.reduce_sum(tf.nn.relu(h + y) * 3.0, axis=0)
        seen["z"], seen["dtype"] = z.shape.rank, z.dtype
        return z, tf.cast(h, tf.int32)

    x = np.array([[1.0, -2.5], [0.5, 4.0]], np.float32)
    y = np.array([1.0, 2.0], np.float32)
    z, hi = f(tf.constant(x), tf.constant(y))
    assert seen == {"h": None, "z": None, "dtype": tf.float32}
    np.testing.assert_allclose(z.numpy(), (np.maximum(2 * x + y, 0) * 3).sum(0), rtol=1e-6)
    np.testing.assert_array_equal(hi.numpy(), (2 * x).astype(np.int32))


def test_shape_errors_still_reported_at_run_time():
    @tf.function
    def f(x):
        return tf.py_function(_double, [x], tf.float32) + tf.ones([3])

    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        f(tf.constant([1.0, 2.0]))


def test_jit_reports_the_host_op():
    f = tf.function(lambda x: tf.py_function(_double, [x], tf.float32) + 1.0, jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="No registered 'EagerPyFunc' OpKernel for XLA_CPU_JIT"):
        f(tf.constant([1.0]))


def test_ensure_shape_gives_a_py_function_result_its_shape():
    """As in TF: the static shape after tf.ensure_shape is the checked one; the check runs with the value."""
    seen = {}

    @tf.function
    def f(x):
        h = tf.ensure_shape(tf.py_function(_double, [x], tf.float32), [2, 3])
        seen["shape"] = h.shape.as_list()
        return tf.reduce_sum(h, axis=1)

    x = np.array([[1.0, -2.5, 3.0], [0.5, 4.0, 1.0]], np.float32)
    np.testing.assert_allclose(f(tf.constant(x)).numpy(), (2 * x).sum(axis=1))
    assert seen["shape"] == [2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not compatible with expected shape"):
        f(tf.constant(np.ones((3, 3), np.float32)))


def test_reductions_over_all_axes_of_an_unknown_rank():
    """axis=None reduces every axis of the value the graph meets at run time (TF: range(rank(x)))."""
    @tf.function
    def f(x):
        h = tf.py_function(_double, [x], tf.float32)
        return tf.reduce_sum(h), tf.reduce_mean(h), tf.reduce_max(h), tf.reduce_any(h > 7.0)

    x = np.array([[1.0, -2.5, 3.0], [0.5, 4.0, 2.0]], np.float32)
    total, mean, top, anything = f(tf.constant(x))
    np.testing.assert_allclose([total.numpy(), mean.numpy(), top.numpy()],
                               [(2 * x).sum(), (2 * x).mean(), (2 * x).max()], rtol=1e-6)
    assert anything.numpy() == bool((2 * x > 7).any())
    x_t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x_t)
        m = f(x_t)[1]
    np.testing.assert_allclose(tape.gradient(m, x_t).numpy(), np.full_like(x, 2.0 / x.size))


def test_keepdims_over_all_axes_of_an_unknown_rank_is_a_clear_error():
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.py_function(_double, [x], tf.float32), keepdims=True)

    with pytest.raises(ValueError, match="keepdims=True needs the input's rank"):
        f(tf.constant([1.0, 2.0]))


def test_logsumexp_of_an_unknown_rank():
    """TF's composite drops the reduced axes of its max; tracing cannot read them from a static shape here."""
    @tf.function
    def f(x):
        h = tf.py_function(_double, [x], tf.float32)
        return tf.math.reduce_logsumexp(h), tf.math.reduce_logsumexp(h, axis=1)

    x = np.array([[1.0, -2.5, 3.0], [0.5, 40.0, 2.0]], np.float32)
    h = 2.0 * x.astype(np.float64)

    def want(axis):
        m = h.max(axis=axis, keepdims=True)
        return np.squeeze(m, axis=axis) + np.log(np.exp(h - m).sum(axis=axis))

    every, rows = f(tf.constant(x))
    np.testing.assert_allclose(every.numpy(), want(None), rtol=1e-6)
    np.testing.assert_allclose(rows.numpy(), want(1), rtol=1e-6)
