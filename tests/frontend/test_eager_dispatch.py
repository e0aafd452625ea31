"""The eager fast path's bookkeeping (frontend/eager_fast_path.py, frontend/tensor.py): every eager
tensor, however made, carries `_dt` equal to its array's dtype (the fast paths compare `_dt`s instead
of reading each array's dtype); a tensor made without it still gets right results and TF's errors;
`Tensor()` is the bare tensor the fast paths fill and `Tensor.make` builds the rest. Results are
checked against numpy."""

from __future__ import annotations

import functools
import operator

import ml_dtypes
import numpy as np
import pytest

from minixla.frontend import eager_fast_path as fast
from minixla.frontend import tf
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.tensor import Tensor
from tests.frontend.general_path import general as _general, same as _same


def _dt_of(t):
    return t.__dict__.get("_dt")


@functools.cache
def _eager_tensors():
    """One tensor from each way the frontend makes eager tensors (made once)."""
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    v = tf.Variable(np.ones((2, 3), np.float32))
    f = tf.function(lambda a: a * 2.0 + 1.0, jit_compile=True)
    f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x)
    return {
        "constant of a scalar": tf.constant(np.float32(2.0)), "constant of a Python int": tf.constant(3),
        "constant of an array": x, "convert_to_tensor": tf.convert_to_tensor([1.0, 2.0]),
        "binary op": tf.multiply(x, x), "comparison": tf.less(x, x), "comparison operator": x < x,
        "operator": x + x, "python scalar operand": x * 2, "reversed operator": 2.0 - x,
        "unary op": tf.exp(x), "cast": tf.cast(x, tf.int64), "reduction": tf.reduce_sum(x),
        "general path op": tf.one_hot([0, 2], 3), "variable read": v + 0.0, "variable value": v.read_value(),
        "compiled call": f(x), "taped op": y, "gradient": tape.gradient(y, x),
        "bfloat16 op": tf.add(*[tf.constant(np.ones(3, ml_dtypes.bfloat16))] * 2),
        "0-d op": tf.multiply(tf.constant(np.float32(2.0)), tf.constant(np.float32(3.0))),
    }


@pytest.mark.parametrize("kind", sorted(_eager_tensors()))
def test_every_eager_tensor_carries_its_dtype(kind):
    t = _eager_tensors()[kind]
    assert type(t) is Tensor and isinstance(t._value, np.ndarray)
    assert _dt_of(t) == t._value.dtype


@pytest.mark.parametrize("op", sorted(fast.BINARY_TABLES))
def test_binary_results_carry_the_dtype_of_their_array(op):
    """The fast path sets a result's `_dt` from its operands (bool for comparisons) without reading
    the result's array: that must be the array's dtype for every op and dtype of the tables."""
    fn = {"AddV2": tf.add, "Sub": tf.subtract, "Mul": tf.multiply, "RealDiv": tf.math.truediv,
          "Maximum": tf.maximum, "Minimum": tf.minimum, "Pow": tf.pow, "Equal": tf.equal, "NotEqual": tf.not_equal,
          "Less": tf.less, "LessEqual": tf.less_equal, "Greater": tf.greater,
          "GreaterEqual": tf.greater_equal}[op]
    for dtype in fast.BINARY_TABLES[op]:
        a = tf.constant(np.array([1, 2, 0], dtype))
        for b in (a, tf.constant(np.array(1, dtype))):
            got = fn(a, b)
            assert _dt_of(got) == got._value.dtype, (op, dtype)


def test_a_tensor_without_dt_takes_the_slower_branch_alike():
    """A tensor made as `Tensor()` + `_value` alone (code outside the frontend may do so): right
    results, TF's dtype error, and the result carries `_dt` again."""
    arr = np.linspace(-1, 1, 5, dtype=np.float32)
    bare = Tensor()
    bare._value = arr
    c = tf.constant(np.float32(0.5))
    for fn, ref in ((tf.multiply, np.multiply), (tf.maximum, np.maximum), (tf.add, np.add)):
        for x, y, want in ((bare, c, ref(arr, np.float32(0.5))), (c, bare, ref(np.float32(0.5), arr))):
            got = fn(x, y)
            np.testing.assert_array_equal(got.numpy(), want)
            assert got.dtype == tf.float32 and _dt_of(got) == np.float32
    np.testing.assert_array_equal((bare * c).numpy(), arr * np.float32(0.5))
    with pytest.raises(InvalidArgumentError):
        tf.multiply(bare, tf.constant(np.int32(2)))


def test_mixed_dtypes_still_raise_through_the_fast_path():
    """`_dt`s that differ send the op to the general path, which raises TF's error (float32 * int32,
    float32 * float64, float32 * float16: numpy would promote each)."""
    x = tf.constant(np.ones(3, np.float32))
    for other in (np.int32, np.float64, np.float16):
        y = tf.constant(np.ones(3, other))
        for fn in (tf.multiply, tf.maximum, lambda a, b: a * b):
            with pytest.raises(InvalidArgumentError):
                fn(x, y)


def test_tensor_construction():
    """`Tensor(value)` is not a constructor (TF's tf.Tensor is not one either); `Tensor.make` is."""
    with pytest.raises(TypeError):
        Tensor(np.ones(2))
    t = Tensor.make(np.arange(3, dtype=np.int64))
    assert t.dtype == tf.int64 and t.shape == (3,) and _dt_of(t) == np.int64
    view = np.broadcast_to(np.float32(1.0), (2, 2))
    owned = Tensor.make(view)  # a read-only broadcast view is copied
    assert owned._value.flags.writeable and owned._value.base is None
    np.testing.assert_array_equal((owned + 1.0).numpy(), np.full((2, 2), 2.0, np.float32))


NUMBERS = [2.0, -2.5, 0.1, 1e-45, 3e38, 3.5e38, 0.0, -0.0, float("nan"), float("inf"), 3, -7, 0, 2 ** 24,
           2 ** 24 + 1, 16777217.0]
NUMBER_OPS = {"add": (tf.add, operator.add), "subtract": (tf.subtract, operator.sub),
              "multiply": (tf.multiply, operator.mul), "truediv": (tf.math.truediv, operator.truediv),
              "maximum": (tf.maximum, None), "minimum": (tf.minimum, None), "less": (tf.less, operator.lt),
              "greater_equal": (tf.greater_equal, operator.ge), "pow": (tf.pow, operator.pow)}


@pytest.mark.parametrize("op", sorted(NUMBER_OPS))
def test_python_numbers_on_float32_equal_the_general_path(op):
    """A Python number beside a float32 tensor runs as a cached 0-d float32 array: the same bits,
    dtype and errors as the general path (TF's conversion: rounding, zeros' signs, NaN, overflow),
    on either side, through the API function and the operator."""
    x = tf.constant(np.array([-1.5, -0.0, 0.0, 0.3, 2.0, 1e30, np.nan], np.float32))
    xs = x.numpy()
    api, op_fn = NUMBER_OPS[op]
    calls = [(lambda v: api(x, v), None)]  # (the call, its numpy oracle on a float32 scalar)
    if op_fn is not None:
        calls.append((lambda v: op_fn(x, v), lambda s: op_fn(xs, s)))
        if op_fn not in (operator.lt, operator.ge):
            calls.append((lambda v: op_fn(v, x), lambda s: op_fn(s, xs)))
    for v in NUMBERS:
        for call, oracle in calls:
            try:
                want = _general(call, v)
            except Exception as err:  # noqa: BLE001 -- TF refuses the number: the fast path does alike
                with pytest.raises(type(err)):
                    call(v)
                continue
            got = call(v)
            _same(got, want)
            if oracle is not None and op != "pow" and not (isinstance(v, float) and abs(v) > 3e38):
                with np.errstate(all="ignore"):  # numpy on a float32 scalar agrees
                    np.testing.assert_array_equal(got.numpy(), oracle(np.float32(v)))


def test_cached_numbers_are_read_only_bounded_and_skip_zeros_and_nan():
    fast._FLOATS32.clear()
    x = tf.constant(np.ones(4, np.float32))
    for v in (0.0, -0.0, float("nan"), 0):
        np.testing.assert_array_equal((x * v).numpy(), np.ones(4, np.float32) * np.float32(v))
    assert not fast._FLOATS32 and 0 not in fast._INTS32
    x * 0.25
    cached = fast._FLOATS32[0.25]
    assert cached.dtype == np.float32 and cached.ndim == 0 and not cached.flags.writeable
    for i in range(fast._NUMBERS_MAX + 5):
        x + (i + 0.5)
    assert len(fast._FLOATS32) <= fast._NUMBERS_MAX


def test_python_numbers_under_a_tape_and_on_other_dtypes():
    """An open tape records the op (the general path or the tape's own fast path); float64 and int32
    tensors with Python numbers keep their paths."""
    x = tf.constant(np.array([1.0, 2.0], np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * 3.0 + 1.0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [3.0, 3.0])
    d = tf.constant(np.array([1.0, 2.0]))
    assert (d * 0.1).dtype == tf.float64 and (d * 0.1).numpy()[1] == 2.0 * 0.1
    i = tf.constant(np.array([1, 2], np.int32))
    assert (i * 3).dtype == tf.int32 and list((i * 3).numpy()) == [3, 6]
    with pytest.raises((TypeError, InvalidArgumentError)):
        i * 0.5


@pytest.mark.parametrize("op", sorted(fast.IN_DOUBLE))
def test_unary_float_functions_equal_the_interpreter_kernel(op):
    """exp, log, sqrt, tanh, sigmoid, ... on float32/float64: computed in float64 and rounded once, which is
    the interpreter kernel the general path runs, bit for bit on random bit patterns (subnormals, huge
    values, infinities, NaNs) and on 0-d operands."""
    from minixla.backends.interpreter.ops_elementwise import UNARY
    from minixla.frontend.ops.math_ops import SIMPLE_UNARY

    kernel = UNARY[SIMPLE_UNARY[op]]
    rng = np.random.default_rng(7)
    for dtype, bits in ((np.float32, np.uint32), (np.float64, np.uint64)):
        a = rng.integers(0, np.iinfo(bits).max, 4096, dtype=bits, endpoint=True).view(dtype)
        a[:6] = [0.0, -0.0, np.inf, -np.inf, 1.0, 0.5]
        for x in (a, a[4:5].reshape(())):
            with np.errstate(all="ignore"):
                want = np.asarray(kernel(x))
            got = tf.constant(x)
            out = {"Sqrt": tf.sqrt, "Exp": tf.exp, "Expm1": tf.math.expm1, "Log": tf.math.log,
                   "Log1p": tf.math.log1p, "Sin": tf.sin, "Cos": tf.cos, "Tanh": tf.tanh, "Rsqrt": tf.math.rsqrt,
                   "Sigmoid": tf.sigmoid}[op](got)
            assert out._value.dtype == dtype and out._value.shape == x.shape and _dt_of(out) == dtype
            np.testing.assert_array_equal(out._value.view(bits), want.view(bits))
