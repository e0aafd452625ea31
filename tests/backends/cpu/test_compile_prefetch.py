"""Which native helpers a compile starts building before its passes (`compiler.likely_helpers`),
and that the JIT then uses them: a float contraction of at least linalg_to_blas.MIN_WORK
multiply-adds -> the generated gemm kernel (smaller ones call the library), a result with 2^15+
elements -> the thread pool; an elementwise program builds no gemm (llvmlite serializes LLVM calls,
so an unneeded background build made the JIT wait)."""

from __future__ import annotations

import numpy as np

from minixla.backends import get_backend
from minixla.backends.cpu.compiler import likely_helpers
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify


def _module(text: str):
    return parse_and_verify(text, "m.mlir", load_all())


DOT = """
func.func @main(%a: tensor<{m}x{k}x{t}>, %b: tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{t}> {{
  %r = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{m}x{k}x{t}>, tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{t}>
  return %r : tensor<{m}x{n}x{t}>
}}
"""
ADD = """
func.func @main(%a: tensor<{n}x512xf32>) -> tensor<{n}x512xf32> {{
  %r = hlo.add %a, %a : tensor<{n}x512xf32>
  return %r : tensor<{n}x512xf32>
}}
"""


def test_big_float_contraction_means_gemm():
    big = dict(m=1024, k=256, n=1024)  # 2^28 multiply-adds: the generated gemm's (its 2^20-element result threads)
    assert likely_helpers(_module(DOT.format(t="f32", **big))) == (True, True)
    assert likely_helpers(_module(DOT.format(t="f32", m=1024, k=255, n=1024))) == (False, True)  # the library's
    assert likely_helpers(_module(DOT.format(t="f32", m=8, k=16, n=4))) == (False, False)
    assert likely_helpers(_module(DOT.format(t="i32", **big))) == (False, True)  # no integer gemm


def test_big_result_means_thread_pool():
    assert likely_helpers(_module(ADD.format(n=64))) == (False, True)  # 2^15 elements
    assert likely_helpers(_module(ADD.format(n=63))) == (False, False)


def test_prefetched_pool_runs_the_threaded_loop():
    fn = get_backend("cpu").compile(_module(ADD.format(n=256)), "main")
    a = np.random.default_rng(0).standard_normal((256, 512)).astype(np.float32)
    (out,) = fn(a)
    np.testing.assert_array_equal(out, a + a)
