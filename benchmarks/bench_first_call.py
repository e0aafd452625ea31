"""First-call (trace + compile) time in a fresh process: the MLP training
step (benchmarks/bench_training.py) with an empty disk cache, with a warm one,
and with the cache off; the running example's first call. Each row is a new
Python process, so nothing is cached in memory. Writes
benchmarks/results_first_call.md.

    PYTHONPATH=. python benchmarks/bench_first_call.py
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MLP = """
import time
from benchmarks.bench_training import data, make_step
step = make_step(True)
x, y = data()
t0 = time.perf_counter()
float(step(x, y))
print(time.perf_counter() - t0)
"""

RUNNING_EXAMPLE = """
import runpy, time
import numpy as np
from minixla.frontend import tf
ns = runpy.run_path("examples/running_example.py", run_name="bench")
rng = np.random.default_rng(0)
x = tf.constant(rng.random((1024, 1024), dtype=np.float32))
y = tf.constant(rng.random((1024, 1024), dtype=np.float32))
fn = tf.function(ns["running_example"], jit_compile=True)
t0 = time.perf_counter()
fn(x, y).numpy()
print(time.perf_counter() - t0)
"""


def first_call(script: str, cache_dir: str | None) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("MINIXLA_VERIFY_EACH_PASS", None)
    env["MINIXLA_CACHE_DIR"] = cache_dir or "off"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def best_of(script: str, mode: str, repeats: int) -> float:
    """Best first call over `repeats` fresh processes; `mode` is off, empty (a new cache directory each
    time) or warm (a directory filled by one earlier process)."""
    times = []
    with tempfile.TemporaryDirectory() as warm:
        if mode == "warm":
            first_call(script, warm)
        for _ in range(repeats):
            if mode == "empty":
                with tempfile.TemporaryDirectory() as empty:
                    times.append(first_call(script, empty))
            else:
                times.append(first_call(script, None if mode == "off" else warm))
    return min(times)


def main(repeats: int = 3) -> int:
    rows = []
    for label, script in (("MLP training step", MLP), ("running example 1024²", RUNNING_EXAMPLE)):
        for mode, what in (("off", "cache off"), ("empty", "empty disk cache"), ("warm", "warm disk cache")):
            rows.append((f"{label}, {what}", best_of(script, mode, repeats)))
    for name, seconds in rows:
        print(f"{name:>42}: {seconds * 1e3:8.1f} ms", flush=True)
    lines = ["# First-call compile time (fresh process each row)", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
             f"(shared). Best of {repeats} fresh processes per row. "
             "Command: `PYTHONPATH=. python benchmarks/bench_first_call.py`.", "",
             "| case | first call (ms) |", "| --- | ---: |"]
    lines += [f"| {name} | {seconds * 1e3:.1f} |" for name, seconds in rows]
    (ROOT / "benchmarks" / "results_first_call.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
