"""LLVM IR -> native code in this process: llvmlite's new pass manager at
-O3 for the host CPU (its vector width via the TargetMachine), then MCJIT.

Big modules (more than `UNROLL_LIMIT` instructions, e.g. a whole training
step) skip LLVM's loop unroller: it tripled optimize + codegen time of the MLP
step (~1 s) for no measurable run-time gain, since vectorization and
interleaving still run (docs/cpu-pipeline.md, "Compile time"). The direct
emitter also marks every loop of a small nest "do not unroll" (loop_hints.py),
so below the limit only big nests unroll (the MLP step: +5%, not 3x).

A module of at least `parallel_jit.MIN_INSTRUCTIONS` instructions is compiled in
two processes when a core is idle (parallel_jit.py: the translator has cut its
biggest function in two, outline.py) and its two objects linked in one engine.

`JitModule` owns the engine, so function addresses stay valid exactly as long
as it lives. Compiled modules are cached by their LLVM IR text in memory (the
`MINIXLA_JIT_CACHE_ENTRIES` most recently used ones, 256 by default: a process
that compiles many distinct programs, like the fuzzer, would otherwise keep
every engine, about 1 MB each; an evicted module lives on while a compiled
function uses it), and their object code on disk (compile_cache.py).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

import llvmlite.binding as llvm

from minixla.passes.trace_events import span

from minixla.backends.cpu.target import create_machine, host_target

_CACHE: OrderedDict[str, JitModule] = OrderedDict()
_LOCK = threading.Lock()


def cache_limit() -> int:
    return max(1, int(os.environ.get("MINIXLA_JIT_CACHE_ENTRIES", "256")))


class JitError(Exception):
    """LLVM rejected the IR (parse or verification error)."""


#: instructions (roughly: indented lines of the IR text) above which loops are not unrolled: the
#: modules the JIT compiles in two processes (parallel_jit.MIN_INSTRUCTIONS). Was 1500; with small
#: nests marked "do not unroll" only big nests would unroll there, ~7% of the MLP step's LLVM time
#: (1,328 instructions) for no measurable speed per step. Was 1000 until the MLP step shrank to ~790
#: instructions (session 10): kept equal to parallel_jit.MIN_INSTRUCTIONS
UNROLL_LIMIT = 600


def instruction_count(llvm_ir: str) -> int:
    return llvm_ir.count("\n  ")


def optimize(module: llvm.ModuleRef, opt_level: int = 3, unroll: bool = True,
             machine: llvm.TargetMachine | None = None) -> None:
    """LLVM's -O<opt_level> pipeline tuned for `machine` (default: the host's;
    AOT output passes the machine of its target CPU, whose vector width counts)."""
    machine = machine or host_target().machine
    pto = llvm.PipelineTuningOptions(speed_level=opt_level)
    pto.loop_vectorization = opt_level >= 2
    pto.slp_vectorization = opt_level >= 2
    pto.loop_unrolling = unroll
    pb = llvm.create_pass_builder(machine, pto)
    pb.getModulePassManager().run(module, pb)


def register_runtime(llvm_ir: str) -> None:
    """Make the native helpers `llvm_ir` calls resolvable (building or loading them), just before an engine
    links it: a helper a background build is still making (compiler.prefetch_runtime; the thread pool's
    ~25 ms of code generation in a forked child) is waited for after this module's own LLVM work, not
    before it."""
    if "minixla_parallel_for" in llvm_ir:  # threaded loops call the pthread helper
        from minixla.backends.cpu.threadpool import ensure_registered

        ensure_registered()
    if "minixla_sgemm" in llvm_ir or "minixla_dgemm" in llvm_ir:  # convert-linalg-to-blas
        from minixla.backends.cpu.blas import ensure_registered as ensure_blas

        ensure_blas()
    if "minixla_library_sgemm" in llvm_ir or "minixla_library_dgemm" in llvm_ir:  # products for the library
        from minixla.backends.cpu.blas import ensure_library_registered

        ensure_library_registered()
    if any(f"minixla_{p}fft_c" in llvm_ir for p in ("", "r", "ir")):  # hlo.fft (passes/bufferize/fft.py)
        from minixla.backends.cpu.fft import ensure_registered as ensure_fft

        ensure_fft()


class JitModule:
    """A JIT-compiled LLVM module; keep it alive while calling into it."""

    def __init__(self, llvm_ir: str, opt_level: int = 3):
        host = host_target()
        from minixla.backends.cpu.compile_cache import active_cache, object_key

        disk = active_cache()
        key = object_key(llvm_ir, opt_level) if disk is not None else None
        cached = disk.get(key) if disk is not None else None
        self.llvm_ir = llvm_ir
        self.opt_level = opt_level
        self._optimized = False
        self._module = None  # the IR is parsed only if asked for (optimized_ir, assembly) when not compiled here
        #: how many objects the code came in (2: compiled in two processes, parallel_jit.py)
        self.objects = 1
        self.from_disk_cache = cached is not None and self._load(cached, disk)
        if self.from_disk_cache or self._compile_in_parallel(disk, key):
            return
        self._module = self._parse()
        if opt_level > 0:
            with span("llvm-optimize", "llvm", opt_level=opt_level):
                self._optimize()
        register_runtime(llvm_ir)
        self.engine = llvm.create_mcjit_compiler(self._module, create_machine(host.triple, host.cpu, host.features))
        if disk is not None:
            self.engine.set_object_cache(lambda _m, data: disk.put(key, bytes(data)), lambda _m: None)
        with span("llvm-codegen-and-load", "llvm"):
            self.engine.finalize_object()
            self.engine.run_static_constructors()

    def _load(self, payload: bytes, disk) -> bool:
        """Load cached object code (one object, or the two of a parallel compile); False when unreadable."""
        from minixla.backends.cpu.compile_cache import engine_for_object, engine_for_objects, unpack_objects

        with span("load-cached-object", "llvm"):
            try:
                objects = unpack_objects(payload)
            except ValueError:
                disk.corrupt += 1
                return False
            register_runtime(self.llvm_ir)
            self.engine = engine_for_object(objects[0]) if len(objects) == 1 else engine_for_objects(objects)
        self.objects = len(objects)
        return True

    def _compile_in_parallel(self, disk, key: str | None) -> bool:
        """Compile a big module in two processes (parallel_jit.py); False when it is small, does not split,
        parallel compiles are off, or its IR does not parse (the in-process path then reports it)."""
        from minixla.backends.cpu import parallel_jit
        from minixla.backends.cpu.compile_cache import engine_for_objects, pack_objects

        count = instruction_count(self.llvm_ir)
        if count < parallel_jit.MIN_INSTRUCTIONS or not parallel_jit.enabled() or not parallel_jit.core_idle():
            return False
        with span("llvm-parallel-compile", "llvm", opt_level=self.opt_level):
            try:
                objects = parallel_jit.compile_objects(
                    self.llvm_ir, self.opt_level, lambda m: optimize(m, self.opt_level, unroll=count <= UNROLL_LIMIT))
            except RuntimeError:  # an LLVM parse or verification error: JitError from the in-process path
                return False
        if objects is None:
            return False
        register_runtime(self.llvm_ir)
        with span("llvm-load-objects", "llvm"):
            self.engine = engine_for_objects(objects)
        self.objects = len(objects)
        if disk is not None:
            disk.put(key, pack_objects(objects))
        return True

    def _parse(self) -> llvm.ModuleRef:
        with span("llvm-parse", "llvm"):
            try:
                module = llvm.parse_assembly(self.llvm_ir)
                module.verify()
            except RuntimeError as err:
                raise JitError(f"invalid LLVM IR: {err}") from None
        return module

    def _optimize(self) -> None:
        if self._module is None:
            self._module = self._parse()
        optimize(self._module, self.opt_level, unroll=instruction_count(self.llvm_ir) <= UNROLL_LIMIT)
        self._optimized = True

    def address(self, name: str) -> int:
        addr = self.engine.get_function_address(name)
        if not addr:
            raise KeyError(f"no function '{name}' in the compiled module")
        return addr

    def optimized_ir(self) -> str:
        """The IR after LLVM's optimizer (run now when the code came from the disk cache, which skips it)."""
        if not self._optimized and self.opt_level > 0:
            self._optimize()
        return str(self._module if self._module is not None else self._parse())

    def assembly(self) -> str:
        if not self._optimized and self.opt_level > 0:
            self._optimize()
        return host_target().machine.emit_assembly(self._module if self._module is not None else self._parse())


def jit_compile(llvm_ir: str, opt_level: int = 3) -> JitModule:
    """The compiled module for this IR text (cached)."""
    key = f"{opt_level}\0{llvm_ir}"
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    compiled = JitModule(llvm_ir, opt_level)
    with _LOCK:
        kept = _CACHE.setdefault(key, compiled)
        _CACHE.move_to_end(key)
        while len(_CACHE) > cache_limit():
            _CACHE.popitem(last=False)
        return kept


def clear_cache() -> None:
    with _LOCK:
        _CACHE.clear()
