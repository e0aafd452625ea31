"""Peak memory of one running-example call, measured in a fresh process.

    python -m benchmarks.memprobe {numpy,minixla} N

Prints one JSON line: `baseline` (resident MiB after imports and, for
minixla, after compiling at this shape, before the inputs exist), `peak`
(high-water resident MiB after the call) and `inputs` (MiB of x and y). A separate
process because ru_maxrss only ever grows: every probe needs its own.
Compiling first (from shape-only zero inputs that are never touched) keeps
xDSL's compile-time memory out of the figure: XLA compiles ahead of time too.
"""

from __future__ import annotations

import json
import os
import resource
import sys

import numpy as np


def rss_mib() -> float:
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def reset_peak() -> None:
    """Reset VmHWM to the current RSS (Linux >= 4.0) so compile-time memory
    does not count as the call's peak."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        pass


def peak_mib() -> float:
    """VmHWM: the high-water resident set of this address space. ru_maxrss
    survives exec, so in a child of a big parent it reports the parent's
    size at fork; it is the fallback where /proc is missing."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def main(kind: str, n: int) -> dict:
    if kind == "minixla":
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from minixla.frontend import tf
        from minixla.frontend.compiler import pick_backend

        fn = tf.function(lambda x, y: tf.reduce_mean(tf.multiply(x ** 2, 3) + y), jit_compile=True)
        shape_only = np.lib.stride_tricks.as_strided(np.zeros(1, np.float32), (n, n), (0, 0))
        compiled = fn.get_concrete_function(shape_only, shape_only).lower()
        pick_backend(compiled)

        def run(x, y):
            return float(fn(x, y))
    else:
        def run(x, y):
            return float(np.mean(x ** 2 * 3 + y))

    reset_peak()
    baseline = rss_mib()
    rng = np.random.default_rng(0)
    x = rng.random((n, n), dtype=np.float32)
    y = rng.random((n, n), dtype=np.float32)
    value = run(x, y)
    return {"kind": kind, "n": n, "baseline": baseline, "peak": peak_mib(), "ru_maxrss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "inputs": (x.nbytes + y.nbytes) / 2**20, "value": value}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]))))
