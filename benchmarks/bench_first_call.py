"""First-call (trace + compile) time in a fresh process: the MLP training
step (benchmarks/bench_training.py) with an empty disk cache, with a warm one,
and with the cache off; the running example's first call. Each row is a new
Python process, so nothing is cached in memory. Writes
benchmarks/results_first_call.md.

    PYTHONPATH=. python benchmarks/bench_first_call.py [--repeats 3] [--baseline /other/checkout]

`--baseline` runs every process twice, interleaved: once from this checkout
and once from the other one (each with its own cache directories), so a
change is compared with what it changes under the same machine load.
"""

from __future__ import annotations

import argparse
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


def first_call(script: str, cache_dir: str | None, root: Path = ROOT) -> float:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("MINIXLA_VERIFY_EACH_PASS", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode: so do the children
    env["MINIXLA_CACHE_DIR"] = cache_dir or "off"
    out = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def best_of(script: str, mode: str, repeats: int, roots: tuple[Path, ...] = (ROOT,)) -> list[float]:
    """Best first call per checkout in `roots` over `repeats` fresh processes each (interleaved); `mode`
    is off, empty (a new cache directory each time) or warm (a directory per checkout filled by one
    earlier process)."""
    times: list[list[float]] = [[] for _ in roots]
    with tempfile.TemporaryDirectory() as warm:
        dirs = [os.path.join(warm, str(i)) for i in range(len(roots))]
        if mode == "warm":
            for root, d in zip(roots, dirs):
                first_call(script, d, root)
        for _ in range(repeats):
            for k, (root, d) in enumerate(zip(roots, dirs)):
                if mode == "empty":
                    with tempfile.TemporaryDirectory() as empty:
                        times[k].append(first_call(script, empty, root))
                else:
                    times[k].append(first_call(script, None if mode == "off" else d, root))
    return [min(t) for t in times]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout, measured interleaved with this one")
    args = parser.parse_args(argv)
    roots = (ROOT,) if args.baseline is None else (ROOT, args.baseline.resolve())
    for root in roots:  # what `pip install` does: no child should spend its first call compiling sources
        folders = [str(root / f) for f in ("minixla", "dialects", "passes", "backends", "frontend", "tools",
                                           "benchmarks") if (root / f).is_dir()]
        subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = []
    for label, script in (("MLP training step", MLP), ("running example 1024²", RUNNING_EXAMPLE)):
        for mode, what in (("off", "cache off"), ("empty", "empty disk cache"), ("warm", "warm disk cache")):
            rows.append((f"{label}, {what}", best_of(script, mode, args.repeats, roots)))
    for name, seconds in rows:
        print(f"{name:>42}: " + " | ".join(f"{s * 1e3:8.1f} ms" for s in seconds), flush=True)
    lines = ["# First-call compile time (fresh process each row)", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
             f"(shared). Best of {args.repeats} fresh processes per row. "
             "Command: `PYTHONPATH=. python benchmarks/bench_first_call.py"
             + (" --baseline <checkout>`" if args.baseline else "`") + ".", ""]
    if args.baseline is None:
        lines += ["| case | first call (ms) |", "| --- | ---: |"]
        lines += [f"| {name} | {s[0] * 1e3:.1f} |" for name, s in rows]
    else:
        lines += ["Each row's processes alternate between this checkout and the baseline "
                  f"(`{args.baseline}`), so both see the same machine load.", "",
                  "| case | this checkout (ms) | baseline (ms) | speed-up |", "| --- | ---: | ---: | ---: |"]
        lines += [f"| {name} | {s[0] * 1e3:.1f} | {s[1] * 1e3:.1f} | {s[1] / s[0]:.2f}x |" for name, s in rows]
    (ROOT / "benchmarks" / "results_first_call.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
