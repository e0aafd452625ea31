"""Buffer reuse for large outputs (backends/cpu/runtime.OutputRecycler, our
form of buffer donation): a jit step that updates a large variable
(`v.assign_sub(lr * g)`), with the recycler on and off, side by side in
one process (rounds interleaved). Writes benchmarks/results_buffer_reuse.md.

    PYTHONPATH=. python benchmarks/bench_buffer_reuse.py [--mib 256] [--rounds 5] [--steps 5]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import time
from pathlib import Path

import numpy as np

from minixla import tf
from minixla.backends.cpu import runtime

ROOT = Path(__file__).resolve().parent.parent


def make_step(n: int, recycle: bool):
    """A fresh variable and jit step; `recycle=False` compiles with the recycling size out of reach."""
    saved = runtime.RECYCLE_MIN_BYTES
    runtime.RECYCLE_MIN_BYTES = saved if recycle else 1 << 62
    try:
        v = tf.Variable(np.zeros(n, np.float32))
        g = tf.constant(np.full(n, 0.5, np.float32))

        @tf.function(jit_compile=True)
        def step(grad):
            v.assign_sub(0.01 * grad)

        step(g)  # compile (the signature's recyclers are made here)
    finally:
        runtime.RECYCLE_MIN_BYTES = saved
    return v, lambda: step(g)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results_buffer_reuse.md"))
    args = ap.parse_args()
    n = args.mib * 2**20 // 4
    runners = {"recycled buffers": make_step(n, True), "fresh buffers": make_step(n, False)}
    compiled = [f for f in gc.get_objects() if isinstance(f, runtime.CompiledFunction)]
    assert sorted(bool(f.recyclers) for f in compiled) == [False, True], "the two steps must not share code"
    best = {name: float("inf") for name in runners}
    for _ in range(args.rounds):
        for name, (_, run) in runners.items():
            t0 = time.perf_counter()
            for _ in range(args.steps):
                run()
            best[name] = min(best[name], (time.perf_counter() - t0) / args.steps)
    values = [v.numpy() for v, _ in runners.values()]
    np.testing.assert_array_equal(values[0][:1000], values[1][:1000])
    on, off = best["recycled buffers"], best["fresh buffers"]
    lines = ["# Buffer reuse for a large updated variable", "",
             f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
             f"load average {os.getloadavg()[0]:.1f} (shared). Step: `v.assign_sub(0.01 * g)` under "
             f"`jit_compile=True`, v and g {args.mib} MiB of float32; best over {args.rounds} interleaved rounds "
             f"of the mean of {args.steps} steps. Command: `PYTHONPATH=. python benchmarks/bench_buffer_reuse.py`.",
             "", "| outputs | ms per step | GB/s moved (read v, g; write v) |", "| --- | ---: | ---: |"]
    for name, seconds in (("recycled buffers", on), ("fresh buffers", off)):
        lines.append(f"| {name} | {seconds * 1e3:.1f} | {3 * args.mib * 2**20 / seconds / 1e9:.1f} |")
    lines += ["", f"Recycling: {off / on:.2f}x faster per step."]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
