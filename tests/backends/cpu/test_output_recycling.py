"""The generated call path of CompiledFunction. Large outputs reuse the buffers their callers dropped (runtime.OutputRecycler,
our form of buffer donation): a variable updated by a compiled step
alternates between two buffers, and nothing a caller still holds is ever
overwritten."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends.cpu import compile_module
from minixla.backends.cpu.runtime import RECYCLE_MIN_BYTES
from minixla.dialects import load_all

N = RECYCLE_MIN_BYTES // 4  # f32 elements: just at the recycling size
NEGATE = f"""
func.func @negate(%a: memref<{N}xf32>, %out: memref<{N}xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {N} : index
  scf.for %i = %c0 to %cn step %c1 {{
    %x = memref.load %a[%i] : memref<{N}xf32>
    %r = arith.negf %x : f32
    memref.store %r, %out[%i] : memref<{N}xf32>
  }}
  return
}}"""


def negate():
    return compile_module(Parser(load_all(), NEGATE).parse_module())["negate"]


def inputs(k: int) -> np.ndarray:
    return np.arange(N, dtype=np.float32) * (k + 1)


def test_dropped_output_buffer_is_reused():
    f = negate()
    first = f(inputs(0))[0]
    address = first.ctypes.data
    del first
    second = f(inputs(1))[0]
    assert second.ctypes.data == address
    np.testing.assert_array_equal(second, -inputs(1))
    assert f.recyclers[0].reused == 1


def test_held_outputs_and_views_are_never_overwritten():
    f = negate()
    held = f(inputs(0))[0]
    view = f(inputs(1))[0][::3]  # only a view keeps this buffer alive
    later = [f(inputs(k))[0] for k in range(2, 6)]
    np.testing.assert_array_equal(held, -inputs(0))
    np.testing.assert_array_equal(view, -inputs(1)[::3])
    for k, out in enumerate(later, start=2):
        np.testing.assert_array_equal(out, -inputs(k))
    assert f.recyclers[0].reused == 0  # every earlier result was still held


def test_small_outputs_are_not_pooled():
    text = NEGATE.replace(str(N), "1024")
    f = compile_module(Parser(load_all(), text).parse_module())["negate"]
    assert f.recyclers == []
    np.testing.assert_array_equal(f(np.ones(1024, np.float32))[0], -np.ones(1024, np.float32))


def test_variable_updated_by_a_compiled_step_double_buffers():
    from minixla import tf

    start = np.linspace(-1, 1, N, dtype=np.float32)
    v = tf.Variable(start)
    grad = tf.constant(np.full(N, 0.25, np.float32))

    @tf.function(jit_compile=True)
    def step(g):
        v.assign_sub(0.5 * g)
        return tf.reduce_sum(v)

    expected = start.copy()
    addresses = []
    for _ in range(6):
        total = step(grad)
        expected -= np.float32(0.5) * np.float32(0.25)
        np.testing.assert_allclose(v.numpy(), expected, rtol=0, atol=1e-6)
        np.testing.assert_allclose(float(total), expected.sum(dtype=np.float64), rtol=1e-5)
        addresses.append(v._value.ctypes.data)
    # the new value is written while the old one is still the step's input: two buffers in turn
    assert len(set(addresses[1:])) == 2, addresses


@pytest.mark.parametrize("n", [N, 1024, 16])  # recycled, aligned, plain np.empty outputs
def test_signature_from_the_disk_cache_takes_the_unchecked_call(monkeypatch, n):
    """A signature unpickled from the disk cache holds copies of its dtypes; the generated call's
    identity test must still match a plain float32 array, and the outputs it returns when they are
    fed back in (a training step's variables), else every call goes through coerce."""
    import pickle

    from minixla.backends.cpu.runtime import CompiledFunction

    f = compile_module(Parser(load_all(), NEGATE.replace(str(N), str(n))).parse_module())["negate"]
    sig = pickle.loads(pickle.dumps(f.signature))
    assert sig.inputs[0].dtype is not np.dtype(np.float32)
    coerced = []
    monkeypatch.setattr(CompiledFunction, "_coerce", lambda self, i, a: coerced.append(i) or a)
    g = CompiledFunction.__new__(CompiledFunction)  # the same native entry under the unpickled signature
    g.owner, g.signature, g.name, g._entry, g.recyclers = f.owner, sig, f.name, f._entry, []
    g._call = g._generate(by_object=hasattr(f, "_method_table"))
    x = np.arange(n, dtype=np.float32) * 3
    out = g(x)[0]
    np.testing.assert_array_equal(out, -x)
    again = g(out)[0]
    np.testing.assert_array_equal(again, x)
    assert coerced == []
