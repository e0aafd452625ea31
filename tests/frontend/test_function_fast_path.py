"""The cached-call fast path of tf.function (frontend/call_plan.py): a repeated
call replays a plan, and anything that would change the trace key still
retraces/recompiles with the full path's explanation."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from minixla.frontend import tf
from minixla.frontend.call_plan import ByValue, Miss, call_key, normalizer


@pytest.fixture(params=[True, False], ids=["jit", "graph"])
def jit(request):
    return request.param


def test_hit_reuses_plan_and_new_shape_recompiles(jit):
    @tf.function(jit_compile=jit)
    def f(x, y):
        return x * y + 1.0

    a = np.arange(4, dtype=np.float32)
    for _ in range(3):
        np.testing.assert_array_equal(f(tf.constant(a), a).numpy(), a * a + 1)
    assert f.why() == "cache hit" and f.experimental_get_tracing_count() == 1 and len(f._plans) == 1
    b = np.arange(6, dtype=np.float32)
    np.testing.assert_array_equal(f(b, b).numpy(), b * b + 1)
    assert f.experimental_get_tracing_count() == 2
    assert "argument 'x' changed: tensor shape=(4,) dtype=float32 -> tensor shape=(6,)" in f.why()
    f(a, a)
    assert f.why() == "cache hit" and f.experimental_get_tracing_count() == 2
    if jit:
        assert f.compile_count == 2


def test_new_dtype_retraces():
    @tf.function(jit_compile=True)
    def f(x):
        return x + x

    f(np.ones(3, np.float32))
    f(np.ones(3, np.float32))
    out = f(np.ones(3, np.float64))
    assert out.dtype == tf.float64 and f.compile_count == 2 and "dtype=float64" in f.why()


def test_python_values_key_the_plan():
    @tf.function(jit_compile=True)
    def f(a, axis):
        return tf.math.argmax(a, axis=axis)

    a = np.random.default_rng(0).normal(size=(5, 5)).astype(np.float32)
    for axis in (0, 1, 0, 1):
        np.testing.assert_array_equal(f(a, axis).numpy(), a.argmax(axis))
    assert f.compile_count == 2 and f.why() == "cache hit"
    f(a, 1.0)  # equal to 1 for the trace key, but another type for the call key
    assert f.why() == "cache hit" and f.compile_count == 2


def test_tensor_constant_argument_recompiles_per_value():
    @tf.function(jit_compile=True)
    def f(a, axis):
        return tf.math.argmax(a, axis=axis)

    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    for axis, want in ((1, [3, 3, 3]), (0, [2, 2, 2, 2]), (1, [3, 3, 3])):
        np.testing.assert_array_equal(f(a, tf.constant(axis)).numpy(), want)
    assert f.why() == "cache hit" and f.compile_count == 2
    f(a, tf.constant(0))
    assert f.why() == "cache hit" and f.compile_count == 2
    (by_value,) = f._plans.values()  # one call key, one plan per axis value
    assert isinstance(by_value, ByValue) and len(by_value.plans) == 2
    np.testing.assert_array_equal(f(a.T.copy(), tf.constant(0)).numpy(), [3, 3, 3])  # new shape: retrace
    assert f.compile_count == 3


def test_captured_variable_updated_in_place_across_calls(jit):
    v = tf.Variable(np.zeros(3, np.float32))

    @tf.function(jit_compile=jit)
    def step(x):
        v.assign_add(x)
        return v.read_value() * 2.0

    x = tf.constant(np.ones(3, np.float32))
    outs = [step(x) for _ in range(4)]
    np.testing.assert_array_equal(v.numpy(), [4, 4, 4])
    for k, out in enumerate(outs, 1):
        np.testing.assert_array_equal(out.numpy(), [2.0 * k] * 3)
    v.assign(np.full(3, 10, np.float32))  # an eager write between calls is seen by the next call
    np.testing.assert_array_equal(step(x).numpy(), [22, 22, 22])
    assert step.experimental_get_tracing_count() == 1


def test_variable_argument_reads_current_value(jit):
    v = tf.Variable(np.ones(2, np.float32))
    f = tf.function(lambda w, x: w * x, jit_compile=jit)
    x = np.full(2, 3.0, np.float32)
    np.testing.assert_array_equal(f(v, x).numpy(), [3, 3])
    v.assign([2.0, 5.0])
    np.testing.assert_array_equal(f(v, x).numpy(), [6, 15])
    assert f.why() == "cache hit"


def test_outputs_of_consecutive_calls_do_not_alias(jit):
    f = tf.function(lambda x: x + 1.0, jit_compile=jit)
    x = np.zeros(8, np.float32)
    first, second = f(x), f(x + 1.0)
    assert not np.shares_memory(first.numpy(), second.numpy())
    assert not np.shares_memory(first._value, second._value)
    np.testing.assert_array_equal(first.numpy(), np.ones(8))
    np.testing.assert_array_equal(second.numpy(), np.full(8, 2.0))


def test_kwargs_defaults_and_orders_share_one_trace(jit):
    @tf.function(jit_compile=jit)
    def f(x, y, scale=2.0):
        return (x - y) * scale

    x, y = np.full(2, 5.0, np.float32), np.ones(2, np.float32)
    calls = [lambda: f(x, y), lambda: f(x, y=y), lambda: f(y=y, x=x), lambda: f(x, y, 2.0),
             lambda: f(x, y, scale=2.0)]
    for call in calls * 2:
        np.testing.assert_array_equal(call().numpy(), [8.0, 8.0])
    assert f.experimental_get_tracing_count() == 1 and f.why() == "cache hit"
    np.testing.assert_array_equal(f(y=x, x=y).numpy(), [-8.0, -8.0])  # same form, swapped values
    np.testing.assert_array_equal(f(x, y, scale=3.0).numpy(), [12.0, 12.0])
    assert "argument 'scale' changed: Python value 2.0 -> Python value 3.0" in f.why()
    with pytest.raises(TypeError):
        f(x, y, bogus=1)
    with pytest.raises(TypeError):
        f(x)


def test_nested_arguments_and_outputs(jit):
    Pair = collections.namedtuple("Pair", "a b")

    @tf.function(jit_compile=jit)
    def f(pair, extra):
        return {"sum": pair.a + pair.b, "more": [extra["k"] * 2.0, (pair.a,)]}

    for k in range(3):
        a, b = np.full(2, k, np.float32), np.ones(2, np.float32)
        out = f(Pair(tf.constant(a), b), {"k": tf.constant(b)})
        np.testing.assert_array_equal(out["sum"].numpy(), a + b)
        np.testing.assert_array_equal(out["more"][0].numpy(), [2.0, 2.0])
        np.testing.assert_array_equal(out["more"][1][0].numpy(), a)
        assert isinstance(out["more"], list) and isinstance(out["more"][1], tuple)
    assert f.experimental_get_tracing_count() == 1 and f.why() == "cache hit"
    f(Pair(a, b), {"k": np.ones(3, np.float32)})
    assert f.experimental_get_tracing_count() == 2


def test_retracing_warning_counts_fast_calls(capsys):
    @tf.function
    def g(x):
        return x + 1

    for n in range(1, 5):
        g(tf.ones([n]))
    for _ in range(20):  # hits push the traces out of TF's last-10-calls window
        g(tf.ones([1]))
    g(tf.ones([5]))
    assert "retracing" not in capsys.readouterr().err


def test_variable_argument_under_a_tape_takes_the_full_path():
    f = tf.function(lambda w, x: w * x, jit_compile=True)
    v = tf.Variable(np.full(2, 2.0, np.float32))
    f(v, tf.ones([2]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(f(v, tf.ones([2])) * v)
    np.testing.assert_array_equal(y.numpy(), 8.0)
    # under a tape the call runs inline, so the gradient flows through it as in TF: d sum(v*1*v)/dv = 2v
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [4.0, 4.0])


def test_call_key_is_never_looser_than_the_trace_key():
    def key(*values):
        return call_key(len(values), values, [])

    f32 = np.zeros(2, np.float32)
    assert key(f32) == key(tf.constant(f32)) == key(tf.Variable(f32))
    assert key(f32) != key(f32.astype(np.float64)) != key(np.zeros(3, np.float32))
    assert key(1) != key(True) != key(1.0)
    assert key([f32]) != key((f32,)) != key({"a": f32}) != key({"b": f32})
    assert key(np.float32(0.0)) != key(np.float32(-0.0))
    with pytest.raises(Miss):
        key(object())


def test_normalizer_maps_forms_to_leaf_order():
    import inspect

    def f(a, b=2, *rest, c=3, **kw):
        pass

    sig = inspect.signature(f)
    assert normalizer(sig, 2, ()) is not None  # c's default joins the leaves
    norm = normalizer(sig, 1, ("z", "c"))
    assert norm(("A",), {"z": "Z", "c": "C"}) == ["A", 2, "C", "Z"]
    assert normalizer(inspect.signature(lambda x, y: 0), 2, ()) is None
    with pytest.raises(TypeError):
        normalizer(inspect.signature(lambda x: 0), 2, ())


def test_method_keeps_its_caches_per_instance():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @tf.function(jit_compile=True)
        def __call__(self, x):
            return x * self.k

    a, b = Scaler(2.0), Scaler(3.0)
    x = np.ones(2, np.float32)
    for _ in range(3):
        np.testing.assert_array_equal(a(x).numpy(), [2.0, 2.0])
        np.testing.assert_array_equal(b(x).numpy(), [3.0, 3.0])
    assert a.__call__.experimental_get_tracing_count() == 1 and a.__call__.why() == "cache hit"
    assert a.__call__ is not b.__call__
