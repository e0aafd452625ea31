"""Matmul (and a 3x3 convolution) float32, side by side in one run: minixla with its
generated gemm (the default), minixla with numpy's OpenBLAS (`MINIXLA_BLAS=openblas`,
the path before), numpy, and TensorFlow `jit_compile=True` (XLA) from
/tmp/tfvenv/bin/python. Every runner is a fresh process per round and the
rounds interleave the runners, so a busy shared machine slows them alike;
each figure is the best over rounds of the best of `--calls` calls, with the
load average (`/proc/loadavg`) of each round recorded. Writes
benchmarks/results_matmul.md.

    PYTHONPATH=. python benchmarks/bench_matmul.py [--rounds 5] [--calls 5] [--sizes 512,1024,2048]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from benchmarks.timing import best_time as _best
from benchmarks.timing import settle

ROOT = Path(__file__).resolve().parent.parent
TF_PYTHON = "/tmp/tfvenv/bin/python"
CONV = (8, 28, 256)  # batch, height = width, channels: 3x3 SAME, NHWC; its gemm is 6272 x 2304 @ 2304 x 256


def _inputs(n: int):
    import numpy as np

    rng = np.random.default_rng(n)
    return rng.standard_normal((n, n), dtype=np.float32), rng.standard_normal((n, n), dtype=np.float32)


def _conv_inputs():
    import numpy as np

    b, hw, ch = CONV
    rng = np.random.default_rng(2)
    return (rng.standard_normal((b, hw, hw, ch), dtype=np.float32),
            rng.standard_normal((3, 3, ch, ch), dtype=np.float32))


def worker(kind: str, sizes: list[int], calls: int) -> dict:
    """Seconds per call (best of `calls`) for each size and the conv, in this process."""
    import numpy as np

    out: dict = {}
    if kind == "numpy":
        for n in sizes:
            a, b = _inputs(n)
            a @ b
            out[str(n)] = _best(lambda: a @ b, calls)
        return out
    if kind == "tf":
        import tensorflow as tf  # /tmp/tfvenv only
    else:
        from minixla.frontend import tf  # type: ignore[no-redef]
    mm = tf.function(lambda p, q: tf.matmul(p, q), jit_compile=True)
    for n in sizes:
        a, b = _inputs(n)
        ta, tb = tf.constant(a), tf.constant(b)
        got = mm(ta, tb).numpy()
        ref = a.astype(np.float64) @ b
        out[f"err{n}"] = float(np.abs(got - ref).max() / np.abs(ref).max())
        settle()  # the reference's numpy product leaves OpenBLAS's workers spinning (benchmarks/timing.py)
        out[str(n)] = _best(lambda: mm(ta, tb).numpy(), calls)
    conv = tf.function(lambda x, k: tf.nn.conv2d(x, k, 1, "SAME"), jit_compile=True)
    x, k = _conv_inputs()
    tx, tk = tf.constant(x), tf.constant(k)
    conv(tx, tk).numpy()
    out["conv"] = _best(lambda: conv(tx, tk).numpy(), calls)
    if kind != "tf":
        from minixla.backends.cpu import blas

        out["gemm"] = blas.gemm_kind()
    return out


RUNNERS = {  # name -> (python, MINIXLA_BLAS)
    "minixla (generated gemm)": (sys.executable, "generated"),
    "minixla (OpenBLAS)": (sys.executable, "openblas"),
    "numpy": (sys.executable, None),
    "TensorFlow jit (XLA)": (TF_PYTHON, None),
}


def run_worker(name: str, sizes: list[int], calls: int) -> dict | None:
    python, setting = RUNNERS[name]
    if not os.path.exists(python):
        return None
    kind = "tf" if python == TF_PYTHON else ("numpy" if name == "numpy" else "minixla")
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="3")
    env.pop("MINIXLA_VERIFY_EACH_PASS", None)
    if setting:
        env["MINIXLA_BLAS"] = setting
    cmd = [python, str(Path(__file__).resolve()), "--worker", kind, "--sizes", ",".join(map(str, sizes)),
           "--calls", str(calls)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(f"{name} failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def report(sizes: list[int], best: dict, loads: list[str], rounds: int, calls: int) -> str:
    from minixla.backends.cpu import blas
    from minixla.backends.cpu.target import host_target
    from minixla.backends.cpu.threadpool import get_num_threads

    shapes = blas.generated_shapes() or {}
    cpu = host_target().cpu
    model = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    s = shapes.get("s")
    kernel = (f"{s.mr}x{s.nr} f32 tile ({s.nv} x {s.vl}-lane vectors), KC={s.kc}, NC={s.nc}" if s else "none")
    L = ["# Matmul float32: minixla vs numpy vs TensorFlow-XLA, side by side", "",
         f"Machine: {model} (LLVM: {cpu}), {os.cpu_count()} cores; minixla threads: {get_num_threads()}; "
         f"Python {platform.python_version()}.", "",
         f"Generated kernel on this CPU: {kernel}.", "",
         f"Each runner is a fresh process in each of {rounds} rounds (runners interleaved); a figure is the best "
         f"over rounds of the best of {calls} calls (result copied back to numpy included). The machine is shared: "
         f"load averages (1 min) at the rounds: {', '.join(loads)}. With a load above the core count every runner "
         f"gets only a share of the cores: compare the columns of a row, not the machine's peak.", "",
         "`tf.matmul` under `jit_compile=True` (numpy: `a @ b`), GFLOP/s = 2n³ / time:", "",
         "| n | " + " | ".join(RUNNERS) + " | generated / TF-XLA | generated / OpenBLAS path |",
         "| ---: | " + " | ".join("---:" for _ in RUNNERS) + " | ---: | ---: |"]

    def gflops(name: str, key: str, flops: float) -> float | None:
        t = best.get(name, {}).get(key)
        return flops / t / 1e9 if t else None

    def cell(v: float | None) -> str:
        return f"{v:.1f}" if v is not None else "n/a"

    def ratio(x: float | None, y: float | None) -> str:
        return f"{x / y:.2f}x" if x and y else "n/a"

    gen, ob, tfx = "minixla (generated gemm)", "minixla (OpenBLAS)", "TensorFlow jit (XLA)"
    for n in sizes:
        vals = {name: gflops(name, str(n), 2.0 * n ** 3) for name in RUNNERS}
        L.append(f"| {n} | " + " | ".join(cell(vals[k]) for k in RUNNERS) +
                 f" | {ratio(vals[gen], vals[tfx])} | {ratio(vals[gen], vals[ob])} |")
    errs = [f"n={n}: {best[gen].get(f'err{n}', float('nan')):.1e}" for n in sizes if gen in best]
    b, hw, ch = CONV
    flops = 2.0 * b * hw * hw * 9 * ch * ch
    conv = {name: gflops(name, "conv", flops) for name in RUNNERS if name != "numpy"}
    L += ["", f"Max relative error of the generated path vs float64 numpy: {', '.join(errs)}.", "",
          f"Convolution `tf.nn.conv2d` {b}x{hw}x{hw}x{ch} * 3x3x{ch}x{ch}, SAME (im2col + gemm here), GFLOP/s:", "",
          "| " + " | ".join(conv) + " |", "| " + " | ".join("---:" for _ in conv) + " |",
          "| " + " | ".join(cell(v) for v in conv.values()) + " |", ""]
    return "\n".join(L)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", choices=["minixla", "numpy", "tf"])
    ap.add_argument("--sizes", default="512,1024,2048")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results_matmul.md"))
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.worker:
        print(json.dumps(worker(args.worker, sizes, args.calls)))
        return
    best: dict = {}
    loads = []
    for r in range(args.rounds):
        loads.append(open("/proc/loadavg").read().split()[0])
        for name in RUNNERS:
            got = run_worker(name, sizes, args.calls)
            if got is None:
                continue
            mine = best.setdefault(name, {})
            for key, v in got.items():
                if isinstance(v, float) and not key.startswith("err"):
                    mine[key] = min(mine.get(key, float("inf")), v)
                else:
                    mine.setdefault(key, v)
        print(f"round {r + 1}/{args.rounds} (load {loads[-1]}): " +
              ", ".join(f"{k}: {2 * sizes[-1] ** 3 / v[str(sizes[-1])] / 1e9:.0f}" for k, v in best.items()),
              file=sys.stderr)
    text = report(sizes, best, loads, args.rounds, args.calls)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
