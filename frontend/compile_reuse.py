"""Persistent reuse of whole jit compiles, keyed before `hlo-optimize`.

The CPU backend's disk cache keys a compile by the *optimized* hlo module, so
a new process still runs `hlo-optimize` (and imports every pass module) before
it can look anything up: ~0.2 s of a warm first call. Here the key is the
legalized hlo module as the frontend produced it, plus everything that decides
what becomes of it: the compiler's sources and versions
(`compile_cache.sources_fingerprint`), the optimize pipeline and the
`MINIXLA_*` / `XLA_FLAGS` settings that steer compilation; not the entry
function's name, which carries a trace counter. The backend stores
its result under this key as well as its own (`CpuBackend.compile(...,
reuse_key=)`), and `load` asks it back (`CpuBackend.load_reusable`). Only the
`cpu` backend offers this; dumps (`--xla_dump_to`) always compile.
"""

from __future__ import annotations

import hashlib
import os
import re
from io import StringIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

#: settings that do not change what a compile produces
_NEUTRAL_SETTINGS = frozenset({"MINIXLA_CACHE_DIR", "MINIXLA_CACHE_MAX_BYTES", "MINIXLA_LOG_COMPILE",
                               "MINIXLA_TRACE", "MINIXLA_JIT_CACHE_ENTRIES", "MINIXLA_DISABLE_CACHE"})


def _settings() -> str:
    return "\0".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                     if (k.startswith("MINIXLA_") and k not in _NEUTRAL_SETTINGS) or k == "XLA_FLAGS")


def _cpu_first() -> bool:
    forced = os.environ.get("MINIXLA_TF_BACKEND")
    return forced in (None, "", "cpu")


def reuse_key(module: ModuleOp, optimize_pipeline: str) -> str | None:
    """The key of `module`'s whole compile, or None when the disk cache is off (or cpu is not the backend)."""
    from minixla.backends.cpu.compile_cache import active_cache, sources_fingerprint

    if not _cpu_first() or active_cache() is None:
        return None
    h = hashlib.sha256(sources_fingerprint().encode())
    h.update(f"\0frontend-reuse\0{optimize_pipeline}\0{_settings()}\0".encode())
    text = StringIO()
    Printer(stream=text).print_op(module)
    h.update(_without_entry_name(text.getvalue(), module).encode())
    return h.hexdigest()


def _without_entry_name(text: str, module: ModuleOp) -> str:
    """The printed module with its entry function's name replaced: TF-style names carry a process-wide
    trace counter (`__inference_f_12`), which would make the same program miss after another trace order."""
    from xdsl.dialects import func

    names = [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)]
    if len(names) != 1:
        return text
    name = re.escape(names[0])
    return re.sub(rf'@"{name}"|@{name}(?![\w$.-])', "@__entry", text)


def load(key: str, module: ModuleOp):
    """(executable, backend name) stored under `key`, or None."""
    from minixla.backends.registry import UnknownBackendError, get_backend

    try:  # by name: listing every backend would read the plugins' entry points (importlib.metadata, ~50 ms)
        backend = get_backend("cpu")
    except UnknownBackendError:
        return None
    executable = backend.load_reusable(key, module)
    return None if executable is None else (executable, "cpu")


def compile_on(backend, module: ModuleOp, key: str | None):
    """`backend.compile(module)`, also storing the result under `key` when the backend can."""
    if key is not None and getattr(backend, "load_reusable", None) is not None:
        return backend.compile(module, reuse_key=key)
    return backend.compile(module)
