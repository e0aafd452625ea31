"""Loop hints (backends/cpu/loop_hints.py): the innermost loops of tiny nests are marked "do not vectorize",
of small ones "do not interleave", LLVM honours the marks, results do not change (checked against numpy),
and MINIXLA_LOOP_HINTS=0 turns the marks off."""

import llvmlite.binding as llvm
import numpy as np
import pytest

from minixla.backends import get_backend
from minixla.backends.cpu import jit
from minixla.backends.cpu.compiler import lower
from minixla.backends.cpu.loop_hints import NO_INTERLEAVE, NO_VECTORIZE, loop_hints, trip_count
from minixla.backends.cpu.translate import translate_to_llvm_ir
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE

LOOP = """
func.func @f(%a: memref<{n}xf32>) {{
  %lo = arith.constant {lo} : index
  %hi = arith.constant {hi} : index
  %step = arith.constant {step} : index
  {outer}
  scf.for %i = %lo to %hi step %step {{
    %x = memref.load %a[%i] : memref<{n}xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%i] : memref<{n}xf32>
  }}
  {outer_end}
  return
}}
"""


def _llvm_func(text: str):
    module = parse_and_verify(text, "loops.mlir", load_all())
    lower(module, LOWER_TO_LLVM_PIPELINE, prefetch=False)
    from xdsl.dialects import llvm as llvm_dialect

    return module, next(op for op in module.ops if isinstance(op, llvm_dialect.FuncOp) and op.sym_name.data == "f")


def _loop(lo, hi, step, outer: int | None = None):
    wrap = ("", "") if outer is None else (
        f"%c0 = arith.constant 0 : index\n %c1 = arith.constant 1 : index\n %co = arith.constant {outer} : index\n"
        " scf.for %o = %c0 to %co step %c1 {", "}")
    return LOOP.format(n=max(hi, 1), lo=lo, hi=hi, step=step, outer=wrap[0], outer_end=wrap[1])


NV, NI = NO_VECTORIZE, NO_INTERLEAVE


@pytest.mark.parametrize(("lo", "hi", "step", "outer", "trip", "hint"), [
    (0, 10, 1, None, 10, NV),
    (2, 40, 4, None, 10, NV),     # ceil(38 / 4)
    (0, 40, 2, None, 20, NI),     # 16 or more iterations: vectorized, not interleaved
    (0, 16, 1, None, 16, NI),
    (0, 10, 1, 400, 10, NV),      # 4000 iterations in all
    (0, 10, 1, 410, 10, NI),      # 4100: big enough to vectorize
    (0, 128, 1, 128, 128, NI),    # 16384: the MLP step's 128 x 128 nests
    (0, 128, 1, 129, 128, None),  # bigger: LLVM's own choice
])
def test_trip_counts_and_which_loops_get_which_hint(lo, hi, step, outer, trip, hint):
    _, fn = _llvm_func(_loop(lo, hi, step, outer))
    hints = loop_hints(fn)
    blocks = list(fn.body.blocks)
    back_edges = [b.last_op for i, b in enumerate(blocks)
                  if b.last_op.name == "llvm.br" and blocks.index(b.last_op.successor) <= i]
    inner = back_edges[0]  # the inner loop's latch comes first in block order
    assert trip_count(inner.successor, inner) == trip
    assert hints.get(inner) == hint
    assert len(hints) <= 1  # never the outer loop


def test_dynamic_bound_is_left_alone():
    text = """
    func.func @f(%a: memref<16xf32>, %n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        %x = memref.load %a[%i] : memref<16xf32>
        memref.store %x, %a[%i] : memref<16xf32>
      }
      return
    }"""
    _, fn = _llvm_func(text)
    assert loop_hints(fn) == {}


def _optimized(ir_text: str, name: str) -> str:
    """Function @name of LLVM IR text after LLVM's -O3 without unrolling (as for a big module)."""
    from minixla.backends.cpu.target import host_target

    host_target()
    module = llvm.parse_assembly(ir_text)
    jit.optimize(module, 3, unroll=False)
    return str(module.get_function(name))


@pytest.mark.parametrize("hints", ["1", "0"])
def test_llvm_does_not_vectorize_a_marked_loop(monkeypatch, hints):
    monkeypatch.setenv("MINIXLA_LOOP_HINTS", hints)
    module, _ = _llvm_func(_loop(0, 12, 1, 4))
    text = translate_to_llvm_ir(module)
    assert ("!llvm.loop" in text) == (hints == "1")
    vectors = _optimized(text, "f").count(" x float>")
    assert (vectors == 0) == (hints == "1")


def test_llvm_vectorizes_but_does_not_interleave_a_small_nest(monkeypatch):
    loads = {}
    for hints in ("1", "0"):
        monkeypatch.setenv("MINIXLA_LOOP_HINTS", hints)
        module, _ = _llvm_func(_loop(0, 128, 1, 64))
        text = translate_to_llvm_ir(module)
        assert ("llvm.loop.interleave.count" in text) == (hints == "1")
        loads[hints] = _optimized(text, "f").count("= load <")
    assert 0 < loads["1"] < loads["0"]  # one vector body per iteration instead of several


SOFTMAX = """
func.func @main(%x: tensor<{rows}x10xf32>) -> tensor<{rows}x10xf32> {{
  %e = hlo.exponential %x : tensor<{rows}x10xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%e init: %z) applies hlo.add across dimensions = [1] : (tensor<{rows}x10xf32>, tensor<f32>) -> tensor<{rows}xf32>
  %b = hlo.broadcast_in_dim %s, dims = [0] : (tensor<{rows}xf32>) -> tensor<{rows}x10xf32>
  %y = hlo.divide %e, %b : tensor<{rows}x10xf32>
  func.return %y : tensor<{rows}x10xf32>
}}
"""


@pytest.mark.parametrize("rows", [8, 1000])
def test_results_are_the_same_with_and_without_hints(monkeypatch, rows):
    monkeypatch.setenv("MINIXLA_DISABLE_CACHE", "1")
    x = np.random.default_rng(rows).standard_normal((rows, 10)).astype(np.float32)
    want = np.exp(x.astype(np.float64)) / np.exp(x.astype(np.float64)).sum(axis=1, keepdims=True)
    got = {}
    for hints in ("1", "0"):
        monkeypatch.setenv("MINIXLA_LOOP_HINTS", hints)
        jit.clear_cache()
        fn = get_backend("cpu").compile(parse_and_verify(SOFTMAX.format(rows=rows), "softmax.mlir", load_all()), "main")
        got[hints] = fn(x)[0]
        marked = any("llvm.loop.vectorize.enable" in m.llvm_ir for m in jit._CACHE.values())
        assert marked == (hints == "1" and rows == 8)  # 1000 x 10 is big enough to vectorize
        np.testing.assert_allclose(got[hints], want, rtol=2e-6, atol=1e-7)
    np.testing.assert_array_equal(got["1"], got["0"])
    jit.clear_cache()
