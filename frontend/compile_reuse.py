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
import struct
from io import StringIO
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation
from xdsl.printer import Printer

from minixla.passes.trace_events import span

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


class _GraphDigest:
    """Feeds a module's structure into a hash without printing it: ops in order, operands as value
    numbers, attributes as text (memoised per attribute; dense constants by their bytes' hash)."""

    def __init__(self, h):
        self.h = h
        self.values: dict = {}
        self.text: dict[Attribute, str] = {}
        self.rules_checked: set[str] = set()
        #: an attribute names a Python object of this process (an `XlaHlo` region body kept under a
        #: counter token, ops/xla_ops.py): the same text may mean another body in another process
        self.process_local = False
        #: the module's other functions (control-flow branches and bodies) by their order: their names
        #: carry a process-wide counter (control_flow.py), so the same program traced after other
        #: programs, or in another process, must still get the same key
        self.renamed: dict[str, str] = {}

    def module(self, module: ModuleOp) -> bool:
        for k, op in enumerate(module.ops):
            if k and isinstance(op, func.FuncOp):
                self.renamed[op.sym_name.data] = f"__function{k}"
        entry = True
        for op in module.ops:
            if not self.op(op, entry):
                return False
            entry = False
        return True

    def op(self, op: Operation, entry: bool = False) -> bool:
        name = op.name
        if name.startswith("tf.") and name not in self.rules_checked:
            if not _own_rule(name[3:]):
                return False
            self.rules_checked.add(name)
        values = self.values
        try:
            operands = ",".join([str(values[v]) for v in op.operands])
        except KeyError:  # a value defined after its use: no key rather than a wrong one
            return False
        parts = [name, operands]
        for r in op.results:
            values[r] = len(values)
            parts.append(self.attr(r.type))
        for kind, attrs in (("a", op.attributes), ("p", op.properties)):
            for k in sorted(attrs):
                if entry and k == "sym_name":
                    parts.append(f"{kind}:{k}=@__entry")
                else:
                    parts.append(f"{kind}:{k}={self.attr(attrs[k])}")
        if op.successors:
            return False
        self.h.update(("\0".join(parts) + "\n").encode())
        for region in op.regions:
            self.h.update(b"{")
            for block in region.blocks:
                if not self.block(block):
                    return False
            self.h.update(b"}")
        return True

    def block(self, block: Block) -> bool:
        values = self.values
        parts = ["^"]
        for a in block.args:
            values[a] = len(values)
            parts.append(self.attr(a.type))
        self.h.update(("\0".join(parts) + "\n").encode())
        return all(self.op(op) for op in block.ops)

    def attr(self, a: Attribute) -> str:
        text = self.text.get(a)
        if text is None:
            text = self.text[a] = self._attr_text(a)
        return text

    def _attr_text(self, a: Attribute) -> str:
        if isinstance(a, TensorType):
            return f"tensor{tuple(a.get_shape())}{self.attr(a.element_type)}{self.attr(a.encoding)}"
        if isinstance(a, StringAttr):
            if _BODY_TOKEN in a.data:
                self.process_local = True
            return "s" + repr(self.renamed.get(a.data, a.data))
        if isinstance(a, SymbolRefAttr) and not a.nested_references.data:
            return "@" + repr(self.renamed.get(a.root_reference.data, a.root_reference.data))
        if isinstance(a, IntegerAttr):
            return f"i{a.value.data}:{self.attr(a.type)}"
        if isinstance(a, FloatAttr):  # by its bits: NaN payloads and -0.0 differ
            return f"f{struct.pack('<d', a.value.data).hex()}:{self.attr(a.type)}"
        if isinstance(a, FunctionType):
            return ("(" + ",".join(self.attr(t) for t in a.inputs.data) + ")->("
                    + ",".join(self.attr(t) for t in a.outputs.data) + ")")
        if isinstance(a, ArrayAttr):
            return "[" + ",".join(self.attr(x) for x in a.data) + "]"
        if isinstance(a, DenseIntOrFPElementsAttr):
            return f"dense:{self.attr(a.type)}:{hashlib.sha256(a.data.data).hexdigest()}"
        return f"{type(a).__name__}:{a}"  # rare ones: printed (names the class, as printing may not)


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
