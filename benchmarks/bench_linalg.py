"""cholesky and triangular_solve on the CPU backend vs numpy.linalg, side by side in
one run (issue 13: "within 3x of numpy.linalg" at 1024²). hlo programs compiled
once; each round times minixla then numpy (best of `--calls` calls each), rounds
interleaved so a busy shared machine slows both alike; a figure is the best over
rounds. numpy.linalg has no triangular solver: the triangular_solve row compares
with `numpy.linalg.solve` on the same (triangular) matrix, an LU solve, and with
numpy's gemm of the same shape (`a @ b`, 2n²m flops, twice a substitution's n²m) as
the closest flop-for-flop reference. Writes benchmarks/results_linalg.md.

    PYTHONPATH=. python benchmarks/bench_linalg.py [--n 1024] [--rounds 5] [--calls 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import platform
import time
from pathlib import Path

import numpy as np

from benchmarks.timing import best_time as _best

ROOT = Path(__file__).resolve().parent.parent


def _T(shape, ty: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + ty + ">"


def _programs(n: int, ty: str) -> dict[str, str]:
    t = _T((n, n), ty)
    return {
        "cholesky": f'func.func @main(%a: {t}) -> {t} {{\n  %r = "hlo.cholesky"(%a) <{{lower = true}}> : ({t}) -> {t}\n'
                    f"  func.return %r : {t}\n}}",
        "triangular_solve": f"func.func @main(%a: {t}, %b: {t}) -> {t} {{\n"
                            f'  %r = "hlo.triangular_solve"(%a, %b) <{{left_side = true, lower = true, '
                            f"unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>}}> : ({t}, {t}) -> {t}\n"
                            f"  func.return %r : {t}\n}}",
    }


def _inputs(n: int, dt):
    rng = np.random.default_rng(n)
    f = rng.standard_normal((n, n))
    spd = f @ f.T + n * np.eye(n)
    low = np.linalg.cholesky(spd)
    return spd.astype(dt), low.astype(dt), rng.standard_normal((n, n)).astype(dt)


def numpy_single_thread(n: int, rounds: int, calls: int) -> dict[str, float]:
    """numpy.linalg in a child process with OPENBLAS_NUM_THREADS=1 (OpenBLAS's threads on a loaded
    machine can cost more than they give): seconds per (op, type)."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--numpy-worker", "--n", str(n), "--rounds", str(rounds),
           "--calls", str(calls)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def numpy_worker(n: int, rounds: int, calls: int) -> dict[str, float]:
    out = {}
    for ty, dt in (("f32", np.float32), ("f64", np.float64)):
        spd, low, b = _inputs(n, dt)
        out[f"cholesky {ty}"] = min(_best(lambda: np.linalg.cholesky(spd), calls) for _ in range(rounds))
        out[f"triangular_solve {ty}"] = min(_best(lambda: np.linalg.solve(low, b), calls) for _ in range(rounds))
    return out


def measure(n: int, rounds: int, calls: int) -> list[dict]:
    from minixla.backends import get_backend
    from minixla.dialects import load_all
    from minixla.dialects.diagnostics import parse_and_verify

    ctx, cpu = load_all(), get_backend("cpu")
    rows = []
    for ty, dt in (("f32", np.float32), ("f64", np.float64)):
        spd, low, b = _inputs(n, dt)
        for name, text in _programs(n, ty).items():
            t0 = time.perf_counter()
            fn = cpu.compile(parse_and_verify(text, "<bench>", ctx), "main")
            compile_s = time.perf_counter() - t0
            if name == "cholesky":
                args, ref = (spd,), (lambda: np.linalg.cholesky(spd))
                got = fn(*args)[0]
                err = np.abs(got.astype(np.float64) - np.linalg.cholesky(spd.astype(np.float64))).max()
                extra = None
            else:
                args, ref = (low, b), (lambda: np.linalg.solve(low, b))
                got = fn(*args)[0]
                err = np.abs(low.astype(np.float64) @ got - b).max() / np.abs(b).max()
                extra = lambda: low @ b  # noqa: E731
            mine, theirs, gemm = float("inf"), float("inf"), float("inf")
            for _ in range(rounds):
                mine = min(mine, _best(lambda: fn(*args), calls))
                theirs = min(theirs, _best(ref, calls))
                if extra is not None:
                    gemm = min(gemm, _best(extra, calls))
            rows.append(dict(op=name, ty=ty, minixla=mine, numpy=theirs, gemm=gemm if extra else None,
                             compile=compile_s, err=float(err)))
            print(f"{name} {ty}: minixla {mine * 1e3:.1f} ms, numpy {theirs * 1e3:.1f} ms", flush=True)
    return rows


def report(n: int, rows: list[dict], loads: list[str], rounds: int, calls: int) -> str:
    from minixla.backends.cpu import blas
    from minixla.backends.cpu.threadpool import get_num_threads

    model = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    L = [f"# cholesky and triangular_solve {n}x{n}: minixla CPU vs numpy.linalg, side by side", "",
         f"Machine: {model}, {os.cpu_count()} cores; minixla threads: {get_num_threads()}, gemm: {blas.gemm_kind()}; "
         f"numpy {np.__version__} (OpenBLAS), Python {platform.python_version()}.", "",
         f"One process; {rounds} rounds, each timing minixla then numpy (best of {calls} calls; a figure is the best "
         f"over rounds). Load averages (1 min) before and after: {', '.join(loads)}: the machine is shared, compare "
         f"within a row. minixla: `hlo.cholesky` (lower) and `hlo.triangular_solve` (left, lower, no transpose, "
         f"{n} right-hand sides) compiled by the CPU backend (recursive blocked expansion, leaves of 128 as scalar "
         f"loops, the rest gemm calls). numpy.linalg has no triangular solver: its row shows `numpy.linalg.solve` "
         f"(LU) on the same matrix and numpy's `a @ b` of the same shape. The `1 thread` columns: numpy.linalg in a "
         f"child process with OPENBLAS_NUM_THREADS=1, measured after the others.", "",
         "| op | type | minixla ms | numpy.linalg ms | minixla / numpy | numpy.linalg 1 thread ms | minixla / numpy "
         "1 thread | numpy `a @ b` ms | compile s | error |",
         "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        gemm = f"{r['gemm'] * 1e3:.1f}" if r["gemm"] else "-"
        ref = "cholesky" if r["op"] == "cholesky" else "solve"
        one = r.get("numpy1")
        one_cells = f"{one * 1e3:.1f} | {r['minixla'] / one:.2f}x" if one else "- | -"
        L.append(f"| {r['op']} | {r['ty']} | {r['minixla'] * 1e3:.1f} | {r['numpy'] * 1e3:.1f} ({ref}) | "
                 f"{r['minixla'] / r['numpy']:.2f}x | {one_cells} | {gemm} | {r['compile']:.1f} | {r['err']:.1e} |")
    L += ["", "Error: cholesky, max abs difference from float64 numpy; triangular_solve, max |a x - b| / max |b|.", ""]
    return "\n".join(L)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results_linalg.md"))
    ap.add_argument("--numpy-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.numpy_worker:
        print(json.dumps(numpy_worker(args.n, args.rounds, args.calls)))
        return
    os.environ.pop("MINIXLA_VERIFY_EACH_PASS", None)
    os.environ["MINIXLA_CACHE_DIR"] = "off"  # the compile column measures a compile, not a disk-cache hit
    loads = [open("/proc/loadavg").read().split()[0]]
    rows = measure(args.n, args.rounds, args.calls)
    single = numpy_single_thread(args.n, args.rounds, args.calls)
    for r in rows:
        r["numpy1"] = single.get(f"{r['op']} {r['ty']}")
    loads.append(open("/proc/loadavg").read().split()[0])
    text = report(args.n, rows, loads, args.rounds, args.calls)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
