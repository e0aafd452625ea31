"""Every layer case of keras_cases.LAYERS against TensorFlow's Keras 3: the same weights (set in
`layer.weights` order, which must match Keras'), forward output, and the gradients of
sum(output * r) with respect to the inputs and trainable weights; eagerly and compiled."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.frontend import tf

from tests.frontend.keras import keras_cases as cases
from tests.frontend.keras.golden import load

keras = tf.keras
TOL = {"rtol": 2e-4, "atol": 2e-5}


def _call(layer, xs, training):
    name = type(layer).__name__
    if name == "MultiHeadAttention":
        return layer(xs[0], xs[1], training=training)
    if len(xs) > 1 or name == "Attention":
        return layer(list(xs), training=training)
    return layer(xs[0], training=training)


def _forward_and_grads(layer, xs, r, training):
    tx = [tf.constant(x) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        for t in tx:
            if t.dtype.is_floating:
                tape.watch(t)
        y = _call(layer, tx, training)
        s = tf.reduce_sum(y * r)
    gx = [tape.gradient(s, t) if t.dtype.is_floating else tf.zeros(()) for t in tx]  # (no None out of jit)
    gw = tape.gradient(s, layer.trainable_weights)
    return y, gx, gw


@pytest.mark.parametrize("case", cases.LAYERS, ids=[c[0] for c in cases.LAYERS])
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_layer_matches_keras(case, jit):
    name, cls, kwargs, shape, _ = case
    g = load("layer", name)
    xs = [g[f"x{i}"] for i in range(len(shape) if isinstance(shape, list) else 1)]
    layer = cases.make_layer(keras.layers, cls, kwargs)
    _call(layer, [tf.constant(x) for x in xs], False)
    n_weights = sum(1 for k in g if k.startswith("w") and k[1:].isdigit())
    weights = [g[f"w{i}"] for i in range(n_weights)]
    assert [tuple(w.shape.as_list()) for w in layer.weights] == [w.shape for w in weights], \
        f"weights differ from Keras' ({list(g['weight_names'])})"
    layer.set_weights(weights)
    for training in ([False, True] if name in cases.TRAINING_LAYERS else [False]):
        suffix = "_train" if training else ""
        if training:
            layer.set_weights(weights)
        run = _forward_and_grads
        if jit:
            run = tf.function(lambda *a, _training=training: _forward_and_grads(layer, list(a[:-1]), a[-1],
                                                                                _training), jit_compile=True)
            y, gx, gw = run(*[tf.constant(x) for x in xs], tf.constant(g[f"r{suffix}"]))
        else:
            y, gx, gw = run(layer, xs, g[f"r{suffix}"], training)
        np.testing.assert_allclose(np.asarray(y), g[f"out{suffix}"], **TOL, err_msg="forward")
        for i, grad in enumerate(gx):
            if f"gx{i}{suffix}" in g:
                np.testing.assert_allclose(np.asarray(grad), g[f"gx{i}{suffix}"], **TOL, err_msg=f"d/dx{i}")
        for i, grad in enumerate(gw):
            want = g[f"gw{i}{suffix}"]
            got = np.zeros_like(want) if grad is None else np.asarray(grad)
            np.testing.assert_allclose(got, want, **TOL, err_msg=f"d/d{layer.trainable_weights[i].name}")
        if training:
            for i, w in enumerate(layer.weights):
                np.testing.assert_allclose(w.numpy(), g[f"wa{i}"], **TOL, err_msg=f"{w.name} after training call")
