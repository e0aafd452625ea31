"""Every op case of `frontend.op_cases` eagerly, in tf.function and with
jit_compile=True, against an independent numpy computation. The same cases
against real TensorFlow's recorded outputs and gradients (tests/golden/):
tests/frontend/test_goldens.py."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend.op_cases import CASES

MODES = ("eager", "function", "jit")


def run(name: str, mode: str, inputs=None):
    fn, ins, _ = CASES[name]
    ins = ins if inputs is None else inputs
    tensors = [tf.constant(a) for a in ins]
    if mode == "eager":
        out = fn(tf, *tensors)
    else:
        out = tf.function(lambda *a: fn(tf, *a), jit_compile=(mode == "jit"))(*tensors)
    return np.asarray(out.numpy())


def _close(got, want, dtype):
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, want.astype(got.dtype), rtol=2e-6, atol=2e-6)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_op_against_numpy(name, mode):
    ref = CASES[name][2]
    got = run(name, mode)
    if ref is None:  # no independent formula: the three modes must agree
        _close(got, run(name, "eager"), got.dtype)
    else:
        _close(got, ref, got.dtype)


def test_running_example_precision_large():
    """Mean of a large f32 tensor: relative error <= 1e-6 against float64 numpy."""
    rng = np.random.default_rng(1)
    x = rng.random((512, 512), dtype=np.float32)
    y = rng.random((512, 512), dtype=np.float32)
    want = np.mean(x.astype(np.float64) ** 2 * 3 + y)
    f = lambda x, y: tf.reduce_mean(tf.multiply(x ** 2, 3) + y)  # noqa: E731
    for got in (f(tf.constant(x), tf.constant(y)), tf.function(f)(x, y), tf.function(f, jit_compile=True)(x, y)):
        assert abs(float(got) - want) / abs(want) <= 1e-6


def test_no_implicit_promotion():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute AddV2 as input #1\(zero-based\) was "
                                                              r"expected to be a float32 tensor but is a int32"):
        tf.constant([1.0]) + tf.constant([1])


def test_python_scalars_take_tensor_dtype():
    x = tf.constant([1, 2], tf.int64)
    assert (x + 1).dtype == tf.int64
    assert (2.0 * tf.constant([1.0], tf.float64)).dtype == tf.float64
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int64"):
        x + 1.5


def test_default_dtypes_and_repr():
    assert tf.constant(1.5).dtype == tf.float32
    assert tf.constant(3).dtype == tf.int32
    assert tf.constant(np.float64(2.0)).dtype == tf.float64
    assert repr(tf.float32) == "tf.float32"
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert t.shape == [2, 2] and t.shape.as_list() == [2, 2]
    assert repr(t).startswith("<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[1., 2.],")
    assert str(tf.constant([1.0, 2.0])) == "tf.Tensor([1. 2.], shape=(2,), dtype=float32)"


def test_truediv_of_ints_gives_float64():
    r = tf.constant([1, 2]) / tf.constant([2, 4])
    assert r.dtype == tf.float64
    np.testing.assert_array_equal(r.numpy(), [0.5, 0.5])


def test_variable_assign_eager_and_in_function():
    v = tf.Variable([1.0, 2.0])
    v.assign_add([1.0, 1.0])
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])

    for jit in (False, True):
        w = tf.Variable([1.0, 2.0])

        @tf.function(jit_compile=jit)
        def step(d):
            w.assign_add(d)
            return w.read_value() * 2

        np.testing.assert_array_equal(step(tf.constant([1.0, 1.0])).numpy(), [4.0, 6.0])
        np.testing.assert_array_equal(step(tf.constant([1.0, 1.0])).numpy(), [6.0, 8.0])
        np.testing.assert_array_equal(w.numpy(), [3.0, 4.0])
        w.assign([0.0, 0.0])
        np.testing.assert_array_equal(step(tf.constant([1.0, 1.0])).numpy(), [2.0, 2.0])
