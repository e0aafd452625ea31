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
- ... and once per installation: the code objects are kept, like a module's bytecode, in
  `__pycache__/dataclass_code.<tag>.bin` beside this file (marshal, keyed by the exact text, so a
  changed class only adds entries), read on the first miss and rewritten at exit when a process
  compiled new texts (not under `PYTHONDONTWRITEBYTECODE`). The ~670 unique texts of importing the
  frontend took ~36 ms to compile, ~5 ms more in a first compile; reading them back takes 2-3 ms.

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


#: the stored code objects: read on the first miss (None: not yet); `_new` counts texts compiled since
_stored: dict | None = None
_new = 0
#: entries beyond which the file is not rewritten (a process defining endless distinct dataclasses)
MAX_STORED = 20_000


def _store_path() -> str:
    import os

    tag = f"{sys.implementation.cache_tag}-O{sys.flags.optimize}"  # compile() follows the -O level
    here = os.path.dirname(os.path.abspath(__file__))
    # where this module's own bytecode goes (PYTHONPYCACHEPREFIX mirrors the source tree)
    folder = os.path.join(sys.pycache_prefix, here.lstrip(os.sep)) if sys.pycache_prefix else \
        os.path.join(here, "__pycache__")
    return os.path.join(folder, f"dataclass_code.{tag}.bin")


def _header() -> bytes:
    import _frozen_importlib_external

    return b"minixla-dataclass-code\n" + _frozen_importlib_external.MAGIC_NUMBER


def _load_stored() -> dict:
    """The stored text -> code table, or {} when there is none or it cannot be read (then it is rewritten)."""
    import marshal

    try:
        with open(_store_path(), "rb") as fh:
            data = fh.read()
        header = _header()
        if data.startswith(header):
            table = marshal.loads(data[len(header):])
            if type(table) is dict:
                return table
    except (OSError, ValueError, EOFError, TypeError):
        pass
    return {}


def _save_stored() -> None:
    """At exit: the table with this process's new texts, written to a temporary file and renamed (another
    process writing at the same time leaves one whole file or the other)."""
    global _new
    import marshal
    import os

    if not _new or sys.dont_write_bytecode or len(_codes) > MAX_STORED:
        return
    table = {**_load_stored(), **{text: code for text, code in _codes.items() if type(text) is str}}
    if len(table) > MAX_STORED:
        return
    path = _store_path()
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(_header() + marshal.dumps(table))
        os.replace(tmp, path)
        _new = 0
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _compiled(source: str):
    global _stored, _new
    if _stored is None:
        _stored = _load_stored()
        if not sys.dont_write_bytecode:
            import atexit

            atexit.register(_save_stored)
    code = _stored.get(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _new += 1
    _codes[source] = code
    return code


def _cached_exec(source, globals=None, locals=None, /, **kwargs):  # noqa: A002 -- exec's own parameter names
    """`exec`, compiling a source text once per process (for dataclasses' generated methods)."""
    if type(source) is str:
        code = _codes.get(source)
        if code is None:
            code = _compiled(source)
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
