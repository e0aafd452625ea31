"""The XLA lecture's running example, with only the import changed:

    tf.reduce_mean(tf.multiply(x ** 2, 3) + y)

run eagerly, with tf.function, and with tf.function(jit_compile=True); each
result is compared with numpy (float64 reference, relative error <= 1e-6),
and the HLO is printed before and after optimization.

    python examples/running_example.py [N]      # x, y are N x N (default 1024)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from minixla.frontend import tf  # noqa: E402


def running_example(x, y):
    return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)


def main(n: int = 1024) -> int:
    rng = np.random.default_rng(0)
    x = tf.constant(rng.random((n, n), dtype=np.float32))
    y = tf.constant(rng.random((n, n), dtype=np.float32))
    want = np.mean(x.numpy().astype(np.float64) ** 2 * 3 + y.numpy())

    graph_fn = tf.function(running_example)
    jit_fn = tf.function(running_example, jit_compile=True)
    ok = True
    for label, fn in (("eager", running_example), ("tf.function", graph_fn), ("jit_compile=True", jit_fn)):
        got = float(fn(x, y))
        rel = abs(got - want) / abs(want)
        ok &= rel <= 1e-6
        print(f"{label:>17}: {got:.7f}  (numpy {want:.7f}, relative error {rel:.1e})")

    small = (tf.ones([2, 3]), tf.ones([2, 3]))
    ir = jit_fn.experimental_get_compiler_ir(*small)
    print("\n--- tf dialect (traced graph) ---")
    print(jit_fn.get_concrete_function(*small).tf_ir)
    print("--- HLO (stage='hlo') ---")
    print(ir(stage="hlo"))
    print("--- HLO after optimization (stage='optimized_hlo') ---")
    print(ir(stage="optimized_hlo"))
    print("all results agree with numpy" if ok else "MISMATCH against numpy")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1024))
