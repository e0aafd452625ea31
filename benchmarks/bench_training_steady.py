"""The compiled MLP training step's steady state, one fresh process at a time
(benchmarks/bench_training.py's jit row, and JAX's side by side).

    PYTHONPATH=. python benchmarks/bench_training_steady.py [--processes 6] [--steps 300] [--baseline /other/checkout]

A process's step time depends on where the kernel put our pool's worker (on
the caller's vCPU, or on another one) and that choice lasts the process's
life (docs/cpu-pipeline.md, "Session 10"), so a single process says little:
this runs `--processes` fresh processes per checkout, interleaved (this one,
`--baseline`, then JAX under `MINIXLA_BENCH_JAX_PYTHON` when it exists), and
prints per process the median and p10 of `--steps` steps, the process CPU
time per step, the futex sleeps per step of the caller and of the other
threads, and whether the worker shared the caller's CPU. Prints only; it
never asserts timings.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JAX_PYTHON = os.environ.get("MINIXLA_BENCH_JAX_PYTHON", "/tmp/tfvenv/bin/python")


def _threads() -> dict[int, tuple[int, int, int]]:
    """tid -> (CPU ticks, voluntary context switches, CPU it last ran on), for this process's threads."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            with open(f"/proc/self/task/{tid}/status") as fh:
                switches = next(int(line.split()[1]) for line in fh if line.startswith("voluntary_ctxt_switches"))
        except (OSError, StopIteration):
            continue
        out[int(tid)] = (int(fields[11]) + int(fields[12]), switches, int(fields[36]))
    return out


def child(steps: int, root: Path) -> dict:
    """One process's measurement of minixla's compiled step, from the checkout `root`."""
    import numpy as np

    early = set(_threads())  # the interpreter's and numpy's (OpenBLAS's) threads
    sys.path.insert(0, str(root))
    from benchmarks.bench_training import data, make_step

    x, y = data()
    step = make_step(True)
    for _ in range(21):
        float(step(x, y))
    me = os.getpid()
    before, shared, times = _threads(), [], []
    cpu0 = time.process_time()
    for k in range(steps):
        t0 = time.perf_counter()
        float(step(x, y))
        times.append(time.perf_counter() - t0)
        if k % 10 == 0:  # outside the timed call: on which CPU the caller and our workers last ran
            now = _threads()
            shared += [now[t][2] == now[me][2] for t in now if t not in early]
    cpu = (time.process_time() - cpu0) / steps
    after = _threads()
    sleeps = {t: (after[t][1] - before.get(t, (0, 0, 0))[1]) / steps for t in after}
    ms = np.array(times) * 1e3
    return {"median_ms": float(np.median(ms)), "p10_ms": float(np.percentile(ms, 10)), "cpu_ms": cpu * 1e3,
            "caller_sleeps": sleeps[me], "worker_sleeps": sum(v for t, v in sleeps.items() if t not in early),
            "shared_cpu": sum(shared) / max(1, len(shared))}


def jax_child(steps: int) -> dict | None:
    """One process's measurement of the same step in JAX (benchmarks/jax_training_step.py), or None."""
    if not os.path.exists(JAX_PYTHON):
        return None
    script = ("import sys, json; sys.path.insert(0, %r)\n"
              "from benchmarks.jax_training_step import data, jax_step_time\n"
              "print(json.dumps(jax_step_time(*data(), %d)))" % (str(ROOT), steps))
    out = subprocess.run([JAX_PYTHON, "-c", script], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return {"median_ms": json.loads(out.stdout.strip().splitlines()[-1])[1] * 1e3}


def run(root: Path, steps: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", str(root), "--steps", str(steps)],
                         cwd=root, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--processes", type=int, default=6)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--baseline", type=Path, help="another checkout, measured interleaved with this one")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.steps, args.child)))
        return 0
    roots = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    for _ in range(args.processes):
        for name, root in roots:
            r = run(root, args.steps)
            mode = "one vCPU" if r["shared_cpu"] > 0.5 else "apart"
            print(f"{name:>8}: median {r['median_ms']:.3f} ms  p10 {r['p10_ms']:.3f}  cpu {r['cpu_ms']:.3f} ms/step  "
                  f"sleeps/step caller {r['caller_sleeps']:.2f} workers {r['worker_sleeps']:.2f}  "
                  f"worker {mode}  (load {os.getloadavg()[0]:.1f})", flush=True)
        j = jax_child(args.steps)
        if j is not None:
            print(f"{'JAX':>8}: median {j['median_ms']:.3f} ms", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
