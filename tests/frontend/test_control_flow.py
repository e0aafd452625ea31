"""tf.cond and tf.while_loop: eager (Python control flow), tf.function (tf.If/tf.While
nodes run op by op) and jit_compile=True (hlo.if/hlo.while), against numpy / Python loops."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from minixla.frontend import tf

MODES = ("eager", "function", "jit")
X = np.array([1.0, -3.0, 1.5], np.float32)


def call(fn, mode, *args):
    if mode == "eager":
        return fn(*args)
    return tf.function(fn, jit_compile=(mode == "jit"))(*args)


def a(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sign", (1.0, -1.0))
def test_cond_tensor_pred_with_captures(mode, sign):
    def f(x, n):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x - n)

    x = sign * X
    want = x * 2 if x.sum() > 0 else x - 1.5
    np.testing.assert_allclose(a(call(f, mode, tf.constant(x), tf.constant(1.5))), want)


def test_cond_eager_python_bool_and_scalar_tensor():
    assert a(tf.cond(True, lambda: tf.constant(1), lambda: tf.constant(2))) == 1
    assert a(tf.cond(tf.constant(False), lambda: tf.constant(1), lambda: tf.constant(2))) == 2
    # eagerly only the chosen branch runs (its side effects happen, the other's do not)
    ran = []
    tf.cond(tf.constant(3) > 2, lambda: ran.append("t") or tf.constant(0), lambda: ran.append("f") or tf.constant(0))
    assert ran == ["t"]


def test_cond_traced_runs_both_branches_once_and_rejects_python_bool():
    traced = []

    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: traced.append("t") or x + 1, lambda: traced.append("f") or x - 1)

    assert a(f(tf.constant(2))) == 3 and a(f(tf.constant(-2))) == -3
    assert traced == ["t", "f"]
    with pytest.raises(TypeError, match="pred must not be a Python bool"):
        tf.function(lambda x: tf.cond(True, lambda: x, lambda: x))(tf.constant(1))


@pytest.mark.parametrize("mode", MODES)
def test_cond_structured_outputs(mode):
    def f(x):
        return tf.cond(x[0] > 0, lambda: {"s": tf.reduce_sum(x), "p": (x * x, x[1])},
                       lambda: {"s": tf.reduce_max(x), "p": (-x, x[2])})

    out = call(f, mode, tf.constant(X))
    assert set(out) == {"s", "p"} and isinstance(out["p"], tuple)
    np.testing.assert_allclose(a(out["s"]), X.sum(), rtol=1e-6)
    np.testing.assert_allclose(a(out["p"][0]), X * X)
    assert a(out["p"][1]) == X[1]


def test_cond_branch_mismatch_errors():
    f = tf.function(lambda x: tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.float32)))
    with pytest.raises(TypeError, match="same number, type, and overall structure"):
        f(tf.constant(1))
    g = tf.function(lambda x: tf.cond(x[0] > 0, lambda: x, lambda: x[:2]))
    with pytest.raises(ValueError, match="different shapes"):
        g(tf.constant(X))


@pytest.mark.parametrize("mode", MODES)
def test_nested_cond_and_variable_read(mode):
    v = tf.Variable(np.float32(10.0))

    def f(x):
        return tf.cond(x > 0, lambda: tf.cond(x > 5, lambda: x * v, lambda: x + v), lambda: -x)

    for x, want in ((7.0, 70.0), (2.0, 12.0), (-3.0, 3.0)):
        assert a(call(f, mode, tf.constant(np.float32(x)))) == want


@pytest.mark.parametrize("mode", MODES)
def test_while_loop_matches_python_loop(mode):
    def f(x):
        def body(i, acc):
            return i + 1, acc + x * tf.cast(i, tf.float32)

        return tf.while_loop(lambda i, acc: i < 5, body, [0, tf.zeros_like(x)])

    i, acc = call(f, mode, tf.constant(X))
    want = np.zeros_like(X)
    for k in range(5):
        want = want + X * k
    assert int(a(i)) == 5
    np.testing.assert_allclose(a(acc), want)


@pytest.mark.parametrize("mode", MODES)
def test_while_loop_data_dependent_trip_count(mode):
    def collatz(n):
        return tf.while_loop(lambda n, steps: n != 1,
                             lambda n, steps: (tf.where(n % 2 == 0, n // 2, 3 * n + 1), steps + 1),
                             (n, tf.constant(0)))

    def py(n):
        steps = 0
        while n != 1:
            n, steps = (n // 2 if n % 2 == 0 else 3 * n + 1), steps + 1
        return steps

    for n in (1, 6, 27):
        out = call(collatz, mode, tf.constant(n))
        assert isinstance(out, tuple) and int(a(out[1])) == py(n)


@pytest.mark.parametrize("mode", MODES)
def test_while_loop_structures_and_single_var(mode):
    Pair = collections.namedtuple("Pair", "x y")

    def f(x):
        single = tf.while_loop(lambda s: tf.reduce_sum(s) < 100.0, lambda s: s * 2.0, [tf.abs(x) + 1.0])
        bare = tf.while_loop(lambda s: s < 10, lambda s: s + 3, tf.constant(0))
        nested = tf.while_loop(lambda i, p: i < 3, lambda i, p: (i + 1, Pair(p.y, p.x + p.y)),
                               (tf.constant(0), Pair(tf.constant(0.0), tf.constant(1.0))))
        return single, bare, nested

    single, bare, nested = call(f, mode, tf.constant(X))
    s = np.abs(X) + 1
    while s.sum() < 100:
        s = s * 2
    assert isinstance(single, list) and len(single) == 1
    np.testing.assert_allclose(a(single[0]), s)
    assert int(a(bare)) == 12
    assert isinstance(nested[1], Pair) and float(a(nested[1].x)) == 2.0 and float(a(nested[1].y)) == 3.0


@pytest.mark.parametrize("mode", MODES)
def test_while_loop_maximum_iterations(mode):
    def f(x):
        return tf.while_loop(lambda i: i < 100, lambda i: i + 2, [x], maximum_iterations=7)

    assert int(a(call(f, mode, tf.constant(0))[0])) == 14
    assert int(a(call(f, mode, tf.constant(95))[0])) == 101


def test_while_loop_shape_change_is_an_error():
    f = tf.function(lambda x: tf.while_loop(lambda x: tf.size(x) < 8, lambda x: tf.concat([x, x], 0), [x]))
    with pytest.raises(ValueError, match="enters the loop with shape"):
        f(tf.constant(X))


@pytest.mark.parametrize("mode", MODES)
def test_while_with_cond_inside_and_const_input(mode):
    def f(x):
        def body(i, acc):
            step = tf.cond(i % 2 == 0, lambda: tf.reshape(x, [1, 3]), lambda: -tf.reshape(x, [1, 3]))
            return i + 1, acc + tf.reduce_sum(step, axis=0)

        return tf.while_loop(lambda i, acc: i < 5, body, [0, tf.zeros([3])])[1]

    np.testing.assert_allclose(a(call(f, mode, tf.constant(X))), X, rtol=1e-6)


def test_ir_is_tf_if_and_while_then_hlo_regions():
    def f(x):
        y = tf.cond(x[0] > 0, lambda: x + 1.0, lambda: x)
        return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0), [0, y])[1]

    fn = tf.function(f, jit_compile=True)
    ir = fn.get_concrete_function(tf.constant(X)).tf_ir
    assert '"tf.If"' in ir and "then_branch = @cond_true_" in ir and '"tf.While"' in ir
    assert "func.func private @while_body_" in ir
    hlo = fn.experimental_get_compiler_ir(tf.constant(X))(stage="hlo")
    assert '"hlo.if"' in hlo and "hlo.while" in hlo and "tf." not in hlo and "private" not in hlo
    want = (X + 1 if X[0] > 0 else X) * 8
    np.testing.assert_allclose(a(fn(tf.constant(X))), want)


@pytest.mark.parametrize("mode", MODES)
def test_gradients_through_cond_and_while(mode):
    v = tf.Variable(np.array([1.0, 2.0], np.float32))

    def loss(x):
        with tf.GradientTape() as tape:
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: v * x * x, lambda: v + x)
            _, z = tf.while_loop(lambda i, z: i < 3, lambda i, z: (i + 1, z * v), [0, y])
            total = tf.reduce_sum(z)
        return tape.gradient(total, v)

    x = np.array([1.0, 3.0], np.float32)
    np.testing.assert_allclose(a(call(loss, mode, tf.constant(x))), 4 * np.array([1.0, 2.0]) ** 3 * x * x)
    w = np.array([1.0, 2.0])  # false branch: d/dv sum((v - x) v^3) = v^3 + 3 (v - x) v^2
    np.testing.assert_allclose(a(call(loss, mode, tf.constant(-x))), w ** 3 + 3 * (w - x) * w ** 2, rtol=1e-6)


def test_variable_assign_inside_branch_is_reported():
    v = tf.Variable(1.0)
    f = tf.function(lambda x: tf.cond(x > 0, lambda: v.assign(x) and x, lambda: x))
    with pytest.raises(NotImplementedError, match="inside a tf.cond branch"):
        f(tf.constant(2.0))
