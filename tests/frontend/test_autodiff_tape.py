"""`tf.GradientTape`: watching, variables, nested structures, persistence,
stop_recording/stop_gradient, output_gradients, unconnected gradients, nested
tapes, and the same gradients eagerly, in tf.function and with jit_compile."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf

R = np.random.default_rng(7)


def test_watch_and_nested_sources():
    x = tf.constant([1.0, 2.0, 3.0])
    y = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.reduce_sum(tf.square(x) * y)
    g = tape.gradient(z, {"x": x, "pair": (y, [x])})
    np.testing.assert_allclose(g["x"].numpy(), 2 * np.array([1, 2, 3]) * 2)
    np.testing.assert_allclose(g["pair"][0].numpy(), 14.0)
    np.testing.assert_allclose(g["pair"][1][0].numpy(), g["x"].numpy())


def test_trainable_variables_are_watched_automatically():
    v = tf.Variable([1.0, -2.0])
    frozen = tf.Variable([3.0, 4.0], trainable=False)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v * v * frozen)
    gv, gf = tape.gradient(loss, [v, frozen])
    np.testing.assert_allclose(gv.numpy(), [6.0, -16.0])
    assert gf is None
    assert v in tape.watched_variables()


def test_watch_accessed_variables_false_and_explicit_watch():
    v = tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = v * v
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), 6.0)


def test_variable_read_twice_sums():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * 3.0 + v * v
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), 7.0)


def test_persistent_and_non_persistent():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), 108.0)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 6.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.gradient(y, x)


def test_stop_recording_and_stop_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        with tape.stop_recording():
            z = y * x
        w = y + tf.stop_gradient(y * x)
    assert tape.gradient(z, x) is None
    np.testing.assert_allclose(tape.gradient(w, x).numpy(), 4.0)


def test_output_gradients_and_multiple_targets():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = tf.reduce_sum(x)
    g = tape.gradient(y, x, output_gradients=tf.constant([10.0, 100.0]))
    np.testing.assert_allclose(g.numpy(), [20.0, 400.0])
    np.testing.assert_allclose(tape.gradient([y, z], x).numpy(), [3.0, 5.0])


def test_unconnected_gradients():
    x, other = tf.constant(1.0), tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * 2.0
    assert tape.gradient(y, other) is None
    zero = tape.gradient(y, other, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(zero.numpy(), [0.0, 0.0])
    assert tape.gradient(y, other, unconnected_gradients="zero").shape == (2,)


def test_integer_and_comparison_paths_have_no_gradient():
    x = tf.constant([1.5, -2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        i = tf.cast(x, tf.int32)
        back = tf.cast(i, tf.float32)
        mask = tf.cast(x > 0, tf.float32)
    assert tape.gradient(back, x) is None
    assert tape.gradient(mask, x) is None


def test_second_derivative_nested_tapes():
    x = tf.constant(1.5)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    np.testing.assert_allclose(dy.numpy(), 3 * 1.5 ** 2, rtol=1e-6)
    np.testing.assert_allclose(d2y.numpy(), 6 * 1.5, rtol=1e-6)


def test_tf_op_gradients_match_numpy():
    """Gradients of TF ops are the gradients of their decompositions."""
    logits = R.normal(size=(4, 5)).astype(np.float32)
    labels = np.array([0, 3, 4, 1], np.int64)
    x = tf.constant(logits)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x))
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    p[np.arange(4), labels] -= 1
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), p / 4, rtol=1e-5, atol=1e-6)

    img = tf.constant(R.normal(size=(1, 4, 4, 1)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(img)
        pooled = tf.nn.max_pool2d(img, 2, 2, "VALID")
    g = tape.gradient(pooled, img).numpy().reshape(4, 4)
    a = img.numpy().reshape(4, 4)
    want = np.zeros((4, 4), np.float32)
    for i in range(2):
        for j in range(2):
            win = a[2 * i:2 * i + 2, 2 * j:2 * j + 2]
            k = np.unravel_index(np.argmax(win), (2, 2))
            want[2 * i + k[0], 2 * j + k[1]] = 1
    np.testing.assert_array_equal(g, want)


def _step_fn(w):
    def step(x):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, w))
            loss = tf.reduce_mean(tf.square(h - 1.0))
        g = tape.gradient(loss, w)
        return loss, g
    return step


@pytest.mark.parametrize("mode", ["function", "jit"])
def test_gradients_inside_tf_function_match_eager(mode):
    w = tf.Variable(R.normal(size=(3, 4)).astype(np.float32))
    x = R.normal(size=(5, 3)).astype(np.float32)
    eager = _step_fn(w)(tf.constant(x))
    f = tf.function(_step_fn(w), jit_compile=(mode == "jit"))
    traced = f(x)
    for a, b in zip(eager, traced):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    if mode == "jit":  # the backward pass is part of the compiled graph
        hlo = f.experimental_get_compiler_ir(x)(stage="hlo")
        assert hlo.count("hlo.dot_general") >= 2


def test_second_derivative_inside_tf_function():
    @tf.function
    def d2(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.sin(x) * x
            dy = inner.gradient(y, x)
        return outer.gradient(dy, x)

    x = np.array([0.3, 1.2], np.float32)
    np.testing.assert_allclose(d2(x).numpy(), 2 * np.cos(x) - x * np.sin(x), rtol=1e-5)


def test_conv2d_gradient_matches_finite_differences():
    x = R.normal(size=(1, 5, 5, 2))
    k = R.normal(size=(3, 3, 2, 3))

    def loss(xv, kv):
        return tf.reduce_sum(tf.nn.conv2d(xv, kv, 2, "SAME") ** 2)

    xt, kt = tf.constant(x), tf.constant(k)
    with tf.GradientTape() as tape:
        tape.watch([xt, kt])
        out = loss(xt, kt)
    gx, gk = tape.gradient(out, [xt, kt])
    eps = 1e-6
    for arr, g in ((x, gx), (k, gk)):
        idx = tuple(R.integers(0, n) for n in arr.shape)
        hi, lo = arr.copy(), arr.copy()
        hi[idx] += eps
        lo[idx] -= eps
        args_hi = (hi, k) if arr is x else (x, hi)
        args_lo = (lo, k) if arr is x else (x, lo)
        num = (float(loss(*args_hi)) - float(loss(*args_lo))) / (2 * eps)
        np.testing.assert_allclose(g.numpy()[idx], num, rtol=1e-5)
