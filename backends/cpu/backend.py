"""The `cpu` backend object: `CpuBackend().compile(module, entry)(*arrays)`.

An hlo module goes through `blas.cpu_pipeline()` (`passes.pipelines.hlo_to_cpu`, with BLAS when available;
the upper pipeline belongs to another part of the project) and then through
our llvm lowering if that pipeline stops short of it. A module that is
already at the memref/scf level compiles directly. The entry's outputs are
the trailing parameters that destination-passing bufferization added: as many
as the hlo function has results. With the disk cache on, a module compiled
before (same printed IR, entry, pipelines, compiler sources) skips the
Python passes: its LLVM IR and signatures come from the cache
(compile_cache.py), and its object code too.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType

from minixla.passes.trace_events import span

from minixla.backends.cpu.compile_cache import (
    active_cache,
    load_lowered,
    module_key,
    store_lowered,
    store_lowered_parts,
)
from minixla.backends.cpu.hooks import AFTER_PASS
from minixla.backends.cpu.jit import jit_compile
from minixla.backends.cpu.runtime import SYMBOL_PREFIX, CompiledFunction, CompiledModule

# The pass pipeline (compiler.py, collectives.py) is imported on the first real compile only: a
# process whose compiles all come from the disk cache never pays for importing it (~0.1 s).

_HIGH_LEVEL = ("hlo.", "stablehlo.", "tensor.", "linalg.", "bufferization.")


def _entry_name(module: ModuleOp, entry: str | None) -> str:
    if entry is not None:
        return entry
    names = [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks
             and (op.sym_visibility is None or op.sym_visibility.data == "public")]
    if "main" in names:
        return "main"
    if len(names) == 1:
        return names[0]
    raise ValueError(f"cannot choose an entry function among {names}; pass entry=")


def _hlo_to_cpu_pipeline() -> str:
    from minixla.passes.gc_pause import importing

    with importing():
        from minixla.backends.cpu.blas import cpu_pipeline

    return cpu_pipeline()


from minixla.backends.cpu.bounds_report import with_bounds_report  # noqa: E402


class CpuBackend:
    """JIT compilation for the host CPU through LLVM (llvmlite)."""

    name = "cpu"

    def __init__(self, opt_level: int = 3):
        self.opt_level = opt_level

    def load_reusable(self, reuse_key: str, module: ModuleOp, entry: str | None = None):
        """The function an earlier `compile(..., reuse_key=reuse_key)` stored on disk, or None. The
        frontend keys by its module before `hlo-optimize`, so a hit skips that too (`module` is only
        read for the entry's signature)."""
        name = _entry_name(module, entry)
        fn = next((op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name), None)
        return None if fn is None else self.load_stored(reuse_key, name, fn.function_type)

    def load_stored(self, reuse_key: str, name: str, hlo_type: FunctionType):
        """`load_reusable` given the entry's name and hlo signature (no module needed)."""
        disk = active_cache() if AFTER_PASS.get() is None else None
        if disk is None:
            return None
        with span("compile-cache-lookup", "compile"):
            stored = load_lowered(disk, reuse_key)
        return None if stored is None else _from_stored(stored, name, hlo_type, self.opt_level)

    def compile(self, module: ModuleOp, entry: str | None = None, reuse_key: str | None = None) -> CompiledFunction:
        """With `reuse_key` (and the disk cache on), the result is also stored under that key for
        `load_reusable`."""
        from minixla.passes.gc_pause import importing

        with importing():  # the pass pipeline's modules, on the first compile (no collections inside)
            from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE

            from minixla.backends.cpu.collective_ops import has_collectives
            from minixla.backends.cpu.compiler import (compile_lowered, direct_llvm, import_compile_modules,
                                                       likely_helpers, lower, prefetch_runtime, prefix_symbols)

        module = module.clone()
        name = _entry_name(module, entry)
        fn = next((op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name), None)
        if fn is None:
            raise ValueError(f"no function @{name} in the module")
        if has_collectives(module):  # native segments with MPI collectives between them
            from minixla.backends.cpu.collectives import compile_with_collectives

            return compile_with_collectives(self.compile, module, name)
        # hlo ops, or tensors in a signature (a function that only returns its arguments has no ops)
        high_level = any(op.name.startswith(_HIGH_LEVEL) for op in module.walk()) or any(
            isinstance(t, TensorType) for f in module.ops if isinstance(f, func.FuncOp)
            for t in (*f.function_type.inputs.data, *f.function_type.outputs.data))
        hlo_type = fn.function_type
        # per-pass dumps (--xla_dump_to) need the passes to run
        disk = active_cache() if AFTER_PASS.get() is None else None
        key = None
        if disk is not None:
            pipelines = (_hlo_to_cpu_pipeline() if high_level else "") + "|" + LOWER_TO_LLVM_PIPELINE \
                + ("|direct" if direct_llvm() else "")
            with span("compile-cache-lookup", "compile"):
                key = module_key(module, name, self.opt_level, pipelines)
                stored = load_lowered(disk, key)
            if stored is not None:  # the Python passes and translation are skipped
                if reuse_key is not None:
                    store_lowered_parts(disk, reuse_key, stored)
                return _from_stored(stored, name, hlo_type, self.opt_level, high_level)
        # the gemm kernel and the thread pool build while the passes run: from here when the hlo module makes
        # them likely (the pool's thread needs ~20 ms of wall time beside the passes' Python, for ~5 ms of
        # work), else once a pass has decided that the module calls them (compiler.prefetch_runtime)
        if high_level:
            prefetch_runtime(module, *likely_helpers(module))
        num_outputs = {SYMBOL_PREFIX + name: len(fn.function_type.outputs.data)} if high_level else {}
        direct = direct_llvm()  # stop at the loop level: compile_lowered emits LLVM IR from there
        import_compile_modules(direct)
        prefix_symbols(module)
        signatures: dict = {}
        if high_level:
            lower(module, _hlo_to_cpu_pipeline(), num_outputs, signatures, direct=direct)
        if any(isinstance(op, func.FuncOp) for op in module.ops) and not (direct and high_level):
            lower(module, LOWER_TO_LLVM_PIPELINE, num_outputs, signatures, direct=direct)
        compiled_module = compile_lowered(module, signatures, self.opt_level)
        if key is not None:
            store_lowered(disk, key, compiled_module)
            if reuse_key is not None:
                store_lowered(disk, reuse_key, compiled_module)
        compiled = with_bounds_report(compiled_module[name], compiled_module.jit)
        return _with_unsigned_views(compiled, hlo_type) if high_level else compiled


def _from_stored(stored, name: str, hlo_type: FunctionType, opt_level: int, high_level: bool = True):
    """The callable for a lowered module from the disk cache: only LLVM parsing and object loading left."""
    llvm_ir, signatures, by_object = stored
    cached = CompiledModule(jit_compile(llvm_ir, opt_level), signatures, by_object)
    if name not in cached.functions and len(cached.functions) == 1:  # stored under another trace's name
        name = next(iter(cached.functions))
    compiled = with_bounds_report(cached[name], cached.jit)
    return _with_unsigned_views(compiled, hlo_type) if high_level else compiled


def _with_unsigned_views(compiled: CompiledFunction, hlo_type: FunctionType):
    """The lowered code is signless and complex-free (docs/cpu-pipeline.md): unsigned hlo
    arguments and results cross as same-width signed views (uint4 as int4), complex ones as float
    views with a trailing dimension of 2 (numpy's interleaved layout); views cost nothing."""
    from minixla.dialects.numpy_types import is_unsigned, numpy_dtype, signed_of

    ins = [numpy_dtype(t.element_type) for t in hlo_type.inputs.data]
    outs = [numpy_dtype(t.element_type) for t in hlo_type.outputs.data]
    if not any(is_unsigned(d) or d.kind == "c" for d in ins + outs):
        return compiled
    signed_ins = [signed_of(d) if is_unsigned(d) else None for d in ins]

    def arg_view(a, s, d):
        if d.kind == "c" and getattr(a, "dtype", None) == d:  # (ascontiguousarray would make a scalar 1-d)
            a = a if a.flags.c_contiguous else a.copy(order="C")
            return a[..., None].view(np.dtype(f"f{d.itemsize // 2}"))
        return a if s is None or getattr(a, "dtype", None) != d else a.view(s)

    def result_view(r, d):
        if d.kind == "c":
            return r.view(d)[..., 0]
        return r.view(d) if is_unsigned(d) else r

    def call(*args):
        args = [arg_view(a, s, d) for a, s, d in zip(args, signed_ins, ins)] + list(args[len(ins):])
        results = compiled(*args)
        return tuple(result_view(r, d) for r, d in zip(results, outs))

    call.compiled = compiled  # type: ignore[attr-defined]
    return call
