"""tf.config, tf.device, tf.name_scope, tf.debugging, tf.errors, TensorShape with unknown dims and
tf.linspace with integer ends, against TF 2.21's documented behaviour (values checked with numpy)."""

from __future__ import annotations

import numpy as np
import pytest

from minixla import tf


def test_tensor_shape_with_unknown_dims():
    s = tf.TensorShape([None, 2])
    assert repr(s) == "TensorShape([None, 2])" and str(s) == "(None, 2)" and s.as_list() == [None, 2]
    assert not s.is_fully_defined() and s.num_elements() is None and s.rank == 2 and s[0] is None
    assert s.merge_with([3, 2]) == tf.TensorShape([3, 2]) and s.is_compatible_with([5, 2])
    assert s.concatenate([4]).as_list() == [None, 2, 4] and s == tf.TensorShape([None, 2])
    assert str(tf.TensorShape(None)) == "<unknown>" and tf.TensorShape([3, 2]).num_elements() == 6
    with pytest.raises(ValueError, match=r"Shapes \(None, 2\) and \(3, 3\) are not compatible"):
        s.merge_with([3, 3])


def test_linspace_with_integer_ends_is_float64():
    out = tf.linspace(0, 10, 5)
    assert out.dtype == tf.float64
    np.testing.assert_array_equal(out.numpy(), np.linspace(0, 10, 5))
    assert tf.linspace(0.0, 1.0, 3).dtype == tf.float32


def test_errors_namespace_is_tfs():
    names = {n for n in dir(tf.errors) if not n.startswith("_")}
    assert len(names) == 35 and {"ResourceExhaustedError", "OUT_OF_RANGE", "OperatorNotAllowedInGraphError"} <= names
    assert tf.errors.INVALID_ARGUMENT == 3 and issubclass(tf.errors.DataLossError, tf.errors.OpError)


def test_config_devices_threads_and_eager_functions():
    cpus = tf.config.list_physical_devices("CPU")
    assert [d.device_type for d in cpus] == ["CPU"] and tf.config.list_physical_devices("GPU") == []
    assert tf.config.list_logical_devices("CPU")[0].name == "/device:CPU:0"
    tf.config.threading.set_intra_op_parallelism_threads(2)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 2
    with pytest.raises(ValueError, match="non-GPU"):
        tf.config.experimental.set_memory_growth(cpus[0], True)
    calls = []

    @tf.function(jit_compile=True)
    def f(x):
        calls.append(type(x).__name__)
        return x * 2.0

    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly()
        assert float(f(tf.constant(3.0))) == 6.0 and float(f(tf.constant(4.0))) == 8.0
        assert len(calls) == 2  # the Python body ran each time
    finally:
        tf.config.run_functions_eagerly(False)
    f(tf.constant(1.0))
    f(tf.constant(2.0))
    assert len(calls) == 3  # traced once, then compiled


def test_device_and_name_scope():
    with tf.device("/device:CPU:0"):
        assert float(tf.add(1.0, 2.0)) == 3.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="Failed to parse device name"):
        with tf.device("not a device"):
            pass
    with tf.name_scope("outer") as outer:
        with tf.name_scope("inner") as inner:
            assert (outer, inner) == ("outer/", "outer/inner/")
        with tf.name_scope("abs/") as reset:
            assert reset == "abs/"
    with pytest.raises(ValueError, match="is not a valid scope name"):
        tf.name_scope("bad name")


def test_debugging_asserts_eagerly():
    x, y = tf.constant([1, 2]), tf.constant([1, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold element-wise"):
        tf.debugging.assert_equal(x, y)
    tf.debugging.assert_equal(x, x)
    tf.debugging.assert_less(x, tf.constant([5, 5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x >= 0"):
        tf.debugging.assert_non_negative(tf.constant([-1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad : Tensor had NaN values"):
        tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "bad")
    with pytest.raises(ValueError, match="Tensor must have rank 3"):
        tf.debugging.assert_rank(x, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="assertion failed"):
        tf.debugging.Assert(tf.constant(False), ["x is", x])
    with pytest.raises(ValueError, match="must have size 2"):
        tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", 3)), (tf.zeros([4]), ("N",))])


def test_asserts_are_dropped_in_compiled_code_like_xla():
    @tf.function(jit_compile=True)
    def f(x):
        tf.debugging.assert_positive(x)
        return tf.debugging.check_numerics(x, "x") + 1.0

    np.testing.assert_array_equal(f(tf.constant([-1.0, 2.0])).numpy(), [0.0, 3.0])


def test_gradient_flows_through_a_tf_function_call():
    """Issue #14's bug: no gradient reached a Variable passed to a tf.function called under a tape."""
    v, x = tf.Variable(2.0), tf.constant(3.0)

    @tf.function(jit_compile=True)
    def f(a):
        return a * a * v

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == 2 * 3.0 * 2.0 and float(tape.gradient(y, v)) == 9.0
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = f(w)
    assert float(tape.gradient(y, w)) == 2 * 3.0 * 2.0


def test_nested_tf_functions():
    @tf.function
    def inner(x):
        return x * 2.0

    @tf.function(jit_compile=True)
    def outer(x):
        return inner(x) + inner(x * 3.0)

    np.testing.assert_allclose(outer(tf.constant([1.0, 2.0])).numpy(), [8.0, 16.0])
    assert "hlo.multiply" in outer.experimental_get_compiler_ir(tf.constant([1.0, 2.0]))(stage="hlo")
