"""Ahead-of-time output: an hlo module -> object file, shared library, C header.

The same `hlo-to-cpu` pipeline and LLVM IR translator as the JIT, then, in
place of MCJIT, llvmlite's `TargetMachine.emit_object` (position-independent
code for a chosen CPU) and the system C compiler as linker (`cc -shared`).
What XLA's tfcompile offers: a small binary that runs without Python.

ABI of an exported entry point (the bare function the pipeline makes of each
public function; the `_mlir_ciface_` pointer-array wrapper is not exported):

    void <prefix><name>(const T0 *arg0, ..., T0 *result0, ...);

one data pointer per hlo parameter, then one per hlo result (destination-
passing style: the caller allocates the results). Arrays are dense row-major
(C order) with the static shapes of the hlo signature; rank-0 tensors are
pointers to one element; i1 is one byte (0/1); f16/bf16 are their 16-bit
patterns. Inputs are only read; results must not overlap inputs.

Self-contained: the runtime helpers compiled code calls are linked in as LLVM
IR and made internal (`minixla_parallel_for` with a thread count decided on
first use, `backends/cpu/threadpool.py`; with `blas=True` the gemm wrappers
of `gemm_threads.py`), so the library needs only libc, libm and pthreads
(`aligned_alloc`/`free` for temporaries, `memset`/`memcpy`, libm for math
functions LLVM does not inline) -- plus numpy's OpenBLAS (found through an
rpath) when built with `blas=True`. Everything but the entry points and
`<prefix>set_num_threads` has internal linkage.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

import llvmlite.binding as llvm
from xdsl.dialects import builtin, func
from xdsl.dialects import llvm as llvm_dialect
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute

from minixla.backends.cpu.target import host_target

#: CPUs an object can be compiled for: the build machine's, or a portable x86-64 level
TARGET_CPUS = ("host", "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")
DEFAULT_PREFIX = "minixla_"
_HIGH_LEVEL = ("hlo.", "tensor.", "linalg.", "bufferization.")


class AotError(Exception):
    """The module cannot be compiled ahead of time (message says why)."""


@dataclass(frozen=True)
class Param:
    """One pointer parameter of an entry point, as the header declares it."""

    name: str
    ctype: str  # element type in C ("float", "uint8_t"); "void" when unknown
    describe: str  # "f32[4x8]", or "" when unknown (llvm-dialect input)
    output: bool | None  # None: unknown (llvm-dialect input), declared without const


@dataclass(frozen=True)
class EntryPoint:
    symbol: str  # exported name
    function: str  # name in the compiled module (after renaming for the JIT-style prefix)
    source: str  # name in the input module
    params: tuple[Param, ...]
    scalar_params: bool = False  # llvm-dialect input whose parameters are not all pointers

    def declaration(self) -> str:
        args = ", ".join(f"{'const ' if p.output is False else ''}{p.ctype} *{p.name}" if not self.scalar_params
                         else f"{p.ctype} {p.name}" for p in self.params)
        return f"void {self.symbol}({args or 'void'});"

    def comment(self) -> str:
        if not any(p.describe for p in self.params):
            return f"/* @{self.source} */"
        ins = ", ".join(f"{p.describe} {p.name}" for p in self.params if not p.output)
        outs = ", ".join(f"{p.describe} {p.name}" for p in self.params if p.output)
        return f"/* @{self.source}({ins}) -> ({outs}) */"


_C_TYPES = {"f32": "float", "f64": "double", "f16": "uint16_t", "bf16": "uint16_t", "i1": "bool",
            "index": "int64_t", "complex<f32>": "float _Complex", "complex<f64>": "double _Complex",
            "c64": "float", "c128": "double"}  # c64/c128: complex entry parameters as interleaved (re, im) pairs


def element_name(t: Attribute) -> str:
    """hlo's spelling of an element type ("f32", "ui8", "i1")."""
    if isinstance(t, builtin.IntegerType):
        width = t.width.data
        unsigned = t.signedness.data == builtin.Signedness.UNSIGNED
        return f"{'u' if unsigned else ''}i{width}"
    if isinstance(t, builtin.IndexType):
        return "index"
    text = str(t)
    if text in ("f16", "bf16", "f32", "f64") or isinstance(t, builtin.ReducedPrecisionFloatType):
        return text
    if text in ("complex<f32>", "complex<f64>"):  # passed as numpy/C99 lay them out: re, im, re, im, ...
        return "c64" if text == "complex<f32>" else "c128"
    raise AotError(f"element type {t} has no C type for an AOT entry point")


def c_type(element: str) -> str:
    """i2/i4/ui2/ui4 and fp8/fp6/fp4 are bytes (`uint8_t`): the bits in the low part, zero above."""
    if element in _C_TYPES:
        return _C_TYPES[element]
    if element.startswith(("f8", "f6", "f4")) or element in ("i2", "i4", "ui2", "ui4"):
        return "uint8_t"
    if element.startswith(("i", "ui")):
        bits = element.lstrip("ui")
        if bits in ("8", "16", "32", "64"):
            return f"{'u' if element.startswith('u') else ''}int{bits}_t"
    raise AotError(f"element type {element} has no C type for an AOT entry point")


def _tensor_param(name: str, t: Attribute, output: bool) -> Param:
    if isinstance(t, builtin.TensorType | builtin.MemRefType):
        el, shape = element_name(t.element_type), "x".join(map(str, t.get_shape()))
    else:
        el, shape = element_name(t), ""
    return Param(name, c_type(el), f"{el}[{shape}]", output)


@dataclass
class AotModule:
    """A module compiled to LLVM IR for AOT output; emits objects, libraries, headers."""

    llvm_ir: str
    entries: tuple[EntryPoint, ...]
    prefix: str
    blas: object | None = None  # blas.BlasLibrary linked against, None: loops only

    @property
    def set_threads_symbol(self) -> str:
        return self.prefix + "set_num_threads"

    def exports(self) -> list[str]:
        return [e.symbol for e in self.entries] + [self.set_threads_symbol]

    def linked_module(self, cpu: str = "host", opt_level: int = 3) -> llvm.ModuleRef:
        """The IR with the runtime helpers linked in, entry points renamed,
        everything else internal, optimized for `cpu`."""
        from minixla.backends.cpu.jit import UNROLL_LIMIT, instruction_count, optimize
        from minixla.backends.cpu.threadpool import AOT_COUNT_IR, POOL_IR

        machine = target_machine(cpu)
        module = _parse(_one_gemm_name(self.llvm_ir), "generated module")
        calls_pool = _declares(module, "minixla_parallel_for")
        if self.blas is not None and (_declares(module, "minixla_sgemm") or _declares(module, "minixla_dgemm")):
            calls_pool |= self._link_blas(module)
        from minixla.backends.cpu.fft import SYMBOLS as FFT_SYMBOLS

        if any(_declares(module, name) for name in FFT_SYMBOLS):  # hlo.fft: the kernel is linked in as IR
            from minixla.backends.cpu.fft_driver import fft_ir

            module.link_in(_parse(fft_ir(), "FFT kernel", module.triple, module.data_layout))
            calls_pool = True  # its lines are split over the pool
        helpers = (POOL_IR if calls_pool else "") + AOT_COUNT_IR
        module.link_in(_parse(helpers, "thread pool", module.triple, module.data_layout))
        for fn in module.functions:
            if fn.name in ("minixla_sgemm", "minixla_dgemm") and fn.is_declaration:
                raise AotError(f"the module calls {fn.name} (a BLAS gemm) but was built without BLAS: "
                               "lower it with hlo_to_cpu(blas=False), or compile with blas=True")
        renames = {e.function: e.symbol for e in self.entries}
        renames["minixla_set_num_threads"] = self.set_threads_symbol
        taken = {g.name for g in (*module.functions, *module.global_variables)} - set(renames)
        exported = list(renames.values())
        clashes = sorted({n for n in exported if n in taken or exported.count(n) > 1})
        if clashes:
            raise AotError(f"exported symbol(s) {', '.join(clashes)} clash with other symbols of the library; "
                           "choose another prefix")
        for fn in module.functions:
            if fn.name in renames:
                fn.name = renames[fn.name]
            elif not fn.is_declaration:
                fn.linkage = "internal"
        for gv in module.global_variables:
            if not gv.is_declaration and not gv.name.startswith("llvm."):
                gv.linkage = "internal"
        module.verify()
        if opt_level > 0:
            optimize(module, opt_level, unroll=instruction_count(self.llvm_ir) <= UNROLL_LIMIT, machine=machine)
        return module

    def _link_blas(self, module: llvm.ModuleRef) -> bool:
        """Define minixla_?gemm over the library's real symbols; True if that uses the pool."""
        from minixla.backends.cpu.gemm_threads import wrapper_ir

        lib = self.blas
        if lib.threads_local:  # OpenBLAS: split over our pool, as the JIT does (gemm_threads.py)
            from minixla.backends.cpu.blas import _THREADS_LOCAL

            text = wrapper_ir(lib.symbols, _THREADS_LOCAL)
            module.link_in(_parse(text, "gemm wrappers", module.triple, module.data_layout))
            return True
        for ours, theirs in zip(("minixla_sgemm", "minixla_dgemm"), lib.symbols):
            if _declares(module, ours):
                module.get_function(ours).name = theirs  # same CBLAS ILP64 signature
        return False

    def object_code(self, cpu: str = "host", opt_level: int = 3) -> bytes:
        """A relocatable ELF object (position-independent, so it links into a .so)."""
        return target_machine(cpu).emit_object(self.linked_module(cpu, opt_level))

    def write_object(self, path: str, cpu: str = "host", opt_level: int = 3) -> str:
        with open(path, "wb") as f:
            f.write(self.object_code(cpu, opt_level))
        return path

    def write_shared_library(self, path: str, cpu: str = "host", opt_level: int = 3, cc: str | None = None,
                             strip: bool = True) -> str:
        """Link the object with the system C compiler into `path`; undefined
        symbols are a link error (`-z defs`), so the library is complete."""
        compiler = find_c_compiler(cc)
        with tempfile.TemporaryDirectory(prefix="minixla-aot-") as tmp:
            obj = self.write_object(os.path.join(tmp, "module.o"), cpu, opt_level)
            cmd = [*compiler, "-shared", "-o", path, obj, "-Wl,-z,defs", "-Wl,--as-needed"]
            if strip:
                cmd.append("-s")
            if self.blas is not None:
                folder, name = os.path.split(os.path.abspath(self.blas.path))
                cmd += [f"-L{folder}", f"-l:{name}", f"-Wl,-rpath,{folder}"]
            cmd += ["-lm", "-lpthread"]
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise AotError(f"linking {path} failed ({shlex.join(cmd)}):\n{proc.stderr.strip()}")
        return path

    def header(self, guard: str | None = None) -> str:
        """A C header declaring the exported functions, with the calling convention."""
        guard = guard or (self.prefix.upper().strip("_") or "MINIXLA") + "_AOT_H"
        blas = (f"\n * Links against {os.path.basename(self.blas.path)} (rpath: its folder at build time)."
                if self.blas is not None else "")
        lines = [
            "/* Generated by minixla (AOT output of the CPU backend, backends/cpu/aot.py). */",
            "/*",
            " * Calling convention: one data pointer per parameter of the hlo function,",
            " * then one per result (destination-passing style: the caller allocates the",
            " * results, the function writes them and returns nothing). Arrays are dense",
            " * row-major (C order) with exactly the static shapes shown; a rank-0 tensor is",
            " * a pointer to one element; i1 is one byte holding 0 or 1; f16 and bf16 are",
            " * their 16-bit patterns. Inputs are only read; results must not overlap inputs",
            " * or each other. Entry points are reentrant and may run concurrently.",
            " *",
            f" * Threads: big loops run on up to {self.set_threads_symbol}(n) threads (pthreads,",
            " * started per loop); the count defaults to MINIXLA_NUM_THREADS if set, else",
            " * the CPUs this process may run on. It returns the previous count." + blas,
            " */",
            f"#ifndef {guard}",
            f"#define {guard}",
            "",
            "#include <stdbool.h>",
            "#include <stdint.h>",
            "",
            "#ifdef __cplusplus",
            'extern "C" {',
            "#endif",
            "",
        ]
        for entry in self.entries:
            lines += [entry.comment(), entry.declaration(), ""]
        lines += [f"int64_t {self.set_threads_symbol}(int64_t n);", "",
                  "#ifdef __cplusplus", "}", "#endif", "", f"#endif /* {guard} */", ""]
        return "\n".join(lines)


def _parse(text: str, what: str, triple: str | None = None, data_layout: str | None = None) -> llvm.ModuleRef:
    host_target()  # initializes LLVM's native target
    try:
        module = llvm.parse_assembly(text)
    except RuntimeError as err:
        raise AotError(f"invalid LLVM IR in the {what}: {err}") from None
    if triple is not None:
        module.triple, module.data_layout = triple, data_layout
    return module


def _declares(module: llvm.ModuleRef, name: str) -> bool:
    try:
        module.get_function(name)
    except NameError:
        return False
    return True


def target_machine(cpu: str = "host") -> llvm.TargetMachine:
    """A TargetMachine emitting PIC for `cpu`: the host's CPU and features, or
    a generic x86-64 level (portable to every CPU of that level)."""
    host = host_target()
    if cpu not in TARGET_CPUS:
        raise AotError(f"unknown target CPU '{cpu}'; choose one of {', '.join(TARGET_CPUS)}")
    if cpu != "host" and not host.triple.startswith("x86_64"):
        raise AotError(f"target CPU '{cpu}' is an x86-64 level; this host is {host.triple} (use 'host')")
    name, features = (host.cpu, host.features) if cpu == "host" else (cpu, "")
    return llvm.Target.from_triple(host.triple).create_target_machine(
        cpu=name, features=features, opt=3, reloc="pic", codemodel="default")


def find_c_compiler(cc: str | None = None) -> list[str]:
    """The C compiler that links shared libraries: `cc`, else $CC, else cc/gcc/clang on PATH."""
    for candidate in (cc, os.environ.get("CC")):
        if candidate and candidate.strip():
            words = shlex.split(candidate)
            if shutil.which(words[0]):
                return words
            raise AotError(f"C compiler '{words[0]}' not found")
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return [path]
    raise AotError("no C compiler found to link a shared library (looked for $CC, cc, gcc, clang); "
                   "install one, or emit an object file and link it yourself")


def _parse_source(source: ModuleOp | str) -> ModuleOp:
    if isinstance(source, ModuleOp):
        return source.clone()
    from xdsl.parser import Parser

    from minixla.dialects import load_all

    return Parser(load_all(), source, "<aot>").parse_module()


def compile_aot(source: ModuleOp | str, *, prefix: str = DEFAULT_PREFIX, entries: list[str] | None = None,
                blas: bool = False, optimize: bool = True) -> AotModule:
    """Lower `source` for AOT output. hlo (tensor-level) input runs `hlo-to-cpu`
    (after `hlo-optimize` when `optimize`; with `convert-linalg-to-blas` only
    when `blas`, which ties the library to numpy's OpenBLAS); memref-level
    input runs the llvm lowering; llvm-dialect input is translated as it is.
    Exported: `prefix + name` for each public function (or those in `entries`)."""
    from minixla.backends.cpu.compiler import SYMBOL_PREFIX, lower, prefix_symbols, public_functions
    from minixla.backends.cpu.translate import translate_to_llvm_ir

    module = _parse_source(source)
    blas_lib = None
    if blas:
        from minixla.backends.cpu.blas import library

        blas_lib = library()
        if blas_lib is None:
            raise AotError("blas=True but no BLAS is available (MINIXLA_BLAS is off, or numpy has no bundled "
                           "ILP64 OpenBLAS)")
    if any(isinstance(op, func.FuncOp) for op in module.ops):
        public = public_functions(module)
        chosen = _choose([fn.sym_name.data for fn in public], entries)
        hlo_level = any(op.name.startswith(_HIGH_LEVEL) for op in module.walk())
        types = {fn.sym_name.data: fn.function_type for fn in public}
        num_outputs = {SYMBOL_PREFIX + n: len(t.outputs.data) for n, t in types.items()} if hlo_level else {}
        prefix_symbols(module)  # internal names never clash with libc's (`free`, `tanh`)
        from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE
        from minixla.passes.pipelines import hlo_to_cpu

        signatures: dict = {}
        try:
            if hlo_level:
                lower(module, hlo_to_cpu(optimize=optimize, blas=blas), num_outputs, signatures, prefetch=False)
            if any(isinstance(op, func.FuncOp) for op in module.ops):
                lower(module, LOWER_TO_LLVM_PIPELINE, num_outputs, signatures, prefetch=False)
        except Exception as err:  # noqa: BLE001 -- a pass rejected the module: report, do not trace back
            raise AotError(f"lowering failed: {type(err).__name__}: {err}") from None
        found = [_hlo_entry(name, types[name], signatures[SYMBOL_PREFIX + name], prefix, hlo_level)
                 for name in chosen]
    else:
        fns = [op for op in module.ops if isinstance(op, llvm_dialect.FuncOp) and op.body.blocks
               and not op.sym_name.data.startswith("_mlir_ciface_")
               and (op.linkage is None or op.linkage.linkage.data == "external")]
        chosen = _choose([fn.sym_name.data for fn in fns], entries)
        found = [_llvm_entry(fn, prefix) for fn in fns if fn.sym_name.data in chosen]
    from minixla.backends.cpu.translate import TranslationError

    try:
        text = translate_to_llvm_ir(module)
    except TranslationError as err:
        raise AotError(str(err)) from None
    return AotModule(text, tuple(found), prefix, blas_lib)


def _choose(names: list[str], entries: list[str] | None) -> list[str]:
    if entries is None:
        if not names:
            raise AotError("the module has no public function to export")
        return names
    missing = [e for e in entries if e not in names]
    if missing:
        raise AotError(f"no public function {', '.join('@' + m for m in missing)}; have "
                       f"{', '.join('@' + n for n in names) or 'none'}")
    return list(entries)


def _hlo_entry(name: str, hlo_type: builtin.FunctionType, sig, prefix: str, hlo_level: bool) -> EntryPoint:
    from minixla.backends.cpu.compiler import SYMBOL_PREFIX

    for spec in sig.slots:
        if not spec.dense:
            raise AotError(f"@{name}: '{spec.name}' has a non-identity layout; AOT entry points take dense "
                           "row-major arrays")
    if hlo_level:
        params = [_tensor_param(f"arg{i}", t, False) for i, t in enumerate(hlo_type.inputs.data)]
        params += [_tensor_param(f"result{j}", t, True) for j, t in enumerate(hlo_type.outputs.data)]
    else:  # memref level: the (signless) lowered types
        if hlo_type.outputs.data:
            raise AotError(f"@{name} returns values; AOT entry points return results through out-parameters")
        params = [Param(s.name, c_type(_numpy_element(s.dtype)),
                        f"{_numpy_element(s.dtype)}[{'x'.join(map(str, s.shape))}]", j >= len(sig.inputs))
                  for j, s in enumerate(sig.slots)]
    return EntryPoint(prefix + name, SYMBOL_PREFIX + name, name, tuple(params))


def _numpy_element(dtype) -> str:
    from minixla.dialects.numpy_types import element_type, is_ml_float, is_sub_byte_int

    if is_sub_byte_int(dtype) or is_ml_float(dtype) and dtype.name != "bfloat16":
        return element_name(element_type(dtype))
    kind, bits = dtype.kind, dtype.itemsize * 8
    if kind == "b":
        return "i1"
    if dtype.name == "bfloat16":
        return "bf16"
    return {"f": f"f{bits}", "i": f"i{bits}", "u": f"ui{bits}", "c": f"c{bits}"}[kind]


def _llvm_entry(fn: llvm_dialect.FuncOp, prefix: str) -> EntryPoint:
    """llvm-dialect input: the shapes are gone, the header says `void *`."""
    ftype = fn.function_type
    if not isinstance(ftype.output, llvm_dialect.LLVMVoidType):
        raise AotError(f"@{fn.sym_name.data} returns a value; AOT entry points return results through "
                       "out-parameters (lower from hlo to get them)")
    params, pointers = [], True
    for i, t in enumerate(ftype.inputs.data):
        if isinstance(t, llvm_dialect.LLVMPointerType):
            params.append(Param(f"arg{i}", "void", "", None))
        else:
            pointers = False
            params.append(Param(f"arg{i}", c_type(element_name(t)), "", None))
    if not pointers:
        params = [Param(p.name, "void *" if p.ctype == "void" else p.ctype, "", None) for p in params]
    name = fn.sym_name.data
    return EntryPoint(prefix + name, name, name, tuple(params), scalar_params=not pointers)


def _one_gemm_name(llvm_ir: str) -> str:
    """AOT output links one gemm per type (the BLAS library's): calls of `minixla_library_?gemm` (the
    products convert-linalg-to-blas leaves to the library in the JIT) become calls of `minixla_?gemm`,
    the same ABI, and a declaration that then appears twice is kept once."""
    if "minixla_library_" not in llvm_ir:
        return llvm_ir
    text = llvm_ir.replace("minixla_library_sgemm", "minixla_sgemm").replace("minixla_library_dgemm", "minixla_dgemm")
    seen: set[str] = set()
    lines = []
    for line in text.split("\n"):
        if line.startswith("declare "):
            if line in seen:
                continue
            seen.add(line)
        lines.append(line)
    return "\n".join(lines)
