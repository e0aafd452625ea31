"""TF's "triggered tf.function retracing" warning, with TF's counting rule.

TF keeps, per Python function, a short history of calls and how many of them
traced; once 5 traces fall within the last 10 calls it logs the warning below
(polymorphic_function.py: `_FrequentTracingDetector`). The logger is named
`tensorflow` and prints `WARNING:tensorflow:...` to the current stderr.
"""

from __future__ import annotations

import logging
import sys

MAX_CALL_HISTORY = 10
THRESHOLD = 5

WARNING = ("{} out of the last {} calls to {} triggered tf.function retracing. Tracing is expensive and the "
           "excessive number of tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) "
           "passing tensors with different shapes, (3) passing Python objects instead of tensors. For (1), please "
           "define your @tf.function outside of the loop. For (2), @tf.function has reduce_retracing=True option "
           "that can avoid unnecessary retracing. For (3), please refer to "
           "https://www.tensorflow.org/guide/function#controlling_retracing and "
           "https://www.tensorflow.org/api_docs/python/tf/function for  more details.")


class _StderrHandler(logging.Handler):
    """Writes to whatever sys.stderr is at emit time (so test capture works)."""

    def emit(self, record: logging.LogRecord) -> None:
        sys.stderr.write(self.format(record) + "\n")


logger = logging.getLogger("tensorflow")
if not logger.handlers:
    _h = _StderrHandler()
    _h.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    logger.addHandler(_h)
    logger.propagate = False
    logger.setLevel(logging.INFO)


class _CallCounter:
    def __init__(self) -> None:
        self.calls_per_tracings: list[int] = []
        self.call_count = 0

    def called_with_tracing(self) -> None:
        self.call_count += 1
        self.calls_per_tracings.append(1)
        while self.calls_per_tracings:
            if self.call_count - self.calls_per_tracings[0] > MAX_CALL_HISTORY:
                self.call_count -= self.calls_per_tracings.pop(0)
            else:
                break

    def called_without_tracing(self) -> None:
        if not self.calls_per_tracings:
            self.calls_per_tracings = [0]
        self.calls_per_tracings[-1] += 1
        self.call_count += 1

    @property
    def tracing_count(self) -> int:
        return len(self.calls_per_tracings)


_COUNTERS: dict[int, _CallCounter] = {}


def counter_for(python_function) -> _CallCounter:
    """The call history shared by every tf.function of this Python function."""
    return _COUNTERS.setdefault(id(getattr(python_function, "__code__", python_function)), _CallCounter())


def called_with_tracing(python_function) -> None:
    counter = counter_for(python_function)
    counter.called_with_tracing()
    if counter.tracing_count >= THRESHOLD:
        logger.warning(WARNING.format(counter.tracing_count, counter.call_count, python_function))


def called_without_tracing(python_function) -> None:
    counter_for(python_function).called_without_tracing()
