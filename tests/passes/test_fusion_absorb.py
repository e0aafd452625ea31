"""hlo-fusion's last step (`_Fuser.absorb`): producers the grouping left between fusions (shared
one-hot `iota`/`compare`/`select`, broadcasts of constants, a compare claimed by a group that then read
another group's result) are computed inside every fusion that reads them, so no elementwise or
movement op keeps a loop nest of its own. Numerics: the fused program against the unfused one on the
interpreter (bit-identical: the same scalar ops) and on the CPU backend against a float64 reference
(fused f32 add-reductions accumulate in f64, docs/fusion.md)."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.backends.interpreter import run_function

from tests.passes.test_fusion import as_tuple, cpu, fusions, optimized, parse

#: the loss and gradient of sparse softmax cross-entropy as the MLP step's autodiff writes them: the one-hot
#: select and the zero/one broadcasts feed several reductions and the gradient
CROSS_ENTROPY = """
func.func @main(%logits: tensor<8x10xf32>, %labels: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8x10xf32>) {
  %lb = hlo.broadcast_in_dim %labels, dims = [0] : (tensor<8xi32>) -> tensor<8x10xi32>
  %io = hlo.iota dim = 1 : tensor<8x10xi32>
  %oh = hlo.compare EQ, %lb, %io : (tensor<8x10xi32>, tensor<8x10xi32>) -> tensor<8x10xi1>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %ob = hlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
  %zb = hlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
  %y = hlo.select %oh, %ob, %zb : tensor<8x10xi1>, tensor<8x10xf32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %m = hlo.reduce(%logits init: %ninf) applies hlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
  %mb = hlo.broadcast_in_dim %m, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
  %d = hlo.subtract %logits, %mb : tensor<8x10xf32>
  %e = hlo.exponential %d : tensor<8x10xf32>
  %s = hlo.reduce(%e init: %z) applies hlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
  %sb = hlo.broadcast_in_dim %s, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
  %l = hlo.log %sb : tensor<8x10xf32>
  %ls = hlo.subtract %d, %l : tensor<8x10xf32>
  %p = hlo.multiply %y, %ls : tensor<8x10xf32>
  %ce = hlo.reduce(%p init: %z) applies hlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
  %eq = hlo.compare EQ, %logits, %mb : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xi1>
  %am = hlo.select %eq, %ob, %zb : tensor<8x10xi1>, tensor<8x10xf32>
  %cnt = hlo.reduce(%am init: %z) applies hlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
  %cb = hlo.broadcast_in_dim %cnt, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
  %q = hlo.divide %am, %cb : tensor<8x10xf32>
  %ex = hlo.exponential %ls : tensor<8x10xf32>
  %g0 = hlo.subtract %ex, %y : tensor<8x10xf32>
  %g = hlo.add %g0, %q : tensor<8x10xf32>
  func.return %ce, %cnt, %g : tensor<8xf32>, tensor<8xf32>, tensor<8x10xf32>
}"""

#: ReLU and its backward pass: the pre-activation and the zero broadcast are read by the forward fusion,
#: the backward select (which a dot also reads) and a bias gradient
RELU_BACKWARD = """
func.func @main(%x: tensor<8x16xf32>, %b: tensor<16xf32>, %g: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16xf32>) {
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %a = hlo.add %x, %bb : tensor<8x16xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %zb = hlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %r = hlo.maximum %zb, %a : tensor<8x16xf32>
  %c = hlo.compare GT, %a, %zb : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
  %gs = hlo.select %c, %g, %zb : tensor<8x16xi1>, tensor<8x16xf32>
  %sum = hlo.reduce(%gs init: %z) applies hlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  %t = hlo.dot_general %gs, %x, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %tr = hlo.reduce(%t init: %z) applies hlo.add across dimensions = [0] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
  %o = hlo.add %sum, %tr : tensor<16xf32>
  func.return %r, %gs, %o : tensor<8x16xf32>, tensor<8x16xf32>, tensor<16xf32>
}"""


def _args(name: str, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    if name == "cross_entropy":
        logits = rng.standard_normal((8, 10)).astype(np.float32)
        logits[1, 3] = logits[1, 7] = logits[1].max() + 1  # a tied maximum: the argmax count is 2
        return [logits, rng.integers(0, 10, 8).astype(np.int32)]
    return [rng.standard_normal(s).astype(np.float32) for s in ((8, 16), (16,), (8, 16))]


PROGRAMS = {"cross_entropy": CROSS_ENTROPY, "relu_backward": RELU_BACKWARD}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_only_fusions_and_dots_are_left(name):
    module = optimized(PROGRAMS[name])
    top = [op.name for op in module.ops.first.body.block.ops]  # type: ignore[union-attr]
    assert set(top) <= {"hlo.fusion", "hlo.dot_general", "func.return"}, top
    # nothing a fusion reads is a materialised broadcast of a constant: the zero broadcast is no fusion's result
    for f in fusions(module):
        for v, arg in zip(f.operands, f.body.block.args):
            assert arg.uses, f"fusion input {v} is not read"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_absorbed_matches_unfused_on_interpreter(name):
    text = PROGRAMS[name]
    fused = optimized(text)
    for seed in range(3):
        args = _args(name, seed)
        for g, r in zip(run_function(fused, args=args), run_function(parse(text), args=args)):
            np.testing.assert_array_equal(g, r)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_absorbed_cpu_matches_float64(name):
    text = PROGRAMS[name]
    args = _args(name, 5)
    text64 = text.replace("f32", "f64").replace("0xFF800000", "0xFFF0000000000000")
    ref = run_function(parse(text64), args=[a.astype(np.float64) if a.dtype == np.float32 else a for a in args])
    for g, r in zip(as_tuple(cpu(optimized(text))(*args)), ref):
        np.testing.assert_allclose(g, np.asarray(r, np.float32), rtol=2e-6, atol=1e-6)


def test_relu_zero_broadcast_is_no_fusion_result():
    """The zero broadcast read by the forward fusion and the backward select used to be promoted to an extra
    result of the forward fusion (a 8x16 buffer of zeros); now each fusion computes it."""
    module = optimized(RELU_BACKWARD)
    results = [len(f.results) for f in fusions(module)]
    assert results[0] == 2, results  # relu and the pre-activation the backward select reads
