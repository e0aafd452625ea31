"""lower-linalg-to-loops runs a reduction's finalizer in the reduction's nest (`reduction_epilogue`): fused
reductions with an epilogue lower to one nest per reduction, and the CPU backend's results match a
float64 reference (the accumulator is rounded once, as before) and the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.backends.interpreter import run_function
from minixla.passes import run_pipeline
from minixla.passes.pipelines import HLO_TO_LOOPS

from tests.passes.test_fusion import as_tuple, cpu, optimized, parse

MEAN_SCALE = """
func.func @main(%x: tensor<16x32xf32>, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  %sq = hlo.multiply %x, %x : tensor<16x32xf32>
  %q = hlo.reduce(%sq init: %z) applies hlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  %n = hlo.constant dense<32.0> : tensor<16xf32>
  %m = hlo.divide %s, %n : tensor<16xf32>
  %v = hlo.divide %q, %n : tensor<16xf32>
  %m2 = hlo.multiply %m, %m : tensor<16xf32>
  %var = hlo.subtract %v, %m2 : tensor<16xf32>
  %r = hlo.add %m, %b : tensor<16xf32>
  func.return %r, %var : tensor<16xf32>, tensor<16xf32>
}"""

TOTAL = """
func.func @main(%x: tensor<8x4xf32>) -> tensor<f32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %e = hlo.exponential %x : tensor<8x4xf32>
  %s = hlo.reduce(%e init: %z) applies hlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
  %l = hlo.log %s : tensor<f32>
  func.return %l : tensor<f32>
}"""

PROGRAMS = {"mean_scale": (MEAN_SCALE, [(16, 32), (16,)]), "total": (TOTAL, [(8, 4)])}


def _args(shapes, seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def test_one_nest_per_reduction():
    module = optimized(MEAN_SCALE)
    run_pipeline(module, HLO_TO_LOOPS)
    text = str(module)
    assert text.count('"scf.parallel"') == 1, text  # both sums and the epilogue in one nest
    assert "memref<16xf64>" not in text and text.count("arith.truncf") == 2


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_cpu_matches_float64_and_interpreter(name):
    text, shapes = PROGRAMS[name]
    compiled = cpu(optimized(text))
    for seed in range(3):
        args = _args(shapes, seed)
        ref64 = run_function(parse(text.replace("f32", "f64")), args=[a.astype(np.float64) for a in args])
        interp = run_function(parse(text), args=args)
        for g, r, i in zip(as_tuple(compiled(*args)), ref64, interp):
            np.testing.assert_allclose(g, np.asarray(r, np.float32), rtol=2e-6, atol=1e-6)
            np.testing.assert_allclose(g, i, rtol=1e-5, atol=1e-5)
