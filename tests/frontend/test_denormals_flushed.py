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


IEEE_AFTER_FLUSH = """
import numpy as np
from xdsl.parser import Parser
from minixla.backends.cpu.backend import CpuBackend
from minixla.dialects import load_all
from minixla.frontend import tf

f = tf.function(lambda x: x * np.float32(1e-30), jit_compile=True)
assert (f(np.full((512, 1024), 1e-10, np.float32)).numpy() == 0).all()  # the pool starts inside this call
text = '''func.func @main(%x: tensor<512x1024xf32>, %y: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %0 = hlo.multiply %x, %y : tensor<512x1024xf32>
  func.return %0 : tensor<512x1024xf32>
}'''
g = CpuBackend().compile(Parser(load_all(), text).parse_module())
got = np.asarray(g(np.full((512, 1024), 1e-10, np.float32), np.full((512, 1024), 1e-30, np.float32))[0])
print(int((got == np.float32(1e-10) * np.float32(1e-30)).sum()), got.size)
"""


def test_a_module_without_the_attribute_keeps_ieee_denormals_on_every_worker():
    """The pool's threads start inside whichever call first runs a threaded loop and inherit that
    thread's MXCSR: when that is a flushing tf function, they must not keep FTZ for the loops of a
    module that does not ask for it (an hlo module compiled directly: StableHLO's semantics)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", IEEE_AFTER_FLUSH], cwd=root, env=dict(os.environ, PYTHONPATH=str(root)),
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == out[1] == str(512 * 1024)
