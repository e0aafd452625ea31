"""A gather's gradient is `tf.IndexedSlices` (one row per id, repeated ids not summed), and every
Keras optimizer applies it as Keras does on TensorFlow: goldens recorded from real TF
(tests/golden/keras/sparse_optimizer_*.npz: three steps of a squared-gather loss with a repeated id),
eagerly and in a compiled step; plus the IndexedSlices API against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.frontend import tf

from tests.frontend.keras import keras_cases as cases
from tests.frontend.keras.golden import load

keras = tf.keras


def _gather_loss_gradient(w, ids, r):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(w, ids) ** 2 * r)
    return tape.gradient(loss, w)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name,cls,kwargs", cases.OPTIMIZERS, ids=[c[0] for c in cases.OPTIMIZERS])
def test_optimizer_applies_indexed_slices_like_keras(name, cls, kwargs, jit):
    g = load("sparse_optimizer", name)
    w = tf.Variable(g["w0"])
    opt = getattr(keras.optimizers, cls)(**kwargs)

    def step(ids, r):
        grad = _gather_loss_gradient(w, ids, r)
        opt.apply_gradients([(grad, w)])
        return grad.values

    run = tf.function(step, jit_compile=True) if jit else step
    for i in range(cases.OPTIMIZER_STEPS):
        values = run(tf.constant(g[f"ids{i}"]), tf.constant(g[f"r{i}"]))
        np.testing.assert_allclose(values.numpy(), g[f"values{i}"], rtol=1e-5, atol=1e-6, err_msg=f"rows {i}")
        np.testing.assert_allclose(w.numpy(), g[f"w{i + 1}"], rtol=1e-5, atol=1e-6, err_msg=f"step {i + 1}")


def test_gather_gradient_is_rows_per_id():
    w0 = np.arange(12, dtype=np.float32).reshape(4, 3)
    ids = np.array([1, 3, 1], np.int32)
    scale = np.array([[1.0], [2.0], [3.0]], np.float32)
    for source in (tf.Variable(w0), tf.constant(w0)):
        with tf.GradientTape() as tape:
            tape.watch(source)
            y = tf.reduce_sum(tf.gather(source, ids) * scale)
        g = tape.gradient(y, source)
        assert isinstance(g, tf.IndexedSlices)
        np.testing.assert_array_equal(g.indices.numpy(), ids)
        np.testing.assert_array_equal(g.values.numpy(), np.broadcast_to(scale, (3, 3)))
        np.testing.assert_array_equal(g.dense_shape.numpy(), [4, 3])
        assert g.dense_shape.dtype == tf.int32 and g.dtype == tf.float32 and g.shape.as_list() == [4, 3]
        dense = np.zeros_like(w0)
        np.add.at(dense, ids, np.broadcast_to(scale, (3, 3)))
        np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), dense)
        np.testing.assert_array_equal(tf.multiply(g, 2.0).numpy(), 2 * dense)  # ops take it densified
        with pytest.raises(TypeError):
            g * 2.0  # like TF: no arithmetic operators on IndexedSlices


def test_source_read_densely_too_gets_a_tensor():
    w = tf.Variable(np.ones((4, 2), np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(w, [0, 0, 2])) + tf.reduce_sum(w * 3.0)
    g = tape.gradient(y, w)
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(g.numpy(), [[5, 5], [3, 3], [4, 4], [3, 3]])


def test_two_gathers_concatenate_rows_in_forward_order():
    w = tf.Variable(np.ones((5, 2), np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(w, [4, 1])) + 2.0 * tf.reduce_sum(tf.gather(w, [1]))
    g = tape.gradient(y, w)
    np.testing.assert_array_equal(g.indices.numpy(), [4, 1, 1])
    np.testing.assert_array_equal(g.values.numpy(), [[1, 1], [1, 1], [2, 2]])


def test_compiled_function_returns_indexed_slices():
    w = tf.Variable(np.arange(8, dtype=np.float32).reshape(4, 2))

    @tf.function(jit_compile=True)
    def grad(ids):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(w, ids) ** 2)
        return tape.gradient(y, w)

    g = grad(tf.constant([3, 0, 3]))
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.indices.numpy(), [3, 0, 3])
    np.testing.assert_array_equal(g.values.numpy(), 2 * np.arange(8, dtype=np.float32).reshape(4, 2)[[3, 0, 3]])
    np.testing.assert_array_equal(np.asarray(g), [[0, 2], [0, 0], [0, 0], [24, 28]])


def test_jacobian_of_a_gather_is_dense():
    w = tf.Variable(np.ones((3, 2), np.float32))
    with tf.GradientTape() as tape:
        y = tf.gather(w, [2, 2])[:, 0]
    jac = tape.jacobian(y, w)
    assert isinstance(jac, tf.Tensor) and jac.shape.as_list() == [2, 3, 2]
    want = np.zeros((2, 3, 2), np.float32)
    want[:, 2, 0] = 1
    np.testing.assert_array_equal(jac.numpy(), want)
