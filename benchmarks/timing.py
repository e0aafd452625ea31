"""Timing helper the benchmark scripts share (run them with PYTHONPATH=. from the repository root)."""

from __future__ import annotations

import time


def best_time(fn, calls: int) -> float:
    """The fastest of `calls` calls of `fn`, in seconds."""
    best = float("inf")
    for _ in range(calls):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
