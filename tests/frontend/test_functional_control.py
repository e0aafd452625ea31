"""P1 control flow / autodiff APIs (frontend/api_p1_control.py, frontend/autodiff/custom_gradient.py): eager,
tf.function and jit_compile=True against numpy oracles (and finite differences for gradients)."""

import numpy as np
import pytest

from minixla.frontend import tf

MODES = ["eager", "function", "jit"]
X = np.arange(6, dtype=np.float32).reshape(3, 2) * 0.5 - 1.0


def run(mode, fn, *args):
    if mode != "eager":
        fn = tf.function(fn, jit_compile=(mode == "jit"))
    return fn(*[tf.constant(a) for a in args])


def npy(v):
    return np.asarray(v.numpy())


def test_no_op_group_control_dependencies_eager():
    assert tf.no_op() is None
    assert tf.group(tf.constant(1.0), [tf.constant(2.0)]) is None
    calls = []
    with tf.control_dependencies([lambda: calls.append(1)]):
        y = tf.constant(2.0) * 3.0
    assert calls == [1] and float(y.numpy()) == 6.0


@pytest.mark.parametrize("mode", ["function", "jit"])
def test_control_dependencies_traced(mode):
    v = tf.Variable(1.0)

    def f(x):
        up = v.assign_add(x)
        op = tf.group(up, tf.no_op())
        with tf.control_dependencies([op, x]):
            y = tf.identity(v.read_value()) * 2.0
        with tf.control_dependencies(None):
            z = x + 1.0
        return y, z

    y, z = run(mode, f, np.float32(2.0))
    assert float(npy(y)) == 6.0 and float(npy(z)) == 3.0


def test_control_dependencies_tensor_like_and_bad_input():
    tf.function(lambda x: tf.control_dependencies([3]).__enter__())(tf.constant(1.0))  # TF converts 3
    with pytest.raises(TypeError, match="Can not convert a object into a Tensor or Operation."):
        tf.function(lambda x: tf.control_dependencies([object()]).__enter__())(tf.constant(1.0))


@pytest.mark.parametrize("mode", MODES)
def test_switch_case(mode):
    def f(i, x):
        return tf.switch_case(i, [lambda: x * 2.0, lambda: x + 10.0, lambda: -x])

    for i, want in [(0, X * 2), (1, X + 10), (2, -X), (7, -X), (-1, -X)]:
        np.testing.assert_allclose(npy(run(mode, f, np.int32(i), X)), want)


@pytest.mark.parametrize("mode", MODES)
def test_switch_case_dict_default_nested(mode):
    def f(i, x):
        return tf.switch_case(i, {1: lambda: {"a": x * 3.0, "b": x[0]}, 0: lambda: {"a": x, "b": x[1]}},
                              default=lambda: {"a": x * 0.0, "b": x[2]})

    for i, (a, b) in [(0, (X, X[1])), (1, (X * 3, X[0])), (5, (X * 0, X[2]))]:
        out = run(mode, f, np.int32(i), X)
        np.testing.assert_allclose(npy(out["a"]), a)
        np.testing.assert_allclose(npy(out["b"]), b)


def test_switch_case_errors():
    with pytest.raises(TypeError, match="'branch_index' must be a Tensor, got <class 'int'>"):
        tf.switch_case(1, [lambda: 1.0])
    with pytest.raises(TypeError, match="'branch_index' must be an integer Tensor, got float32"):
        tf.switch_case(tf.constant(1.0), [lambda: 1.0])
    with pytest.raises(ValueError, match=r"branch indices \(keys\) must form contiguous range of \[0 to 2\) "
                                         r"but found \{0,2\}"):
        tf.switch_case(tf.constant(1), {0: lambda: 1.0, 2: lambda: 2.0})
    with pytest.raises(ValueError, match="Must provide at least one item in 'branch_fns'"):
        tf.switch_case(tf.constant(1), [])


@pytest.mark.parametrize("mode", MODES)
def test_case(mode):
    def f(x):
        s = tf.reduce_sum(x)
        return tf.case([(s > 100.0, lambda: x * 0.0), (s > 0.0, lambda: x + 1.0)], default=lambda: x - 1.0)

    np.testing.assert_allclose(npy(run(mode, f, X)), X + 1)
    np.testing.assert_allclose(npy(run(mode, f, -X - 5)), -X - 6)


def test_case_errors():
    with pytest.raises(TypeError, match="pred must be a Tensor, got: True"):
        tf.case([(True, lambda: 1.0)])
    with pytest.raises(ValueError, match="Unordered dictionaries are not supported"):
        tf.case({tf.constant(True): lambda: 1.0})


@pytest.mark.parametrize("mode", MODES)
def test_switch_case_gradient(mode):
    def f(i, x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(tf.switch_case(i, [lambda: x * x, lambda: tf.sin(x)]))
        return t.gradient(y, x)

    np.testing.assert_allclose(npy(run(mode, f, np.int32(0), X)), 2 * X, rtol=1e-6)
    np.testing.assert_allclose(npy(run(mode, f, np.int32(1), X)), np.cos(X), rtol=1e-5)


@pytest.mark.parametrize("mode", MODES)
def test_map_fn(mode):
    def f(x):
        a = tf.map_fn(lambda r: r * 2.0 + 1.0, x)
        b = tf.map_fn(lambda t: (t[0] + t[1], tf.reduce_sum(t[0])), (x, x * 2.0),
                      fn_output_signature=(tf.float32, tf.float32))
        c = tf.map_fn(lambda r: tf.cast(r > 0.0, tf.int32), x, fn_output_signature=tf.int32)
        d = tf.map_fn(lambda e: e["u"] * e["v"], {"u": x, "v": x + 1.0}, fn_output_signature=tf.float32)
        return a, b, c, d

    a, b, c, d = run(mode, f, X)
    np.testing.assert_allclose(npy(a), X * 2 + 1)
    np.testing.assert_allclose(npy(b[0]), X * 3)
    np.testing.assert_allclose(npy(b[1]), X.sum(1))
    np.testing.assert_array_equal(npy(c), (X > 0).astype(np.int32))
    np.testing.assert_allclose(npy(d), X * (X + 1))


@pytest.mark.parametrize("mode", MODES)
def test_scan(mode):
    def f(x):
        a = tf.scan(lambda acc, r: acc + r, x)
        b = tf.scan(lambda acc, r: acc + r, x, reverse=True)
        c = tf.scan(lambda acc, r: acc * r + 2.0, x, initializer=tf.ones([2]))
        d = tf.scan(lambda acc, r: (acc[0] + r, acc[1] * 2.0), x, initializer=(tf.zeros([2]), tf.ones([])),
                    reverse=True)
        return a, b, c, d

    a, b, c, d = run(mode, f, X)
    np.testing.assert_allclose(npy(a), np.cumsum(X, 0), rtol=1e-6)
    np.testing.assert_allclose(npy(b), np.cumsum(X[::-1], 0)[::-1], rtol=1e-6)
    acc, want = np.ones(2, np.float32), []
    for r in X:
        acc = acc * r + 2
        want.append(acc)
    np.testing.assert_allclose(npy(c), np.stack(want), rtol=1e-6)
    np.testing.assert_allclose(npy(d[0]), np.cumsum(X[::-1], 0)[::-1], rtol=1e-6)
    np.testing.assert_allclose(npy(d[1]), [8.0, 4.0, 2.0])


@pytest.mark.parametrize("mode", MODES)
def test_map_fn_scan_gradient(mode):
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(tf.map_fn(lambda r: tf.sin(r) * r, x)) + tf.reduce_sum(
                tf.scan(lambda acc, r: acc * r, x, initializer=tf.ones([2])))
        return t.gradient(y, x)

    g = npy(run(mode, f, X))
    def num(x):
        cp = np.cumprod(x.astype(np.float64), 0)
        return np.sum(np.sin(x) * x) + cp.sum()
    eps, want = 1e-4, np.zeros_like(X, np.float64)
    for idx in np.ndindex(X.shape):
        d = np.zeros_like(X, np.float64)
        d[idx] = eps
        want[idx] = (num(X + d) - num(X - d)) / (2 * eps)
    np.testing.assert_allclose(g, want, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("mode", MODES)
def test_tensor_array_while(mode):
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])

        def body(i, ta):
            return i + 1, ta.write(i, tf.gather(x, i) * 3.0)

        _, ta = tf.while_loop(lambda i, ta: i < 3, body, [tf.constant(0), ta])
        tb = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(0, x[0]).write(1, x[2])
        tc = tf.TensorArray(tf.float32, size=3).unstack(x)
        return ta.stack(), ta.read(1), ta.size(), tb.stack(), tc.read(2), tc.gather([2, 0])

    s, r, n, tb, tc2, g = run(mode, f, X)
    np.testing.assert_allclose(npy(s), X * 3)
    np.testing.assert_allclose(npy(r), X[1] * 3)
    assert int(npy(n)) == 3
    np.testing.assert_allclose(npy(tb), X[[0, 2]])
    np.testing.assert_allclose(npy(tc2), X[2])
    np.testing.assert_allclose(npy(g), X[[2, 0]])


def test_tensor_array_errors():
    ta = tf.TensorArray(tf.float32, size=2)
    with pytest.raises(tf.errors.OutOfRangeError, match="Tried to write to index 2 but array is not "
                                                         "resizeable and size is: 2"):
        ta.write(2, 1.0)
    with pytest.raises(tf.errors.OutOfRangeError, match="Tried to read from index 5 but array size is: 2"):
        ta.read(5)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="TensorArray dtype is float32 but Op is trying to write dtype int32"):
        ta.write(0, tf.constant(1))


def test_module_tracking():
    """Order and names as real TF 2.21 prints them for the same classes."""
    class Leaf(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(5.0, name="leafv")

    class Dense(tf.Module):
        def __init__(self, n, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.ones([n, n]), name="w")
            self.b = tf.Variable(tf.zeros([n]), name="b", trainable=False)
            self.inner = Leaf() if n == 2 else None

    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.layers = [Dense(2, name="d1"), Dense(3)]
            self.scale = tf.Variable(2.0, name="scale")

    m = Model()
    assert m.name == "model" and m.layers[1].name == "dense" and m.layers[0].name == "d1"
    assert [v.name for v in m.variables] == ["scale:0", "b:0", "w:0", "leafv:0", "b:0", "w:0"]
    assert [v.name for v in m.trainable_variables] == ["scale:0", "w:0", "leafv:0", "w:0"]
    assert len(m.non_trainable_variables) == 2
    assert [s.name for s in m.submodules] == ["d1", "dense", "leaf"]
    assert m.name_scope.name == "model/" and m.layers[0].name_scope.name == "d1/"
    with pytest.raises(ValueError, match="is not a valid module name"):
        tf.Module(name="bad name")


def test_jit_while_constant_init_aliasing():
    """A while init that CSE made the same value as a constant the body reads (here ones([2]) and the body's
    + 1.0) must not be updated in place by the loop (passes/bufferize/core.py `_carried`)."""
    def g(x):
        def body(i, acc):
            return i + 1, acc * tf.gather(x, i) + 1.0
        return tf.while_loop(lambda i, a: i < 3, body, [0, tf.ones([2])])[1]

    np.testing.assert_allclose(npy(run("jit", g, X)), npy(run("function", g, X)))


@tf.custom_gradient
def _clip_grad_square(x):
    def grad(dy):
        return tf.clip_by_value(dy * 2.0 * x, -0.5, 0.5)

    return x * x, grad


@tf.custom_gradient
def _log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1.0 - 1.0 / (1.0 + e))

    return tf.math.log(1.0 + e), grad


@pytest.mark.parametrize("mode", MODES)
def test_custom_gradient(mode):
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(_clip_grad_square(x) * 3.0) + tf.reduce_sum(_log1pexp(x))
        return y, t.gradient(y, x)

    y, g = run(mode, f, X)
    np.testing.assert_allclose(npy(y), np.sum(X * X * 3) + np.sum(np.log1p(np.exp(X))), rtol=1e-5)
    np.testing.assert_allclose(npy(g), np.clip(6 * X, -0.5, 0.5) + 1 / (1 + np.exp(-X)), rtol=1e-5)


def test_custom_gradient_no_tape_and_two_args():
    @tf.custom_gradient
    def mul(a, b):
        return a * b, lambda dy: (dy * b * 10.0, dy * a)

    np.testing.assert_allclose(npy(mul(tf.constant(2.0), tf.constant(3.0))), 6.0)
    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch([a, b])
        y = mul(a, b)
    ga, gb = t.gradient(y, [a, b])
    assert float(npy(ga)) == 30.0 and float(npy(gb)) == 2.0


@pytest.mark.parametrize("mode", ["function", "jit"])
def test_gradients(mode):
    def g(x):
        y = tf.reduce_sum(tf.sin(x) * x)
        z = x * 2.0
        gx, gw = tf.gradients([y, z], [x, tf.constant(1.0)])
        return gx, tf.gradients(y, x, unconnected_gradients="zero")[0], gw is None

    gx, gx1, none = run(mode, g, X)
    np.testing.assert_allclose(npy(gx), np.sin(X) + X * np.cos(X) + 2, rtol=1e-5)
    np.testing.assert_allclose(npy(gx1), np.sin(X) + X * np.cos(X), rtol=1e-5)


def test_gradients_eager_error():
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution is enabled. "
                                           "Use tf.GradientTape instead."):
        tf.gradients(tf.constant(1.0), tf.constant(1.0))


@pytest.mark.parametrize("mode", MODES)
def test_jacobian(mode):
    def j(x, w):
        with tf.GradientTape() as t:
            t.watch([x, w])
            y = tf.matmul(tf.sin(x), w)
        return t.jacobian(y, [x, w])

    W = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], np.float32)
    jx, jw = run(mode, j, X, W)
    assert npy(jx).shape == (3, 3, 3, 2) and npy(jw).shape == (3, 3, 2, 3)
    want_x = np.zeros((3, 3, 3, 2), np.float32)
    for a in range(3):
        for b in range(3):
            want_x[a, b, a, :] = np.cos(X[a]) * W[:, b]
    np.testing.assert_allclose(npy(jx), want_x, rtol=1e-5, atol=1e-6)
    want_w = np.zeros((3, 3, 2, 3), np.float32)
    for a in range(3):
        for b in range(3):
            want_w[a, b, :, b] = np.sin(X[a])
    np.testing.assert_allclose(npy(jw), want_w, rtol=1e-5, atol=1e-6)


def test_jacobian_non_persistent_used_once():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    np.testing.assert_allclose(npy(t.jacobian(y, x)), np.diag([2.0, 4.0]))
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used to compute one set"):
        t.jacobian(y, x)


@pytest.mark.parametrize("mode", MODES)
def test_custom_gradient_with_variables(mode):
    w = tf.Variable(np.float32(3.0))

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            return dy * w * 2.0, [tf.reduce_sum(dy * x) * 10.0]

        return x * w, grad

    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(scale(x))
        gx, gw = t.gradient(y, [x, w])
        return gx, gw

    gx, gw = run(mode, f, X)
    np.testing.assert_allclose(npy(gx), np.full_like(X, 6.0))
    np.testing.assert_allclose(npy(gw), X.sum() * 10.0, rtol=1e-5)


def test_custom_gradient_variables_need_keyword():
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        return x * w, lambda dy: dy

    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        with pytest.raises(TypeError, match="@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function uses variables"):
            f(x)


def test_map_fn_scan_errors_and_empty():
    x = tf.ones([3, 2])
    with pytest.raises(ValueError, match="The two structures don't have the same nested structure."):
        tf.map_fn(lambda t: t[0] + t[1], (x, x))
    with pytest.raises(ValueError, match="The two structures don't have the same nested structure."):
        tf.function(lambda x: tf.map_fn(lambda r: (r, r), x))(x)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="TensorArray dtype is float32 but Op is trying to write dtype int32"):
        tf.map_fn(lambda r: tf.cast(r > 0, tf.int32), x)
    with pytest.raises(ValueError, match="Elements in elems must be 1\\+ dimensional Tensors, not scalars"):
        tf.map_fn(lambda r: r, tf.constant(1.0))
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.map_fn(lambda r: r, (tf.ones([3]), tf.ones([2])))
    with pytest.raises(ValueError, match="The two structures don't have the same nested structure."):
        tf.scan(lambda a, r: (a, a), x)
    assert tf.map_fn(lambda r: r, tf.ones([0, 2])).shape == [0]


@pytest.mark.parametrize("mode", MODES)
def test_tensor_array_without_element_shape_in_loop(mode):
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3)
        ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, tf.gather(x, i) + 1.0)),
                           [tf.constant(0), ta])[1]
        return ta.stack()

    np.testing.assert_allclose(npy(run(mode, f, X)), X + 1)


@pytest.mark.parametrize("mode", ["function", "jit"])
def test_gradients_variables_and_map_fn(mode):
    v = tf.Variable(3.0)

    def f(x):
        y = v * tf.reduce_sum(tf.map_fn(lambda r: r * r, x))
        return tf.gradients(y, [v, x])

    gv, gx = run(mode, f, np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(npy(gv), 5.0)
    np.testing.assert_allclose(npy(gx), [6.0, 12.0])
