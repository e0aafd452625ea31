"""Masks flowing between layers (Embedding(mask_zero=True), Masking -> RNNs, Bidirectional,
MultiHeadAttention, GlobalAveragePooling1D) against TF Keras goldens: forward and weight
gradients of small functional models, eager and compiled."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.frontend import tf

from tests.frontend.keras import keras_cases as cases
from tests.frontend.keras.golden import load

keras = tf.keras


@pytest.mark.parametrize("name", list(cases.MASKED_MODELS))
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_masked_model_matches_keras(name, jit):
    g = load("masked", name)
    build, _ = cases.MASKED_MODELS[name]
    model = build(keras)
    model(g["x"])
    n = sum(1 for k in g if k.startswith("w") and k[1:].isdigit())
    model.set_weights([g[f"w{i}"] for i in range(n)])

    def run(x, r):
        with tf.GradientTape() as tape:
            y = model(x)
            s = tf.reduce_sum(y * r)
        return y, tape.gradient(s, model.trainable_weights)

    if jit:
        run = tf.function(run, jit_compile=True)
    y, grads = run(tf.constant(g["x"]), tf.constant(g["r"]))
    np.testing.assert_allclose(y.numpy(), g["out"], rtol=2e-4, atol=2e-5)
    for i, grad in enumerate(grads):
        np.testing.assert_allclose(np.asarray(grad), g[f"gw{i}"], rtol=2e-4, atol=2e-5,
                                   err_msg=model.trainable_weights[i].name)


def test_masked_lstm_equals_the_lstm_on_the_unpadded_sequence():
    model = cases.masked_embed_lstm(keras)
    padded = np.array([[3, 1, 4, 0, 0, 0]], np.int32)
    emb, lstm = model.layers[1], model.layers[2]
    assert emb.compute_mask(tf.constant(padded)).numpy().tolist() == [[True, True, True, False, False, False]]
    unpadded = lstm(emb(tf.constant(padded[:, :3]))).numpy()
    np.testing.assert_allclose(model(padded).numpy(), unpadded, rtol=1e-5, atol=1e-6)
