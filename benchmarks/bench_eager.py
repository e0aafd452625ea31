"""Eager dispatch against numpy, side by side in one process: the 100-op chain of benchmarks/run.py
(tf.multiply/add/maximum/subtract with tf.constant scalars on 16 floats), the same chain written
with operators, and the running example `tf.reduce_mean(x ** 2 * 3 + y)` at 1024² and 4096².
Each pair runs interleaved (numpy, minixla, numpy, ...) and keeps the best of many calls, so a
busy machine slows both alike; the ratio is what to read.

    PYTHONPATH=. python benchmarks/bench_eager.py [--rounds R]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from benchmarks.run import chain, chain_numpy  # the dispatch rows of results.md, measured the same way
from minixla.frontend import tf


def chain_operators(x):
    c = tf.constant(np.float32(1.0001))
    d = tf.constant(np.float32(0.5))
    for _ in range(25):
        x = tf.maximum(x * c + d, d) - d
    return x


def running_example(x, y):
    return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)


def running_example_numpy(x, y):
    return np.mean(x ** 2 * 3 + y)


def interleaved(fns: dict, calls: int, rounds: int) -> dict:
    """Best time of each function over `rounds` rounds of `calls` calls, the functions taking turns."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds):
        for name, fn in fns.items():
            for _ in range(calls):
                t0 = time.perf_counter()
                fn()
                best[name] = min(best[name], time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    xs = np.linspace(0, 1, 16, dtype=np.float32)
    x = tf.constant(xs)
    np.testing.assert_allclose(chain(x).numpy(), chain_numpy(xs), rtol=1e-6)
    t = interleaved({"numpy": lambda: chain_numpy(xs), "minixla": lambda: chain(x),
                     "minixla operators": lambda: chain_operators(x)}, 50, args.rounds)
    print(f"| 100-op chain, 16 floats | {t['numpy'] * 1e6:.1f} µs | {t['minixla'] * 1e6:.1f} µs "
          f"| {t['minixla'] / t['numpy']:.2f}x | operators: {t['minixla operators'] * 1e6:.1f} µs "
          f"({t['minixla operators'] / t['numpy']:.2f}x) |")
    rng = np.random.default_rng(0)
    for n, calls, rounds in ((1024, 5, args.rounds), (4096, 1, max(4, args.rounds // 2))):
        xs, ys = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
        x, y = tf.constant(xs), tf.constant(ys)
        want = np.mean(xs.astype(np.float64) ** 2 * 3 + ys)
        assert abs(float(running_example(x, y)) - want) <= 1e-5 * abs(want)
        t = interleaved({"numpy": lambda: running_example_numpy(xs, ys),
                         "minixla": lambda: running_example(x, y)}, calls, rounds)
        print(f"| running example {n}² | {t['numpy'] * 1e3:.2f} ms | {t['minixla'] * 1e3:.2f} ms "
              f"| {t['minixla'] / t['numpy']:.2f}x |")


if __name__ == "__main__":
    main()
