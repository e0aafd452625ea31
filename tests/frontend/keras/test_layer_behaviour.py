"""Layer behaviour with no deterministic TF golden: Dropout/GaussianNoise's training flag and
fresh randomness per compiled call, BatchNormalization's moving statistics during fit, Lambda,
causal masking in MultiHeadAttention, RNN return_state (numpy references)."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.frontend import tf

keras = tf.keras


def test_dropout_identity_at_inference_and_scaled_mask_in_training():
    layer = keras.layers.Dropout(0.25, seed=3)
    x = np.ones((200, 50), np.float32)
    np.testing.assert_array_equal(layer(x).numpy(), x)
    np.testing.assert_array_equal(layer(x, training=False).numpy(), x)
    y = layer(x, training=True).numpy()
    kept = y != 0
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    assert abs(kept.mean() - 0.75) < 0.02


def test_dropout_mask_changes_between_compiled_calls():
    layer = keras.layers.Dropout(0.5, seed=1)
    step = tf.function(lambda x: layer(x, training=True), jit_compile=True)
    x = np.ones((8, 16), np.float32)
    a, b = step(x).numpy(), step(x).numpy()
    assert not np.array_equal(a, b)
    assert step.experimental_get_tracing_count() == 1


def test_training_flag_reaches_nested_layers_through_models():
    model = keras.Sequential([keras.Input((10,)), keras.layers.Dropout(0.9, seed=0)])
    x = np.ones((4, 10), np.float32)
    np.testing.assert_array_equal(model(x).numpy(), x)
    assert (model(x, training=True).numpy() == 0).mean() > 0.5


def test_gaussian_noise_only_in_training():
    layer = keras.layers.GaussianNoise(0.5, seed=2)
    x = np.zeros((100, 100), np.float32)
    np.testing.assert_array_equal(layer(x).numpy(), x)
    assert abs(layer(x, training=True).numpy().std() - 0.5) < 0.02


def test_batchnorm_moving_statistics_follow_fit():
    rng = np.random.default_rng(0)
    x = (rng.normal(size=(64, 3)) * [1.0, 2.0, 3.0] + [5.0, -1.0, 0.0]).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.BatchNormalization(momentum=0.5)])
    model.compile(keras.optimizers.SGD(0.0), "mse", jit_compile=True)
    model.fit(x, np.zeros_like(x), batch_size=16, epochs=1, shuffle=False, verbose=0)
    bn = model.layers[0]
    mean, var = np.zeros(3), np.ones(3)
    for s in range(0, 64, 16):
        b = x[s:s + 16]
        mean, var = mean * 0.5 + b.mean(0) * 0.5, var * 0.5 + b.var(0) * 0.5
    np.testing.assert_allclose(bn.moving_mean.numpy(), mean, rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), var, rtol=1e-5)
    y = model.predict(x, verbose=0)  # inference uses the moving statistics
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)


def test_lambda_layer_in_functional_model():
    inp = keras.Input((3,))
    out = keras.layers.Lambda(lambda t, power: t ** power, arguments={"power": 2})(inp)
    model = keras.Model(inp, out)
    x = np.array([[1.0, -2.0, 3.0]], np.float32)
    np.testing.assert_allclose(model(x).numpy(), x ** 2)
    assert out.shape == (None, 3)


def test_multi_head_attention_causal_mask_ignores_the_future():
    layer = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    rng = np.random.default_rng(4)
    x = rng.normal(size=(1, 5, 4)).astype(np.float32)
    full = layer(x, x, use_causal_mask=True).numpy()
    changed = x.copy()
    changed[:, 3:] += 10.0  # later positions must not affect earlier outputs
    again = layer(changed, changed, use_causal_mask=True).numpy()
    np.testing.assert_allclose(full[:, :3], again[:, :3], rtol=1e-5)
    assert not np.allclose(full[:, 3:], again[:, 3:])


def test_lstm_return_state_matches_numpy():
    layer = keras.layers.LSTM(2, return_state=True, return_sequences=True)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 4, 2)).astype(np.float32)
    seq, h, c = layer(x)
    k, rk, b = (w.numpy() for w in layer.weights)
    hh, cc = np.zeros((3, 2)), np.zeros((3, 2))
    sig = lambda v: 1 / (1 + np.exp(-v))
    for t in range(4):
        z = x[:, t] @ k + hh @ rk + b
        i, f, g, o = np.split(z, 4, axis=1)
        cc = sig(f) * cc + sig(i) * np.tanh(g)
        hh = sig(o) * np.tanh(cc)
    np.testing.assert_allclose(h.numpy(), hh, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c.numpy(), cc, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(seq.numpy()[:, -1], hh, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b[2:4], 1.0)  # unit_forget_bias


def test_rnn_rejects_non_sequence_input():
    with pytest.raises(ValueError, match=r'layer "gru" is incompatible with the layer: expected ndim=3, found '
                                         r"ndim=2"):
        keras.layers.GRU(2, name="gru")(np.ones((2, 3), np.float32))


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_recurrent_layer_compiles_to_one_hlo_while(cls):
    layer = getattr(keras.layers, cls)(4, return_sequences=True)
    x = np.ones((2, 7, 3), np.float32)
    layer(x)
    f = tf.function(lambda x: layer(x), jit_compile=True)
    hlo = f.experimental_get_compiler_ir(x)(stage="hlo")
    assert hlo.count("hlo.while") == 1  # the whole sequence is one loop, not 7 unrolled steps
    np.testing.assert_allclose(f(x).numpy(), layer(x).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_rnn_dropout_only_in_training_and_fresh_per_compiled_call(cls):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(4, 5, 3)).astype(np.float32)
    with_dropout = getattr(keras.layers, cls)(6, dropout=0.5, recurrent_dropout=0.5, seed=1)
    plain = getattr(keras.layers, cls)(6)
    with_dropout(x)
    plain(x)
    plain.set_weights(with_dropout.get_weights())
    np.testing.assert_allclose(with_dropout(x).numpy(), plain(x).numpy(), rtol=1e-6)  # inference: no dropout
    step = tf.function(lambda x: with_dropout(x, training=True), jit_compile=True)
    a, b = step(x).numpy(), step(x).numpy()
    assert not np.allclose(a, plain(x).numpy()) and not np.allclose(a, b)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(with_dropout(x, training=True))
    assert all(g is not None for g in tape.gradient(loss, with_dropout.trainable_weights))


def test_normalization_adapt_matches_numpy_and_inverts():
    rng = np.random.default_rng(3)
    data = (rng.normal(size=(50, 3)) * [1.0, 10.0, 0.1] + [0.0, 5.0, -2.0]).astype(np.float32)
    norm = keras.layers.Normalization()
    norm.adapt(tf.data.Dataset.from_tensor_slices(data).batch(16))
    np.testing.assert_allclose(norm(data).numpy(), (data - data.mean(0)) / data.std(0), rtol=1e-4, atol=1e-5)
    assert [w.name.split("/")[-1].split(":")[0] for w in norm.weights] == ["mean", "variance", "count"]
    assert int(norm.count.numpy()) == 50
    inverse = keras.layers.Normalization(mean=data.mean(0), variance=data.var(0), invert=True)
    np.testing.assert_allclose(inverse(norm(data)).numpy(), data, rtol=1e-4, atol=1e-4)
    model = keras.Sequential([keras.Input((3,)), norm, keras.layers.Dense(1)])
    assert model(data).shape == (50, 1)
