"""Eager results equal jit_compile=True results over the ops the eager fast path takes (elementwise
binary and unary ops, operators, comparisons, reductions, matmul, cast, reshape, transpose), one
compiled function per dtype: exactly for the ops IEEE arithmetic defines (+ - * / max min, compares,
integer ops, data movement), within a few ulps for the transcendental ones and float sums, whose
summation order differs between numpy and the compiled loops."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf

EXACT_FLOAT = ("add", "sub", "mul", "div", "max", "min", "max0", "min_s", "pow2", "neg", "abs", "square", "floor",
               "ceil", "lt", "ge", "eq", "reshape", "transpose", "cast", "op_chain", "maxred")


def float_suite(x, y):
    s = tf.constant(np.float32(0.75))
    return {
        "add": tf.add(x, y), "sub": tf.subtract(x, s), "mul": tf.multiply(x, 3.0), "div": tf.math.truediv(x, y),
        "max": tf.maximum(x, y), "min": tf.minimum(x, y), "max0": tf.maximum(x, 0.0), "min_s": tf.minimum(x, s),
        "pow2": x ** 2, "pow": tf.pow(tf.abs(x), 1.5), "neg": -x, "abs": tf.abs(x), "square": tf.square(x),
        "floor": tf.floor(x), "ceil": tf.math.ceil(x), "lt": x < y, "ge": tf.greater_equal(x, 0.5),
        "eq": tf.equal(x, y), "exp": tf.exp(x), "log": tf.math.log(tf.abs(x) + 1.0), "tanh": tf.tanh(x),
        "sigmoid": tf.sigmoid(x), "sqrt": tf.sqrt(tf.abs(x)), "sin": tf.sin(x),
        "sum": tf.reduce_sum(x, axis=1), "mean": tf.reduce_mean(x), "prod": tf.reduce_prod(x, axis=0, keepdims=True),
        "maxred": tf.reduce_max(x, axis=1),
        "matmul": tf.matmul(x, y, transpose_b=True), "reshape": tf.reshape(x, [-1, 4]),
        "transpose": tf.transpose(x), "cast": tf.cast(x * 10.0, tf.int32),
        "op_chain": tf.maximum(x * 1.0001 + 0.5, 0.5) - 0.5,
    }


def int_suite(x, y):
    return {
        "add": x + y, "sub": tf.subtract(x, 3), "mul": x * y, "max": tf.maximum(x, y), "min": tf.minimum(x, -2),
        "neg": -x, "abs": tf.abs(x), "square": tf.square(x), "floordiv": x // 3, "mod": x % 3, "lt": x < y,
        "eq": tf.equal(x, y), "sum": tf.reduce_sum(x, axis=0), "prod": tf.reduce_prod(x, axis=1),
        "maxred": tf.reduce_max(x), "minred": tf.reduce_min(x, axis=[0, 1], keepdims=True),
        "reshape": tf.reshape(x, [2, -1]), "transpose": tf.transpose(x, [1, 0]), "cast": tf.cast(x, tf.float32),
        "truediv": x / y,
    }


def _inputs(dtype, rng):
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal((6, 8)).astype(dtype)
        x[0, :3] = [-0.0, 0.0, 0.5]
        return x, rng.standard_normal((6, 8)).astype(dtype)
    return rng.integers(-9, 10, (6, 8)).astype(dtype), rng.integers(1, 10, (6, 8)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.int32], ids=lambda d: np.dtype(d).name)
def test_eager_equals_jit(dtype):
    suite = float_suite if np.dtype(dtype).kind == "f" else int_suite
    xs, ys = _inputs(dtype, np.random.default_rng(7))
    x, y = tf.constant(xs), tf.constant(ys)
    eager = suite(x, y)
    jit = tf.function(suite, jit_compile=True)(x, y)
    assert set(eager) == set(jit)
    for name in eager:
        got, want = eager[name].numpy(), jit[name].numpy()
        assert got.dtype == want.dtype and got.shape == want.shape, name
        if np.dtype(dtype).kind != "f" or name in EXACT_FLOAT:  # bit for bit: signed zeros, NaN
            np.testing.assert_array_equal(np.atleast_1d(got).view(np.uint8), np.atleast_1d(want).view(np.uint8),
                                          err_msg=name)
        else:
            np.testing.assert_allclose(got, want, rtol=4e-6, atol=1e-6, err_msg=name)
