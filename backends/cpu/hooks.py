"""Context variables through which a caller steers a CPU compile (kept apart from compiler.py so
that reading them costs no import of the pass pipeline)."""

from __future__ import annotations

import os
from collections.abc import Callable
from contextvars import ContextVar

from xdsl.dialects.builtin import ModuleOp

#: `after(pass_name, module)` called after every pass of `lower` while set (frontend's --xla_dump_to);
#: unset by default, so normal compiles pay one lookup per `lower` call
AFTER_PASS: ContextVar[Callable[[str, ModuleOp], None] | None] = ContextVar("AFTER_PASS", default=None)


def direct_llvm_enabled() -> bool:
    """Whether the JIT emits LLVM IR directly from the loop level (default) or runs the llvm-dialect
    lowering (`MINIXLA_DIRECT_LLVM=0`); here so that asking (the disk cache's key does) imports no emitter."""
    return os.environ.get("MINIXLA_DIRECT_LLVM", "1").strip().lower() not in ("0", "off", "false", "no")
