"""The Model machinery: Layer base behaviour, Sequential / functional / subclassed models,
compile/fit/evaluate/predict (jit vs eager vs a hand-written numpy loop), custom train_step,
callbacks, weights I/O, summary, and Keras-style errors."""

from __future__ import annotations

import io

import numpy as np
import pytest
from minixla.frontend import tf

keras = tf.keras
R = np.random.default_rng(5)


# ---- Layer base ----------------------------------------------------------------------------------
def test_build_called_by_hand_marks_built_and_is_not_repeated():
    layer = keras.layers.Dense(3)
    layer.build((None, 4))
    assert layer.built
    kernel = layer.kernel.numpy()
    y = layer(np.ones((2, 4), np.float32))
    assert len(layer.weights) == 2
    np.testing.assert_allclose(layer.kernel.numpy(), kernel)
    np.testing.assert_allclose(y.numpy(), np.ones((2, 4)) @ kernel, rtol=1e-6)


def test_custom_layer_build_marks_built():
    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

        def call(self, x):
            return x * self.w

    layer = Scale()
    layer.build((None, 3))
    assert layer.built
    layer(np.ones((1, 3), np.float32))
    assert len(layer.weights) == 1


@pytest.mark.parametrize("name", ["random_normal", "random_uniform", "truncated_normal", "glorot_normal",
                                  "he_uniform", "lecun_normal", "orthogonal", "ones", "zeros", "GlorotUniform"])
def test_initializers_by_name(name):
    layer = keras.layers.Dense(4, kernel_initializer=name)
    layer(np.ones((1, 4), np.float32))
    k = layer.kernel.numpy()
    assert k.shape == (4, 4) and np.isfinite(k).all()
    if name == "orthogonal":
        np.testing.assert_allclose(k.T @ k, np.eye(4), atol=1e-5)
    if name == "random_normal":
        assert 0.01 < k.std() < 0.1  # Keras' RandomNormal stddev 0.05


def test_unknown_initializer_and_activation_and_kwarg():
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: 'nope'"):
        keras.layers.Dense(2, kernel_initializer="nope")(np.ones((1, 2), np.float32))
    with pytest.raises(ValueError, match="Could not interpret activation function identifier: 'relux'"):
        keras.layers.Dense(2, activation="relux")
    with pytest.raises(ValueError, match="Unrecognized keyword arguments passed to Dense"):
        keras.layers.Dense(2, unit=3)


def test_regularizers_by_name_add_losses():
    layer = keras.layers.Dense(2, kernel_regularizer="l2", bias_regularizer=keras.regularizers.L1(0.5),
                               bias_initializer="ones")
    layer(np.ones((1, 3), np.float32))
    k = layer.kernel.numpy()
    got = sorted(float(v) for v in layer.losses)
    np.testing.assert_allclose(got, sorted([0.01 * (k ** 2).sum(), 0.5 * 2.0]), rtol=1e-5)


def test_dense_input_shape_error_names_layer_and_shape():
    layer = keras.layers.Dense(2, name="head")
    layer(np.ones((1, 3), np.float32))
    with pytest.raises(ValueError, match=r'layer "head" is incompatible with the layer: expected axis -1 of input '
                                         r"shape to have value 3, but received input with shape \(1, 4\)"):
        layer(np.ones((1, 4), np.float32))


# ---- three ways to build the same model ----------------------------------------------------------
def _weights():
    return [R.normal(size=(4, 8)).astype(np.float32), R.normal(size=8).astype(np.float32),
            R.normal(size=(8, 3)).astype(np.float32), R.normal(size=3).astype(np.float32)]


def _numpy_forward(w, x):
    h = np.maximum(x @ w[0] + w[1], 0)
    return h @ w[2] + w[3]


class TwoLayer(keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = keras.layers.Dense(8, activation="relu")
        self.d2 = keras.layers.Dense(3)

    def call(self, x):
        return self.d2(self.d1(x))


def _models():
    seq = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(3)])
    inp = keras.Input((4,))
    fun = keras.Model(inp, keras.layers.Dense(3)(keras.layers.Dense(8, activation="relu")(inp)))
    sub = TwoLayer()
    sub(np.zeros((1, 4), np.float32))
    return {"sequential": seq, "functional": fun, "subclassed": sub}


@pytest.mark.parametrize("kind", ["sequential", "functional", "subclassed"])
def test_three_model_kinds_compute_the_numpy_forward(kind):
    model = _models()[kind]
    w = _weights()
    model.set_weights(w)
    x = R.normal(size=(5, 4)).astype(np.float32)
    np.testing.assert_allclose(model(x).numpy(), _numpy_forward(w, x), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(model.predict(x, batch_size=2, verbose=0), _numpy_forward(w, x), rtol=1e-5,
                               atol=1e-5)
    assert [v.shape for v in model.get_weights()] == [a.shape for a in w]


def _numpy_sgd_mse(w, x, y, lr, batch, epochs):
    """The reference: full numpy forward/backward of the two-layer model with MSE and SGD."""
    w = [a.astype(np.float64) for a in w]
    losses = []
    for _ in range(epochs):
        total = count = 0.0
        for s in range(0, len(x), batch):
            xb, yb = x[s:s + batch], y[s:s + batch]
            pre = xb @ w[0] + w[1]
            h = np.maximum(pre, 0)
            out = h @ w[2] + w[3]
            loss = ((out - yb) ** 2).mean()
            d_out = 2 * (out - yb) / out.size
            grads = [None] * 4
            grads[2], grads[3] = h.T @ d_out, d_out.sum(0)
            d_pre = (d_out @ w[2].T) * (pre > 0)
            grads[0], grads[1] = xb.T @ d_pre, d_pre.sum(0)
            w = [a - lr * g for a, g in zip(w, grads)]
            total, count = total + loss * len(xb), count + len(xb)
        losses.append(total / count)
    return losses, w


@pytest.mark.parametrize("kind", ["sequential", "functional", "subclassed"])
@pytest.mark.parametrize("jit", [True, False])
def test_fit_matches_a_numpy_training_loop(kind, jit):
    model = _models()[kind]
    w = _weights()
    model.set_weights(w)
    x = R.normal(size=(20, 4)).astype(np.float32)
    y = R.normal(size=(20, 3)).astype(np.float32)
    model.compile(keras.optimizers.SGD(0.05), "mse", jit_compile=jit, run_eagerly=not jit)
    hist = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
    want_losses, want_w = _numpy_sgd_mse(w, x, y, 0.05, 8, 3)
    np.testing.assert_allclose(hist.history["loss"], want_losses, rtol=1e-4)
    for a, b in zip(model.get_weights(), want_w):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    if jit:
        assert model.train_function.experimental_get_tracing_count() == 2  # batches of 8 and the last of 4
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0),
                               ((_numpy_forward(want_w, x) - y) ** 2).mean(), rtol=1e-4)


def test_custom_train_step_in_subclassed_model():
    class Custom(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)
            self.steps_seen = keras.metrics.Sum(name="steps")

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.steps_seen.update_state(1.0)
            return {"my_loss": loss, "steps": self.steps_seen.result()}

    model = Custom()
    model.compile(keras.optimizers.SGD(0.1), jit_compile=True)
    x = R.normal(size=(16, 2)).astype(np.float32)
    y = x @ np.array([[1.0], [-1.0]], np.float32)
    hist = model.fit(x, y, batch_size=4, epochs=4, verbose=0)
    assert set(hist.history) == {"my_loss", "steps"}
    assert hist.history["steps"][-1] == 16.0  # never reset: it is not in model.metrics
    assert hist.history["my_loss"][-1] < hist.history["my_loss"][0]


def test_fit_validation_split_and_metrics_and_history():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy", keras.metrics.SparseTopKCategoricalAccuracy(k=2)])
    x = R.normal(size=(50, 4)).astype(np.float32)
    y = R.integers(0, 3, 50)
    hist = model.fit(x, y, epochs=2, batch_size=16, validation_split=0.2, verbose=0)
    assert sorted(hist.history) == ["accuracy", "loss", "sparse_top_k_categorical_accuracy", "val_accuracy",
                                    "val_loss", "val_sparse_top_k_categorical_accuracy"]
    val = model.evaluate(x[40:], y[40:], verbose=0, return_dict=True)
    np.testing.assert_allclose(val["loss"], hist.history["val_loss"][-1], rtol=1e-5)
    logits = model.predict(x[40:], verbose=0)
    np.testing.assert_allclose(val["accuracy"], (logits.argmax(1) == y[40:]).mean(), rtol=1e-6)


def test_progress_bar_lines():
    import contextlib

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse", metrics=["mae"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.fit(np.ones((10, 2), np.float32), np.ones((10, 1), np.float32), batch_size=4, epochs=2, verbose=1)
        model.fit(np.ones((10, 2), np.float32), np.ones((10, 1), np.float32), batch_size=4, epochs=1, verbose=2)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Epoch 1/2"
    assert lines[1].startswith("3/3 ━━━━━━━━━━━━━━━━━━━━ ") and " - loss: " in lines[1] and " - mae: " in lines[1]
    assert lines[4] == "Epoch 1/1"
    assert lines[5].startswith("3/3 - ") and "step - loss: " in lines[5]


def test_callbacks_early_stopping_and_lr_scheduler():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    seen = []
    sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 * 0.5 ** epoch)
    probe = keras.callbacks.LambdaCallback(
        on_epoch_begin=lambda epoch, logs=None: seen.append(float(np.asarray(model.optimizer.learning_rate))))
    x = np.ones((8, 2), np.float32)
    hist = model.fit(x, np.ones((8, 1)), epochs=4, verbose=0, callbacks=[sched, probe])
    np.testing.assert_allclose(seen, [0.1, 0.05, 0.025, 0.0125], rtol=1e-6)
    np.testing.assert_allclose(hist.history["learning_rate"], seen, rtol=1e-6)
    assert model.train_function.experimental_get_tracing_count() == 1  # lr is a variable: no retrace

    model.compile(keras.optimizers.SGD(0.0), "mse")  # no progress: stops after `patience` epochs
    stop = keras.callbacks.EarlyStopping(monitor="loss", patience=2)
    hist = model.fit(x, np.zeros((8, 1)), epochs=10, verbose=0, callbacks=[stop])
    assert len(hist.history["loss"]) == 3 and stop.stopped_epoch == 2


def test_save_and_load_weights_npz(tmp_path):
    a, b = _models()["functional"], _models()["functional"]
    a.set_weights(_weights())
    path = tmp_path / "model.weights.npz"
    a.save_weights(path)
    with np.load(path) as data:
        assert data["__minixla_keras_weights__"] == "1" and len(data.files) == 5
    b.load_weights(path)
    for u, v in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_array_equal(u, v)
    other = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5)])
    with pytest.raises(ValueError, match="Model expected 2 weights, but the file holds 4"):
        other.load_weights(path)
    with pytest.raises(ValueError, match="must end in `.weights.npz`"):
        a.save_weights(tmp_path / "model.h5")


def test_summary_table():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8), keras.layers.BatchNormalization()],
                             name="tiny")
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert lines[0] == 'Model: "tiny"'
    assert "(None, 8)" in text and "│            40 │" in text
    assert " Total params: 72 (288.00 B)" in lines and " Non-trainable params: 16 (64.00 B)" in lines


def test_errors_are_keras_style():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="You must call `compile\\(\\)` before using the model"):
        model.fit(np.ones((2, 4)), np.ones((2, 2)), verbose=0)
    with pytest.raises(ValueError, match="Could not interpret loss identifier: mse2"):
        model.compile("sgd", "mse2")
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match=r"expected shape=\(None, 4\), found shape=\(2, 5\)"):
        model.fit(np.ones((2, 5)), np.ones((2, 2)), verbose=0)
    with pytest.raises(ValueError, match="Data cardinality is ambiguous"):
        model.fit(np.ones((3, 4)), np.ones((2, 2)), verbose=0)
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy())
    with pytest.raises(ValueError, match="integer tensor of class indices"):
        model.train_on_batch(np.ones((2, 4), np.float32), np.array([True, False]))
    with pytest.raises(ValueError, match=r"Invalid dtype: str32 \(model inputs, labels"):  # TF: "Invalid dtype: str32"
        model.fit(np.ones((2, 4), np.float32), np.array(["a", "b"]), verbose=0)
    inp = keras.Input((4,))
    hidden = keras.layers.Dense(3)(inp)
    head = keras.layers.Dense(2, name="dense_in")
    head(inp)
    with pytest.raises(ValueError, match=r'layer "dense_in" is incompatible with the layer: expected axis -1 of '
                                         r"input shape to have value 4, but received input with shape"):
        head(hidden)


def test_evaluate_returns_loss_then_metrics_in_compile_order():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3)])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy", keras.metrics.SparseCategoricalCrossentropy(from_logits=True)])
    x = R.normal(size=(6, 2)).astype(np.float32)
    y = R.integers(0, 3, 6)
    loss, acc, xent = model.evaluate(x, y, verbose=0)
    logits = model.predict(x, verbose=0)
    np.testing.assert_allclose(acc, (logits.argmax(1) == y).mean(), rtol=1e-6)
    lsm = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    np.testing.assert_allclose([loss, xent], [-lsm[np.arange(6), y].mean()] * 2, rtol=1e-5)
    assert model.metrics_names == ["loss", "accuracy", "sparse_categorical_crossentropy"]


def test_functional_reshape_error_is_keras_text():
    inp = keras.Input((4,))
    with pytest.raises(ValueError, match=r"The total size of the tensor must be unchanged. Received: "
                                         r"input_shape=\(4,\), target_shape=\(3, 1\)"):
        keras.layers.Reshape((3, 1))(inp)


def test_default_layer_names_follow_keras():
    keras.backend.clear_session()
    names = [keras.layers.GlobalAveragePooling1D().name, keras.layers.Conv2DTranspose(1, 1).name,
             keras.layers.LSTM(1).name, keras.layers.Dense(1).name, keras.layers.Dense(1).name,
             keras.layers.MultiHeadAttention(1, 1).name, keras.layers.BatchNormalization().name]
    assert names == ["global_average_pooling1d", "conv2d_transpose", "lstm", "dense", "dense_1",
                     "multi_head_attention", "batch_normalization"]


def test_sequential_add_pop_get_layer_and_errors():
    model = keras.Sequential(name="stack")
    model.add(keras.Input((3,)))
    model.add(keras.layers.Dense(4, name="hidden"))
    model.add(keras.layers.Dense(2, name="out"))
    assert [lay.name for lay in model.layers] == ["hidden", "out"]
    assert model.output_shape == (None, 2) and model.get_layer("hidden").units == 4
    assert model.get_layer(index=1).name == "out"
    assert model.pop().name == "out" and model.output_shape == (None, 4)
    with pytest.raises(ValueError, match="No such layer: nope"):
        model.get_layer("nope")
    with pytest.raises(ValueError, match='"hidden" is already the name of a layer in this model'):
        model.add(keras.layers.Dense(1, name="hidden"))
    with pytest.raises(ValueError, match="Only instances of `keras.Layer` can be added"):
        model.add("dense")
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(keras.Input((2,)), keras.layers.Dense(1)(keras.Input((2,))))


def test_float64_inputs_are_cast_to_the_layer_dtype():
    layer = keras.layers.Dense(2)
    x = np.ones((1, 3))  # float64, as numpy makes it
    y = layer(x)
    assert y.dtype == tf.float32
    np.testing.assert_allclose(y.numpy(), x @ layer.kernel.numpy(), rtol=1e-6)


def test_forgetting_super_init_is_a_clear_error():
    class Broken(keras.Model):
        def __init__(self):
            self.dense = keras.layers.Dense(1)

    with pytest.raises(RuntimeError, match="forgot to call `super\\(\\).__init__\\(\\)`"):
        Broken()
