"""The eager fast path of reductions, matmul, cast, reshape and transpose (frontend/eager_fast_ops.py)
gives the general path's results bit for bit (an open GradientTape sends every op there) and its
errors, and agrees with numpy."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from minixla.frontend import eager_fast_ops as fast_ops
from minixla.frontend import tf
from tests.frontend.general_path import general as _general, same as _same


def _values(dtype, shape, rng):
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), n, endpoint=True).astype(dt).reshape(shape)
    v = (rng.standard_normal(n) * 100).astype(dtype)
    if n > 4:
        v[:3] = [np.nan, np.inf, -0.0]
    return v.reshape(shape)


REDUCE = {"Sum": tf.reduce_sum, "Prod": tf.reduce_prod, "Mean": tf.reduce_mean, "Max": tf.reduce_max,
          "Min": tf.reduce_min}
NUMPY_REDUCE = {"Sum": np.sum, "Prod": np.prod, "Mean": np.mean, "Max": np.max, "Min": np.min}
AXES = [None, 0, -1, [0, 2], (1,), [], [2, 0, 1]]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16, np.int8, np.int32,
                                   np.uint8, np.int64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", sorted(REDUCE))
def test_reductions_equal_general_path(op, dtype, taken):
    rng = np.random.default_rng(1)
    x = tf.constant(_values(dtype, (3, 5, 4), rng))
    for axis in AXES:
        for keepdims in (False, True):
            del taken[:]
            got = REDUCE[op](x, axis=axis, keepdims=keepdims)
            _same(got, _general(REDUCE[op], x, axis=axis, keepdims=keepdims))
            assert bool(taken) == (np.dtype(dtype) in fast_ops.REDUCTIONS[op][2])
            if taken and np.dtype(dtype).kind == "f" and op in ("Sum", "Mean"):
                ax = tuple(range(3)) if axis is None else axis if isinstance(axis, int) else tuple(axis)
                want = NUMPY_REDUCE[op](x.numpy().astype(np.float64), axis=ax, keepdims=keepdims)
                np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    wrapped = tf.reduce_sum(tf.constant(np.full(4, 100, np.int8)))  # int8 sums wrap, as compiled code
    assert wrapped.dtype == tf.int8 and int(wrapped) == np.int8(400 - 512)


def test_reduction_errors_and_unusual_arguments_take_the_general_path(taken):
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension"):
        tf.reduce_sum(x, axis=2)
    with pytest.raises(Exception):  # noqa: B017 -- the general path's error for a repeated axis
        _general(tf.reduce_sum, x, axis=[0, 0])
    with pytest.raises(Exception):  # noqa: B017
        tf.reduce_sum(x, axis=[0, 0])
    _same(tf.reduce_sum(x, axis=tf.constant(1)), _general(tf.reduce_sum, x, axis=1))
    _same(tf.reduce_mean(tf.constant(np.zeros((0, 3), np.float32)), axis=0),
          _general(tf.reduce_mean, tf.constant(np.zeros((0, 3), np.float32)), axis=0))
    _same(tf.reduce_sum(tf.constant(np.float32(2.5))), _general(tf.reduce_sum, tf.constant(np.float32(2.5))))
    assert not [f for f in taken if f is not fast_ops._reduce]  # only reductions ran


def test_running_example_mean_matches_float64():
    rng = np.random.default_rng(0)
    x = rng.random((1024, 1024), dtype=np.float32)
    want = np.mean(x.astype(np.float64))
    got = float(tf.reduce_mean(tf.constant(x)))
    assert abs(got - want) / want < 1e-6


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_matmul_equals_general_path(dtype, taken):
    rng = np.random.default_rng(2)
    for (m, k, n) in ((3, 4, 5), (1, 7, 1), (16, 16, 16)):
        for ta in (False, True):
            for tb in (False, True):
                a = tf.constant(_values(dtype, (k, m) if ta else (m, k), rng))
                b = tf.constant(_values(dtype, (n, k) if tb else (k, n), rng))
                got = tf.matmul(a, b, transpose_a=ta, transpose_b=tb)
                _same(got, _general(tf.matmul, a, b, transpose_a=ta, transpose_b=tb))
                am, bm = a.numpy().T if ta else a.numpy(), b.numpy().T if tb else b.numpy()
                finite = np.isfinite(am).all(axis=1)[:, None] & np.isfinite(bm).all(axis=0)[None, :]
                with np.errstate(all="ignore"):
                    want = am.astype(np.float64) @ bm
                np.testing.assert_allclose(got.numpy()[finite], want[finite], rtol=1e-5, atol=1e-3)
    assert taken
    _same(tf.constant(np.ones((2, 3), np.float32)) @ tf.constant(np.ones((3, 2), np.float32)),
          tf.constant(np.full((2, 2), 3.0, np.float32)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible"):
        tf.matmul(tf.constant(np.ones((2, 3), np.float32)), tf.constant(np.ones((2, 3), np.float32)))


CAST = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.uint32,
        np.bool_]


@pytest.mark.parametrize("src", CAST, ids=lambda d: np.dtype(d).name)
def test_cast_equals_general_path(src, taken):
    values = np.array([0.0, -0.0, 1.5, -2.5, 300.7, -1e10, 1e10, np.nan, np.inf, -np.inf, 65504.0, 7.0])
    if np.dtype(src).kind in "iub":
        with np.errstate(invalid="ignore"):
            values = np.nan_to_num(values, posinf=0, neginf=0).astype(np.int64)
    with np.errstate(over="ignore"):
        x = tf.constant(values.astype(src))
    for dst in CAST + [tf.float32, "int32", tf.bool]:
        got = tf.cast(x, dst)
        _same(got, _general(tf.cast, x, dst))
    assert tf.cast(x, src) is x
    assert taken


def test_reshape_and_transpose_equal_general_path(taken):
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    for shape in ([24], (4, 6), [-1, 4], [2, -1, 2], [1, 24, 1]):
        got = tf.reshape(x, shape)
        _same(got, _general(tf.reshape, x, shape))
        np.testing.assert_array_equal(got.numpy(), x.numpy().reshape(shape))
    _same(tf.reshape(tf.constant(np.float32(5)), []), tf.constant(np.float32(5)))
    for perm in (None, [0, 2, 1], (2, 0, 1), [0, 1, 2]):
        got = tf.transpose(x, perm)
        _same(got, _general(tf.transpose, x, perm))
        np.testing.assert_array_equal(got.numpy(), np.transpose(x.numpy(), perm))
    assert len(taken) == 0  # reshape/transpose copy directly, no kernel call
    for bad in ([5, 5], [-1, 7], [-1, -1], [0, -1]):
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.reshape(x, bad)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.transpose(x, [0, 0, 1])
    y = tf.reshape(x, [24])
    y._value[0] = 99.0  # a copy: the input is not a view's base
    assert float(x.numpy()[0, 0, 0]) == 0.0


def test_expand_dims_and_squeeze_equal_general_path():
    x = tf.constant(np.arange(6, dtype=np.int32).reshape(1, 2, 1, 3))
    for axis in (0, 2, 4, -1, -5):
        _same(tf.expand_dims(x, axis), _general(tf.expand_dims, x, axis))
    for axis in (None, [], 0, [0, 2], (-2,), [2, 0]):
        got = tf.squeeze(x, axis)
        _same(got, _general(tf.squeeze, x, axis))
        want = np.squeeze(x.numpy(), None if axis is None or axis == [] else tuple(np.atleast_1d(axis)))
        np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.squeeze(x, 1)  # size 2
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.expand_dims(x, 6)


KEYS = [0, -1, 2, (1, 2), (slice(None), 1), slice(1, None, 2), slice(None, None, -1), (Ellipsis, 0), (None, 0),
        (0, None, slice(1, 3)), (Ellipsis, None), (slice(-2, None),), (1, slice(None, None, -2), Ellipsis),
        slice(10, 20), slice(-10, 2), (), (slice(3, 1),), (-3, -4, -5), (slice(None, None, 3), Ellipsis, 4)]
BAD_KEYS = [3, -4, (0, 0, 0, 0), (Ellipsis, Ellipsis), slice(None, None, 0), (0, 4), 1.5]


def test_getitem_equals_general_path_and_numpy():
    xs = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = tf.constant(xs)
    for key in KEYS:
        got = x[key]
        _same(got, _general(lambda t: t[key], x))
        np.testing.assert_array_equal(got.numpy(), xs[key])
    for key in BAD_KEYS:
        try:
            _general(lambda t: t[key], x)
        except Exception as err:  # noqa: BLE001 -- the fast path raises the same
            with pytest.raises(type(err)):
                x[key]
        else:
            _same(x[key], _general(lambda t: t[key], x))
    s = tf.constant(np.float32(7))
    for key in ((), None, Ellipsis):
        _same(s[key], _general(lambda t: t[key], s))
    part = x[0]
    part._value[0, 0] = -1.0  # a copy, not a view of x
    assert float(x.numpy()[0, 0, 0]) == 0.0
    _same(tf.Variable(xs)[1, ::2], tf.constant(xs[1, ::2]))


def test_creation_and_joining_equal_general_path():
    for fn in (tf.zeros, tf.ones):
        for shape in ([2, 3], (4,), [], 3, [0, 2]):
            for dtype in (tf.float32, tf.int64, tf.bfloat16, "float16"):
                _same(fn(shape, dtype), _general(fn, shape, dtype))
            # bool: as TF (the general path's constant(0, bool) refuses the conversion)
            want = np.full(np.atleast_1d(shape) if shape != [] else (), fn is tf.ones, bool)
            _same(fn(shape, tf.bool), tf.constant(want))
        _same(fn([2, 2]), _general(fn, [2, 2]))
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    i = tf.constant(np.arange(6, dtype=np.int32).reshape(2, 3))
    for fn in (tf.zeros_like, tf.ones_like):
        for t in (x, i, x > 2.0):
            _same(fn(t), _general(fn, t))
    for values, axis in (([x, x], 0), ([x, x, x], 1), ((x, x * 2), -2)):
        _same(tf.concat(values, axis), _general(tf.concat, values, axis))
        _same(tf.stack(values, axis), _general(tf.stack, values, axis))
    _same(tf.concat([x], -1), x)  # as TF's concat of one tensor (the general path wants two or more)
    _same(tf.stack([x], -1), _general(tf.stack, [x], -1))
    _same(tf.stack([x, x], 2), _general(tf.stack, [x, x], 2))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.concat([x, tf.constant(np.ones((3, 3), np.float32))], 1)
    with pytest.raises(Exception):  # noqa: B017 -- the general path's error for mixed dtypes
        tf.concat([x, i], 0)
    c = tf.constant(np.array([[True, False, True], [False, True, False]]))
    for a, b in ((x, x * 10), (x, tf.constant(np.float32(-1))), (tf.constant(np.ones(3, np.float32)), x)):
        _same(tf.where(c, a, b), _general(tf.where, c, a, b))
    np.testing.assert_array_equal(tf.where(c).numpy(), np.argwhere(c.numpy()))  # one argument: coordinates
    for bad in ((5, 1), (1, 5, -1), (0, 5, 0)):
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.range(*bad)
    for args in ((5,), (2, 9), (9, 2, -3), (0, 10, 4), (3, 3), (-4, 4, 3), (0,)):
        _same(tf.range(*args), _general(tf.range, *args))
        np.testing.assert_array_equal(tf.range(*args).numpy(), np.arange(*args))
    _same(tf.range(0.0, 1.0, 0.25), _general(tf.range, 0.0, 1.0, 0.25))
    for t, b in ((x, tf.constant(np.float32([1, 2, 3]))), (i, tf.constant(np.int32([1, 2, 3]))),
                 (tf.constant(np.ones((2, 2, 3), np.float16)), tf.constant(np.float16([1, 2, 3])))):
        _same(tf.nn.bias_add(t, b), _general(tf.nn.bias_add, t, b))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.nn.bias_add(x, tf.constant(np.ones(2, np.float32)))


def test_identity_shape_and_clip_equal_general_path():
    x = tf.constant(np.array([[-2.0, -0.0, 0.0, 0.5], [np.nan, 3.0, -np.inf, 1.0]], np.float32))
    for fn in (tf.identity, tf.stop_gradient):
        _same(fn(x), _general(fn, x))
    v = tf.Variable(np.ones(3, np.float32))
    copy = tf.identity(v)
    copy._value[0] = 5.0  # a copy of the variable's value, not its storage
    assert float(v.numpy()[0]) == 1.0
    for out_type in (tf.int32, tf.int64):
        _same(tf.shape(x, out_type), _general(tf.shape, x, out_type))
    _same(tf.shape(tf.constant(np.float32(1))), _general(tf.shape, tf.constant(np.float32(1))))
    bounds = [(-1.0, 1.0), (0.0, 0.0), (-0.0, 0.0), (0, 2), (np.nan, 1.0),
              (tf.constant(np.float32(-1)), tf.constant(np.float32([0.0, 1.0, 2.0, 3.0])))]
    for lo, hi in bounds:
        _same(tf.clip_by_value(x, lo, hi), _general(tf.clip_by_value, x, lo, hi))
    for t, lo, hi in ((tf.constant(np.int32([-5, 0, 5])), -1, 2), (tf.constant(np.float16([-5, 0.5, 5])), -1.0, 2.0),
                      (tf.constant(np.float32([1.0, 2.0])), tf.constant(np.float32([[0.0], [1.5]])), 1.75)):
        _same(tf.clip_by_value(t, lo, hi), _general(tf.clip_by_value, t, lo, hi))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.clip_by_value(x, tf.constant(np.float32([1.0, 2.0, 3.0])), 5.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.float16], ids=lambda d: np.dtype(d).name)
def test_argmax_argmin_equal_general_path(dtype):
    rng = np.random.default_rng(9)
    if np.dtype(dtype).kind == "f":
        v = rng.integers(-3, 4, (4, 6)).astype(dtype)  # many ties
        v[0, 2] = v[0, 4] = np.nan
        v[1, :] = -np.inf
        v[2, :3] = [-0.0, 0.0, -0.0]
        v[3, :] = v[3, :] * 0 - 0.0
    else:
        info = np.iinfo(dtype)
        v = rng.integers(0, 3, (4, 6)).astype(dtype)
        v[1, :] = info.min
        v[2, :] = info.max
    x = tf.constant(v)
    for fn in (tf.argmax, tf.argmin):
        for axis in (None, 0, 1, -1):
            for out in (tf.int64, tf.int32):
                _same(fn(x, axis, out), _general(fn, x, axis, out))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.argmax(x, 2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=lambda d: np.dtype(d).name)
def test_softmax_and_log_softmax_equal_general_path(dtype, taken):
    rng = np.random.default_rng(11)
    v = (rng.standard_normal((3, 4, 6)) * 30).astype(dtype)
    v[0, 0, :] = [-0.0, 0.0, -0.0, 0.0, -0.0, 0.0]
    v[0, 1, :] = -np.inf
    v[0, 2, 1] = np.nan
    v[0, 3, 2] = np.inf
    x = tf.constant(v)
    for fn in (tf.nn.softmax, tf.nn.log_softmax):
        for axis in (None, -1, 0, 1):
            _same(fn(x, axis), _general(fn, x, axis))
    assert bool(taken) == (np.dtype(dtype) != np.float16)
    ref = np.exp(v[1:].astype(np.float64) - v[1:].max(-1, keepdims=True))
    np.testing.assert_allclose(tf.nn.softmax(x).numpy()[1:], ref / ref.sum(-1, keepdims=True), rtol=2e-3, atol=1e-6)


def test_gather_equals_general_path():
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(4, 6))
    for indices, axis in (([0, 2, 3], None), (tf.constant(np.int32([[1, 0], [3, 3]])), 0),
                          (tf.constant(np.int64([5, 0])), 1), (tf.constant(np.int32(2)), -1)):
        got = tf.gather(x, indices, axis=axis)
        _same(got, _general(tf.gather, x, indices, axis=axis))
        np.testing.assert_array_equal(got.numpy(), np.take(x.numpy(), np.asarray(indices, np.int64),
                                                           axis=0 if axis is None else axis))
    for bad in ([4], [-1], tf.constant(np.int32([0, 6]))):
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.gather(x, bad, axis=0 if isinstance(bad, list) else 1)
    _same(tf.gather(tf.Variable(x.numpy()), [1]), tf.constant(x.numpy()[[1]]))
