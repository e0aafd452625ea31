"""The eager fast path (frontend/eager_fast_path.py) gives exactly the general path's numbers and
errors: every fast op and dtype, scalar sides, overflow and NaN, against the same op taken through
the general path (a GradientTape that watches the inputs forces it) and against numpy."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from minixla.frontend import eager_fast_path, tf

OPS = {"AddV2": tf.add, "Sub": tf.subtract, "Mul": tf.multiply, "Maximum": tf.maximum, "Minimum": tf.minimum,
       "RealDiv": tf.math.truediv}
DTYPES = [np.float32, np.float64, np.float16, ml_dtypes.bfloat16, np.int32, np.int64, np.uint8, np.int8]


def _values(dtype, rng):
    if np.dtype(dtype).kind == "f" or dtype is ml_dtypes.bfloat16:
        v = rng.standard_normal(12).astype(np.float32) * 1e3
        v[:3] = [np.nan, np.inf, -0.0]
        return v.astype(dtype).reshape(3, 4)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, 12, endpoint=True).astype(dtype).reshape(3, 4)


def _general(fn, a, b):
    """The same op through the general path: a recording tape sends every op through the builder."""
    ta, tb = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tape:
        if ta.dtype.is_floating:
            tape.watch(ta)
        return fn(ta, tb)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", sorted(OPS))
def test_fast_path_equals_general_path(op, dtype):
    rng = np.random.default_rng(3)
    a, b = _values(dtype, rng), _values(dtype, rng)
    fn = OPS[op]
    if op == "RealDiv" and np.dtype(dtype).kind in "iu":
        pytest.skip("integer RealDiv is not a TF op (truediv casts): the general path only")
    got = fn(tf.constant(a), tf.constant(b))
    want = _general(fn, a, b)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy().view(np.uint8), want.numpy().view(np.uint8))  # bit for bit


UNARY = {"Abs": tf.abs, "Neg": tf.negative, "Sqrt": tf.sqrt, "Rsqrt": tf.math.rsqrt, "Exp": tf.exp,
         "Expm1": tf.math.expm1, "Log": tf.math.log, "Log1p": tf.math.log1p, "Sin": tf.sin, "Cos": tf.cos,
         "Tanh": tf.tanh, "Floor": tf.floor, "Ceil": tf.math.ceil, "Sigmoid": tf.sigmoid}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_fast_path_equals_general_path(op, dtype):
    assert set(UNARY) == set(eager_fast_path.UNARY_KERNELS)
    a = _values(dtype, np.random.default_rng(5)) / 300
    got = UNARY[op](tf.constant(a))
    want = _general(lambda x, _: UNARY[op](x), a, a)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy().view(np.uint8), want.numpy().view(np.uint8))


def test_fast_path_is_taken_for_tensors_and_python_scalars(monkeypatch):
    calls, operator_calls = [], []
    real = eager_fast_path.run
    monkeypatch.setattr(eager_fast_path, "run", lambda name, inputs: calls.append(name) or real(name, inputs))
    from minixla.frontend import tensor as tensor_module

    real_dunder = tensor_module.OPERATOR_FAST_PATH[0]
    monkeypatch.setattr(tensor_module, "OPERATOR_FAST_PATH",
                        [lambda name, a, b: operator_calls.append(name) or real_dunder(name, a, b)])
    x = tf.constant(np.arange(4, dtype=np.float32))
    y = (x * 2.0 + 1) - x  # operators: straight from Tensor's dunders
    np.testing.assert_array_equal(y.numpy(), np.arange(4, dtype=np.float32) + 1)
    assert operator_calls == ["Mul", "AddV2", "Sub"] and calls == []
    z = tf.subtract(tf.add(tf.multiply(x, 2.0), 1), x)  # the API functions: through execute's fast path
    np.testing.assert_array_equal(z.numpy(), y.numpy())
    assert calls == ["Mul", "AddV2", "Sub"]
    np.testing.assert_array_equal((1.0 - x / 2).numpy(), 1 - np.arange(4, dtype=np.float32) / 2)  # reversed
    assert operator_calls[-2:] == ["RealDiv", "Sub"]
    h = tf.constant(np.array([1.0, 4.0], np.float16))
    for got, want in (((2.0 / (x + 1)), 2 / (np.arange(4, dtype=np.float32) + 1)), ((3 / (h * 2)), 3 / (2 * h.numpy()))):
        np.testing.assert_array_equal(got.numpy(), want)  # a scalar on the left of a division
    tf.exp(y)
    assert calls[-1] == "Exp"
    n = tf.constant(np.array([250], np.uint8))
    np.testing.assert_array_equal((n + 10).numpy(), [4])  # wraps like the compiled op


def test_fast_path_leaves_errors_and_promotions_to_the_general_path():
    x = tf.constant(np.ones((2, 3), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        x + tf.constant(np.ones((3, 2), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError):
        x + tf.constant(np.ones((2, 3), np.float64))
    np.testing.assert_array_equal((x + tf.constant(np.ones(3, np.float32))).numpy(), 2 * np.ones((2, 3)))
    with pytest.raises(TypeError):
        tf.constant([1, 2]) + 1.5  # TF: a float into an int32 op
    big = tf.constant(np.float16(1)) + 70000.0  # float16 scalars take the general path: TF's inf
    assert big.dtype == tf.float16 and np.isposinf(big.numpy())
