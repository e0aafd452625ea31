"""Bounds-checking mode for generated CPU code: MINIXLA_CHECK_BOUNDS=1.

Compiled that way (`CpuBackend.compile` reads the variable at compile time),
every memref load and store checks its indices
(`convert-memref-to-llvm{check_bounds=true}`, passes/lower_to_llvm/bounds_checks.py);
an out-of-bounds access is redirected to scratch memory and recorded, and the
call then raises `BoundsError` naming the first violation and the hlo op it
was lowered from: `FILE:LINE:COL: 'hlo.gather' op #3 of @main: out-of-bounds
load from memref<4xf32>: index 5 of dimension 0 is outside [0, 4)`. Ops built
in memory (no source file) are named by position. The disk compile cache is
bypassed (the site table lives with the compiled module). The fuzzer turns it on.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, NameLoc, StringAttr

from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE
from minixla.passes.lower_to_llvm.bounds_checks import RECORD, RECORD_WORDS, sites_of

ENV = "MINIXLA_CHECK_BOUNDS"


def checked(spec: str) -> str:
    """Pipeline `spec` with the memref lowering's bounds checks on."""
    return ",".join("convert-memref-to-llvm{check_bounds=true}" if p == "convert-memref-to-llvm" else p
                    for p in spec.split(","))


CHECKED_LLVM_PIPELINE = checked(LOWER_TO_LLVM_PIPELINE)


class BoundsError(RuntimeError):
    """Generated code accessed memory outside a buffer (found by MINIXLA_CHECK_BOUNDS=1)."""


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


@contextmanager
def checking_bounds(on: bool = True) -> Iterator[None]:
    """Compile with bounds checks (or without, `on=False`) inside the block."""
    saved = os.environ.get(ENV)
    os.environ[ENV] = "1" if on else "0"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = saved


def name_ops(module: ModuleOp) -> None:
    """Wrap each hlo op's location in a NameLoc "'hlo.x' op #k of @f", so a
    violation names its op even when the module was built in memory."""
    for fn in module.ops:
        if not isinstance(fn, func.FuncOp):
            continue
        k = 0
        for op in fn.walk():
            if op.name.startswith(("hlo.", "stablehlo.")):
                if not isinstance(op.location, NameLoc):
                    op.location = NameLoc(StringAttr(f"'{op.name}' op #{k} of @{fn.sym_name.data}"), op.location)
                k += 1


class CheckedFunction:
    """A compiled function whose calls raise BoundsError after an out-of-bounds access."""

    def __init__(self, inner, jit, lowered: ModuleOp):
        self.inner = inner
        self.sites = sites_of(lowered)
        address = jit.engine.get_global_value_address(RECORD) if self.sites else 0
        self.record = (ctypes.c_int64 * RECORD_WORDS).from_address(address) if address else None

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def __call__(self, *args, **kwargs):
        if self.record is not None:
            ctypes.memset(ctypes.addressof(self.record), 0, ctypes.sizeof(self.record))
        results = self.inner(*args, **kwargs)
        if self.record is not None and self.record[0]:
            shape, text = self.sites[self.record[0] - 1]
            indices = list(self.record)[1:1 + len(shape)]
            dim = next((d for d, (i, n) in enumerate(zip(indices, shape)) if not 0 <= i < n), 0)
            raise BoundsError(f"{text}: index {indices[dim]} of dimension {dim} is outside [0, {shape[dim]}) "
                              f"(indices {indices})")
        return results
