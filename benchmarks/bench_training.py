"""Training-step benchmark: an MLP 784-128-10 at batch 128 (random data), one
step = forward, sparse softmax cross-entropy, `tape.gradient`, Adam update.

    python benchmarks/bench_training.py [--steps 30] [--out benchmarks/results_training.md]

Measures the step eagerly, as `tf.function` (graph run op by op on the host)
and with `jit_compile=True` (first call = trace + compile; later calls hit
the compile cache), and the same step in JAX when JAX is installed. Writes a
markdown table to `--out`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minixla.frontend import tf  # noqa: E402

BATCH, IN, HIDDEN, OUT = 128, 784, 128, 10


def data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.random((BATCH, IN), dtype=np.float32), rng.integers(0, OUT, BATCH).astype(np.int32)


def make_step(jit_compile):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(HIDDEN, activation="relu"), tf.keras.layers.Dense(OUT)])
    model(np.zeros((1, IN), np.float32))
    opt = tf.keras.optimizers.Adam(1e-3)

    def step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return step if jit_compile is None else tf.function(step, jit_compile=jit_compile)


def time_step(step, x, y, steps: int, eager: bool) -> tuple[float, float]:
    """(first call seconds, median later call seconds)."""
    if eager:
        x, y = tf.constant(x), tf.constant(y)
    t0 = time.perf_counter()
    float(step(x, y))
    first = time.perf_counter() - t0
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        float(step(x, y))
        times.append(time.perf_counter() - t0)
    return first, float(np.median(times))


JAX_PYTHON = os.environ.get("MINIXLA_BENCH_JAX_PYTHON", "/tmp/tfvenv/bin/python")


def jax_step_time(x, y, steps: int):
    """The same step in JAX (benchmarks/jax_training_step.py): in this process when JAX imports
    (the `bench` extra), else under `MINIXLA_BENCH_JAX_PYTHON` when that interpreter exists; None
    otherwise. Same data (the seed), same initial weights and Adam constants."""
    try:
        import jax  # noqa: F401
    except ImportError:
        if not os.path.exists(JAX_PYTHON):
            return None
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jax_training_step.py")
        out = subprocess.run([JAX_PYTHON, script, "--steps", str(steps)], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"JAX run under {JAX_PYTHON} failed: {out.stderr.strip().splitlines()[-1:]}", flush=True)
            return None
        times = json.loads(out.stdout.strip().splitlines()[-1])
        return times["first"], times["step"]
    from benchmarks.jax_training_step import jax_step_time as in_process

    return in_process(x, y, steps)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results_training.md"))
    args = p.parse_args(argv)
    x, y = data()
    rows = []
    losses = {}
    for name, jit in (("eager", None), ("tf.function", False), ("tf.function + autoclustering", "auto"),
                      ("tf.function(jit_compile=True)", True)):
        tf.config.optimizer.set_jit(jit == "auto")  # tf.config.optimizer.set_jit('autoclustering')
        step = make_step(False if jit == "auto" else jit)
        first, steady = time_step(step, x, y, args.steps, jit is None)
        tf.config.optimizer.set_jit(False)
        losses[name] = float(step(x, y))
        rows.append((name, first, steady))
        print(f"{name:>30}: first call {first:8.3f} s, step {steady * 1e3:9.3f} ms", flush=True)
        if jit is True:
            t0 = time.perf_counter()
            float(step(x, y))
            hit = time.perf_counter() - t0
            print(f"{'':>30}  later call (cache hit, {step.why()}): {hit * 1e3:.3f} ms; "
                  f"traces {step.experimental_get_tracing_count()}", flush=True)
    jax_times = jax_step_time(x, y, args.steps)
    if jax_times is not None:
        rows.append(("JAX jit", *jax_times))
        print(f"{'JAX jit':>30}: first call {jax_times[0]:8.3f} s, step {jax_times[1] * 1e3:9.3f} ms")
    eager = rows[0][2]
    lines = ["# Training-step benchmark", "",
             f"MLP {IN}-{HIDDEN}-{OUT}, batch {BATCH}, random data; step = forward + sparse softmax "
             "cross-entropy + `tape.gradient` + Adam. Median of "
             f"{args.steps} steps after the first call. Machine: {platform.machine()}, "
             f"{os.cpu_count()} CPUs, Python {platform.python_version()}.", "",
             "| mode | first call (s) | step (ms) | speedup vs eager |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {n} | {f:.3f} | {s * 1e3:.3f} | {eager / s:.1f}x |" for n, f, s in rows]
    plain, auto = dict((n, s) for n, _, s in rows)["tf.function"], dict((n, s) for n, _, s in rows)[
        "tf.function + autoclustering"]
    lines += ["", f"Autoclustering (`tf.config.optimizer.set_jit('autoclustering')`, no `jit_compile`): "
              f"{plain / auto:.1f}x the plain tf.function's step; loss after the timed steps "
              f"{losses['tf.function + autoclustering']:.6f} vs {losses['tf.function']:.6f} (each mode trains "
              "its own model from the same initial weights and data)."]
    if jax_times is None:
        lines += ["", f"JAX is not installed here (nor at MINIXLA_BENCH_JAX_PYTHON={JAX_PYTHON}): no JAX row."]
    lines += ["", "Regenerate with `python benchmarks/bench_training.py`."]
    with open(args.out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
