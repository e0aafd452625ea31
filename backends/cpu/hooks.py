"""Context variables through which a caller steers a CPU compile (kept apart from compiler.py so
that reading them costs no import of the pass pipeline)."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from xdsl.dialects.builtin import ModuleOp

#: `after(pass_name, module)` called after every pass of `lower` while set (frontend's --xla_dump_to);
#: unset by default, so normal compiles pay one lookup per `lower` call
AFTER_PASS: ContextVar[Callable[[str, ModuleOp], None] | None] = ContextVar("AFTER_PASS", default=None)
