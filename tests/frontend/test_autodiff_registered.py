"""TF ops with their own gradient (`ops.registry.register_gradient`), py_function gradients, and the order
in which a tensor's gradient contributions are summed - eagerly, in tf.function and with jit_compile."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from minixla.frontend.execute import execute
from minixla.frontend.ops import registry

MODES = ("eager", "function", "jit")


def _grad(fn, xs, mode, upstream=None):
    """d fn(*xs) / d xs in `mode`, with ones (or `upstream`) as the output cotangent."""
    def step(*args):
        with tf.GradientTape() as tape:
            for a in args:
                tape.watch(a)
            y = fn(*args)
        return tape.gradient(y, list(args), output_gradients=upstream)

    if mode != "eager":
        step = tf.function(step, jit_compile=(mode == "jit"))
    return step(*[tf.constant(x) for x in xs])


@pytest.fixture
def cube_op():
    """A test-only TF op `x**3` whose registered gradient is deliberately NOT its derivative (7 * g), so a
    tape that differentiated the decomposition instead would give 3x^2 g."""
    registry.register("TestCube", ("x",), lambda b, x: b.multiply(x, b.multiply(x, x)))

    @registry.register_gradient("TestCube")
    def _grad_rule(b, op, g):
        return [b.multiply(g, b.full(g.shape, 7, g.dtype))]

    yield
    del registry.REGISTRY["TestCube"], registry.GRADIENTS["TestCube"]


@pytest.mark.parametrize("mode", MODES)
def test_registered_gradient_replaces_the_decomposition(cube_op, mode):
    x = np.array([1.0, -2.0, 3.0], np.float32)
    (g,) = _grad(lambda a: execute("TestCube", [a]), [x], mode)
    np.testing.assert_array_equal(g.numpy(), np.full(3, 7.0, np.float32))


def test_registered_gradient_is_recorded_for_higher_derivatives(cube_op):
    x = tf.constant([2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = execute("TestCube", [x]) * x  # d/dx = 7x + x^3 (the rule's 7 for TestCube)
        g = inner.gradient(y, x)
    np.testing.assert_array_equal(g.numpy(), [7 * 2.0 + 8.0])
    # d(7x)/dx = 7, and the x^3 = TestCube(x) again differentiates by the rule: 7, not 3x^2 = 12
    np.testing.assert_array_equal(outer.gradient(g, x).numpy(), [7 + 7.0])


def test_a_gradient_registers_once(cube_op):
    with pytest.raises(ValueError, match="registered twice"):
        registry.register_gradient("TestCube")(lambda b, op, g: [g])


@pytest.mark.parametrize("mode", MODES)
def test_relu_gradients_are_tfs_kernels(mode):
    """ReluGrad / Relu6Grad: 0 at NaN, at 0 and (relu6) at 6; g strictly inside."""
    x = np.array([np.nan, -1.0, 0.0, 0.5, 6.0, 7.0, np.inf, -np.inf], np.float32)
    up = tf.constant(np.full(8, 3.0, np.float32))
    (g,) = _grad(tf.nn.relu, [x], mode, up)
    np.testing.assert_array_equal(g.numpy(), [0, 0, 0, 3, 3, 3, 3, 0])
    (g6,) = _grad(tf.nn.relu6, [x], mode, up)
    np.testing.assert_array_equal(g6.numpy(), [0, 0, 0, 3, 0, 0, 0, 0])


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_py_function_gradient_differentiates_the_python_function(mode):
    x = np.array([1.0, -2.0], np.float32)
    y = np.array([0.5, 3.0], np.float32)
    (gx, gy) = _grad(lambda a, b: tf.py_function(lambda u, v: u * u * v, [a, b], tf.float32) + 1.0, [x, y], mode)
    np.testing.assert_allclose(gx.numpy(), 2 * x * y)
    np.testing.assert_allclose(gy.numpy(), x * x)


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_py_function_gradient_with_an_unused_output_and_an_integer_input(mode):
    x = np.array([1.5, 2.0], np.float32)
    n = np.array([3, 4], np.int32)

    def fn(a, k):
        first, _ = tf.py_function(lambda u, m: (u * tf.cast(m, tf.float32), u + 1.0), [a, k],
                                  [tf.float32, tf.float32])
        return first

    def step(a, k):
        with tf.GradientTape() as tape:
            tape.watch(a)
            out = fn(a, k)
        return tape.gradient(out, a)

    if mode == "function":
        step = tf.function(step)
    np.testing.assert_allclose(step(tf.constant(x), tf.constant(n)).numpy(), [3.0, 4.0])


def test_py_function_under_jit_still_raises_tfs_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="EagerPyFunc"):
        _grad(lambda a: tf.py_function(lambda u: u * 2.0, [a], tf.float32), [np.ones(2, np.float32)], "jit")


def test_py_function_second_derivative_eagerly():
    x = tf.constant([3.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.py_function(lambda u: u * u * u, [x], tf.float32)
        g = inner.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), [27.0])
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), [18.0])


@pytest.mark.parametrize("mode", MODES)
def test_contributions_are_summed_in_forward_order(mode):
    """x's gradient is the float16 sum of the consumers' contributions in the order they ran (TF's AddN):
    1024 + 0.5 + 0.5 rounds to 1024 twice; summed last-consumer-first, 0.5 + 0.5 + 1024 = 1025."""
    x = np.array([1.0], np.float16)
    grads = _grad(lambda a: tf.stack([a * 1024.0, a * 0.5, a * 0.5]), [x], mode)
    np.testing.assert_array_equal(grads[0].numpy(), np.array([1024.0], np.float16))
