"""Calling JIT-compiled functions with numpy arrays.

The native ABI (docs/cpu-pipeline.md) is `_mlir_ciface_<f>(void **slots)`:
one data pointer per parameter (inputs, then destination-passing outputs),
then one per scalar result. A ctypes call plus `arr.ctypes.data` per array
costs several microseconds, so each function also gets a native CPython
builtin `_minixla_py_<f>` (METH_FASTCALL, made with `PyCFunction_NewEx`): it
receives the ndarrays themselves, reads their `data` field (right after
`PyObject_HEAD`; checked once against `arr.ctypes.data`, else we fall back
to ctypes with data pointers), releases the GIL around the wrapper call and
returns None. A call then costs about a microsecond, mostly the Python-side
shape/dtype checks and `np.empty` for the outputs. Large outputs reuse
buffers the caller has dropped (`OutputRecycler`).
"""

from __future__ import annotations

import ctypes
import functools
import sys
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    IndexType,
    MemRefType,
)
from xdsl.ir import Attribute

from minixla.dialects.numpy_types import numpy_dtype as element_dtype

if TYPE_CHECKING:
    import llvmlite.ir as ir

    from minixla.backends.cpu.jit import JitModule


PY_PREFIX = "_minixla_py_"
ALIGN = 64
ALIGN_MIN_BYTES = 4096  # smaller outputs: plain np.empty (alignment does not pay)
RECYCLE_MIN_BYTES = 256 * 1024  # larger outputs come from mmap: fresh pages cost 0.3-0.6 s/GiB to fault in
RECYCLE_DEPTH = 2  # a variable's new value is written while its old one is still an input: double-buffer


class ArgumentError(TypeError):
    """An argument does not match the compiled signature (named in the message)."""


def numpy_dtype(t: Attribute) -> np.dtype:
    """The dtype of the arrays passed for element type `t` (the dialect's mapping:
    sub-byte ints and fp8/fp6/fp4 are ml_dtypes types, one byte per element)."""
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    try:
        return element_dtype(t)
    except TypeError:
        raise ArgumentError(f"no numpy dtype for {t}") from None


@dataclass(frozen=True)
class ArgSpec:
    """One slot of the pointer array: an array of fixed shape/dtype/layout."""

    name: str
    shape: tuple[int, ...]
    dtype: np.dtype
    strides: tuple[int, ...]  # bytes, numpy convention
    offset: int  # elements between the base pointer and element 0 (layout offset)

    @staticmethod
    def of(name: str, t: Attribute) -> ArgSpec:
        if isinstance(t, MemRefType):
            dtype = numpy_dtype(t.element_type)
            from minixla.passes.lower_to_llvm.common import static_layout

            strides, offset = static_layout(t)
            return ArgSpec(name, tuple(t.get_shape()), dtype, tuple(s * dtype.itemsize for s in strides), offset)
        return ArgSpec(name, (), numpy_dtype(t), (), 0)

    def describe(self) -> str:
        return f"{self.dtype.name}[{'x'.join(map(str, self.shape))}]"

    @property
    def dense(self) -> bool:
        if 0 in self.shape:  # no element to address: every layout is the identity one
            return True
        return self.offset == 0 and self.strides == _dense_strides(self.shape, self.dtype.itemsize)


def _dense_strides(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    strides, acc = [], itemsize
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(strides))


@dataclass(frozen=True)
class Signature:
    """A public function as the runtime calls it: `inputs` are passed by the
    caller, `outputs` (trailing parameters, then scalar results) allocated."""

    name: str
    inputs: tuple[ArgSpec, ...]
    outputs: tuple[ArgSpec, ...]

    @staticmethod
    def of(fn: func.FuncOp, num_outputs: int | None = None) -> Signature:
        params = list(fn.function_type.inputs.data)
        results = list(fn.function_type.outputs.data)
        if any(isinstance(r, MemRefType) for r in results):
            raise ArgumentError(f"@{fn.sym_name.data} returns a memref; the CPU ABI wants results "
                                "as out-parameters (destination-passing style)")
        if num_outputs is None:
            num_outputs = 0 if results else min(1, len(params))
        n_in = len(params) - num_outputs
        if n_in < 0:
            raise ArgumentError(f"@{fn.sym_name.data} has {len(params)} parameters, fewer than "
                                f"{num_outputs} outputs")
        inputs = tuple(ArgSpec.of(f"arg{i}", t) for i, t in enumerate(params[:n_in]))
        outs = [ArgSpec.of(f"result{j}", t) for j, t in enumerate(params[n_in:])]
        outs += [ArgSpec.of(f"result{len(outs) + j}", t) for j, t in enumerate(results)]
        return Signature(fn.sym_name.data, inputs, tuple(outs))

    @property
    def slots(self) -> tuple[ArgSpec, ...]:
        return self.inputs + self.outputs


@cache
def ndarray_data_offset() -> int | None:
    """Byte offset of `data` in numpy's PyArrayObject, if it is where the
    C headers put it (right after PyObject_HEAD) in this interpreter."""
    offset = ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)
    probe = np.arange(3, dtype=np.float64)[1:]
    ptr = ctypes.c_void_p.from_address(id(probe) + offset).value
    return offset if ptr == probe.ctypes.data else None


def add_python_entry(module: ir.Module, sig: Signature) -> bool:
    """Add `PyObject *_minixla_py_<f>(PyObject *self, PyObject *const *args,
    Py_ssize_t nargs)`, a METH_FASTCALL builtin: it reads each ndarray's data
    pointer into a stack array, releases the GIL around `_mlir_ciface_<f>` and
    returns None. The generated Python caller always passes exactly the
    signature's arrays. False when the ndarray layout check failed. (llvmlite.ir, ~4 ms to import, only
    here: the direct emitter writes its entries as text.)"""
    import llvmlite.ir as ir

    data_offset = ndarray_data_offset()
    if data_offset is None:
        return False
    ptr, i8, i32, i64 = ir.PointerType(), ir.IntType(8), ir.IntType(32), ir.IntType(64)
    n = len(sig.slots)

    def extern(name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
        if name in module.globals:
            return module.globals[name]
        return ir.Function(module, ir.FunctionType(ret, args), name=name)

    save = extern("PyEval_SaveThread", ptr, [])
    restore = extern("PyEval_RestoreThread", ir.VoidType(), [ptr])
    incref = extern("Py_IncRef", ir.VoidType(), [ptr])
    from minixla.passes.lower_to_llvm.func_to_llvm import CIFACE_PREFIX

    target = module.get_global(CIFACE_PREFIX + sig.name)
    fn = ir.Function(module, ir.FunctionType(ptr, [ptr, ptr, i64]), name=PY_PREFIX + sig.name)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    objects = fn.args[1]
    slots = b.alloca(ptr, size=ir.Constant(i64, max(n, 1)))
    for i, spec in enumerate(sig.slots):
        obj = b.load(b.gep(objects, [ir.Constant(i32, i)], inbounds=True, source_etype=ptr), typ=ptr)
        data = b.load(b.gep(obj, [ir.Constant(i32, data_offset)], inbounds=True, source_etype=i8), typ=ptr)
        if spec.offset:
            data = b.gep(data, [ir.Constant(i64, -spec.offset * spec.dtype.itemsize)], source_etype=i8)
        b.store(data, b.gep(slots, [ir.Constant(i32, i)], inbounds=True, source_etype=ptr))
    state = b.call(save, [])
    b.call(target, [slots])
    b.call(restore, [state])
    # None by symbol, not by address: the object code must be the same in every process (disk cache)
    none = module.globals.get("_Py_NoneStruct") or ir.GlobalVariable(module, i8, "_Py_NoneStruct")
    _register_none()
    b.call(incref, [none])
    b.ret(none)
    return True


@functools.cache
def _register_none() -> None:
    """Make `_Py_NoneStruct` resolvable by the JIT even where libpython's symbols are not exported."""
    import llvmlite.binding as llvm

    llvm.add_symbol("_Py_NoneStruct", id(None))


class _PyMethodDef(ctypes.Structure):
    _fields_ = [("ml_name", ctypes.c_char_p), ("ml_meth", ctypes.c_void_p),
                ("ml_flags", ctypes.c_int), ("ml_doc", ctypes.c_char_p)]


METH_FASTCALL = 0x0080


def _builtin_function(name: str, address: int):
    """A Python builtin calling the native METH_FASTCALL function at `address`
    (the method table must outlive it: it is returned too)."""
    new = ctypes.pythonapi.PyCFunction_NewEx
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.POINTER(_PyMethodDef), ctypes.py_object, ctypes.py_object]
    table = _PyMethodDef(name.encode(), address, METH_FASTCALL, None)
    return new(ctypes.byref(table), None, None), table


def canonical_dtype(spec: ArgSpec) -> np.dtype:
    """numpy's registered dtype object for the spec's type: an array made with an equal copy (a
    signature unpickled from the disk cache holds copies) keeps that copy, so passing it back in
    failed the call path's identity test and went through `_coerce` (~1-3 us per argument: a
    training step's 13 variable arrays, every call)."""
    return np.dtype(spec.dtype.type)


def allocator(spec: ArgSpec):
    """A no-argument function returning a new array for this output: plain `np.empty` below
    `ALIGN_MIN_BYTES`, else 64-byte aligned. Sizes are worked out once, not per call."""
    dtype, shape = canonical_dtype(spec), spec.shape
    nbytes = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
    if nbytes < ALIGN_MIN_BYTES:
        return functools.partial(np.empty, shape, dtype)

    def aligned_empty() -> np.ndarray:
        raw = np.empty(nbytes + ALIGN, np.uint8)
        start = -raw.__array_interface__["data"][0] % ALIGN
        return raw[start:start + nbytes].view(dtype).reshape(shape)
    return aligned_empty


class OutputRecycler:
    """Buffer reuse for one large output slot (our form of XLA's buffer donation).

    Keeps the last `RECYCLE_DEPTH` arrays this slot returned; a call takes back
    one that nobody else holds any more (its reference count shows only this
    pool), else allocates. A training step's updated variables then alternate
    between two buffers instead of faulting in fresh memory every step: the
    old value is still the step's input while the new one is written, so this
    is double buffering, not in-place aliasing. An array the caller still holds
    (directly, through a view or a tensor) has a higher count and is never
    reused, so results already handed out never change."""

    __slots__ = ("spec", "pool", "reused", "alloc")

    def __init__(self, spec: ArgSpec):
        self.spec = spec
        self.pool: list[np.ndarray] = []
        self.reused = 0
        self.alloc = allocator(spec)

    def take(self) -> np.ndarray:
        pool = self.pool
        for k in range(len(pool)):  # not enumerate: its cached result tuple holds one more reference
            old = pool[k]
            # references: the pool's slot, `old`, and getrefcount's own argument; a caller's view of
            # the array has the memory's owner (`old.base`, numpy collapses view chains) as its
            # base, so the owner must be held by `old` alone (plus getrefcount's argument)
            if sys.getrefcount(old) == 3 and (old.base is None or sys.getrefcount(old.base) == 2):
                del pool[k]
                pool.append(old)
                self.reused += 1
                return old
        fresh = self.alloc()
        pool.append(fresh)
        if len(pool) > RECYCLE_DEPTH:
            del pool[0]
        return fresh


class CompiledFunction:
    """`f(*inputs) -> tuple(outputs)` calling native code once per call.

    The call path is generated per signature (unrolled checks, no loops):
    a matching ndarray costs one identity/shape/strides test; anything else
    goes through `_coerce`, which converts, copies to the layout, or raises
    an `ArgumentError` naming the argument."""

    def __init__(self, owner, sig: Signature, address: int, by_object: bool):
        self.owner = owner  # keeps the JIT engine alive
        self.signature = sig
        self.name = sig.name.removeprefix("__mx_")  # the JIT's symbol prefix (compiler.py)
        if by_object:
            self._entry, self._method_table = _builtin_function(PY_PREFIX + self.name, address)
        else:
            self._entry = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)
        self.recyclers: list[OutputRecycler] = []
        self._call = self._generate(by_object)

    def __repr__(self) -> str:
        ins = ", ".join(s.describe() for s in self.signature.inputs)
        outs = ", ".join(s.describe() for s in self.signature.outputs)
        return f"<CompiledFunction {self.name}({ins}) -> ({outs})>"

    def __call__(self, *args) -> tuple[np.ndarray, ...]:
        return self._call(*args)

    def _generate(self, by_object: bool):
        sig = self.signature
        env: dict = {"ndarray": np.ndarray, "entry": self._entry, "coerce": self._coerce,
                     "slots_of": self._slot_values,
                     "ArgumentError": ArgumentError, "ctypes": ctypes}
        ins = [f"a{i}" for i in range(len(sig.inputs))]
        outs = [f"o{j}" for j in range(len(sig.outputs))]
        lines = [f"def call({', '.join(ins)}{', ' if ins else ''}*extra):",
                 f"    if extra: raise ArgumentError('@{self.name} takes {len(ins)} arguments, got ' "
                 f"+ str({len(ins)} + len(extra)))"]
        for i, spec in enumerate(sig.inputs):
            # the registered dtype object (outputs are made with it too, so they pass when fed back in)
            env[f"dt{i}"], env[f"sh{i}"], env[f"st{i}"] = canonical_dtype(spec), spec.shape, spec.strides
            lines.append(f"    if a{i}.__class__ is not ndarray or a{i}.dtype is not dt{i} or "
                         f"a{i}.shape != sh{i} or a{i}.strides != st{i}: a{i} = coerce({i}, a{i})")
        for j, spec in enumerate(sig.outputs):
            if not spec.dense:
                raise ArgumentError(f"output '{spec.name}' of @{self.name} has a non-identity layout")
            nbytes = spec.dtype.itemsize * int(np.prod(spec.shape, dtype=np.int64))
            if nbytes >= RECYCLE_MIN_BYTES:
                recycler = OutputRecycler(spec)
                self.recyclers.append(recycler)
                env[f"take{j}"] = recycler.take
            else:
                env[f"take{j}"] = allocator(spec)
            lines.append(f"    o{j} = take{j}()")
        everything = ins + outs
        if by_object:
            lines.append(f"    entry({', '.join(everything)})")
        else:
            lines.append(f"    buf = (ctypes.c_void_p * {max(len(everything), 1)})(*slots_of(({', '.join(everything)},)))")
            lines.append("    entry(ctypes.addressof(buf))")
        lines.append(f"    return ({''.join(o + ', ' for o in outs)})")
        exec(compile("\n".join(lines), f"<minixla call {self.name}>", "exec"), env)
        return env["call"]

    def _slot_values(self, arrays) -> list[int]:
        return [a.ctypes.data - spec.offset * spec.dtype.itemsize
                for a, spec in zip(arrays, self.signature.slots)]

    def _coerce(self, i: int, a) -> np.ndarray:
        spec = self.signature.inputs[i]
        where = f"argument {i} ('{spec.name}') of @{self.name}"
        if not isinstance(a, np.ndarray):
            if spec.shape == () and np.isscalar(a):
                return np.asarray(a, dtype=spec.dtype)
            a = np.asarray(a)
        if a.dtype != spec.dtype:
            raise ArgumentError(f"{where}: expected dtype {spec.dtype.name}, got {a.dtype.name}")
        if a.shape != spec.shape:
            raise ArgumentError(f"{where}: expected shape {spec.shape}, got {a.shape}")
        if spec.dense:
            return np.ascontiguousarray(a)
        if all(s == t or d == 1 for s, t, d in zip(a.strides, spec.strides, spec.shape)) and a.flags.aligned:
            return a
        raise ArgumentError(f"{where}: needs strides {spec.strides} (bytes) for its layout, got {a.strides}")


class CompiledModule:
    """Native functions of one module; holds the JIT engine alive."""

    def __init__(self, jit: JitModule, signatures: dict[str, Signature], by_object: bool):
        self.jit = jit
        self.llvm_ir = jit.llvm_ir
        self.signatures, self.by_object = signatures, by_object
        self.functions: dict[str, CompiledFunction] = {}
        for name, sig in signatures.items():
            entry = PY_PREFIX + name if by_object else "_mlir_ciface_" + name
            self.functions[name.removeprefix(SYMBOL_PREFIX)] = CompiledFunction(
                self, sig, jit.address(entry), by_object)

    def __getitem__(self, name: str) -> CompiledFunction:
        try:
            return self.functions[name]
        except KeyError:
            raise KeyError(f"no public function @{name}; have {sorted(self.functions)}") from None


#: prefix of every symbol the JIT defines (compiler.prefix_symbols)
SYMBOL_PREFIX = "__mx_"
