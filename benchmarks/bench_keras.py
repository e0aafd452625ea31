"""Keras training steps, minixla vs TensorFlow, both with `compile(jit_compile=True)`, side by side.

    python benchmarks/bench_keras.py          # writes benchmarks/results_keras.md
    (TensorFlow from MINIXLA_TF_PYTHON, default /tmp/tfvenv/bin/python; its rows are skipped without it)

The three examples' models (examples/keras_{transformer,cnn_digits,lstm}.py, their own sizes,
batch sizes and optimizers) are built by the same code against each Keras; a step is one
`train_on_batch` on a fixed batch, timed as the median of 50 after 5 warm-up steps (the first
call compiles). Each framework runs in its own process, one after the other.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = {"transformer": ("keras_transformer", 64), "cnn_digits": ("keras_cnn_digits", 64),
            "lstm": ("keras_lstm", 32)}


def _time_steps(keras, name: str) -> dict:
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    example = __import__(EXAMPLES[name][0])
    batch = EXAMPLES[name][1]
    keras.utils.set_random_seed(0)
    x, y = example.load_data()[:2] if name != "cnn_digits" else example.load_data(n=batch * 2)[:2]
    xb, yb = x[:batch], y[:batch]
    model = example.build_model(keras)
    example.compile_model(keras, model)
    t0 = time.perf_counter()
    model.train_on_batch(xb, yb)
    first = time.perf_counter() - t0
    for _ in range(4):
        model.train_on_batch(xb, yb)
    times = []
    for _ in range(50):
        t0 = time.perf_counter()
        model.train_on_batch(xb, yb)
        times.append(time.perf_counter() - t0)
    return {"first_call_s": first, "step_ms": float(np.median(times)) * 1e3}


def measure(framework: str) -> dict:
    if framework == "tensorflow":
        import tensorflow as tf  # noqa: PLC0415 -- only in the TF process
    else:
        sys.path.insert(0, ROOT)
        from minixla import tf
    return {name: _time_steps(tf.keras, name) for name in EXAMPLES}


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--measure":
        print(json.dumps(measure(sys.argv[2])))
        return 0
    tf_python = os.environ.get("MINIXLA_TF_PYTHON", "/tmp/tfvenv/bin/python")
    runs = {"minixla": [sys.executable, __file__, "--measure", "minixla"]}
    if os.path.exists(tf_python):
        runs["TensorFlow"] = [tf_python, __file__, "--measure", "tensorflow"]
    results = {}
    for label, cmd in runs.items():
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=ROOT if label == "minixla" else "")
        out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
        if out.returncode != 0:
            print(out.stderr[-3000:], file=sys.stderr)
            return 1
        results[label] = json.loads(out.stdout.strip().splitlines()[-1])
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    lines = ["# Keras training steps: minixla vs TensorFlow (both `jit_compile=True`)", "",
             f"`python benchmarks/bench_keras.py`; {os.cpu_count()} cores, load average {load} when run. "
             "Median of 50 `train_on_batch` steps after 5 warm-up steps; first call includes tracing and "
             "compilation.", "",
             "| model | minixla step (ms) | TF-XLA step (ms) | minixla / TF | minixla first call (s) | "
             "TF first call (s) |", "|---|---:|---:|---:|---:|---:|"]
    for name in EXAMPLES:
        m, t = results["minixla"][name], results.get("TensorFlow", {}).get(name)
        ratio = f"{m['step_ms'] / t['step_ms']:.2f}x" if t else "-"
        lines.append(f"| {name} | {m['step_ms']:.2f} | {t['step_ms'] if t else float('nan'):.2f} | {ratio} | "
                     f"{m['first_call_s']:.2f} | {t['first_call_s'] if t else float('nan'):.2f} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(ROOT, "benchmarks", "results_keras.md"), "w") as fh:
        fh.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
