"""The remaining callbacks, class weights, multi-input functional models and dataset input to
evaluate/predict (numpy references)."""

from __future__ import annotations

import csv

import numpy as np
from minixla.frontend import tf

keras = tf.keras
R = np.random.default_rng(9)


def _linear_model(lr=0.1):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(lr), "mse")
    return model


def test_reduce_lr_on_plateau_and_terminate_on_nan():
    model = _linear_model(lr=0.4)  # zero kernel and zero targets: the loss stays 0, never improves
    cb = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_lr=0.06)
    x, y = np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)
    hist = model.fit(x, y, epochs=5, verbose=0, callbacks=[cb])
    assert hist.history["loss"] == [0.0] * 5
    # epoch 0 sets the best; epochs 1, 2, 3 each reduce (0.2, 0.1, then min_lr 0.06); epoch 4 is at min_lr
    np.testing.assert_allclose(float(np.asarray(model.optimizer.learning_rate)), 0.06, rtol=1e-6)

    model = _linear_model(lr=1e30)
    big = np.full((4, 2), 1e20, np.float32)
    hist = model.fit(big, np.ones((4, 1), np.float32), epochs=5, batch_size=1, verbose=0, callbacks=[keras.callbacks.TerminateOnNaN()])
    assert len(hist.history["loss"]) == 1  # stopped in the first epoch


def test_model_checkpoint_best_only_and_csv_logger(tmp_path):
    model = _linear_model()
    x = R.normal(size=(16, 2)).astype(np.float32)
    y = x @ np.array([[2.0], [-1.0]], np.float32)
    ckpt = keras.callbacks.ModelCheckpoint(str(tmp_path / "best.weights.npz"), monitor="loss", save_best_only=True)
    log = keras.callbacks.CSVLogger(str(tmp_path / "log.csv"))
    hist = model.fit(x, y, epochs=3, verbose=0, callbacks=[ckpt, log])
    other = _linear_model()
    other.load_weights(tmp_path / "best.weights.npz")
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)  # the loss fell every epoch: the last is the best
    with open(tmp_path / "log.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["epoch"]) for r in rows] == [0, 1, 2]
    np.testing.assert_allclose([float(r["loss"]) for r in rows], hist.history["loss"], rtol=1e-6)


def test_class_weight_scales_the_loss():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, kernel_initializer="ones")])
    model.compile(keras.optimizers.SGD(0.0), keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = R.normal(size=(6, 2)).astype(np.float32)
    y = np.array([0, 1, 0, 1, 1, 0])
    weights = {0: 1.0, 1: 3.0}
    hist = model.fit(x, y, class_weight=weights, batch_size=6, verbose=0)
    logits = model.predict(x, verbose=0)
    lsm = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    per = -lsm[np.arange(6), y] * np.array([weights[c] for c in y])
    np.testing.assert_allclose(hist.history["loss"][0], per.mean(), rtol=1e-5)


def test_multi_input_functional_model_fits_lists_and_datasets():
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    out = keras.layers.Dense(1)(keras.layers.Concatenate()([a, b]))
    model = keras.Model([a, b], out)
    model.compile(keras.optimizers.SGD(0.05), "mse")
    xa, xb = R.normal(size=(12, 2)).astype(np.float32), R.normal(size=(12, 3)).astype(np.float32)
    y = (xa.sum(1) - xb.sum(1))[:, None].astype(np.float32)
    w0 = model.get_weights()
    first = model.fit([xa, xb], y, batch_size=4, epochs=2, shuffle=False, verbose=0).history["loss"]
    model.set_weights(w0)
    ds = tf.data.Dataset.from_tensor_slices(((xa, xb), y)).batch(4)
    second = model.fit(ds, epochs=2, verbose=0).history["loss"]
    np.testing.assert_allclose(first, second, rtol=1e-6)
    k, bias = model.get_weights()
    np.testing.assert_allclose(model.predict(ds, verbose=0), np.c_[xa, xb] @ k + bias, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.evaluate(ds, verbose=0),
                               ((np.c_[xa, xb] @ k + bias - y) ** 2).mean(), rtol=1e-5)


def test_two_output_model_with_losses_weights_and_metrics_by_name():
    inp = keras.Input((3,))
    h = keras.layers.Dense(4, activation="tanh", name="trunk")(inp)
    reg = keras.layers.Dense(1, name="value")(h)
    cls = keras.layers.Dense(2, name="label")(h)
    model = keras.Model(inp, [reg, cls])
    model.compile(keras.optimizers.SGD(0.0),
                  loss={"value": "mse", "label": keras.losses.SparseCategoricalCrossentropy(from_logits=True)},
                  loss_weights={"value": 0.5, "label": 2.0}, metrics={"label": ["accuracy"]})
    x = R.normal(size=(8, 3)).astype(np.float32)
    y_reg = R.normal(size=(8, 1)).astype(np.float32)
    y_cls = R.integers(0, 2, 8)
    logs = model.evaluate(x, {"value": y_reg, "label": y_cls}, verbose=0, return_dict=True)
    p_reg, p_cls = model.predict(x, verbose=0)
    mse = ((p_reg - y_reg) ** 2).mean()
    lsm = p_cls - np.log(np.exp(p_cls).sum(1, keepdims=True))
    xent = -lsm[np.arange(8), y_cls].mean()
    np.testing.assert_allclose(logs["value_loss"], mse, rtol=1e-5)
    np.testing.assert_allclose(logs["label_loss"], xent, rtol=1e-5)
    np.testing.assert_allclose(logs["loss"], 0.5 * mse + 2.0 * xent, rtol=1e-5)
    np.testing.assert_allclose(logs["label_accuracy"], (p_cls.argmax(1) == y_cls).mean(), rtol=1e-6)
    hist = model.fit(x, [y_reg, y_cls], epochs=1, verbose=0)
    assert sorted(hist.history) == ["label_accuracy", "label_loss", "loss", "value_loss"]
    import pytest

    with pytest.raises(ValueError, match="key 'valu' does not correspond to any model output"):
        model.compile("sgd", loss={"valu": "mse"})


def test_utils_to_categorical_and_normalize():
    np.testing.assert_array_equal(keras.utils.to_categorical([[2], [0]], 3), [[0, 0, 1], [1, 0, 0]])
    assert keras.utils.to_categorical(np.array([1, 3])).shape == (2, 4)
    x = np.array([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(keras.utils.normalize(x), [[0.6, 0.8], [0.0, 0.0]])


def test_functional_model_with_dict_inputs():
    a, b = keras.Input((2,), name="a"), keras.Input((1,), name="b")
    model = keras.Model({"a": a, "b": b}, keras.layers.Concatenate()([a, b]))
    xa, xb = np.ones((3, 2), np.float32), np.zeros((3, 1), np.float32)
    np.testing.assert_array_equal(model({"a": xa, "b": xb}).numpy(), np.c_[xa, xb])
