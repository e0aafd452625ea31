"""Eager ops under an open GradientTape through frontend/autodiff/tape_fast_path.py: the same
record, values and gradients (first and second order) as the general path, which the tests reach by
emptying the fast path's op table; analytic derivatives from numpy for a few."""

from __future__ import annotations

import numpy as np
import pytest
from ml_dtypes import bfloat16

from minixla import tf
from minixla.frontend.autodiff import tape_fast_path

UNARY = {"Neg": tf.negative, "Exp": tf.exp, "Expm1": tf.math.expm1, "Log": tf.math.log,
         "Log1p": tf.math.log1p, "Tanh": tf.tanh, "Sigmoid": tf.sigmoid, "Sqrt": tf.sqrt,
         "Rsqrt": tf.math.rsqrt, "Abs": tf.abs, "Sin": tf.sin, "Cos": tf.cos, "Square": tf.square}
BINARY = {"AddV2": tf.add, "Sub": tf.subtract, "Mul": tf.multiply, "RealDiv": tf.math.truediv,
          "Maximum": tf.maximum, "Minimum": tf.minimum, "Pow": tf.pow}


def test_every_op_is_covered():
    assert set(UNARY) | set(BINARY) == set(tape_fast_path.PRIMITIVES)


def _data(dtype, shape=(3, 4)):
    rng = np.random.default_rng(0)
    a = rng.uniform(0.5, 2.0, shape).astype(dtype)
    b = rng.uniform(0.5, 2.0, shape).astype(dtype)
    b.flat[0] = a.flat[0]  # a tie for max/min
    return a, b


def _run(fn, arrays, monkeypatch, fast: bool):
    """(value, gradients, records as (primitive, keyed operands)) of fn on arrays under a tape."""
    value, grads, records = _run_watching(fn, arrays, range(len(arrays)), monkeypatch, fast)
    return value, grads, [(op, keyed) for op, _, keyed in records]


def _run_watching(fn, arrays, watched, monkeypatch, fast: bool):
    """(value, gradients of the watched operands, records as (primitive, attributes, keyed
    operands)) of fn on arrays under a tape that watches the operands whose index is in `watched`."""
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(tape_fast_path, "RECORDERS", {})
        xs = [tf.constant(a) for a in arrays]
        with tf.GradientTape(persistent=True) as tape:
            for i in watched:
                tape.watch(xs[i])
            y = fn(*xs)
            z = tf.reduce_sum(y * y)
        grads = tape.gradient(z, [xs[i] for i in watched])
        records = [(p.op, p.attrs, [o.key is not None for o in p.operands]) for p in tape._tape.records]
    return y.numpy(), [g.numpy() for g in grads], records


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, bfloat16])
@pytest.mark.parametrize("op", sorted(UNARY) + sorted(BINARY))
def test_same_as_the_general_path(op, dtype, monkeypatch):
    fn = UNARY.get(op) or BINARY[op]
    arrays = _data(dtype)[:1 if op in UNARY else 2]
    fast = _run(fn, arrays, monkeypatch, True)
    general = _run(fn, arrays, monkeypatch, False)
    np.testing.assert_array_equal(fast[0], general[0])
    for g_fast, g_general in zip(fast[1], general[1]):
        np.testing.assert_array_equal(g_fast, g_general)
    assert fast[2] == general[2]


@pytest.mark.parametrize("fn", [lambda x: x * 3.0, lambda x: 3.0 * x, lambda x: 2.0 - x, lambda x: x / 4.0,
                                lambda x: tf.maximum(x, 1.0), lambda x: tf.pow(x, 3.0)])
def test_python_number_operand(fn, monkeypatch):
    (a,) = _data(np.float32)[:1]
    fast, general = _run(fn, [a], monkeypatch, True), _run(fn, [a], monkeypatch, False)
    np.testing.assert_array_equal(fast[0], general[0])
    np.testing.assert_array_equal(fast[1][0], general[1][0])


def test_untracked_operand_and_analytic_gradient():
    a, b = _data(np.float64)
    x, c = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.multiply(tf.exp(x), c) - tf.sin(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.exp(a) * b - np.cos(a), rtol=1e-12)


def test_second_order_through_nested_tapes():
    a = np.array([0.3, 1.2, 2.5], np.float64)
    x = tf.constant(a)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.multiply(tf.tanh(x), x)
        dy = inner.gradient(y, x)
    d2 = outer.gradient(dy, x).numpy()
    t = np.tanh(a)
    np.testing.assert_allclose(d2, 2 * (1 - t * t) - 2 * a * t * (1 - t * t), rtol=1e-12)


def test_stop_recording_and_variables_take_the_general_rules():
    v = tf.Variable(np.float32([1.0, 2.0]))
    with tf.GradientTape() as tape:
        y = v * v  # a variable's read gets its key in the general path
        with tape.stop_recording():
            w = tf.multiply(y, y)
        z = tf.reduce_sum(tf.multiply(y, 3.0))
    np.testing.assert_array_equal(tape.gradient(z, v).numpy(), np.float32([6.0, 12.0]))
    assert getattr(w, "_tape_key", None) is None


def test_broadcasting_operands_take_the_general_path(monkeypatch):
    a = np.float32([[1.0, 2.0], [3.0, 4.0]])
    b = np.float32([10.0, 20.0])
    fast = _run(tf.multiply, [a, b], monkeypatch, True)
    general = _run(tf.multiply, [a, b], monkeypatch, False)
    assert fast[2] == general[2] and any(op == "broadcast_in_dim" for op, _ in fast[2])
    np.testing.assert_array_equal(fast[1][1], general[1][1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("watched", [(0, 1), (0,), (1,)])
@pytest.mark.parametrize("op", ["matmul", "bias_add", "dense"])
def test_matmul_and_bias_add_same_as_the_general_path(op, watched, dtype, monkeypatch):
    rng = np.random.default_rng(1)
    x, w, b = (rng.standard_normal(s).astype(dtype) for s in ((4, 3), (3, 5), (5,)))
    fn, arrays = {"matmul": (tf.matmul, [x, w]),
                  "bias_add": (tf.nn.bias_add, [x @ w, b]),
                  "dense": (lambda a, k: tf.nn.bias_add(tf.matmul(a, k), tf.constant(b)), [x, w])}[op]
    fast = _run_watching(fn, arrays, watched, monkeypatch, True)
    general = _run_watching(fn, arrays, watched, monkeypatch, False)
    np.testing.assert_array_equal(fast[0], general[0])
    for g_fast, g_general in zip(fast[1], general[1]):
        np.testing.assert_array_equal(g_fast, g_general)
    assert fast[2] == general[2]


def test_dense_layer_gradient_against_numpy():
    rng = np.random.default_rng(2)
    x, w, b = (rng.standard_normal(s) for s in ((6, 4), (4, 3), (3,)))
    wt, bt = tf.constant(w), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([wt, bt])
        loss = tf.reduce_sum(tf.square(tf.nn.bias_add(tf.matmul(tf.constant(x), wt), bt)))
    gw, gb = tape.gradient(loss, [wt, bt])
    dy = 2 * (x @ w + b)
    np.testing.assert_allclose(gw.numpy(), x.T @ dy, rtol=1e-12)
    np.testing.assert_allclose(gb.numpy(), dy.sum(0), rtol=1e-12)


@pytest.mark.parametrize("op", ["dense", "elementwise"])
def test_variables_same_as_the_general_path(op, monkeypatch):
    """Variable operands are read (copied, keyed) as the general path reads them: an update after the
    forward pass does not change the gradient."""
    def run(fast):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(tape_fast_path, "RECORDERS", {})
            rng = np.random.default_rng(3)
            w = tf.Variable(rng.standard_normal((3, 2)).astype(np.float32))
            b = tf.Variable(rng.standard_normal(2).astype(np.float32))
            x = tf.constant(rng.standard_normal((4, 3)).astype(np.float32))
            with tf.GradientTape() as tape:
                if op == "dense":
                    y = tf.nn.bias_add(tf.matmul(x, w), b)
                else:
                    y = tf.tanh(w * w - 1.5) + w
                loss = tf.reduce_sum(y * y)
            w.assign_add(np.ones((3, 2), np.float32))  # after the forward pass: not in the gradient
            grads = tape.gradient(loss, [w, b])
            return loss.numpy(), [None if g is None else g.numpy() for g in grads]
    fast, general = run(True), run(False)
    np.testing.assert_array_equal(fast[0], general[0])
    for g_fast, g_general in zip(fast[1], general[1]):
        if g_general is None:
            assert g_fast is None
        else:
            np.testing.assert_array_equal(g_fast, g_general)
