"""One tf.function called from 8 threads with mixed shapes: each input signature is traced and
compiled once, and every call returns its own right result."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from minixla.frontend import tf

SHAPES = [(3,), (2, 5), (4, 4), (7,)]


@pytest.mark.parametrize("jit", [True, False])
def test_eight_threads_mixed_shapes(jit):
    traces: list[tuple] = []

    @tf.function(jit_compile=jit)
    def f(x, y):
        traces.append(tuple(x.shape))
        return tf.reduce_sum(x * 2.0 + y, axis=-1), tf.tanh(x) - y

    rng = np.random.default_rng(0)
    work = [[(rng.standard_normal(SHAPES[(t + k) % len(SHAPES)]).astype(np.float32),
              rng.standard_normal(SHAPES[(t + k) % len(SHAPES)]).astype(np.float32)) for k in range(12)]
            for t in range(8)]
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def worker(items):
        try:
            start.wait()
            for x, y in items:
                s, d = f(tf.constant(x), tf.constant(y))
                np.testing.assert_allclose(s.numpy(), (x * 2 + y).sum(-1), rtol=1e-5, atol=1e-5)
                np.testing.assert_allclose(d.numpy(), np.tanh(x) - y, rtol=1e-5, atol=1e-5)
        except BaseException as err:  # noqa: BLE001 -- reported by the main thread
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(items,)) for items in work]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not errors, errors[:3]
    assert sorted(traces) == sorted(SHAPES), f"each signature traced once, got {traces}"
    if jit:
        assert f.compile_count == len(SHAPES)


def test_a_trace_in_one_thread_does_not_capture_another_threads_eager_ops():
    inside, done = threading.Event(), threading.Event()

    @tf.function
    def slow(x):
        inside.set()
        assert done.wait(60)  # keep this trace open while the other thread runs eagerly
        return x + 1.0

    results: list = []
    tracer = threading.Thread(target=lambda: results.append(slow(tf.constant(1.0))))
    tracer.start()
    assert inside.wait(60)
    eager = tf.constant([1.0, 2.0]) * 3.0  # not an op of `slow`'s graph
    done.set()
    tracer.join(60)
    np.testing.assert_array_equal(eager.numpy(), [3.0, 6.0])
    assert float(results[0]) == 2.0


def test_a_tape_records_only_its_own_threads_ops():
    x = tf.Variable(2.0)
    opened, finished = threading.Event(), threading.Event()
    grads: list = []

    def record():
        with tf.GradientTape() as tape:
            y = x * 3.0
            opened.set()
            assert finished.wait(60)
        grads.append(tape.gradient(y, x))

    t = threading.Thread(target=record)
    t.start()
    assert opened.wait(60)
    with tf.GradientTape() as mine:
        z = x * x
    assert float(mine.gradient(z, x)) == 4.0
    finished.set()
    t.join(60)
    assert float(grads[0]) == 3.0
