"""Direct LLVM IR emitter, the module: globals, function definitions (emit_llvm.py), the C entry
wrappers `_mlir_ciface_<f>` (func_to_llvm.build_ciface; only where no Python entry calls <f> itself),
the Python entries `_minixla_py_<f>` (runtime.add_python_entry), thread-dispatch tasks (lower-thread-dispatch), declarations of what the
code calls, loop metadata, and the cut of a big function into head and tail for the two-process JIT
(outline.py, parallel_jit.py).

`emit_module(module, signatures)` returns the text, or raises `Unsupported` (nothing is changed in
`module`), and the caller runs the old pipeline. `MINIXLA_DIRECT_LLVM=0` turns this path off.
"""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp

from minixla.backends.cpu.emit_llvm import TASK_SUFFIX, THREADED_SUFFIX, FunctionEmitter
from minixla.backends.cpu.emit_llvm_memref import global_definition
from minixla.backends.cpu.emit_llvm_ops import Unsupported, llvm_type, result_type
from minixla.backends.cpu.hooks import direct_llvm_enabled
from minixla.backends.cpu.outline import cut_blocks
from minixla.dialects import FLUSH_DENORMALS

from minixla.backends.cpu.target import host_target

CIFACE_PREFIX = "_mlir_ciface_"
#: attributes of the entry wrappers (C and Python entries): a few loads and one call, run once per call,
#: so LLVM leaves them unoptimized and generates their code with its fast path. Optimized, each cost
#: about as much LLVM time as a loop nest (~3 ms of the running example's ~20), and the entry function
#: was inlined into them, its code generated twice
GLUE = "optnone noinline"
#: MXCSR's flush-to-zero (bit 15) and denormals-are-zero (bit 6) bits
FTZ_DAZ = (1 << 15) | (1 << 6)
RUNTIME = "minixla_parallel_for"

#: direct-path outcomes of this process: {"direct": n, "fallback": n} and the last fallback's reason
STATS: dict[str, object] = {"direct": 0, "fallback": 0, "reason": None}


def enabled() -> bool:
    """Whether the JIT emits LLVM IR directly from the loop level (default) or runs the llvm-dialect
    lowering (`MINIXLA_DIRECT_LLVM=0`)."""
    return direct_llvm_enabled()


def _fn_type(fn: func.FuncOp) -> tuple[str, list[str]]:
    return result_type(fn.function_type.outputs.data), [llvm_type(t) for t in fn.function_type.inputs.data]


def call_through_slots(lines: list[str], name: str, fn: func.FuncOp, ret: str, args: list[str], slot) -> None:
    """Append to `lines` the call of @name with its arguments read through `slot(i)` (the pointer to
    parameter i's memref data or scalar; results after the parameters), then the stores of its results."""
    values = []
    for i, (t, attr) in enumerate(zip(args, fn.function_type.inputs.data)):
        p = slot(i)
        if isinstance(attr, MemRefType):
            values.append(f"ptr {p}")
        elif t == "i1":
            lines += [f"  %b{i} = load i8, ptr {p}", f"  %v{i} = trunc i8 %b{i} to i1"]
            values.append(f"i1 %v{i}")
        else:
            lines.append(f"  %v{i} = load {t}, ptr {p}")
            values.append(f"{t} %v{i}")
    call = f'call {ret} @"{name}"({", ".join(values)})'
    outs = [llvm_type(t) for t in fn.function_type.outputs.data]
    lines.append(f"  {call}" if ret == "void" else f"  %r = {call}")
    for j, t in enumerate(outs):
        value = "%r"
        if len(outs) > 1:
            lines.append(f"  %x{j} = extractvalue {ret} %r, {j}")
            value = f"%x{j}"
        if t == "i1":
            lines.append(f"  %z{j} = zext i1 {value} to i8")
            value, t = f"%z{j}", "i8"
        lines.append(f"  store {t} {value}, ptr {slot(len(args) + j)}")


class ModuleEmitter:
    """One loop-level module as LLVM IR text: what the function emitters need from the module level
    (declarations, thread-pool tasks, loop metadata), then the whole text (`run`)."""

    def __init__(self, module: ModuleOp):
        self.functions: list[func.FuncOp] = []
        self.globals: list[memref.GlobalOp] = []
        for op in module.ops:
            if isinstance(op, func.FuncOp):
                self.functions.append(op)
            elif isinstance(op, memref.GlobalOp):
                self.globals.append(op)
            else:
                raise Unsupported(f"'{op.name}' at module level")
        self.defined = {f.sym_name.data: f for f in self.functions if f.body.blocks}
        self.internal = {name for name, f in self.defined.items()
                         if f.sym_visibility is not None and f.sym_visibility.data != "public"}
        self.threaded = {f.sym_name.data for f in self.functions if not f.body.blocks
                         and f.sym_name.data.endswith(THREADED_SUFFIX)
                         and f.sym_name.data.removesuffix(THREADED_SUFFIX) in self.defined}
        self.decls: dict[str, str] = {}
        #: run with denormals flushed (the module's `FLUSH_DENORMALS` attribute; x86's MXCSR only)
        self.flush = FLUSH_DENORMALS in module.attributes and host_target().triple.startswith("x86_64")
        self.tasks: dict[str, list[str]] = {}
        self.metadata: list[str] = []
        self._hint_ids: dict[str, int] = {}

    # ---- called by FunctionEmitter -----------------------------------------------------------------
    def declare(self, name: str, ret: str, args: list[str]) -> None:
        if name not in self.decls and name not in self.defined:
            self.decls[name] = f'declare {ret} @"{name}"({", ".join(args)})'

    def is_threaded(self, name: str) -> bool:
        return name in self.threaded

    def is_internal(self, name: str) -> bool:
        return name in self.internal

    def task(self, body_name: str, cap_types: list[str]) -> str:
        name = body_name + TASK_SUFFIX
        self.tasks.setdefault(name, cap_types)
        self.internal.add(name)
        self.declare(RUNTIME, "void", ["ptr", "ptr", "i64", "i64"])
        return name

    def loop_hint(self, hint: str | None) -> str:
        """`, !llvm.loop !N` for a new distinct loop ID carrying `hint` (loop_hints.loop_id: options
        joined by ','), or ''."""
        if hint is None:
            return ""
        options = []
        for option in hint.split(","):
            if option not in self._hint_ids:
                key, value = option.split("=")
                width = 1 if key.endswith((".enable", ".disable")) else 32
                self._hint_ids[option] = len(self.metadata)
                self.metadata.append(f'!{{!"{key}", i{width} {value}}}' if value else f'!{{!"{key}"}}')
            options.append(f"!{self._hint_ids[option]}")
        node = len(self.metadata)
        self.metadata.append(f"distinct !{{!{node}, {', '.join(options)}}}")
        return f", !llvm.loop !{node}"

    def fresh(self, name: str) -> str:
        while name in self.defined or name in self.decls:
            name += "_"
        return name

    # ---- the module --------------------------------------------------------------------------------
    def run(self, signatures: dict, split_above: int | None = None) -> tuple[str, bool]:
        """(LLVM IR text, whether every signature got its Python entry)."""
        bodies: dict[str, FunctionEmitter] = {}
        for fn in self.functions:
            if fn.body.blocks:
                emitter = FunctionEmitter(self, fn)
                emitter.run()
                bodies[fn.sym_name.data] = emitter
            elif fn.sym_name.data not in self.threaded:
                ret, args = _fn_type(fn)
                self.declare(fn.sym_name.data, ret, args)
        entries = [self.python_entry(sig, bodies.get(sig.name)) for sig in signatures.values()]
        #: functions the Python entries call directly: no C entry needed when all of them have one
        direct = {sig.name for sig in signatures.values() if sig.name in bodies} \
            if entries and all(e is not None for e in entries) else set()
        host = host_target()
        out = ['; ModuleID = "minixla"', f'target triple = "{host.triple}"',
               f'target datalayout = "{host.data_layout}"', ""]
        out += [global_definition(g) for g in self.globals]
        cut = self.plan_cut(bodies, split_above) if split_above is not None else None
        tail_lines: list[str] = []
        for name, emitter in bodies.items():
            fn = emitter.fn
            ret, args = _fn_type(fn)
            linkage = "internal " if name in self.internal else ""
            params = ", ".join(f"{t} %a{i}" for i, t in enumerate(args))
            # a parallel body goes into its task before LLVM's function passes see it: optimized once, not
            # on its own and again inside the task (~2 ms of the running example's -O3)
            inline = " alwaysinline" if name + TASK_SUFFIX in self.tasks else ""
            out.append(f'define {linkage}{ret} @"{name}"({params}) nounwind{inline} {{')
            parts = cut_blocks(emitter, cut[1], ret, self.fresh(name + "__tail")) \
                if cut is not None and cut[0] == name else None
            if parts is not None:
                head, tail = parts
                out += head
                out.append("}")
                tail_lines = tail  # after the tasks, where translate.py put it
            else:
                for b in emitter.blocks:
                    out += b.text()
                out.append("}")
            if name not in self.internal and name not in direct:
                out += self.ciface(name, fn, ret, args)
        for name, caps in self.tasks.items():
            out += self.task_function(name, caps)
        out += tail_lines
        out += self.decls.values()
        if entries and all(e is not None for e in entries):
            out += ['declare ptr @"PyEval_SaveThread"()', 'declare void @"PyEval_RestoreThread"(ptr)',
                    'declare void @"Py_IncRef"(ptr)']
            for e in entries:
                out += e
            out.append('@"_Py_NoneStruct" = external global i8')
        out += [f"!{i} = {m}" for i, m in enumerate(self.metadata)]
        return "\n".join(out) + "\n", bool(entries) and all(e is not None for e in entries)

    def ciface(self, name: str, fn: func.FuncOp, ret: str, args: list[str]) -> list[str]:
        """`void _mlir_ciface_<name>(ptr %args)`: one pointer per parameter, then per result."""
        lines = [f'define void @"{CIFACE_PREFIX}{name}"(ptr %args) nounwind {GLUE} {{', "bb0:"]
        n = 0

        def slot(i: int) -> str:
            nonlocal n
            n += 2
            lines.append(f"  %s{n - 1} = getelementptr inbounds ptr, ptr %args, i32 {i}")
            lines.append(f"  %s{n} = load ptr, ptr %s{n - 1}")
            return f"%s{n}"

        lines += self.flush_on()
        call_through_slots(lines, name, fn, ret, args, slot)
        return [*lines, *self.flush_off(), "  ret void", "}"]

    def flush_on(self) -> list[str]:
        """Lines setting MXCSR's FTZ and DAZ bits (the old value kept in `%mxold`) when `self.flush`."""
        if not self.flush:
            return []
        self.declare("llvm.x86.sse.stmxcsr", "void", ["ptr"])
        self.declare("llvm.x86.sse.ldmxcsr", "void", ["ptr"])
        return ["  %mxcsr = alloca i32", '  call void @"llvm.x86.sse.stmxcsr"(ptr %mxcsr)',
                "  %mxold = load i32, ptr %mxcsr", f"  %mxftz = or i32 %mxold, {FTZ_DAZ}",
                "  store i32 %mxftz, ptr %mxcsr", '  call void @"llvm.x86.sse.ldmxcsr"(ptr %mxcsr)']

    def flush_off(self) -> list[str]:
        """Lines restoring the MXCSR `flush_on` saved."""
        if not self.flush:
            return []
        return ["  store i32 %mxold, ptr %mxcsr", '  call void @"llvm.x86.sse.ldmxcsr"(ptr %mxcsr)']

    def task_function(self, name: str, caps: list[str]) -> list[str]:
        """`void X__task(i64 lo, i64 hi, ptr ctx)`: load the captures, call X (a pool worker runs it
        with denormals flushed too when the module asks for that)."""
        lines = [f'define internal void @"{name}"(i64 %lo, i64 %hi, ptr %ctx) nounwind {{', "bb0:", *self.flush_on()]
        args = ["i64 %lo", "i64 %hi"]
        for i, t in enumerate(caps):
            lines += [f"  %g{i} = getelementptr ptr, ptr %ctx, i32 {i}", f"  %c{i} = load {t}, ptr %g{i}"]
            args.append(f"{t} %c{i}")
        lines += [f'  call void @"{name.removesuffix(TASK_SUFFIX)}"({", ".join(args)})', *self.flush_off(),
                  "  ret void", "}"]
        return lines

    def python_entry(self, sig, body: FunctionEmitter | None) -> list[str] | None:
        """runtime.add_python_entry as text: a METH_FASTCALL builtin that reads each ndarray's data pointer
        and calls the function with the GIL released (scalars loaded from and results stored to their
        arrays, as the C entry does from its pointer array; without `body`, through the C entry); None
        when numpy's layout is odd. Calling the function itself instead of `_mlir_ciface_<f>`, which
        then is not emitted, saved LLVM ~7% of the MLP step's work (a 30-argument C entry and 60 stack
        slots). (The caller makes `_Py_NoneStruct` known to the JIT: runtime._register_none, which waits
        for llvmlite's lock, held by the background builds of the gemm and the thread pool.)"""
        from minixla.backends.cpu.runtime import PY_PREFIX, ndarray_data_offset

        offset = ndarray_data_offset()
        if offset is None:
            return None
        n = len(sig.slots)
        lines = [f'define ptr @"{PY_PREFIX}{sig.name}"(ptr %self, ptr %args, i64 %nargs) {GLUE} {{', "entry:"]
        data = []
        for i, spec in enumerate(sig.slots):
            lines += [f"  %o{i} = getelementptr inbounds ptr, ptr %args, i32 {i}", f"  %p{i} = load ptr, ptr %o{i}",
                      f"  %f{i} = getelementptr inbounds i8, ptr %p{i}, i32 {offset}",
                      f"  %d{i} = load ptr, ptr %f{i}"]
            data.append(f"%d{i}")
            if spec.offset:
                lines.append(f"  %e{i} = getelementptr i8, ptr %d{i}, i64 {-spec.offset * spec.dtype.itemsize}")
                data[-1] = f"%e{i}"
        lines.append('  %state = call ptr @"PyEval_SaveThread"()')
        lines += self.flush_on()
        if body is None:
            lines.append(f"  %slots = alloca ptr, i64 {max(n, 1)}")
            for i, d in enumerate(data):
                lines += [f"  %s{i} = getelementptr inbounds ptr, ptr %slots, i32 {i}", f"  store ptr {d}, ptr %s{i}"]
            lines.append(f'  call void @"{CIFACE_PREFIX}{sig.name}"(ptr %slots)')
        else:
            call_through_slots(lines, sig.name, body.fn, *_fn_type(body.fn), data.__getitem__)
        lines += self.flush_off()
        lines += ['  call void @"PyEval_RestoreThread"(ptr %state)', '  call void @"Py_IncRef"(ptr @"_Py_NoneStruct")',
                  '  ret ptr @"_Py_NoneStruct"', "}"]
        return lines

    def plan_cut(self, bodies: dict[str, FunctionEmitter], split_above: int) -> tuple[str, int] | None:
        """outline.plan_cut on the emitted blocks: (function, block index) or None."""
        from minixla.backends.cpu.outline import plan_cut_sizes

        sizes = {name: sum(len(b.lines) + b.consts for b in e.blocks) for name, e in bodies.items()}
        for name, e in bodies.items():  # the C entries weigh in too (as llvm.func ops they did)
            if name not in self.internal:
                sizes[CIFACE_PREFIX + name] = len(self.ciface(name, e.fn, *_fn_type(e.fn))) - 3
        for name, caps in self.tasks.items():
            sizes[name] = 2 + 2 * len(caps)
        refs = {name: {r for b in e.blocks for r in b.refs} for name, e in bodies.items()}
        refs.update({name: {name.removesuffix(TASK_SUFFIX)} for name in self.tasks})
        return plan_cut_sizes(sizes, self.internal, refs, split_above,
                              lambda name, closure: (bodies[name].successors(), bodies[name].weights(closure)))


def emit_module(module: ModuleOp, signatures: dict, split_above: int | None = None) -> tuple[str, bool]:
    """The loop-level `module` as LLVM IR text, and whether every signature got its Python entry
    (`module` is not changed; raises `Unsupported`). `split_above`: cut the biggest function for the
    two-process JIT in a module of at least that many operations (outline.py)."""
    return ModuleEmitter(module).run(signatures, split_above)


__all__ = ["STATS", "Unsupported", "emit_module", "enabled"]
