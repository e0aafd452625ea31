"""A Chrome trace-event recorder (the JSON that chrome://tracing and
ui.perfetto.dev open): complete events (`ph: "X"`) with µs timestamps, one
track per thread. The pass pipeline (each pass), the CPU backend (LLVM
stages) and the frontend (trace, legalize, optimize, each compiled call and
eager op) report into the active recorder; with none active, `span()` costs
one global read.

    trace_events.start("out/minixla.trace.json")   # or MINIXLA_TRACE=path for the tools
    ...
    trace_events.stop()                            # writes the file

It lives in passes/ so that every layer above can report into it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Self

#: the recorder events go to; None when tracing is off (the common case)
ACTIVE: TraceRecorder | None = None


class TraceRecorder:
    """Collects complete events; thread-safe; written once at the end."""

    def __init__(self, path: str | None = None):
        self.path = path
        self.events: list[dict[str, Any]] = []
        self.pid = os.getpid()
        self._lock = threading.Lock()
        self._threads: dict[int, str] = {}

    @staticmethod
    def now_us() -> float:
        return time.perf_counter_ns() / 1000.0

    def complete(self, name: str, cat: str, start_us: float, end_us: float, args: dict | None = None) -> None:
        """Record one finished span of the current thread."""
        thread = threading.current_thread()
        event = {"name": name, "cat": cat, "ph": "X", "ts": start_us, "dur": max(0.0, end_us - start_us),
                 "pid": self.pid, "tid": thread.ident or 0}
        if args:
            event["args"] = {k: v if isinstance(v, int | float | bool) else str(v) for k, v in args.items()}
        with self._lock:
            self.events.append(event)
            self._threads.setdefault(thread.ident or 0, thread.name)

    def to_json(self) -> dict[str, Any]:
        """`{"traceEvents": [...]}` with process/thread name metadata first."""
        meta: list[dict[str, Any]] = [{"name": "process_name", "ph": "M", "pid": self.pid, "tid": 0,
                                       "args": {"name": "minixla"}}]
        with self._lock:
            meta += [{"name": "thread_name", "ph": "M", "pid": self.pid, "tid": tid, "args": {"name": name}}
                     for tid, name in self._threads.items()]
            events = sorted(self.events, key=lambda e: (e["tid"], e["ts"], -e["dur"]))
        return {"traceEvents": meta + events, "displayTimeUnit": "ms"}

    def write(self, path: str | None = None) -> str:
        path = path or self.path
        if path is None:
            raise ValueError("no trace file path given")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            json.dump(self.to_json(), f)
        return path


class _Span:
    __slots__ = ("args", "cat", "name", "start")

    def __init__(self, name: str, cat: str, args: dict):
        self.name, self.cat, self.args = name, cat, args

    def __enter__(self) -> Self:
        self.start = TraceRecorder.now_us()
        return self

    def __exit__(self, *exc) -> None:
        recorder = ACTIVE
        if recorder is not None:
            recorder.complete(self.name, self.cat, self.start, TraceRecorder.now_us(), self.args)


class _NoSpan:
    __slots__ = ()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        return None


_NO_SPAN = _NoSpan()


def span(name: str, cat: str = "minixla", **args: Any) -> _Span | _NoSpan:
    """`with span("hlo-optimize", "compile"):` records the block when tracing is on."""
    return _NO_SPAN if ACTIVE is None else _Span(name, cat, args)


#: called with +1 when recording starts and -1 when it stops: the frontend's eager fast path counts a
#: recorder with its open tapes and traces (frontend/thread_state.OPEN), one test per op instead of two
LISTENERS: list[Callable[[int], None]] = []


def start(path: str | None = None) -> TraceRecorder:
    """Start recording (replacing a recorder already active)."""
    global ACTIVE
    was = ACTIVE
    ACTIVE = TraceRecorder(path)
    if was is None:
        for listener in LISTENERS:
            listener(1)
    return ACTIVE


def stop() -> TraceRecorder | None:
    """Stop recording; writes the trace when the recorder has a path."""
    global ACTIVE
    recorder, ACTIVE = ACTIVE, None
    if recorder is not None:
        for listener in LISTENERS:
            listener(-1)
        if recorder.path is not None:
            recorder.write()
    return recorder


def start_from_env() -> TraceRecorder | None:
    """`MINIXLA_TRACE=path`: the tools trace their run into `path` (written at exit)."""
    import atexit

    path = os.environ.get("MINIXLA_TRACE")
    if not path or ACTIVE is not None:
        return None
    recorder = start(path)
    atexit.register(lambda: stop() if ACTIVE is recorder else None)
    return recorder


def traced_pipeline_callback(callback: Callable | None, cat: str = "pass") -> Callable:
    """Wrap a PassPipeline callback so each pass becomes one span (the
    callback's own work, e.g. verification, stays outside the pass's span)."""
    started: list[float] = []

    def step(prev, module, nxt) -> None:
        recorder = ACTIVE
        if recorder is not None and prev is not None and started:
            recorder.complete(prev.name, cat, started.pop(), TraceRecorder.now_us())
        if callback is not None:
            callback(prev, module, nxt)
        if ACTIVE is not None and nxt is not None:
            started[:] = [TraceRecorder.now_us()]

    return step
