"""Losses, metrics, optimizers and learning-rate schedules against goldens recorded from
TensorFlow's Keras 3 (values, loss gradients, weighted values, metric results over two
batches, three optimizer steps)."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.frontend import tf

from tests.frontend.keras import keras_cases as cases
from tests.frontend.keras.golden import load

keras = tf.keras


@pytest.mark.parametrize("name,cls,kwargs,kind", cases.LOSSES, ids=[c[0] for c in cases.LOSSES])
def test_loss_matches_keras(name, cls, kwargs, kind):
    g = load("loss", name)
    loss = getattr(keras.losses, cls)(**kwargs)
    p = tf.constant(g["y_pred"])
    with tf.GradientTape() as tape:
        tape.watch(p)
        value = loss(g["y_true"], p)
    np.testing.assert_allclose(value.numpy(), g["value"], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(tape.gradient(value, p).numpy(), g["grad"], rtol=1e-4, atol=1e-6)
    weighted = loss(g["y_true"], g["y_pred"], sample_weight=g["sample_weight"])
    np.testing.assert_allclose(weighted.numpy(), g["weighted"], rtol=2e-5, atol=1e-6)


def test_loss_by_name_and_unknown_name():
    assert isinstance(keras.losses.get("mse"), keras.losses.Loss)
    with pytest.raises(ValueError, match="Could not interpret loss identifier: mean_sqared_error"):
        keras.losses.get("mean_sqared_error")


def test_loss_shape_mismatch_is_a_keras_error():
    with pytest.raises(ValueError, match=r"target.shape=\(4, 1\), output.shape=\(4, 3\)"):
        keras.losses.CategoricalCrossentropy()(np.zeros((4, 1), np.float32), np.full((4, 3), 1 / 3, np.float32))
    with pytest.raises(ValueError, match="same shape up until the last dimension"):
        keras.losses.SparseCategoricalCrossentropy()(np.zeros((5,), np.int32), np.full((4, 3), 1 / 3, np.float32))


@pytest.mark.parametrize("name,cls,kwargs,kind", cases.METRICS, ids=[c[0] for c in cases.METRICS])
def test_metric_matches_keras(name, cls, kwargs, kind):
    g = load("metric", name)
    metric = getattr(keras.metrics, cls)(**kwargs)
    metric.update_state(g["t1"], g["p1"])
    np.testing.assert_allclose(np.asarray(metric.result()), g["r1"], rtol=1e-5, atol=1e-6)
    metric.update_state(g["t2"], g["p2"], sample_weight=g["sw"])
    np.testing.assert_allclose(np.asarray(metric.result()), g["r2"], rtol=1e-5, atol=1e-6)
    metric.reset_state()
    metric.update_state(g["t1"], g["p1"])
    np.testing.assert_allclose(np.asarray(metric.result()), g["r1"], rtol=1e-5, atol=1e-6)


def _run_optimizer(opt, g, jit):
    w, b = tf.Variable(g["w0"]), tf.Variable(g["b0"])

    def step(gw, gb):
        return opt.apply_gradients([(gw, w), (gb, b)])  # (a jit tf.function returning None fails to lower)

    run = tf.function(step, jit_compile=True) if jit else step
    for i in range(cases.OPTIMIZER_STEPS):
        run(tf.constant(g[f"gw{i}"]), tf.constant(g[f"gb{i}"]))
        np.testing.assert_allclose(w.numpy(), g[f"w{i + 1}"], rtol=1e-5, atol=1e-6, err_msg=f"step {i + 1}")
        np.testing.assert_allclose(b.numpy(), g[f"b{i + 1}"], rtol=1e-5, atol=1e-6, err_msg=f"step {i + 1}")


@pytest.mark.parametrize("name,cls,kwargs", cases.OPTIMIZERS, ids=[c[0] for c in cases.OPTIMIZERS])
def test_optimizer_steps_match_keras(name, cls, kwargs):
    _run_optimizer(getattr(keras.optimizers, cls)(**kwargs), load("optimizer", name), jit=False)


@pytest.mark.parametrize("name", ["adam", "nadam", "rmsprop_centered_momentum", "sgd_clipnorm"])
def test_optimizer_steps_compiled_match_keras(name):
    _, cls, kwargs = next(c for c in cases.OPTIMIZERS if c[0] == name)
    _run_optimizer(getattr(keras.optimizers, cls)(**kwargs), load("optimizer", name), jit=True)


@pytest.mark.parametrize("name,cls,kwargs", cases.SCHEDULES, ids=[c[0] for c in cases.SCHEDULES])
def test_schedule_matches_keras(name, cls, kwargs):
    g = load("schedule", name)
    schedule = getattr(keras.optimizers.schedules, cls)(**kwargs)
    got = [float(np.asarray(schedule(np.int64(s)))) for s in g["steps"]]
    np.testing.assert_allclose(got, g["values"], rtol=1e-5, atol=1e-7)


def test_optimizer_with_schedule_uses_step_count():
    schedule = keras.optimizers.schedules.PiecewiseConstantDecay([0], [1.0, 0.5])
    v = tf.Variable([0.0])
    opt = keras.optimizers.SGD(schedule)
    opt.apply_gradients([(tf.constant([1.0]), v)])  # step 0: lr 1.0
    opt.apply_gradients([(tf.constant([1.0]), v)])  # step 1: lr 0.5
    np.testing.assert_allclose(v.numpy(), [-1.5])


def test_optimizer_errors():
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: adamm"):
        keras.optimizers.get("adamm")
    with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and `global_clipnorm`"):
        keras.optimizers.SGD(clipnorm=1.0, clipvalue=1.0)
    assert [type(keras.optimizers.get(n)).__name__ for n in ("sgd", "adam", "adamw", "rmsprop", "adagrad",
                                                              "adadelta", "adamax", "nadam", "lion")] == [
        "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Lion"]
