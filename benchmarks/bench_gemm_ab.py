"""The generated gemm of this checkout against another's, in one process: both IR texts compiled
side by side (the other's from a child process run in its checkout), then the same product on the
same inputs called alternately, round by round (the first tree first in even rounds). A busy shared
machine slows both alike; each figure is the best over rounds of the best of `--calls` calls, and
the median of the per-round ratios. Results are checked bitwise equal first.

    PYTHONPATH=. python benchmarks/bench_gemm_ab.py --baseline /work/main [--threads 2] [--cpu]
        [--shapes 2048,2048,2048;1024,1024,1024] [--rounds 10] [--calls 3]

`--cpu` times process CPU time (one thread: per-core speed without the other processes' share);
the default is wall time (two threads: what a caller sees). Prints one line per shape, writes nothing.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_ROW_MAJOR, _NO_TRANS = 101, 111
_TEXT = ("import sys; from minixla.backends.cpu.blas import generated_shapes; "
         "from minixla.backends.cpu.gemm_driver import gemm_text; "
         "sys.stdout.write(gemm_text(generated_shapes(), False))")


def gemm_text_of(checkout: Path) -> str:
    """The generated gemm's IR as `checkout` writes it (without the dispatchers)."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    proc = subprocess.run([sys.executable, "-c", _TEXT], cwd=checkout, env=env, capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0 or not proc.stdout:
        sys.exit(f"cannot get the gemm IR of {checkout}:\n{proc.stderr[-2000:]}")
    return proc.stdout


def compiled(text: str, tag: str):
    """(engine, ctypes sgemm) of one IR text; its entry renamed so two can live in one process."""
    import llvmlite.binding as llvm

    from minixla.backends.cpu.target import create_machine, host_target
    from minixla.backends.cpu.threadpool import ensure_registered

    ensure_registered()
    text = text.replace("@minixla_gen_sgemm(", f"@{tag}_sgemm(").replace("@minixla_gen_dgemm(", f"@{tag}_dgemm(")
    host = host_target()
    module = llvm.parse_assembly(text)
    module.triple = host.triple
    engine = llvm.create_mcjit_compiler(module, create_machine(host.triple, host.cpu, host.features))
    engine.finalize_object()
    i32, i64, ptr, f32 = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p, ctypes.c_float
    proto = ctypes.CFUNCTYPE(None, i32, i32, i32, i64, i64, i64, f32, ptr, i64, ptr, i64, f32, ptr, i64)
    return engine, proto(engine.get_function_address(f"{tag}_sgemm"))


def measure(fns: list, shape: tuple[int, int, int], rounds: int, calls: int, cpu: bool) -> list[tuple[float, float]]:
    """Per function: (best seconds, median over rounds of first's time / its time)."""
    import numpy as np

    m, n, k = shape
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    cs = [np.empty((m, n), np.float32) for _ in fns]

    def run(i: int) -> None:
        fns[i](_ROW_MAJOR, _NO_TRANS, _NO_TRANS, m, n, k, 1.0, a.ctypes.data, k, b.ctypes.data, n, 0.0,
               cs[i].ctypes.data, n)

    for i in range(len(fns)):
        run(i)
    for c in cs[1:]:
        if not np.array_equal(c, cs[0]):
            sys.exit(f"{shape}: the trees' results differ")
    clock = time.process_time if cpu else time.perf_counter
    best = [float("inf")] * len(fns)
    ratios: list[list[float]] = [[] for _ in fns]
    for r in range(rounds):
        got = [0.0] * len(fns)
        for i in (range(len(fns)) if r % 2 == 0 else reversed(range(len(fns)))):
            t = float("inf")
            for _ in range(calls):
                t0 = clock()
                run(i)
                t = min(t, clock() - t0)
            got[i] = t
            best[i] = min(best[i], t)
        for i in range(len(fns)):
            ratios[i].append(got[0] / got[i])
    return [(best[i], statistics.median(ratios[i])) for i in range(len(fns))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, required=True, help="the other checkout")
    ap.add_argument("--shapes", default="2048,2048,2048", help="m,n,k;m,n,k...")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--cpu", action="store_true", help="process CPU time instead of wall time")
    args = ap.parse_args()
    import llvmlite.binding as llvm

    from minixla.backends.cpu.threadpool import set_num_threads

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    keep = [compiled(gemm_text_of(args.baseline.resolve()), "base"), compiled(gemm_text_of(ROOT), "this")]
    set_num_threads(args.threads)
    clock = "CPU" if args.cpu else "wall"
    for spec in args.shapes.split(";"):
        shape = tuple(int(x) for x in spec.split(","))
        (tb, _), (tt, med) = measure([f for _, f in keep], shape, args.rounds, args.calls, args.cpu)
        flops = 2.0 * shape[0] * shape[1] * shape[2]
        load = open("/proc/loadavg").read().split()[0]
        print(f"{spec} threads={args.threads} {clock} load={load}: baseline {flops / tb / 1e9:.1f}, "
              f"this {flops / tt / 1e9:.1f} GFLOP/s (best x{tb / tt:.4f}, median of rounds x{med:.4f})")


if __name__ == "__main__":
    main()
