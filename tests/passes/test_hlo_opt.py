"""hlo-algebraic-simplifier and hlo-constant-fold never change a result:
every rewrite is checked bit for bit on the interpreter, with signed zeros,
infinities and NaN among the inputs."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends.interpreter import run_function
from minixla.dialects import load_all
from minixla.passes import run_pipeline

CTX = load_all()
SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -3.75, np.inf, -np.inf, np.nan, 1e-40, 3e38, -7.0e-3],
                   dtype=np.float32)


def parse(text: str):
    return Parser(CTX, text).parse_module()


def ops_of(module) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith("hlo.")]


def same_bits(a: np.ndarray, b: np.ndarray) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype.kind == "f":
        both_nan = np.isnan(a) & np.isnan(b)
        assert ((a.view(np.uint32 if a.itemsize == 4 else np.uint64) == b.view(
            np.uint32 if b.itemsize == 4 else np.uint64)) | both_nan).all(), (a, b)
    else:
        np.testing.assert_array_equal(a, b)


UNARY_F32 = {
    "pow2": ("%c = hlo.constant dense<2.0> : tensor<12xf32>\n  %r = hlo.power %x, %c : tensor<12xf32>", "hlo.power"),
    "pow1": ("%c = hlo.constant dense<1.0> : tensor<12xf32>\n  %r = hlo.power %x, %c : tensor<12xf32>", "hlo.power"),
    "mul1": ("%c = hlo.constant dense<1.0> : tensor<12xf32>\n  %r = hlo.multiply %c, %x : tensor<12xf32>",
             "hlo.multiply"),
    "add_neg_zero": ("%c = hlo.constant dense<-0.0> : tensor<12xf32>\n  %r = hlo.add %x, %c : tensor<12xf32>",
                     "hlo.add"),
    "sub_pos_zero": ("%c = hlo.constant dense<0.0> : tensor<12xf32>\n  %r = hlo.subtract %x, %c : tensor<12xf32>",
                     "hlo.subtract"),
    "div_pow2": ("%c = hlo.constant dense<0.125> : tensor<12xf32>\n  %r = hlo.divide %x, %c : tensor<12xf32>",
                 "hlo.divide"),
    "div_neg_pow2": ("%c = hlo.constant dense<-1024.0> : tensor<12xf32>\n  %r = hlo.divide %x, %c : tensor<12xf32>",
                     "hlo.divide"),
    "double_negate": ("%n = hlo.negate %x : tensor<12xf32>\n  %r = hlo.negate %n : tensor<12xf32>", "hlo.negate"),
}

KEPT_F32 = {  # not exact, so they must stay
    "add_pos_zero": "%c = hlo.constant dense<0.0> : tensor<12xf32>\n  %r = hlo.add %x, %c : tensor<12xf32>",
    "div_three": "%c = hlo.constant dense<3.0> : tensor<12xf32>\n  %r = hlo.divide %x, %c : tensor<12xf32>",
    "div_huge_pow2": "%c = hlo.constant dense<0x7F000000> : tensor<12xf32>\n  %r = hlo.divide %x, %c : tensor<12xf32>",
}


def _unary(body: str) -> str:
    return f"func.func @main(%x: tensor<12xf32>) -> tensor<12xf32> {{\n  {body}\n  func.return %r : tensor<12xf32>\n}}"


@pytest.mark.parametrize("name", sorted(UNARY_F32))
def test_simplification_is_exact(name):
    body, gone = UNARY_F32[name]
    text = _unary(body)
    module = parse(text)
    run_pipeline(module, "hlo-algebraic-simplifier,dce")
    assert gone not in ops_of(module)
    same_bits(run_function(module, args=[SPECIAL])[0], run_function(parse(text), args=[SPECIAL])[0])


@pytest.mark.parametrize("name", sorted(KEPT_F32))
def test_inexact_rewrites_are_not_done(name):
    module = parse(_unary(KEPT_F32[name]))
    before = ops_of(module)
    run_pipeline(module, "hlo-algebraic-simplifier,dce")
    assert ops_of(module) == before


def test_integer_identities():
    text = """func.func @main(%x: tensor<5xi32>) -> tensor<5xi32> {
  %z = hlo.constant dense<0> : tensor<5xi32>
  %o = hlo.constant dense<1> : tensor<5xi32>
  %t = hlo.constant dense<2> : tensor<5xi32>
  %a = hlo.add %x, %z : tensor<5xi32>
  %b = hlo.multiply %a, %o : tensor<5xi32>
  %c = hlo.power %b, %t : tensor<5xi32>
  func.return %c : tensor<5xi32>
}"""
    module = parse(text)
    run_pipeline(module, "hlo-algebraic-simplifier,dce")
    assert ops_of(module) == ["hlo.multiply"]
    x = np.array([-(2 ** 31), -3, 0, 7, 2 ** 20], dtype=np.int32)
    same_bits(run_function(module, args=[x])[0], run_function(parse(text), args=[x])[0])


def test_movement_folding_keeps_values():
    text = """func.func @main(%x: tensor<2x3x4xf32>, %v: tensor<3xf32>) -> (tensor<4x2x3xf32>, tensor<24xf32>, tensor<2x3x4xf32>) {
  %t1 = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %t2 = hlo.transpose %t1, dims = [0, 2, 1] : (tensor<4x2x3xf32>) -> tensor<4x3x2xf32>
  %t3 = hlo.transpose %t2, dims = [0, 2, 1] : (tensor<4x3x2xf32>) -> tensor<4x2x3xf32>
  %r1 = hlo.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %r2 = hlo.reshape %r1 : (tensor<6x4xf32>) -> tensor<24xf32>
  %b1 = hlo.broadcast_in_dim %v, dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
  %b2 = hlo.broadcast_in_dim %b1, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
  func.return %t3, %r2, %b2 : tensor<4x2x3xf32>, tensor<24xf32>, tensor<2x3x4xf32>
}"""
    module = parse(text)
    run_pipeline(module, "hlo-algebraic-simplifier,dce")
    assert sorted(ops_of(module)) == ["hlo.broadcast_in_dim", "hlo.reshape", "hlo.transpose"]
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((2, 3, 4)).astype(np.float32), rng.standard_normal(3).astype(np.float32)]
    for a, b in zip(run_function(module, args=args), run_function(parse(text), args=args)):
        same_bits(a, b)


def test_transpose_of_dot_becomes_swapped_dot():
    """transpose(dot(a, b)) -> dot(b, a): the MLP's weight gradient `x^T dY`, which Adam's update read
    transposed; a batched case too. Compared with numpy on the interpreter and on the CPU backend."""
    text = """func.func @main(%x: tensor<6x5xf32>, %d: tensor<6x3xf32>, %p: tensor<2x4x6xf32>, %q: tensor<2x6x3xf32>)
    -> (tensor<5x3xf32>, tensor<2x3x4xf32>) {
  %g = hlo.dot_general %d, %x, contracting_dims = [0] x [0] : (tensor<6x3xf32>, tensor<6x5xf32>) -> tensor<3x5xf32>
  %gt = hlo.transpose %g, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
  %b = hlo.dot_general %p, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x6xf32>, tensor<2x6x3xf32>) -> tensor<2x4x3xf32>
  %bt = hlo.transpose %b, dims = [0, 2, 1] : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  func.return %gt, %bt : tensor<5x3xf32>, tensor<2x3x4xf32>
}"""
    module = parse(text)
    run_pipeline(module, "hlo-algebraic-simplifier,dce")
    assert ops_of(module) == ["hlo.dot_general", "hlo.dot_general"]
    rng = np.random.default_rng(0)
    x, d, p, q = (rng.standard_normal(s).astype(np.float32) for s in ((6, 5), (6, 3), (2, 4, 6), (2, 6, 3)))
    want = [x.T @ d, np.swapaxes(p @ q, 1, 2)]
    for got, ref in zip(run_function(module, args=[x, d, p, q]), want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    from minixla.backends.cpu.backend import CpuBackend

    cpu = CpuBackend().compile(module)(x, d, p, q)
    for got, ref in zip(cpu, want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_constant_fold_matches_interpreter_and_respects_cap():
    text = """func.func @main() -> (tensor<4xf32>, tensor<f32>, tensor<300x300xf32>) {
  %a = hlo.constant dense<[1.5, -0.0, 0x7FC00000, 4.0]> : tensor<4xf32>
  %b = hlo.constant dense<[2.0, 0.0, 1.0, -0.5]> : tensor<4xf32>
  %m = hlo.multiply %a, %b : tensor<4xf32>
  %e = hlo.exponential %m : tensor<4xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%b init: %z) applies hlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %big = hlo.constant dense<1.0> : tensor<300x300xf32>
  %big2 = hlo.add %big, %big : tensor<300x300xf32>
  func.return %e, %s, %big2 : tensor<4xf32>, tensor<f32>, tensor<300x300xf32>
}"""
    module = parse(text)
    run_pipeline(module, "hlo-constant-fold,dce")
    names = ops_of(module)
    assert "hlo.exponential" not in names and "hlo.reduce" not in names
    assert "hlo.add" in names  # 90000 elements > the 65536 cap
    for a, b in zip(run_function(module), run_function(parse(text))):
        same_bits(a, b)


def test_optimize_pipeline_keeps_results_of_the_running_example():
    from tests.passes.test_fusion import running_example

    text = running_example(8)
    module = parse(text)
    run_pipeline(module, "hlo-optimize")
    rng = np.random.default_rng(1)
    args = [rng.standard_normal((8, 8)).astype(np.float32) for _ in range(2)]
    same_bits(run_function(module, args=args)[0], run_function(parse(text), args=args)[0])
