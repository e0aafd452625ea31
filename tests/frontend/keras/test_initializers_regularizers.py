"""Initializers against Keras' formulas (the draws are minixla's own numpy stream, so their
statistics are checked on large shapes) and regularizers against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.frontend import tf

keras = tf.keras
SHAPE = (400, 300)
FAN_IN, FAN_OUT = 400, 300


@pytest.mark.parametrize("name,std", [
    ("glorot_uniform", np.sqrt(2.0 / (FAN_IN + FAN_OUT))),
    ("glorot_normal", np.sqrt(2.0 / (FAN_IN + FAN_OUT))),
    ("he_uniform", np.sqrt(2.0 / FAN_IN)),
    ("he_normal", np.sqrt(2.0 / FAN_IN)),
    ("lecun_uniform", np.sqrt(1.0 / FAN_IN)),
    ("lecun_normal", np.sqrt(1.0 / FAN_IN)),
    ("random_normal", 0.05),
    ("random_uniform", 0.1 / np.sqrt(12)),
    ("truncated_normal", 0.05 * 0.8796256610342398),
])
def test_initializer_statistics_follow_keras(name, std):
    keras.utils.set_random_seed(0)
    w = keras.initializers.get(name)(SHAPE, "float32")
    assert w.dtype == np.float32 and w.shape == SHAPE
    assert abs(w.mean()) < 0.05 * std  # the mean of 120,000 draws is within std/346 of 0
    np.testing.assert_allclose(w.std(), std, rtol=0.03)
    if "uniform" in name:
        limit = std * np.sqrt(3)
        assert np.abs(w).max() <= limit
    if name.endswith("normal") and name != "random_normal":
        scale = std / 0.8796256610342398 if name != "truncated_normal" else 0.05
        assert np.abs(w).max() <= 2 * scale + 1e-6  # truncated at two standard deviations


def test_seed_reproducibility_and_conv_fans():
    a = keras.initializers.GlorotUniform(seed=4)((3, 3, 8, 16))
    b = keras.initializers.GlorotUniform(seed=4)((3, 3, 8, 16))
    np.testing.assert_array_equal(a, b)
    assert np.abs(a).max() <= np.sqrt(6.0 / (9 * 8 + 9 * 16))
    np.testing.assert_array_equal(keras.initializers.Constant(0.5)((2,)), [0.5, 0.5])
    np.testing.assert_array_equal(keras.initializers.Identity(2.0)((2, 2)), [[2, 0], [0, 2]])
    with pytest.raises(ValueError, match="Invalid value for argument `mode`"):
        keras.initializers.VarianceScaling(mode="fan_max")


def test_regularizers_match_numpy():
    rng = np.random.default_rng(0)
    w = rng.normal(size=(5, 4)).astype(np.float32)
    np.testing.assert_allclose(float(keras.regularizers.L1L2(0.1, 0.2)(w)),
                               0.1 * np.abs(w).sum() + 0.2 * (w ** 2).sum(), rtol=1e-5)
    np.testing.assert_allclose(float(keras.regularizers.get("l1")(w)), 0.01 * np.abs(w).sum(), rtol=1e-5)
    rows = w / np.linalg.norm(w, axis=1, keepdims=True)
    gram = rows @ rows.T
    off = np.abs(gram - np.diag(np.diag(gram))).sum() / (5 * 4)
    np.testing.assert_allclose(float(keras.regularizers.OrthogonalRegularizer(0.3)(w)), 0.3 * off, rtol=1e-5)
    with pytest.raises(ValueError, match="Could not interpret regularizer identifier: 'l3'"):
        keras.regularizers.get("l3")


def test_regularization_losses_enter_the_training_loss():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_regularizer=keras.regularizers.L2(0.5),
                                                                    kernel_initializer="ones")])
    model.compile(keras.optimizers.SGD(0.0), "mse")
    x, y = np.ones((4, 2), np.float32), np.full((4, 1), 2.0, np.float32)
    loss = model.evaluate(x, y, verbose=0)
    np.testing.assert_allclose(loss, 0.0 + 0.5 * 2.0, rtol=1e-6)  # predictions are exact; 0.5 * |k|^2
