"""`tf.profiler.experimental`: start/stop a Chrome trace of minixla's compile
stages and runtime (passes/trace_events.py) into `<logdir>/minixla.trace.json`,
viewable at ui.perfetto.dev. TF's error types and texts for misuse."""

from __future__ import annotations

import os

from minixla.frontend.errors import AlreadyExistsError, UnavailableError
from minixla.passes import trace_events



TRACE_FILE = "minixla.trace.json"


def start(logdir, options=None) -> None:
    """Start tracing; the trace goes to `<logdir>/minixla.trace.json` at stop()."""
    if trace_events.ACTIVE is not None:
        raise AlreadyExistsError("Another profiler is running.")
    trace_events.start(os.path.join(os.fspath(logdir), TRACE_FILE))


def stop(save: bool = True) -> None:
    """Stop tracing and write the trace (unless `save=False`)."""
    if trace_events.ACTIVE is None:
        raise UnavailableError("Cannot export profiling results. No profiler is running.")
    recorder = trace_events.ACTIVE
    if not save:
        recorder.path = None
    trace_events.stop()


class Trace:
    """`with tf.profiler.experimental.Trace("train", step_num=3):` a user span."""

    def __init__(self, name: str, **kwargs):
        self._span = trace_events.span(name, "user", **kwargs)

    def __enter__(self):
        self._span.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._span.__exit__(*exc)
