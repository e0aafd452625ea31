"""minixla benchmarks, measured side by side in one run (issue 5).

    python -m benchmarks.run [--quick] [--out benchmarks/results.md]

Prints and writes a markdown report: the XLA lecture's running example
`reduce_mean(x**2*3+y)` (numpy eager, minixla eager, minixla
`tf.function(jit_compile=True)`, JAX/TensorFlow when importable) with its
effective bandwidth against the machine's measured read bandwidth; dispatch
latency of a chain of 100 tiny ops; first-call compile and cached-call times;
matmul GFLOP/s against numpy; peak memory in fresh processes. Every time is
the best of several runs (shared machines are noisy). `--quick` uses small
sizes (about a minute) and is what the test suite runs; it never asserts
timings.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.timing import settle  # noqa: E402
from minixla.frontend import tf  # noqa: E402

SIZES = {"full": dict(example=(4096, 16384), matmul=(1024, 2048), conv=(8, 56, 64), memory=8192, chain=16,
                      bw_mib=1024),
         "quick": dict(example=(1024, 2048), matmul=(256, 512), conv=(2, 16, 16), memory=2048, chain=16, bw_mib=256)}


def best_of(fn, repeat: int = 5, budget: float = 3.0) -> float:
    """Minimum wall time of `fn()` over up to `repeat` runs (fewer past `budget` s)."""
    times: list[float] = []
    start = time.perf_counter()
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - start > budget:
            break
    return min(times)


def fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} us"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def optional(name: str):
    try:
        return __import__(name)
    except Exception:  # noqa: BLE001 -- absent or broken: no row
        return None


def running_example(x, y):
    return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)


# ---- read bandwidth -------------------------------------------------------------
def read_bandwidth(a: np.ndarray, threads: int, kernel) -> float:
    """Bytes/s of `kernel` (a read-only numpy reduction; numpy releases the
    GIL) over `a` with `threads` threads, each on a contiguous share; best of 5."""
    parts = np.array_split(a.reshape(-1), threads)
    with ThreadPoolExecutor(threads) as pool:
        def once():
            list(pool.map(kernel, parts))
        once()
        t = best_of(once, 5, 5.0)
    return a.nbytes / t


#: read kernels tried; the fastest sets the reference (np.sum's pairwise float
#: adds are compute-bound on some machines; max and dot are not)
READ_KERNELS = {"max": np.max, "dot": lambda p: np.dot(p, p)}


def inputs_bandwidth(arrays: list, threads: int) -> float:
    """Bytes/s of numpy's fastest read kernel over exactly these arrays with
    `threads` threads (each array split into contiguous shares): the
    reference measured on the same buffers at the same moment as the runner."""
    parts = [p for a in arrays for p in np.array_split(a.reshape(-1), threads)]
    total = sum(a.nbytes for a in arrays)
    best = 0.0
    with ThreadPoolExecutor(threads) as pool:
        for kernel in READ_KERNELS.values():
            def once():
                list(pool.map(kernel, parts))
            once()
            best = max(best, total / best_of(once, 5, 5.0))
    return best


def measured_bandwidth(mib: int) -> dict:
    a = np.ones(mib * 2**20 // 4, np.float32)
    cores = os.cpu_count() or 1
    single = max(read_bandwidth(a, 1, k) for k in READ_KERNELS.values())
    multi = max(read_bandwidth(a, t, k) for t in sorted({cores, 2 * cores}) for k in READ_KERNELS.values())
    return {"single": single, "multi": max(single, multi), "cores": cores}


# ---- running example --------------------------------------------------------------
def bench_example(n: int, rows: list, jax, tensorflow) -> dict:
    rng = np.random.default_rng(0)
    xs = rng.random((n, n), dtype=np.float32)
    ys = rng.random((n, n), dtype=np.float32)
    big = n >= 8192
    reps = 3 if big else 10
    out: dict = {"n": n, "bytes": xs.nbytes + ys.nbytes}
    out["numpy"] = best_of(lambda: np.mean(xs ** 2 * 3 + ys), reps)
    x, y = tf.constant(xs), tf.constant(ys)
    out["minixla eager"] = best_of(lambda: running_example(x, y), 2 if big else 5)
    jit_fn = tf.function(running_example, jit_compile=True)
    t0 = time.perf_counter()
    value = float(jit_fn(x, y))
    out["first call"] = time.perf_counter() - t0
    cores = os.cpu_count() or 1
    bw_before = inputs_bandwidth([xs, ys], cores)
    out["minixla jit"] = best_of(lambda: jit_fn(x, y), reps * 2)
    out["inputs bw"] = max(bw_before, inputs_bandwidth([xs, ys], cores))
    ref = float(np.mean(xs.astype(np.float64) ** 2 * 3 + ys)) if not big else float(np.mean(xs ** 2 * 3 + ys))
    out["rel_err"] = abs(value - ref) / abs(ref)
    if jax is not None:
        import jax.numpy as jnp
        jf = jax.jit(lambda a, b: jnp.mean(a ** 2 * 3 + b))
        ja, jb = jax.device_put(xs), jax.device_put(ys)
        jf(ja, jb).block_until_ready()
        out["JAX jit"] = best_of(lambda: jf(ja, jb).block_until_ready(), reps * 2)
    if tensorflow is not None:
        tfn = tensorflow.function(lambda a, b: tensorflow.reduce_mean(a ** 2 * 3 + b), jit_compile=True)
        ta, tb = tensorflow.constant(xs), tensorflow.constant(ys)
        tfn(ta, tb).numpy()
        out["TensorFlow jit"] = best_of(lambda: tfn(ta, tb).numpy(), reps * 2)
    del xs, ys, x, y
    return out


# ---- dispatch: 100 tiny ops ------------------------------------------------------------
def chain(x):
    c = tf.constant(np.float32(1.0001))
    d = tf.constant(np.float32(0.5))
    for _ in range(25):  # 4 ops per step, 100 in all
        x = tf.multiply(x, c)
        x = tf.add(x, d)
        x = tf.maximum(x, d)
        x = tf.subtract(x, d)
    return x


def chain_numpy(x):
    c, d = np.float32(1.0001), np.float32(0.5)
    for _ in range(25):
        x = np.maximum(x * c + d, d) - d
    return x


def bench_chain(n: int, jax, tensorflow=None) -> dict:
    xs = np.linspace(0, 1, n, dtype=np.float32)
    x = tf.constant(xs)
    out: dict = {}
    out["numpy"] = best_of(lambda: chain_numpy(xs), 50)
    out["minixla eager"] = best_of(lambda: chain(x), 20)
    jit_fn = tf.function(chain, jit_compile=True)
    t0 = time.perf_counter()
    got = jit_fn(x).numpy()
    out["first call"] = time.perf_counter() - t0
    out["max_abs_err"] = float(np.max(np.abs(got - chain_numpy(xs))))
    out["minixla jit"] = best_of(lambda: jit_fn(x), 2000, 2.0)
    native = jit_fn.get_concrete_function(x).compiled.executable
    out["minixla native entry"] = best_of(lambda: native(xs), 2000, 2.0)
    if jax is not None:
        import jax.numpy as jnp

        def jchain(a):
            for _ in range(25):
                a = jnp.maximum(a * 1.0001 + 0.5, 0.5) - 0.5
            return a
        jf = jax.jit(jchain)
        ja = jax.device_put(xs)
        jf(ja).block_until_ready()
        out["JAX jit"] = best_of(lambda: jf(ja).block_until_ready(), 2000, 2.0)
    if tensorflow is not None:
        def tchain(a):
            for _ in range(25):
                a = tensorflow.maximum(a * 1.0001 + 0.5, 0.5) - 0.5
            return a
        tfn = tensorflow.function(tchain, jit_compile=True)
        ta = tensorflow.constant(xs)
        tfn(ta).numpy()
        out["TensorFlow jit"] = best_of(lambda: tfn(ta).numpy(), 2000, 2.0)
    return out


# ---- matmul --------------------------------------------------------------------------
def bench_matmul(n: int, jax=None, tensorflow=None) -> dict:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    flops = 2.0 * n ** 3
    out: dict = {"n": n}
    out["numpy"] = flops / best_of(lambda: a @ b, 5)
    mm = tf.function(lambda p, q: tf.matmul(p, q), jit_compile=True)
    ta, tb = tf.constant(a), tf.constant(b)
    got = mm(ta, tb).numpy()
    out["rel_err"] = float(np.max(np.abs(got - a @ b)) / np.max(np.abs(a @ b)))
    settle()  # numpy's OpenBLAS workers spin a while after a @ b (benchmarks/timing.py)
    out["minixla jit"] = flops / best_of(lambda: mm(ta, tb), 5)
    if jax is not None:
        jf = jax.jit(lambda p, q: p @ q)
        ja, jb = jax.device_put(a), jax.device_put(b)
        jf(ja, jb).block_until_ready()
        out["JAX jit"] = flops / best_of(lambda: jf(ja, jb).block_until_ready(), 5)
    if tensorflow is not None:
        tfn = tensorflow.function(lambda p, q: tensorflow.matmul(p, q), jit_compile=True)
        xa, xb = tensorflow.constant(a), tensorflow.constant(b)
        tfn(xa, xb).numpy()
        out["TensorFlow jit"] = flops / best_of(lambda: tfn(xa, xb).numpy(), 5)
    return out


# ---- convolution ----------------------------------------------------------------------
def bench_conv(batch: int, hw: int, ch: int) -> dict:
    """conv2d (3x3, SAME, NHWC) against the gemm it amounts to, both through jit_compile."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((batch, hw, hw, ch), dtype=np.float32)
    k = rng.standard_normal((3, 3, ch, ch), dtype=np.float32)
    patches = rng.standard_normal((batch * hw * hw, 9 * ch), dtype=np.float32)
    flops = 2.0 * batch * hw * hw * 9 * ch * ch
    conv = tf.function(lambda a, b: tf.nn.conv2d(a, b, 1, "SAME"), jit_compile=True)
    mm = tf.function(lambda p, q: tf.matmul(p, q), jit_compile=True)
    tx, tk, tp, tk2 = tf.constant(x), tf.constant(k), tf.constant(patches), tf.constant(k.reshape(9 * ch, ch))
    got = conv(tx, tk).numpy()
    pad = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    ref = sum(pad[:, i:i + hw, j:j + hw, :] @ k[i, j] for i in range(3) for j in range(3))
    mm(tp, tk2)
    settle()  # the reference's numpy products leave OpenBLAS's workers spinning
    out = {"shape": f"{batch}x{hw}x{hw}x{ch} * 3x3x{ch}x{ch}", "matmul": f"{batch * hw * hw}x{9 * ch} @ {9 * ch}x{ch}",
           "rel_err": float(np.max(np.abs(got - ref)) / np.max(np.abs(ref)))}
    out["conv"] = best_of(lambda: conv(tx, tk), 7)
    out["matmul form"] = best_of(lambda: mm(tp, tk2), 7)
    out["gflops"] = flops / out["conv"]
    return out


# ---- memory ---------------------------------------------------------------------------
def probe_memory(kind: str, n: int) -> dict:
    env = dict(os.environ)
    env.pop("MINIXLA_VERIFY_EACH_PASS", None)
    proc = subprocess.run([sys.executable, "-m", "benchmarks.memprobe", kind, str(n)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---- report -----------------------------------------------------------------------------
def machine() -> str:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    threads = os.environ.get("MINIXLA_NUM_THREADS", "all cores")
    return (f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, numpy {np.__version__}; "
            f"MINIXLA_NUM_THREADS={threads}")


def report(mode: str, bw: dict, examples: list, chain_r: dict, matmuls: list, conv: dict, mem: list) -> str:
    L = [f"# minixla benchmarks ({mode})", "", f"Machine: {machine()}.", "",
         "All times: best of several runs in this one process; ratios are against numpy eager "
         "measured in the same run.", ""]
    L += ["## Read bandwidth", "",
          f"numpy read kernels (`max`, `dot(a, a)`) over a {bw['mib']} MiB float32 array: one thread {bw['single'] / 1e9:.1f} GB/s, "
          f"{bw['cores']} cores (best of 1x/2x threads) **{bw['multi'] / 1e9:.1f} GB/s** (the reference below).", ""]
    L += ["## Running example `reduce_mean(x**2*3+y)`, float32", "",
          "Two bandwidth references: the machine's (above, measured once at the start) and numpy's read "
          "kernels over the very input buffers, right before and after the minixla timing (shared "
          "machines drift: the fairer one).", "",
          "| size | runner | time | vs numpy eager | effective GB/s | % of read bandwidth | % of inputs' read bandwidth |",
          "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for ex in examples:
        for key in ("numpy", "minixla eager", "minixla jit", "JAX jit", "TensorFlow jit"):
            if key not in ex:
                continue
            t = ex[key]
            gbs = ex["bytes"] / t
            label = {"numpy": "numpy eager", "minixla jit": "minixla `jit_compile=True`"}.get(key, key)
            L.append(f"| {ex['n']}² | {label} | {fmt_time(t)} | {ex['numpy'] / t:.2f}x | {gbs / 1e9:.1f} | "
                     f"{100 * gbs / bw['multi']:.0f}% | {100 * gbs / ex['inputs bw']:.0f}% |")
    L += ["", "Inputs' read bandwidth: " + ", ".join(f"{ex['n']}²: {ex['inputs bw'] / 1e9:.1f} GB/s" for ex in examples)
          + "."]
    L += ["", "Compiled result vs reference (float64 numpy; at 8192² and above numpy's float32 result, "
          "to save memory): " + ", ".join(
        f"{ex['n']}²: rel. error {ex['rel_err']:.1e}" for ex in examples) + "."]
    L += ["", "## Dispatch: a chain of 100 tiny elementwise ops on 16 floats", "",
          "| runner | time per call | vs minixla eager |", "| --- | ---: | ---: |"]
    for key in ("numpy", "minixla eager", "minixla jit", "minixla native entry", "JAX jit", "TensorFlow jit"):
        if key in chain_r:
            label = {"numpy": "numpy eager", "minixla jit": "minixla `jit_compile=True` (tf.function call)",
                     "minixla native entry": "minixla compiled executable called directly"}.get(key, key)
            L.append(f"| {label} | {fmt_time(chain_r[key])} | {chain_r['minixla eager'] / chain_r[key]:.1f}x |")
    L += ["", f"Compiled chain vs numpy: max abs error {chain_r['max_abs_err']:.1e}.", ""]
    cache = os.environ.get("MINIXLA_CACHE_DIR", "the default directory")
    L += ["## Compile time", "", f"Persistent compile cache: {cache} (`off`: every first call compiles; a warm cache "
          "turns it into a load: benchmarks/bench_first_call.py measures both in fresh processes).", "",
          "| function | first call (trace + compile + run) | cached call |", "| --- | ---: | ---: |"]
    for ex in examples:
        L.append(f"| running example {ex['n']}² | {fmt_time(ex['first call'])} | {fmt_time(ex['minixla jit'])} |")
    L.append(f"| 100-op chain, 16 floats | {fmt_time(chain_r['first call'])} | {fmt_time(chain_r['minixla jit'])} |")
    L += ["", "## Matmul float32 (`tf.matmul`, `jit_compile=True`)", "",
          "| size | numpy GFLOP/s | minixla GFLOP/s | minixla / numpy | JAX jit GFLOP/s | TensorFlow jit GFLOP/s "
          "| max rel. error |",
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for m in matmuls:
        peers = " | ".join(f"{m[k] / 1e9:.1f}" if k in m else "-" for k in ("JAX jit", "TensorFlow jit"))
        L.append(f"| {m['n']}³ | {m['numpy'] / 1e9:.1f} | {m['minixla jit'] / 1e9:.1f} | "
                 f"{100 * m['minixla jit'] / m['numpy']:.0f}% | {peers} | {m['rel_err']:.1e} |")
    L += ["", "## Convolution float32 (`tf.nn.conv2d`, 3x3, SAME, NHWC, `jit_compile=True`)", "",
          "The same FLOPs as one gemm over the im2col patches (the matmul form), both compiled here.", "",
          "| conv | time | GFLOP/s | its matmul form | time | conv / matmul form | max rel. error |",
          "| --- | ---: | ---: | --- | ---: | ---: | ---: |",
          f"| {conv['shape']} | {fmt_time(conv['conv'])} | {conv['gflops'] / 1e9:.1f} | {conv['matmul']} | "
          f"{fmt_time(conv['matmul form'])} | {conv['conv'] / conv['matmul form']:.2f}x | {conv['rel_err']:.1e} |"]
    L += ["", "## Peak memory of one running-example call (fresh process)", "",
          "Peak: the process's `VmHWM` (high-water resident set); `ru_maxrss` of a child started by "
          "fork+exec can carry over the parent's size, so it is only the fallback. Baseline: resident memory after imports (and, for minixla, compiling) before the inputs exist; "
          "extra = peak - baseline - inputs.", "",
          "| runner | size | inputs MiB | baseline MiB | peak MiB | extra over inputs |",
          "| --- | --- | ---: | ---: | ---: | ---: |"]
    for m in mem:
        extra = m["peak"] - m["baseline"] - m["inputs"]
        label = "minixla fused (`jit_compile=True`)" if m["kind"] == "minixla" else "numpy eager"
        L.append(f"| {label} | {m['n']}² | {m['inputs']:.0f} | {m['baseline']:.0f} | {m['peak']:.0f} | "
                 f"{extra:.0f} MiB ({100 * extra / m['inputs']:.0f}%) |")
    return "\n".join(L) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, about a minute")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results.md"))
    args = ap.parse_args(argv)
    mode = "quick" if args.quick else "full"
    sizes = SIZES[mode]
    jax, tensorflow = optional("jax"), optional("tensorflow")

    def say(msg):
        print(f"[bench] {msg}", file=sys.stderr, flush=True)

    say("read bandwidth")
    bw = dict(measured_bandwidth(sizes["bw_mib"]), mib=sizes["bw_mib"])
    examples = []
    for n in sizes["example"]:
        say(f"running example {n}^2")
        examples.append(bench_example(n, [], jax, tensorflow))
    say("100-op chain")
    chain_r = bench_chain(sizes["chain"], jax, tensorflow)
    matmuls = []
    for n in sizes["matmul"]:
        say(f"matmul {n}^3")
        matmuls.append(bench_matmul(n, jax, tensorflow))
    say("convolution")
    conv = bench_conv(*sizes["conv"])
    say(f"peak memory {sizes['memory']}^2")
    mem = [probe_memory(kind, sizes["memory"]) for kind in ("numpy", "minixla")]
    text = report(mode, bw, examples, chain_r, matmuls, conv, mem)
    print(text)
    Path(args.out).write_text(text)
    say(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
