"""The first Keras-lite cases: Dense vs numpy, a conv model's shapes, sparse cross-entropy, SGD and Adam
updates, and a compiled training step that agrees with the eager one."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.frontend import tf

R = np.random.default_rng(11)


def test_dense_matches_numpy_and_exposes_variables():
    layer = tf.keras.layers.Dense(3, activation="relu")
    x = R.normal(size=(4, 5)).astype(np.float32)
    y = layer(x).numpy()
    k, b = layer.kernel.numpy(), layer.bias.numpy()
    np.testing.assert_allclose(y, np.maximum(x @ k + b, 0), rtol=1e-5)
    assert [v.shape for v in layer.trainable_variables] == [(5, 3), (3,)]


def test_conv_pool_flatten_model_shapes():
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
                                 tf.keras.layers.MaxPool2D(), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(10)])
    x = R.normal(size=(2, 8, 8, 1)).astype(np.float32)
    assert model(x).shape == (2, 10)
    assert len(model.trainable_variables) == 4


def test_sparse_categorical_crossentropy_from_logits():
    logits = R.normal(size=(6, 4)).astype(np.float32)
    labels = R.integers(0, 4, 6)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits).numpy()
    lsm = logits - logits.max(1, keepdims=True)
    lsm = lsm - np.log(np.exp(lsm).sum(1, keepdims=True))
    np.testing.assert_allclose(loss, -lsm[np.arange(6), labels].mean(), rtol=1e-5)


def test_sgd_momentum_update():
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    g = np.array([0.5, -1.0], np.float32)
    opt.apply_gradients([(tf.constant(g), v)])
    opt.apply_gradients([(tf.constant(g), v)])
    m1 = -0.1 * g
    m2 = 0.9 * m1 - 0.1 * g
    np.testing.assert_allclose(v.numpy(), np.array([1.0, 2.0]) + m1 + m2, rtol=1e-6)
    assert int(opt.iterations.numpy()) == 2


def test_adam_update_matches_hand_computation():
    v = tf.Variable([1.0, -2.0, 3.0])
    opt = tf.keras.optimizers.Adam(learning_rate=0.01)
    w = np.array([1.0, -2.0, 3.0])
    m = s = np.zeros(3)
    for t in range(1, 4):
        g = np.array([0.1, -0.3, 0.7]) * t
        opt.apply_gradients(zip([tf.constant(g.astype(np.float32))], [v]))
        m = m + (g - m) * 0.1
        s = s + (g * g - s) * 0.001
        alpha = 0.01 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        w = w - alpha * m / (np.sqrt(s) + 1e-7)
    np.testing.assert_allclose(v.numpy(), w, rtol=1e-5)


def _train_step_factory(jit, x):
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(4)])
    model(x)  # build the weights now, from this seed
    opt = tf.keras.optimizers.Adam(0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return (step if jit is None else tf.function(step, jit_compile=jit)), model


@pytest.mark.parametrize("jit", [False, True])
def test_compiled_training_step_agrees_with_eager(jit):
    x = R.normal(size=(8, 6)).astype(np.float32)
    y = R.integers(0, 4, 8).astype(np.int32)
    eager, m_eager = _train_step_factory(None, x)
    compiled, m_comp = _train_step_factory(jit, x)
    for _ in range(3):
        le, lc = eager(tf.constant(x), tf.constant(y)), compiled(x, y)
        np.testing.assert_allclose(le.numpy(), lc.numpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(m_eager.trainable_variables, m_comp.trainable_variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-6)
    if jit:
        assert compiled.experimental_get_tracing_count() == 1  # later calls hit the cache
