"""`lower-linalg-to-loops{collapse=true}` (passes/linalg_to_loops.py): elementwise nests over
contiguous buffers become one linear loop, the others keep their nests (broadcasts, reductions,
strided slices, transposes, iotas), and the CPU backend's results with it on equal the reference
interpreter's; the index constants a pass emits once per scope leave the output of `cse` unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.backends.cpu.backend import CpuBackend
from minixla.backends.cpu.hooks import AFTER_PASS
from minixla.backends.interpreter import run_function
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes import pipelines
from minixla.passes.pipeline import run_pipeline

#: name -> (program, how many operand views the collapsed nests take, after hlo-optimize's fusion)
PROGRAMS = {
    "elementwise": ("""
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = hlo.add %x, %y : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}""", 3),
    # fused: relu(x * y + x) and the mask, two outputs of one nest; i1 buffers
    "fused_two_outputs": ("""
func.func @main(%x: tensor<3x5x7xf32>, %y: tensor<3x5x7xf32>) -> (tensor<3x5x7xf32>, tensor<3x5x7xi1>) {
  %z = hlo.constant dense<0.0> : tensor<3x5x7xf32>
  %m = hlo.multiply %x, %y : tensor<3x5x7xf32>
  %a = hlo.add %m, %x : tensor<3x5x7xf32>
  %r = hlo.maximum %a, %z : tensor<3x5x7xf32>
  %c = hlo.compare GT, %a, %z : (tensor<3x5x7xf32>, tensor<3x5x7xf32>) -> tensor<3x5x7xi1>
  return %r, %c : tensor<3x5x7xf32>, tensor<3x5x7xi1>
}""", 5),
    "bias_broadcast": ("""
func.func @main(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %r = hlo.add %x, %bb : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}""", 0),
    "rowsum": ("""
func.func @main(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}""", 0),
    "strided_slice": ("""
func.func @main(%a: tensor<4x6xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %x = hlo.slice %a [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %r = hlo.multiply %x, %y : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}""", 0),
    "transpose_iota": ("""
func.func @main(%x: tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %t = hlo.transpose %x, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %i = hlo.iota dim = 1 : tensor<2x3xi32>
  return %t, %i : tensor<2x3xf32>, tensor<2x3xi32>
}""", 0),
}

TO_LOOPS = "hlo-optimize,convert-hlo-to-linalg,bufferize,lower-linalg-to-loops{collapse=true}"


def _collapsed(text: str, spec: str) -> tuple[int, str]:
    module = run_pipeline(parse_and_verify(text, "t.mlir", load_all()), spec)
    printed = str(module)
    return printed.count("memref.collapse_shape"), printed


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_collapse_taken_only_where_it_applies(name):
    text, expected = PROGRAMS[name]
    n_ops, printed = _collapsed(text, TO_LOOPS)
    assert n_ops == expected, printed
    if n_ops:
        assert "array<i32: 1, 1, 1, 0>" in printed  # the collapsed nest is one loop
    assert _collapsed(text, TO_LOOPS.replace("{collapse=true}", ""))[0] == 0  # off by default


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_cpu_with_collapse_matches_interpreter(name, monkeypatch):
    text = PROGRAMS[name][0]
    monkeypatch.setattr(pipelines, "HLO_TO_LOOPS", pipelines.HLO_TO_LOOPS.replace(
        "lower-linalg-to-loops,", "lower-linalg-to-loops{collapse=true},"))
    module = parse_and_verify(text, "t.mlir", load_all())
    rng = np.random.default_rng(1)
    # integer-valued floats: sums are exact in any order, so results compare bit for bit
    args = [rng.integers(-8, 8, [d.data for d in a.type.shape.data]).astype(np.float32)
            for a in module.ops.first.body.block.args]
    seen: list[str] = []
    token = AFTER_PASS.set(lambda pass_name, m: seen.append(str(m)) if pass_name == "lower-linalg-to-loops" else None)
    try:
        got = CpuBackend().compile(run_pipeline(module.clone(), "hlo-optimize"))(*args)  # fused, as the jit does
    finally:
        AFTER_PASS.reset(token)
    assert seen and ("memref.collapse_shape" in seen[0]) == (PROGRAMS[name][1] != 0)
    want = run_function(module, args=args)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_shared_index_constants_leave_cse_output_unchanged(name):
    """Each nest emitting its own constants (no scopes: the pass before session 9) and sharing them
    give the same module once canonicalize,cse have run."""
    from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation

    from minixla.passes.linalg_to_loops import lower_ops

    ctx = load_all()
    upto = "hlo-optimize,convert-hlo-to-linalg,bufferize"
    shared = run_pipeline(parse_and_verify(PROGRAMS[name][0], "t.mlir", ctx), f"{upto},lower-linalg-to-loops")
    alone = run_pipeline(parse_and_verify(PROGRAMS[name][0], "t.mlir", ctx), upto)
    lower_ops([o for o in alone.walk() if isinstance(o, LinalgStructuredOperation)])
    assert str(shared).count("arith.constant") <= str(alone).count("arith.constant")
    assert str(run_pipeline(shared, "canonicalize,cse")) == str(run_pipeline(alone, "canonicalize,cse"))
