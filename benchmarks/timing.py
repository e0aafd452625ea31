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


#: numpy's OpenBLAS keeps its worker threads busy-waiting (a nop loop, a whole core each) for 2^28 TSC
#: cycles after every threaded call (~0.12 s at 2.2 GHz; OPENBLAS_THREAD_TIMEOUT, read when numpy
#: loads). A runner timed right after a numpy product (a reference check) shares the cores with them:
#: the 1024^3 minixla row read 190-200 GFLOP/s instead of 330-360 that way (its 6 ms calls all fell in
#: the window; 2048^3's later calls did not), and TF-XLA's 160 instead of 290.
BLAS_SPIN_S = 0.3


def settle() -> None:
    """Wait until numpy's OpenBLAS workers are parked (call it between a numpy product and a timing)."""
    time.sleep(BLAS_SPIN_S)
