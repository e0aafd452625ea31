"""minixla demo: the XLA lecture's running example, compiled and timed against eager.

    tf.reduce_mean(tf.multiply(x ** 2, 3) + y)

is run with numpy, with minixla's eager mode (op by op, like TensorFlow
eager), and with `tf.function(jit_compile=True)` (traced to the `tf`
dialect, legalized to `hlo`, optimized and fused, lowered through linalg,
loops and LLVM to native code). Each result is checked against a float64
numpy reference; then the optimized HLO is printed.

    python examples/demo.py [N]        # x, y are N x N float32 (default 4096)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from minixla.frontend import tf  # noqa: E402


def running_example(x, y):
    return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(n: int = 4096) -> int:
    rng = np.random.default_rng(0)
    xs = rng.random((n, n), dtype=np.float32)
    ys = rng.random((n, n), dtype=np.float32)
    reference = float(np.mean(xs.astype(np.float64) ** 2 * 3 + ys))
    x, y = tf.constant(xs), tf.constant(ys)
    jit_fn = tf.function(running_example, jit_compile=True)

    start = time.perf_counter()
    compiled_value = float(jit_fn(x, y))
    first_call = time.perf_counter() - start

    rows = [
        ("numpy eager", float(np.mean(xs ** 2 * 3 + ys)), best_of(lambda: np.mean(xs ** 2 * 3 + ys))),
        ("minixla eager", float(running_example(x, y)), best_of(lambda: running_example(x, y), 3)),
        ("minixla jit_compile=True", compiled_value, best_of(lambda: jit_fn(x, y))),
    ]
    numpy_time = rows[0][2]
    print(f"reduce_mean(x**2*3+y), x and y {n}x{n} float32; float64 reference {reference:.7f}\n")
    print(f"{'':>26}  {'value':>10}  {'rel. error':>10}  {'time':>9}  {'vs numpy':>8}")
    ok = True
    for label, value, seconds in rows:
        rel = abs(value - reference) / abs(reference)
        if label.startswith("minixla"):
            ok &= rel <= 1e-6
        print(f"{label:>26}  {value:10.7f}  {rel:10.1e}  {seconds * 1e3:7.1f}ms  {numpy_time / seconds:7.1f}x")
    print(f"\nfirst compiled call (trace + compile + run): {first_call:.2f} s; later calls hit the cache")

    print("\n--- optimized HLO (f.experimental_get_compiler_ir(x, y)(stage='optimized_hlo')) ---")
    print(jit_fn.experimental_get_compiler_ir(x, y)(stage="optimized_hlo"))
    print("minixla results agree with the float64 reference" if ok else "MISMATCH against the reference")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 4096))
