"""minixla demo: the running example `reduce_mean(x**2 * 3 + y)` as hlo IR,
parsed, verified and run on the interpreter backend, checked against numpy
eager execution, and timed.

    python examples/demo.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backends import get_backend
from dialects import load_all
from dialects.diagnostics import parse_and_verify

N = 512
PROGRAM = f"""
func.func @main(%x: tensor<{N}x{N}xf32>, %y: tensor<{N}x{N}xf32>) -> tensor<f32> {{
  %sq = hlo.multiply %x, %x : tensor<{N}x{N}xf32>
  %c3 = hlo.constant dense<3.0> : tensor<f32>
  %three = hlo.broadcast_in_dim %c3, dims = [] : (tensor<f32>) -> tensor<{N}x{N}xf32>
  %t = hlo.multiply %sq, %three : tensor<{N}x{N}xf32>
  %s = hlo.add %t, %y : tensor<{N}x{N}xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %sum = hlo.reduce(%s init: %zero) applies hlo.add across dimensions = [0, 1] : (tensor<{N}x{N}xf32>, tensor<f32>) -> tensor<f32>
  %n = hlo.constant dense<{float(N * N)}> : tensor<f32>
  %mean = hlo.divide %sum, %n : tensor<f32>
  func.return %mean : tensor<f32>
}}
"""


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((N, N), dtype=np.float32)
    y = rng.standard_normal((N, N), dtype=np.float32)

    start = time.perf_counter()
    module = parse_and_verify(PROGRAM, "demo.mlir", load_all())
    exe = get_backend("interpreter").compile(module, "main")
    compile_s = time.perf_counter() - start

    (got,) = exe(x, y)
    want = np.mean(x**2 * 3 + y)
    ok = np.allclose(got, want, rtol=1e-4)

    print(PROGRAM.strip())
    print(f"\nreduce_mean(x**2*3+y) on {N}x{N} f32")
    print(f"  minixla interpreter: {float(got):.6f}   (parse+verify+compile {compile_s * 1e3:.1f} ms, "
          f"run {best_of(lambda: exe(x, y)) * 1e3:.2f} ms)")
    print(f"  numpy eager:         {float(want):.6f}   (run {best_of(lambda: np.mean(x**2 * 3 + y)) * 1e3:.2f} ms)")
    print("  match:", "yes" if ok else "NO")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
