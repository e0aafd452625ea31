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


POOL_IN_A_NEW_PROCESS = """
import os, threading
from minixla.backends.cpu import compile_cache, parallel_jit, threadpool

forks = []
parallel_jit.compile_in_background = lambda text: forks.append(text)  # a child would be recorded here
threadpool.prefetch()
threads = [t for t in threading.enumerate() if t.name == "minixla-pool-build"]
for t in threads:
    t.join(60)
disk = compile_cache.active_cache()
print(len(threads), len(forks), threadpool.get_num_threads() >= 1,
      disk.get(compile_cache.kernel_key(threadpool.POOL_TEXT, 0)) is not None,
      disk.get(compile_cache.kernel_key(threadpool.POOL_TEXT)) is None)
"""


def test_pool_builds_on_a_thread_at_fast_code_generation(tmp_path):
    """A new process builds the pool on one background thread, without a forked child, at LLVM's fast
    code generation (codegen level 0): its object is stored under that level's key, not under the
    -O3 key of the other runtime kernels."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    env = dict(os.environ, PYTHONPATH=str(root), MINIXLA_CACHE_DIR=str(tmp_path), MINIXLA_PARALLEL_JIT="1")
    out = subprocess.run([sys.executable, "-c", POOL_IN_A_NEW_PROCESS], cwd=root, env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["1", "0", "True", "True", "True"]
