"""One tf.function called from 8 threads with mixed shapes: each input signature is
traced and compiled once, and every call returns its own right result (numpy is the
oracle). Tracing state is per thread, as in TensorFlow: a trace in one thread never
captures another thread's ops."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from minixla import tf

SHAPES = [(3,), (2, 4), (5,), (1, 1), (0, 3)]


def _oracle(x: np.ndarray) -> np.ndarray:
    return np.tanh(x) * 2.0 + np.sum(x) - x * x


@pytest.mark.parametrize("jit_compile", [True, False])
def test_eight_threads_mixed_shapes(jit_compile):
    barrier = threading.Barrier(8)

    @tf.function(jit_compile=jit_compile)
    def f(x):
        time.sleep(0.05)  # runs while tracing only: makes concurrent first calls overlap
        return tf.tanh(x) * 2.0 + tf.reduce_sum(x) - x * x

    errors: list[str] = []

    def worker(k: int) -> None:
        rng = np.random.default_rng(k)
        barrier.wait()  # all threads hit the empty cache together
        for i in range(12):
            shape = SHAPES[(k + i) % len(SHAPES)]
            x = rng.standard_normal(shape).astype(np.float32)
            got = f(tf.constant(x)).numpy()
            if got.shape != shape or not np.allclose(got, _oracle(x), rtol=1e-5, atol=1e-5):
                errors.append(f"thread {k} call {i} shape {shape}: {got} vs {_oracle(x)}")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert f.experimental_get_tracing_count() == len(SHAPES)  # each signature traced once
    if jit_compile:
        assert f.compile_count == len(SHAPES)  # and compiled once


def test_a_trace_does_not_capture_other_threads_eager_ops():
    tracing_started, eager_done = threading.Event(), threading.Event()
    eager_results = []

    @tf.function
    def slow(x):
        y = x + 1.0
        tracing_started.set()
        eager_done.wait(timeout=30)  # another thread runs eager ops while this one traces
        return y * 2.0

    def eager() -> None:
        tracing_started.wait(timeout=30)
        eager_results.append(tf.add(tf.constant([1.0, 2.0]), 3.0).numpy())
        eager_done.set()

    t = threading.Thread(target=eager)
    t.start()
    out = slow(tf.constant([1.0]))
    t.join()
    np.testing.assert_allclose(out.numpy(), [4.0])
    np.testing.assert_allclose(eager_results[0], [4.0, 5.0])  # a value, computed eagerly
