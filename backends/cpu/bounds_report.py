"""The run-time half of `MINIXLA_CHECK_BOUNDS=1` (passes/bounds_checks.py): before each call the
"first violation" global is reset; after it, a recorded violation becomes a `BoundsError`
naming the access (op, memref type, function), the dimension and the index."""

from __future__ import annotations

import ctypes

from minixla.passes.bounds_symbols import DIM, INDEX, SITE, TABLE


class BoundsError(RuntimeError):
    """Compiled code indexed outside a buffer (found by the bounds-checking mode)."""


def with_bounds_report(compiled, jit):
    """`compiled` itself when its module has no bounds checks, else a wrapper that reports."""
    engine = jit.engine
    site = engine.get_global_value_address(SITE)
    if not site:
        return compiled
    dim, index = engine.get_global_value_address(DIM), engine.get_global_value_address(INDEX)
    sites = ctypes.string_at(engine.get_global_value_address(TABLE)).decode().split("\n")
    slots = [ctypes.c_int64.from_address(a) for a in (site, dim, index)]

    def call(*args):
        slots[0].value = -1
        out = compiled(*args)
        k = slots[0].value
        if k != -1:
            where = sites[k].replace("@__mx_", "@") if 0 <= k < len(sites) else f"site {k}"
            raise BoundsError(f"out-of-bounds memory access (MINIXLA_CHECK_BOUNDS=1): {where}: index "
                              f"{slots[2].value} in dimension {slots[1].value}")
        return out

    call.compiled = compiled  # type: ignore[attr-defined]
    return call
