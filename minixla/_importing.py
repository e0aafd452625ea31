"""`importing()`: the context in which minixla imports its own modules (the frontend, a backend, a
pass's module, the CPU pipeline's modules), made cheaper in two ways that change nothing imported.

- No garbage collection inside. An import makes long-lived objects only (classes, functions, op
  definitions), yet importing the frontend ran ~170 collections (one of them full) that freed nothing,
  ~10% of the import. Afterwards, what the import made joins the oldest generation without a scan
  (`gc.freeze()` + `gc.unfreeze()`): a young collection would otherwise traverse all of it once more.
  Only after an import that added modules (a lookup of a pass already imported moves nothing), and
  inside `passes.gc_pause.frozen_heap` only frozen (its end unfreezes everything).
- Dataclass methods compiled once per source text. `dataclasses` builds each class's `__init__`,
  `__repr__`, `__eq__`, ... by `exec` of generated source: ~1,200 compiles (~90 ms of wall time on a
  loaded machine) when the frontend imports, half of them of a text already compiled for another class
  (xDSL's attribute and op classes share field names). Inside, the `dataclasses` module's `exec`
  compiles each text once (same filename, no inherited `__future__` flags: what `exec` of the text
  does there) and runs the code object; the builtin is back afterwards.

This module sits at the import root, not in a layer, so that the frontend can enter it before its first
heavy import (importing `minixla.passes` first would build xDSL's core outside it).
"""

from __future__ import annotations

import _thread
import builtins
import gc
import sys
from contextlib import contextmanager

#: `passes.gc_pause.frozen_heap`'s nesting depth (kept here: `importing` reads it, and gc.get_freeze_count()
#: walks every frozen object)
frozen_depth = 0
_depth = 0
_lock = _thread.allocate_lock()  # (not threading: importing it first ran collections of its own)
_codes: dict[str, object] = {}
_exec = builtins.exec


def _cached_exec(source, globals=None, locals=None, /, **kwargs):  # noqa: A002 -- exec's own parameter names
    """`exec`, compiling a source text once per process (for dataclasses' generated methods)."""
    if type(source) is str:
        code = _codes.get(source)
        if code is None:
            code = _codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
        source = code
    return _exec(source, globals, locals, **kwargs)


@contextmanager
def importing():
    """Nests, and may be entered from several threads (the collector is re-enabled by the entry that
    disabled it). Only the standard modules a bare interpreter has loaded are imported before the
    pause: importing dataclasses or threading first ran collections of their own."""
    global _depth
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.disable()
    modules = len(sys.modules)
    import dataclasses

    with _lock:
        _depth += 1
        if _depth == 1:
            dataclasses.exec = _cached_exec  # the module's global shadows the builtin
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and dataclasses.__dict__.get("exec") is _cached_exec:
                del dataclasses.exec
        if was_enabled:
            if len(sys.modules) != modules:
                gc.freeze()
                if not frozen_depth:
                    gc.unfreeze()
            gc.enable()
