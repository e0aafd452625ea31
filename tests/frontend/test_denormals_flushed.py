"""Compiled `tf` functions compute with denormals flushed to zero, as TensorFlow and XLA do on the CPU
(FTZ and DAZ set while the code runs, on the calling thread and the pool's workers, and restored
after): a result below float32's smallest normal becomes 0, a denormal input reads as 0, and numpy in
the same thread still computes IEEE denormals afterwards. Why: Adam's momentum of a dead ReLU unit
decays geometrically into the denormals after ~800 steps, and the MLP training step then ran ~2.5x
slower (0.31 -> 0.8 ms) on the microcode assists."""

from __future__ import annotations

import numpy as np

from minixla.frontend import tf

TINY = np.finfo(np.float32).tiny  # the smallest normal float32


def test_denormal_results_and_inputs_are_zero_and_numpy_is_unaffected():
    scale = tf.function(lambda x: x * np.float32(1e-30), jit_compile=True)
    keep = tf.function(lambda x: x + np.float32(0.0), jit_compile=True)
    x = np.array([1e-10, 1.0, -1e-10, 1e-6], np.float32)
    got = scale(x).numpy()
    want = x * np.float32(1e-30)  # numpy: IEEE (1e-40 is a denormal)
    assert (np.abs(want[[0, 2]]) < TINY).all() and (want[[0, 2]] != 0).all()
    np.testing.assert_array_equal(got[[0, 2]], [0.0, -0.0])
    np.testing.assert_array_equal(got[[1, 3]], want[[1, 3]])  # normal results unchanged
    np.testing.assert_array_equal(keep(np.array([1e-40, 2.0], np.float32)).numpy(), [0.0, 2.0])
    assert np.float32(1e-20) * np.float32(1e-20) != 0  # the calling thread is back to IEEE


def test_threaded_loops_flush_on_every_worker():
    """A loop big enough to run on the pool: every share flushes, not only the caller's."""
    f = tf.function(lambda x: x * np.float32(1e-30), jit_compile=True)
    x = np.full((512, 1024), 1e-10, np.float32)
    x[::2] = 1.0
    got = f(x).numpy()
    assert (got[1::2] == 0).all() and (got[::2] == np.float32(1e-30)).all()
