"""Chrome/Perfetto traces (passes/trace_events.py): `tf.profiler.experimental`
start/stop around compiled calls and eager ops, `MINIXLA_TRACE` for the tools.
The JSON must load, name the compile stages, passes, LLVM stages and calls,
nest properly per thread and have durations >= 0."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from minixla.passes import trace_events

from minixla import tf
from tests.paths import REPO_ROOT

PROGRAM = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.exponential %x : tensor<4xf32>
  %1 = hlo.add %0, %x : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
"""


@pytest.fixture(autouse=True)
def no_trace_left_running():
    yield
    trace_events.stop() if trace_events.ACTIVE is not None else None


def load(path) -> list[dict]:
    with open(path) as f:
        data = json.load(f)
    assert set(data) >= {"traceEvents"}
    return data["traceEvents"]


def check_well_formed(events: list[dict]) -> list[dict]:
    """Complete events only (metadata aside), durations >= 0, proper nesting per thread."""
    spans = [e for e in events if e["ph"] == "X"]
    assert all(e["ph"] == "M" for e in events if e["ph"] != "X")
    for e in spans:
        assert {"name", "cat", "ts", "dur", "pid", "tid"} <= set(e) and e["dur"] >= 0
    by_thread: dict[int, list[dict]] = {}
    for e in spans:
        by_thread.setdefault(e["tid"], []).append(e)
    for thread_spans in by_thread.values():
        open_ends: list[float] = []  # a stack of the enclosing spans' ends
        for e in sorted(thread_spans, key=lambda e: (e["ts"], -e["dur"])):
            while open_ends and open_ends[-1] <= e["ts"]:
                open_ends.pop()
            end = e["ts"] + e["dur"]
            assert not open_ends or end <= open_ends[-1], f"{e['name']} overlaps its enclosing span"
            open_ends.append(end)
    return spans


def within(inner: dict, outer: dict) -> bool:
    return outer["ts"] <= inner["ts"] and inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"]


def test_profiler_traces_compile_stages_calls_and_eager_ops(tmp_path):
    @tf.function(jit_compile=True)
    def f(x):
        return tf.exp(x) * 2.0 + x

    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    tf.profiler.experimental.start(str(tmp_path))
    f(x)
    f(x)
    tf.add(x, x)  # eager
    with tf.profiler.experimental.Trace("user-step", step_num=1):
        f(x)
    tf.profiler.experimental.stop()

    spans = check_well_formed(load(tmp_path / "minixla.trace.json"))
    names = [e["name"] for e in spans]
    for stage in ("trace", "tf-legalize-to-hlo", "hlo-optimize", "hlo-fusion", "backend-compile",
                  "convert-hlo-to-linalg", "bufferize", "convert-parallel-loops-to-threads",
                  "emit-llvm-ir", "llvm-optimize-and-jit", "AddV2", "user-step"):  # (direct LLVM IR emission)
        assert stage in names, stage
    calls = [e for e in spans if e["cat"] == "call"]
    assert [c["name"] for c in calls] == ["f", "f", "f"]
    assert calls[0]["args"]["first_call"] is True
    first, step = calls[0], next(e for e in spans if e["name"] == "user-step")
    assert within(calls[2], step) and step["args"]["step_num"] == 1
    # compilation happens inside the first call; passes inside their stage
    compile_span = next(e for e in spans if e["name"] == "backend-compile")
    assert within(compile_span, first)
    for e in spans:
        if e["cat"] == "cpu-pass":
            assert within(e, compile_span), e["name"]
    optimize = next(e for e in spans if e["name"] == "hlo-optimize")
    assert within(next(e for e in spans if e["name"] == "hlo-fusion"), optimize)
    eager = next(e for e in spans if e["name"] == "AddV2")
    assert eager["cat"] == "eager-op" and not within(eager, first)


def test_nothing_is_recorded_when_off(tmp_path):
    assert trace_events.ACTIVE is None
    with trace_events.span("x"):
        pass
    tf.add(tf.constant(1.0), 2.0)
    recorder = trace_events.start()
    with trace_events.span("on", "test", k=3):
        pass
    trace_events.stop()
    with trace_events.span("after"):
        pass
    assert [e["name"] for e in recorder.events] == ["on"] and recorder.events[0]["args"] == {"k": 3}


def test_profiler_misuse_raises_tf_errors(tmp_path):
    with pytest.raises(tf.errors.UnavailableError, match="No profiler is running"):
        tf.profiler.experimental.stop()
    tf.profiler.experimental.start(str(tmp_path))
    with pytest.raises(tf.errors.AlreadyExistsError, match="Another profiler is running"):
        tf.profiler.experimental.start(str(tmp_path))
    tf.profiler.experimental.stop(save=False)
    assert not (tmp_path / "minixla.trace.json").exists()


def test_minixla_trace_env_for_the_tools(tmp_path):
    src = tmp_path / "prog.mlir"
    src.write_text(PROGRAM)
    trace = tmp_path / "out" / "opt.trace.json"
    env = {**os.environ, "MINIXLA_TRACE": str(trace),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "minixla.tools.opt", str(src), "-p", "hlo-optimize,hlo-to-cpu"],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    spans = check_well_formed(load(trace))
    names = [e["name"] for e in spans]
    assert names[:2] == ["hlo-algebraic-simplifier", "hlo-constant-fold"]
    assert "lower-linalg-to-loops" in names and names[-1] == "lower-thread-dispatch"
    assert all(e["cat"] == "pass" for e in spans)


def test_nesting_check_can_fail():
    a = {"name": "a", "cat": "c", "ph": "X", "ts": 0.0, "dur": 10.0, "pid": 1, "tid": 1}
    b = {"name": "b", "cat": "c", "ph": "X", "ts": 5.0, "dur": 10.0, "pid": 1, "tid": 1}
    with pytest.raises(AssertionError, match="overlaps"):
        check_well_formed([a, b])
    check_well_formed([a, {**b, "tid": 2}])
