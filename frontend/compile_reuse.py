"""Persistent reuse of whole jit compiles, keyed before legalization.

The CPU backend's disk cache keys a compile by the *optimized* hlo module, so
a new process would still legalize, print and `hlo-optimize` a module (and
import every pass) before it could look anything up. Two keys come earlier:

1. `graph_key`: the traced `tf` module itself (every op, operand, attribute,
   constant's bytes and type; the value-specialized arguments' bytes), the
   sources of the layers that legalize and compile it (frontend, dialects,
   passes, backends: `compile_cache.tree_fingerprint`) and versions, the
   optimize pipeline and the `MINIXLA_*` / `XLA_FLAGS` settings that steer
   compilation. A hit skips `tf-legalize-to-hlo` and all printing. Its entry
   only names the second key's (`remember`).
2. `reuse_key`: the legalized hlo module as printed, with the compiler's
   sources and settings: two traces that legalize alike (an op built another
   way) still share one compile.

Neither holds the entry function's name (it carries a trace counter); the
graph key names the module's branch and body functions (tf.cond, while_loop:
named by a process-wide counter) by their order in the module. The
backend stores its result under the second key as well as its own
(`CpuBackend.compile(..., reuse_key=)`), and `load` asks it back
(`CpuBackend.load_reusable`). Only the `cpu` backend offers this; dumps
(`--xla_dump_to`) always compile.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation

from minixla.passes.trace_events import span

from minixla.backends.ir_digest import IRDigest, module_digest

#: what a level-1 entry holds before the level-2 key it names
_POINTER = b"minixla-reuse:"
#: this layer's sources (legalization rules live here)
_FRONTEND = Path(__file__).resolve().parent
#: how ops/xla_ops.py writes a region body it keeps in its process-wide table
_BODY_TOKEN = "'__body__'"

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
    from minixla.backends.cpu.compile_cache import active_cache, printed, sources_fingerprint

    if not _cpu_first() or active_cache() is None:
        return None
    h = hashlib.sha256(sources_fingerprint().encode())
    h.update(f"\0frontend-reuse\0{optimize_pipeline}\0{_settings()}\0".encode())
    # TF-style entry names carry a process-wide trace counter (`__inference_f_12`), which would make the
    # same program miss after another trace order: the entry hashes as a stand-in
    names = [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)]
    structural = h.copy()
    if module_digest(module, structural, {names[0]: "#entry"} if len(names) == 1 else None):
        return structural.hexdigest()
    h.update(b"\0printed\0" + _without_entry_name(printed(module), module).encode())
    return h.hexdigest()


def _without_entry_name(text: str, module: ModuleOp) -> str:
    """The printed module with its single entry function's name replaced by a stand-in."""
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


# -- level 1: the traced graph ------------------------------------------------------------------------


def _frontend_fingerprint() -> str:
    """The compiler's sources and versions, with the frontend's (legalization rules live there)."""
    from minixla.backends.cpu.compile_cache import sources_fingerprint, tree_fingerprint

    return sources_fingerprint() + tree_fingerprint((_FRONTEND,))


def graph_key(module: ModuleOp, const_values: dict[int, np.ndarray], optimize_pipeline: str) -> str | None:
    """The key of compiling traced `tf` module `module` with arguments `const_values` baked in, or None
    (cache off, cpu not first, an op whose legalization rule is not minixla's own: its source is not
    fingerprinted)."""
    from minixla.passes.gc_pause import importing

    with importing():  # the first one imports the CPU backend's runtime (llvmlite.ir)
        from minixla.backends.cpu.compile_cache import active_cache

    if not _cpu_first() or active_cache() is None:
        return None
    with span("compiler-fingerprint", "compile"):  # the first one imports llvmlite (the host CPU's name)
        fingerprint = _frontend_fingerprint()
    h = hashlib.sha256(fingerprint.encode())
    h.update(f"\0frontend-graph\0{optimize_pipeline}\0{_settings()}\0".encode())
    for index in sorted(const_values):
        value = np.ascontiguousarray(const_values[index])
        h.update(f"\0const {index} {value.dtype.str} {value.dtype.name} {value.shape}\0".encode())
        h.update(value.tobytes() if value.dtype != np.dtype(object) else repr(value.tolist()).encode())
    digest = _GraphDigest(h)
    if not digest.module(module) or digest.process_local:
        return None
    return h.hexdigest()


class _GraphDigest(IRDigest):
    """`IRDigest` of a traced `tf` module: no key for an op whose legalization rule is not minixla's, nor
    for a region body kept in this process's table; the entry's name and the other functions' (control-flow
    branches and bodies: named by a process-wide counter, control_flow.py) hash as stand-ins by their order,
    so the same program traced after other programs, or in another process, gets the same key."""

    def __init__(self, h):
        super().__init__(h)
        self.rules_checked: set[str] = set()
        #: an attribute names a Python object of this process (an `XlaHlo` region body kept under a
        #: counter token, ops/xla_ops.py): the same text may mean another body in another process
        self.process_local = False

    def module(self, module: ModuleOp) -> bool:
        for k, op in enumerate(module.ops):
            if isinstance(op, func.FuncOp):
                self.renamed[op.sym_name.data] = f"#function{k}"
        return all(self.feed(op) for op in module.ops)

    def feed(self, op: Operation) -> bool:
        name = op.name
        if name.startswith("tf.") and name not in self.rules_checked:
            if not _own_rule(name[3:]):
                return False
            self.rules_checked.add(name)
        return super().feed(op)

    def attr_text(self, a: Attribute) -> str:
        if isinstance(a, StringAttr) and _BODY_TOKEN in a.data:
            self.process_local = True
        return super().attr_text(a)


def _own_rule(op_name: str) -> bool:
    """Whether op `op_name`'s legalization rule is minixla's (its sources are fingerprinted)."""
    from minixla.frontend.ops.registry import REGISTRY

    opdef = REGISTRY.get(op_name)
    rule = getattr(opdef, "rule", None)
    while isinstance(rule, functools.partial):
        rule = rule.func
    return getattr(rule, "__module__", "").startswith("minixla.")


def load_by_graph(key: str, module: ModuleOp, const_values: dict[int, np.ndarray]):
    """(executable, backend name, level-2 key) stored for graph key `key`, or None."""
    from minixla.backends.cpu.compile_cache import active_cache
    from minixla.backends.registry import UnknownBackendError, get_backend

    disk = active_cache()
    payload = disk.get(key) if disk is not None else None
    if payload is None or not payload.startswith(_POINTER):
        return None
    reuse = payload[len(_POINTER):].decode("ascii", "replace")
    entry = next((op for op in module.ops if isinstance(op, func.FuncOp)), None)
    if entry is None:
        return None
    # legalization keeps the signature (it checks each op's types), less the arguments baked in
    ftype = entry.function_type
    inputs = [t for i, t in enumerate(ftype.inputs.data) if i not in const_values]
    try:
        backend = get_backend("cpu")
    except UnknownBackendError:
        return None
    executable = backend.load_stored(reuse, entry.sym_name.data,
                                     FunctionType.from_lists(inputs, list(ftype.outputs.data)))
    return None if executable is None else (executable, "cpu", reuse)


def remember(key: str | None, reuse: str | None) -> None:
    """Make graph key `key` name level-2 key `reuse` (whose entry the backend stores)."""
    from minixla.backends.cpu.compile_cache import active_cache

    disk = active_cache()
    if key is not None and reuse is not None and disk is not None:
        disk.put(key, _POINTER + reuse.encode())
