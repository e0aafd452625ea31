"""memref/scf-level module -> `CompiledModule` of callable functions.

Runs the lowering pipeline (capturing each public function's memref
signature just before `convert-func-to-llvm` erases it), translates to LLVM
IR with a Python-object trampoline per function, and JIT-compiles. The JIT
caches by LLVM IR text, which must be built anyway (no MLIR printing: it cost
more than the translation a cache keyed by it would save).
"""

from __future__ import annotations

from collections.abc import Mapping
from math import prod

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import AnyFloat, ModuleOp, TensorType
from xdsl.passes import ModulePass, PassPipeline

from minixla.passes.gc_pause import frozen_heap, importing
from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE
from minixla.passes.pipeline import verify_each_pass
from minixla.passes.trace_events import span, traced_pipeline_callback

from minixla.backends.cpu.hooks import AFTER_PASS  # noqa: F401 -- re-exported
from minixla.backends.cpu.jit import jit_compile
from minixla.backends.cpu.parallel_jit import split_threshold
from minixla.backends.cpu.runtime import (  # noqa: F401 -- CompiledModule, SYMBOL_PREFIX: re-exported
    PY_PREFIX,
    SYMBOL_PREFIX,
    CompiledFunction,
    CompiledModule,
    Signature,
    add_python_entry,
)



def _context() -> Context:
    from minixla.dialects import load_all

    return load_all()


def build_pipeline(spec: str, callback=None) -> PassPipeline:
    """`spec` over the global registry, which loads each pass's module when the pipeline first uses it
    (passes/__init__.py registers ours, winning over same-named upstream ones)."""
    from minixla.passes import available_passes
    from minixla.passes.pipeline import parse_spec

    return parse_spec(available_passes(), spec, callback)


#: passes after which the module's calls into native helpers (gemm, thread pool) are known
_RUNTIME_DECIDED = frozenset({"convert-linalg-to-blas", "convert-parallel-loops-to-threads"})
#: float contractions: (almost) always a gemm call, known before any pass runs
_CONTRACTIONS = frozenset({"hlo.dot_general", "hlo.dot", "hlo.convolution"})
#: elements of an hlo result from which a loop over it is likely threaded (threads.py's min_work: 2^17
#: operations, reached by 2^15 elements of a loop body of four: load, op, store, yield). A guess that
#: misses starts the pool's build only at convert-parallel-loops-to-threads, and its child then still
#: runs beside the JIT's two processes (the MLP step's 784 x 128 updates: ~15 ms of it); a wrong guess
#: costs a child process's code generation on a core that is idle (prefetch forks only then)
_THREADED_ELEMENTS = 1 << 15


def likely_helpers(module: ModuleOp) -> tuple[bool, bool]:
    """(gemm, pool): whether the hlo module has a float contraction big enough for the generated gemm
    (convert-linalg-to-blas leaves smaller ones to the library), and a result big enough that its
    loop will be threaded; read before any pass runs."""
    with importing():  # (the pass's module, which its pipeline then finds imported)
        from minixla.passes.linalg_to_blas import MIN_WORK

    gemm = pool = False
    for op in module.walk():
        for r in op.results:
            t = r.type
            if not isinstance(t, TensorType):
                continue
            if not gemm and op.name in _CONTRACTIONS and isinstance(t.element_type, AnyFloat):
                gemm = _product_work(op) >= MIN_WORK
            if not pool and all(d >= 0 for d in t.get_shape()) and prod(t.get_shape()) >= _THREADED_ELEMENTS:
                pool = True
    return gemm, pool


def _product_work(op) -> float:
    """About m*n*k of a contraction: sqrt(|lhs| |rhs| |result|) (exact for a matmul; a convolution's
    im2col product within a factor of its window's square root)."""
    sizes = []
    for v in (*op.operands[:2], op.results[0]):
        shape = v.type.get_shape() if isinstance(v.type, TensorType) else ()
        if any(d < 0 for d in shape):
            return 0.0
        sizes.append(prod(shape))
    return float(sizes[0] * sizes[1] * sizes[2]) ** 0.5


def prefetch_runtime(module: ModuleOp, gemm: bool = False, pool: bool = False) -> None:
    """Start building the native helpers `module` calls (the generated gemm kernel, the thread pool)
    on background threads, so that their LLVM code generation overlaps the Python passes instead of
    waiting in the JIT: up front (`gemm`, `pool`) when the hlo module makes them likely, else each
    once a pass has decided that the module calls it (a fused multiply-reduce can become a gemm; most
    programs need none, and a background LLVM build holds llvmlite's lock, which the JIT would then
    wait on)."""
    declared = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp) and not op.body.blocks}
    if gemm or declared & {"minixla_sgemm", "minixla_dgemm"}:
        from minixla.backends.cpu.blas import prefetch

        prefetch()
    if pool or any(name.endswith("__threaded") for name in declared):
        from minixla.backends.cpu.threadpool import prefetch as prefetch_pool

        prefetch_pool()
    if declared & {"minixla_library_sgemm", "minixla_library_dgemm"}:
        _prefetch_library()


_LIBRARY_PREFETCH: list = []


def _prefetch_library() -> None:
    """Register the library's gemm (blas.ensure_library_registered: finding OpenBLAS and compiling its
    wrappers over our threads, ~9 ms of the MLP step's first call) on a background thread once
    convert-linalg-to-blas has called it: LLVM's code generation releases the GIL, so it overlaps the
    remaining passes instead of running in the JIT; the JIT's own call then finds it done (or waits)."""
    if _LIBRARY_PREFETCH:
        return
    import threading

    from minixla.backends.cpu.blas import ensure_library_registered

    def run() -> None:
        try:
            ensure_library_registered()
        except Exception:  # noqa: BLE001 -- the JIT calls it again and reports
            pass

    thread = threading.Thread(target=run, name="minixla-library-gemm", daemon=True)
    _LIBRARY_PREFETCH.append(thread)
    thread.start()


def public_functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks
            and (op.sym_visibility is None or op.sym_visibility.data == "public")]


#: the first pass of the llvm-dialect lowering: with the direct emitter, `lower` stops before it
LLVM_LOWERING_START = "lower-scf-to-cf"
#: what the direct emitter replaces, run when it falls back (the narrow-float emulations ran already)
LLVM_LOWERING_REST = LOWER_TO_LLVM_PIPELINE[LOWER_TO_LLVM_PIPELINE.index(LLVM_LOWERING_START):] + \
    ",lower-thread-dispatch"


def direct_llvm() -> bool:
    """Whether JIT compiles emit LLVM IR straight from the loop level (emit_llvm_module.py): on unless
    `MINIXLA_DIRECT_LLVM=0`, or while per-pass dumps (`AFTER_PASS`) want to see the llvm-dialect passes."""
    from minixla.backends.cpu.hooks import direct_llvm_enabled

    return direct_llvm_enabled() and AFTER_PASS.get() is None


#: modules every JIT compile of a loop-level module imports, outside a pass's factory (the passes'
#: modules are imported inside `importing()` by the registry): prefix_symbols' memref, the canonicalization
#: patterns xDSL imports when loop-cleanup first asks an scf/arith/memref op for them, and the direct
#: emitter (with xDSL's arith, math and scf dialects)
_COMPILE_MODULES = ("xdsl.dialects.memref", "xdsl.transforms.canonicalization_patterns.memref",
                    "xdsl.transforms.canonicalization_patterns.scf", "xdsl.transforms.canonicalization_patterns.arith")
_DIRECT_MODULES = ("minixla.backends.cpu.emit_llvm_module",)


def import_compile_modules(direct: bool) -> None:
    """Import what a compile will import anyway, up front and inside `importing()` (no garbage collection,
    dataclass methods compiled once): imported on first use instead, each ran with the collector on,
    ~4 ms more CPU of a first compile. Nothing here is imported before a compile needs it."""
    import sys
    from importlib import import_module

    names = _COMPILE_MODULES + (_DIRECT_MODULES if direct else ())
    if all(name in sys.modules for name in names):
        return
    with importing():
        for name in names:
            import_module(name)


def _stop_before_llvm(spec: str) -> str | None:
    """`spec` up to the llvm-dialect lowering, or None when it does not end in exactly that lowering
    (a custom pipeline with passes of its own after it runs as written)."""
    at = spec.find(LLVM_LOWERING_START)
    if at < 0 or at > 0 and spec[at - 1] != "," or \
            spec[at:] not in (LLVM_LOWERING_REST, LLVM_LOWERING_REST.removesuffix(",lower-thread-dispatch")):
        return None
    return spec[:at].rstrip(",")


def lower(module: ModuleOp, spec: str = LOWER_TO_LLVM_PIPELINE,
          num_outputs: Mapping[str, int] | None = None,
          signatures: dict[str, Signature] | None = None, prefetch: bool = True,
          direct: bool = False) -> dict[str, Signature]:
    """Run `spec` on `module` in place; returns the signatures of public
    functions as they were before convert-func-to-llvm. `direct`: stop before the
    llvm-dialect lowering (`lower-scf-to-cf` on), leaving a loop-level module for
    `compile_lowered` to emit directly. With
    MINIXLA_VERIFY_EACH_PASS=1 (set by the test suite) the IR is verified after
    every pass; by default it is not: xDSL's verifier is quadratic in the number
    of blocks and dominated JIT compile times, and LLVM verifies what we emit. `prefetch`: start
    building the JIT's native helpers the module will call (`prefetch_runtime`; AOT output links its own)."""
    signatures = {} if signatures is None else signatures
    num_outputs = num_outputs or {}

    def capture(mod: ModuleOp) -> None:
        for fn in public_functions(mod):
            signatures.setdefault(fn.sym_name.data, Signature.of(fn, num_outputs.get(fn.sym_name.data)))

    verify_each = verify_each_pass()
    after = AFTER_PASS.get()

    def step(prev: ModulePass | None, mod: ModuleOp, nxt: ModulePass | None) -> None:
        if verify_each and prev is not None:
            mod.verify()
        if after is not None and prev is not None:
            after(prev.name, mod)
        if prefetch and prev is None:
            prefetch_runtime(mod, *likely_helpers(mod))
        elif prefetch and prev is not None and prev.name in _RUNTIME_DECIDED:
            prefetch_runtime(mod)
        if nxt is not None and nxt.name == "convert-func-to-llvm":
            capture(mod)

    head = _stop_before_llvm(spec) if direct else None
    with frozen_heap():
        if head is None or head:
            build_pipeline(spec if head is None else head,
                           traced_pipeline_callback(step, "cpu-pass")).apply(_context(), module)
    if head is not None:
        capture(module)
    if verify_each:
        module.verify()
    return signatures




def prefix_symbols(module: ModuleOp) -> None:
    """Rename defined functions and globals to `__mx_<name>` (references too)
    so no JIT symbol can shadow or be shadowed by libc/libm (`tanh`, `free`)."""
    from xdsl.dialects import memref
    from xdsl.dialects.builtin import StringAttr, SymbolRefAttr

    renamed: dict[str, str] = {}
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.body.blocks or isinstance(op, memref.GlobalOp):
            renamed[op.sym_name.data] = SYMBOL_PREFIX + op.sym_name.data
            op.sym_name = StringAttr(renamed[op.sym_name.data])
    for op in module.walk():
        if isinstance(op, func.CallOp) and op.callee.root_reference.data in renamed:
            op.callee = SymbolRefAttr(renamed[op.callee.root_reference.data])
        elif isinstance(op, memref.GetGlobalOp) and op.name_.root_reference.data in renamed:
            op.name_ = SymbolRefAttr(renamed[op.name_.root_reference.data])
        elif (ref := op.properties.get("decomposition")) is not None and ref.root_reference.data in renamed:
            op.properties["decomposition"] = SymbolRefAttr(renamed[ref.root_reference.data])  # hlo.composite


def compile_module(module: ModuleOp, *, num_outputs: Mapping[str, int] | None = None,
                   opt_level: int = 3, pipeline: str = LOWER_TO_LLVM_PIPELINE,
                   clone: bool = True) -> CompiledModule:
    """Lower (a clone of) `module` and JIT it. `num_outputs[f]` says how many
    trailing parameters of @f are outputs (default: 1 for functions without
    results, else 0: scalar results are returned through the slots)."""
    if clone:
        module = module.clone()
    direct = direct_llvm()
    import_compile_modules(direct)
    prefix_symbols(module)
    num_outputs = {SYMBOL_PREFIX + k: v for k, v in (num_outputs or {}).items()}
    signatures = lower(module, pipeline, num_outputs, direct=direct)
    return compile_lowered(module, signatures, opt_level)


def is_loop_level(module: ModuleOp) -> bool:
    """Whether `module` still has func-dialect function bodies (`lower(..., direct=True)` left it there)."""
    return any(isinstance(op, func.FuncOp) and op.body.blocks for op in module.ops)


def _log_fallback(reason: str) -> None:
    """Append the reason to `$MINIXLA_DIRECT_LLVM_LOG` when set (to count fallbacks over a test run)."""
    import os

    path = os.environ.get("MINIXLA_DIRECT_LLVM_LOG")
    if path:
        with open(path, "a") as f:
            f.write(reason.replace("\n", " ") + "\n")


def compile_lowered(module: ModuleOp, signatures: dict[str, Signature], opt_level: int = 3) -> CompiledModule:
    """Translate the llvm-dialect `module` and JIT it (the JIT reuses the native
    code of an identical LLVM module; each call gets its own signatures). A loop-level
    module is emitted directly (emit_llvm_module.py); if the emitter does not know one of
    its ops, the llvm-dialect lowering runs on it first (counted in `emit_llvm_module.STATS`)."""
    if is_loop_level(module):
        from minixla.backends.cpu.emit_llvm_module import STATS, Unsupported, emit_module

        try:
            with span("emit-llvm-ir", "llvm"), frozen_heap():
                text, by_object = emit_module(module, signatures, split_above=split_threshold())
        except Unsupported as err:
            STATS["fallback"] += 1
            STATS["reason"] = str(err)
            _log_fallback(str(err))
            lower(module, LLVM_LOWERING_REST, signatures=signatures, prefetch=False)
        else:
            STATS["direct"] += 1
            with span("llvm-optimize-and-jit", "llvm", opt_level=opt_level):
                if by_object:
                    from minixla.backends.cpu.runtime import _register_none

                    _register_none()  # (takes llvmlite's lock: outside the emitter's span)
                jit = jit_compile(text, opt_level)
            return CompiledModule(jit, signatures, by_object)
    from minixla.backends.cpu.translate import translate_module  # the llvm-dialect path only

    with span("translate-to-llvm-ir", "llvm"), frozen_heap():
        ir_module = translate_module(module, split_above=split_threshold())  # big modules: two halves
        entries = [add_python_entry(ir_module, sig) for sig in signatures.values()]  # adds each one
    by_object = all(entries)
    with span("llvm-optimize-and-jit", "llvm", opt_level=opt_level):
        jit = jit_compile(str(ir_module), opt_level)
    return CompiledModule(jit, signatures, by_object)


def clear_cache() -> None:
    from minixla.backends.cpu.jit import clear_cache as clear_jit

    clear_jit()
