"""The eager fast path (frontend/eager_fast_path.py) gives exactly the general path's numbers and
errors: every op and dtype of its tables, tensor/scalar/broadcast operands, overflow, NaN and
signed zeros, against the same op taken through the general path (an open GradientTape sends every
op there) and against numpy; floating-point errors stay silent without touching the user's numpy
error state; tapes still record and tracing still works; a large temporary's buffer is reused only
when nobody else can see it."""

from __future__ import annotations

import functools
import operator
import threading
import tracemalloc
import warnings

import ml_dtypes
import numpy as np
import pytest

from minixla.frontend import eager_fast_path as fast
from minixla.frontend import tf
from tests.frontend.general_path import general as _general, same as _same

BINARY = {"AddV2": tf.add, "Sub": tf.subtract, "Mul": tf.multiply, "RealDiv": tf.math.truediv, "Maximum": tf.maximum,
          "Minimum": tf.minimum, "Pow": tf.pow, "Equal": tf.equal, "NotEqual": tf.not_equal, "Less": tf.less,
          "LessEqual": tf.less_equal, "Greater": tf.greater, "GreaterEqual": tf.greater_equal}
UNARY = {"Neg": tf.negative, "Abs": tf.abs, "Square": tf.square, "Sqrt": tf.sqrt, "Rsqrt": tf.math.rsqrt,
         "Exp": tf.exp, "Expm1": tf.math.expm1, "Log": tf.math.log, "Log1p": tf.math.log1p, "Sin": tf.sin,
         "Cos": tf.cos, "Tanh": tf.tanh, "Floor": tf.floor, "Ceil": tf.math.ceil, "Sigmoid": tf.sigmoid,
         "Relu": tf.nn.relu}
#: the numpy oracle of each op (IEEE max/min: NaN propagates, max(-0, +0) = +0)
NUMPY = {"AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "RealDiv": np.true_divide,
         "Maximum": np.maximum, "Minimum": np.minimum, "Pow": np.power, "Equal": np.equal, "NotEqual": np.not_equal,
         "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater, "GreaterEqual": np.greater_equal}
DTYPES = [np.float32, np.float64, np.float16, ml_dtypes.bfloat16, np.int8, np.int32, np.int64, np.uint8, np.uint32,
          np.bool_]


def _name(dtype) -> str:
    return np.dtype(dtype).name


def _values(dtype, rng, shape=(3, 4)):
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dt.kind == "f" or dtype is ml_dtypes.bfloat16:
        v = rng.standard_normal(n).astype(np.float32) * 4
        v[:4] = [np.nan, np.inf, -0.0, 0.0][:n]
        return v.astype(dtype).reshape(shape)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, endpoint=True).astype(dtype).reshape(shape)


OPERANDS = {  # (a's shape, b's shape or "py" for a Python number of b's kind)
    "same": ((3, 4), (3, 4)), "scalar-tensor": ((3, 4), ()), "broadcast": ((3, 1), (1, 4)),
    "both-0d": ((), ()), "python": ((3, 4), "py"), "python-left": ("py", (3, 4)),
}


def _operand(shape, dtype, rng):
    if shape == "py":
        return 3 if np.dtype(dtype).kind in "iu" else 0.5
    return tf.constant(_values(dtype, rng, shape))


@pytest.mark.parametrize("operands", sorted(OPERANDS))
@pytest.mark.parametrize("dtype", DTYPES, ids=_name)
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_fast_path_equals_general_path_and_numpy(op, dtype, operands, taken):
    rng = np.random.default_rng(3)
    sa, sb = OPERANDS[operands]
    a, b = _operand(sa, dtype, rng), _operand(sb, dtype, rng)
    fn = BINARY[op]
    try:
        want = _general(fn, a, b)
    except Exception as err:  # noqa: BLE001 -- not a TF op for this dtype: the fast path fails alike
        with pytest.raises(type(err)):
            fn(a, b)
        assert not taken
        return
    got = fn(a, b)
    _same(got, want)
    covered = np.dtype(dtype) in fast.BINARY_TABLES[op] and not (operands.startswith("python") and (
        dtype in (np.float16, ml_dtypes.bfloat16)))  # narrow float scalars: TF's conversion first
    if covered:  # (else the general path may still reach it after converting: truediv's casts)
        assert taken
    if covered and np.dtype(dtype) in (np.float32, np.float64, np.int32, np.int64) and op != "Pow":
        arrays = [np.asarray(v._value if isinstance(v, tf.Tensor) else v) for v in (a, b)]
        with np.errstate(all="ignore"):
            ref = NUMPY[op](*[x.astype(dtype) if x.ndim == 0 and not isinstance(v, tf.Tensor) else x
                              for x, v in zip(arrays, (a, b))])
        np.testing.assert_array_equal(got.numpy(), ref)
    if operands == "both-0d":
        assert type(got._value) is np.ndarray and got._value.ndim == 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16, np.int32, np.uint8],
                         ids=_name)
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_fast_path_equals_general_path(op, dtype, taken):
    assert set(UNARY) == set(fast.UNARY_TABLES)
    a = tf.constant(_values(dtype, np.random.default_rng(5)))
    try:
        want = _general(UNARY[op], a)
    except Exception as err:  # noqa: BLE001 -- not a TF op for this dtype
        with pytest.raises(type(err)):
            UNARY[op](a)
        return
    _same(UNARY[op](a), want)
    assert bool(taken) == (np.dtype(dtype) in fast.UNARY_TABLES[op])


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=_name)
@pytest.mark.parametrize("op", ["Maximum", "Minimum"])
def test_signed_zeros_and_nan_in_max_min(op, dtype):
    """IEEE max(-0, +0) = +0 and min = -0 whatever the operand order, NaN propagating, for every kind
    of second operand the fast path treats differently (nonzero scalar, +-0 scalar, arrays)."""
    fn = BINARY[op]
    a = tf.constant(np.array([-0.0, 0.0, -1.0, 1.0, np.nan, -0.0], dtype))
    for b in (0.0, -0.0, 2.0, np.nan, tf.constant(dtype(0.0)), tf.constant(dtype(-0.0)), tf.constant(dtype(-3.0)),
              tf.constant(np.array([0.0, -0.0, -0.0, 0.0, 1.0, -0.0], dtype))):
        for x, y in ((a, b), (b, a)):
            _same(fn(x, y), _general(fn, x, y))


def test_operators_take_the_fast_path(taken):
    x = tf.constant(np.arange(4, dtype=np.float32))
    y = (x * 2.0 + 1) - x
    np.testing.assert_array_equal(y.numpy(), np.arange(4, dtype=np.float32) + 1)
    assert taken == [np.multiply, np.add, np.subtract]
    np.testing.assert_array_equal((1.0 - x / 2).numpy(), 1 - np.arange(4, dtype=np.float32) / 2)  # reversed
    np.testing.assert_array_equal((x ** 2).numpy(), np.arange(4) ** 2)
    np.testing.assert_array_equal((x < 2).numpy(), np.arange(4) < 2)
    np.testing.assert_array_equal((-x).numpy(), -np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(abs(-x).numpy(), np.arange(4, dtype=np.float32))
    assert len(taken) == 10
    n = tf.constant(np.array([250], np.uint8))
    np.testing.assert_array_equal((n + 10).numpy(), [4])  # wraps like the compiled op
    h = tf.constant(np.array([1.0, 4.0], np.float16))
    np.testing.assert_array_equal((3 / (h * 2)).numpy(), 3 / (2 * h.numpy()))


def test_integer_division_and_mod_keep_tf_semantics():
    a, b = tf.constant(np.array([7, -7, 7, -7], np.int32)), tf.constant(np.array([2, 2, -2, -2], np.int32))
    q = a / b  # TF casts int32 to float64 first
    assert q.dtype == tf.float64
    np.testing.assert_array_equal(q.numpy(), [3.5, -3.5, -3.5, 3.5])
    np.testing.assert_array_equal((a // b).numpy(), [3, -4, -4, 3])
    np.testing.assert_array_equal((a % b).numpy(), [1, 1, -1, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        a // tf.constant(np.array([1, 0, 1, 1], np.int32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal((tf.constant([1.0, -1.0, 0.0]) / 0.0).numpy(), [np.inf, -np.inf, np.nan])


def test_errors_are_tf_errors_at_the_user_line():
    x = tf.constant(np.ones((2, 3), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes") as info:
        tf.add(x, tf.constant(np.ones((3, 2), np.float32)))
    assert "test_eager_fast_path.py" in str(info.value)
    assert not isinstance(info.value.__context__, ValueError)  # not chained to numpy's error
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes") as info:
        x * tf.constant(np.ones((3, 2), np.float32))
    assert "test_eager_fast_path.py" in str(info.value)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float32 tensor but is a float64"):
        x + tf.constant(np.ones((2, 3), np.float64))
    with pytest.raises(TypeError):
        tf.constant([1, 2]) + 1.5  # TF: a float into an int32 op
    with pytest.raises(TypeError):
        tf.constant(np.array([1], np.uint8)) + 300
    big = tf.constant(np.float16(1)) + 70000.0  # float16 scalars take the general path: TF's inf
    assert big.dtype == tf.float16 and np.isposinf(big.numpy())
    with pytest.raises(Exception, match="element type bool is not supported"):
        tf.constant([True]) - tf.constant([False])  # not in the tables: the general path's error


def test_floating_point_errors_stay_silent_and_the_user_state_is_kept():
    x = tf.constant(np.array([3e38, -1.0, 0.0], np.float32))
    before = np.geterr()
    with np.errstate(all="raise"):
        y = x * 10.0 + tf.math.log(x) / tf.constant(np.float32(0.0))  # overflow, invalid, divide: silent
        assert np.isinf(y.numpy()[0]) and np.isnan(y.numpy()[1])
        with pytest.raises(FloatingPointError):  # the user's own numpy calls still raise
            np.float32(3e38) * np.float32(10)
    assert np.geterr() == before


def test_gradient_tape_records_and_tracing_works(taken):
    x = tf.constant(np.array([1.0, -2.0, 3.0], np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.maximum(x * x + 3.0, 5.0) - tf.exp(x))
    assert not taken
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.where(x.numpy() ** 2 + 3 > 5, 2 * x.numpy(), 0)
                               - np.exp(x.numpy()), rtol=1e-6)

    def f(v):
        return tf.maximum(v * 2.0 + 1.0, 0.0) - tf.square(v)
    want = np.maximum(x.numpy() * 2 + 1, 0) - x.numpy() ** 2
    for g in (tf.function(f), tf.function(f, jit_compile=True)):
        np.testing.assert_allclose(g(x).numpy(), want, rtol=1e-6)
    np.testing.assert_array_equal(f(x).numpy(), want)


def test_another_threads_tape_does_not_change_results():
    """A tape open in one thread sends every thread to the general path (thread_state.OPEN), with the same
    numbers; once it closes the fast path is back."""
    x = tf.constant(np.array([1.5, -2.0], np.float32))
    opened, done = threading.Event(), threading.Event()

    def hold_tape():
        with tf.GradientTape():
            opened.set()
            done.wait(10)
    worker = threading.Thread(target=hold_tape)
    worker.start()
    opened.wait(10)
    try:
        np.testing.assert_array_equal((x * 3.0).numpy(), x.numpy() * 3)
    finally:
        done.set()
        worker.join()
    from minixla.frontend.thread_state import OPEN
    assert OPEN[0] == 0


def test_init_scope_inside_a_trace_leaves_the_fast_path_on(taken):
    """tf.init_scope empties the trace stack and restores it by slice assignment: the global count of
    open tapes and graphs must come back to 0 (it once went negative, turning the fast path off for good)."""
    from minixla.frontend.thread_state import OPEN

    made = []

    @tf.function
    def f(x):
        with tf.init_scope():
            made.append(tf.constant(1.0))
        return x * 2.0

    f(tf.constant(3.0))
    assert OPEN[0] == 0
    x = tf.constant(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal((x * 2.0).numpy(), np.arange(3) * 2)
    assert np.multiply in taken


def test_a_thread_that_ends_with_its_tape_open_does_not_keep_the_fast_path_off():
    from minixla.frontend.thread_state import OPEN

    def leave_open():
        tf.GradientTape().__enter__()  # never closed
    worker = threading.Thread(target=leave_open)
    worker.start()
    worker.join()
    del worker
    import gc
    gc.collect()
    assert OPEN[0] == 0


def test_constant_of_scalars_equals_general_path():
    for v in (np.float32(1.5), np.float64(2.5), np.int64(7), np.bool_(True), np.float16(3), np.complex64(1j),
              0.1, -3.4e38, 1e39, float("nan"), 3, -2**31, 2**31, 2**40, True, False):
        t = tf.constant(v)
        with tf.GradientTape():  # the general path
            want = tf.constant(v)
        _same(t, want)
    assert tf.constant(np.float32(1), dtype=tf.float64).dtype == tf.float64


# -- reusing a temporary's buffer ------------------------------------------------------------------

N = 512  # 1 MiB of float32: above the reuse threshold


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_temporaries_are_reused_as_numpy_does():
    x = tf.constant(np.full((N, N), 2.0, np.float32))
    y = tf.constant(np.full((N, N), 1.0, np.float32))
    size = N * N * 4
    # each expression makes one array: the first op's result, which the next ops write into
    for expr in (lambda: tf.multiply(x ** 2, 3), lambda: x * 3 + y, lambda: tf.negative(x * 3) + y - y,
                 lambda: tf.square(x + y)):
        assert _peak(expr) < 1.5 * size
    np.testing.assert_array_equal((x * 3 + y).numpy(), np.full((N, N), 7.0, np.float32))
    np.testing.assert_array_equal(tf.multiply(x ** 2, 3).numpy(), np.full((N, N), 12.0, np.float32))


def test_buffers_someone_else_holds_are_not_written():
    base = np.full((N, N), 2.0, np.float32)
    x = tf.constant(base)
    y = tf.constant(np.full((N, N), 1.0, np.float32))
    t = x * 3
    r = tf.multiply(t, 3) + y  # t is named: a fresh array
    np.testing.assert_array_equal(t.numpy(), np.full((N, N), 6.0, np.float32))
    np.testing.assert_array_equal(r.numpy(), np.full((N, N), 19.0, np.float32))
    tf.multiply(tf.constant(base), 3)  # the user's array under a temporary tensor
    assert (base == 2.0).all()
    view = t._value[:2]  # a view of t's array keeps it
    del t
    assert (operator.mul(x * 3, 5).numpy() == 30).all()  # called from C: the caller might still use it
    parts = [x * 1, x * 2, x * 3]
    total = functools.reduce(operator.add, parts)
    np.testing.assert_array_equal(total.numpy(), np.full((N, N), 12.0, np.float32))
    assert [float(p.numpy()[0, 0]) for p in parts] == [2.0, 4.0, 6.0]
    assert (view == 6.0).all()
    big = tf.constant(np.ones((N, N), np.float32)) * tf.constant(np.ones((2, N, N), np.float32))  # broadcasts past
    assert big.shape == (2, N, N)


def test_variables_are_read_in_place_and_never_written(taken):
    from minixla.frontend import eager_fast_ops  # noqa: F401 -- its ops share the spy

    v = tf.Variable(np.array([[1.0, -2.0], [3.0, 4.0]], np.float32))
    x = tf.constant(np.array([[0.5, 1.0], [2.0, -1.0]], np.float32))
    results = {
        "mul": tf.multiply(v, 2.0), "add": tf.add(x, v), "exp": tf.exp(v), "max": tf.maximum(v, x),
        "matmul": tf.matmul(v, x), "sum": tf.reduce_sum(v, axis=0), "reshape": tf.reshape(v, [-1]),
        "transpose": tf.transpose(v), "cast": tf.cast(v, tf.float32), "operator": v * 3.0 - x,
    }
    assert len(taken) >= 6
    v.assign(np.zeros((2, 2), np.float32))  # later writes do not reach earlier results
    v.assign(np.array([[1.0, -2.0], [3.0, 4.0]], np.float32))
    with tf.GradientTape():
        want = {"mul": tf.multiply(v, 2.0), "add": tf.add(x, v), "exp": tf.exp(v), "max": tf.maximum(v, x),
                "matmul": tf.matmul(v, x), "sum": tf.reduce_sum(v, axis=0), "reshape": tf.reshape(v, [-1]),
                "transpose": tf.transpose(v), "cast": tf.cast(v, tf.float32), "operator": v * 3.0 - x}
    for name, got in results.items():
        assert type(got) is tf.Tensor, name
        _same(got, want[name])
    results["cast"]._value[0, 0] = 42.0  # a Tensor of its own, not the variable's storage
    np.testing.assert_array_equal(v.numpy(), [[1.0, -2.0], [3.0, 4.0]])


def test_threads_running_eager_ops_at_once_get_right_results():
    """The quiet Context is entered by one thread at a time: a second thread meanwhile (numpy releases
    the GIL in large loops) takes the general path, with the same numbers."""
    big = np.random.default_rng(4).standard_normal((512, 512)).astype(np.float32)
    x, y = tf.constant(big), tf.constant(big * 2)
    want = big * 3 + big * 2
    errors = []

    def work():
        try:
            for _ in range(20):
                np.testing.assert_allclose(tf.add(tf.multiply(x, 3.0), y).numpy(), want, rtol=1e-6)
                np.testing.assert_array_equal(tf.reduce_sum(tf.constant([1.0, 2.0])).numpy(), 3.0)
        except Exception as err:  # noqa: BLE001 -- reported below
            errors.append(err)
    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_python_numbers_as_arrays_for_numpy_1(monkeypatch):
    """numpy 1's value-based casting would compute a 0-d float32 op with a Python float in float64: there
    the fast path converts the number first, with the same results."""
    monkeypatch.setattr(fast, "_WEAK_SCALARS", False)
    for v in (np.float32(1.5), np.array([1.5, -2.0], np.float32), np.array([3, 250], np.uint8)):
        t = tf.constant(v)
        for fn in (tf.add, tf.multiply, tf.maximum, tf.pow, tf.less):
            for a, b in ((t, 2), (2, t)):
                if fn is tf.pow and t.dtype.is_integer:
                    continue
                _same(fn(a, b), _general(fn, a, b))


def test_a_busy_quiet_context_falls_back_silently(monkeypatch):
    def busy(fn, *args, **kwargs):
        raise RuntimeError("cannot enter context: it is already entered")
    monkeypatch.setattr(fast, "quiet", busy)
    x = tf.constant(np.array([3e38, -1.0, 4.0], np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal((x * 10.0).numpy(), [np.inf, -10.0, 40.0])
        np.testing.assert_array_equal(tf.multiply(x, x).numpy(), np.float32([np.inf, 1.0, 16.0]))
        np.testing.assert_array_equal(tf.sqrt(x).numpy()[2], 2.0)
        np.testing.assert_array_equal(tf.reduce_sum(x[1:]).numpy(), 3.0)


def test_a_trace_recorder_sees_every_eager_op():
    """While a trace-event recorder runs (it counts in thread_state.OPEN), eager ops take the general
    path, which records each as an "eager-op" span; after it stops the fast path is back."""
    from minixla.frontend.thread_state import OPEN
    from minixla.passes import trace_events

    x, y = tf.constant(np.float32([1.0, 2.0])), tf.constant(np.float32([3.0, 4.0]))
    before = OPEN[0]
    recorder = trace_events.start()
    try:
        assert OPEN[0] == before + 1
        got = tf.exp(tf.multiply(x, y) + y)
    finally:
        trace_events.stop()
    assert OPEN[0] == before
    names = [e["name"] for e in recorder.events if e["cat"] == "eager-op"]
    assert names == ["Mul", "AddV2", "Exp"]
    np.testing.assert_allclose(got.numpy(), np.exp(np.float32([1.0, 2.0]) * np.float32([3.0, 4.0])
                                                   + np.float32([3.0, 4.0])), rtol=1e-6)
