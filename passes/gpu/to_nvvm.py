"""Device-side lowering.

`convert-gpu-to-nvvm`: inside each `gpu.module`, thread/block ids become
`nvvm.read.ptx.sreg.*`, `gpu.barrier` becomes `nvvm.barrier0`, shared
`memref.alloca`s (address space 3) become internal addrspace(3) LLVM
globals, transcendental math becomes calls to libdevice (`__nv_expf`, ...,
linked at PTX time; NVPTX has no libm), and then the CPU pipeline's
*-to-llvm passes lower the rest exactly as for the host (bare pointers,
static layouts; see docs/cpu-pipeline.md). Kernels end as `llvm.func`s
tagged `gpu.kernel`; the translator gives them the `ptx_kernel` calling
convention. The host function keeps `gpu.launch_func` on memrefs: the GPU
runtime executes it (backends/gpu/plan.py).

`convert-nvvm-to-llvm`: nvvm ops -> `llvm.call_intrinsic @llvm.nvvm.*`.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, func, gpu, llvm, math, memref
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
    f32,
    i64,
)
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from minixla.dialects.nvvm import SREG_OPS, Barrier0Op, intrinsic

KERNEL_ATTR = "gpu.kernel"
MAPPING_ATTR = "minixla.gpu_mapping"  # kept from map-parallel-loops-to-gpu, for inspection
BLOCK_SIZE_ATTR = "gpu.known_block_size"

#: math op -> libdevice base name (f64; the f32 variant appends "f")
LIBDEVICE = {
    math.ExpOp: "exp", math.Exp2Op: "exp2", math.ExpM1Op: "expm1", math.LogOp: "log", math.Log10Op: "log10",
    math.Log2Op: "log2", math.Log1pOp: "log1p", math.SinOp: "sin", math.CosOp: "cos", math.TanOp: "tan",
    math.TanhOp: "tanh", math.AsinOp: "asin", math.AcosOp: "acos", math.AtanOp: "atan", math.Atan2Op: "atan2",
    math.AsinhOp: "asinh", math.AcoshOp: "acosh", math.AtanhOp: "atanh", math.SinhOp: "sinh",
    math.CoshOp: "cosh", math.PowFOp: "pow", math.CbrtOp: "cbrt", math.ErfOp: "erf", math.RsqrtOp: "rsqrt",
    math.FPowIOp: "powi",
}
#: external C functions the upper pipeline calls -> libdevice
LIBM_CALLS = {"fmod": "__nv_fmod", "fmodf": "__nv_fmodf"}
_SREG = {gpu.ThreadIdOp: "tid", gpu.BlockDimOp: "ntid", gpu.BlockIdOp: "ctaid", gpu.GridDimOp: "nctaid"}


def _declare(module: ModuleOp, name: str, inputs, output) -> None:
    for op in module.ops:
        if getattr(op, "sym_name", None) is not None and op.sym_name.data == name:
            return
    module.body.block.add_op(func.FuncOp.external(name, list(inputs), [output]))


def _math_to_libdevice(module: ModuleOp) -> None:
    for op in list(module.walk()):
        base = LIBDEVICE.get(type(op))
        if base is None:
            continue
        t = op.results[0].type
        rw = Rewriter()
        args = list(op.operands)
        narrow = isinstance(t, (Float16Type, BFloat16Type))
        if narrow:
            ext = [arith.ExtFOp(a, f32) if a.type == t else None for a in args]
            for e in ext:
                if e is not None:
                    rw.insert_op(e, _before(op))
            args = [e.result if e is not None else a for e, a in zip(ext, args)]
            work = f32
        elif isinstance(t, (Float32Type, Float64Type)):
            work = t
        else:
            continue  # vectors etc.: left to convert-math-to-llvm
        name = f"__nv_{base}{'f' if isinstance(work, Float32Type) else ''}"
        _declare(module, name, [a.type for a in args], work)
        call = func.CallOp(name, args, [work])
        rw.insert_op(call, _before(op))
        res = call.results[0]
        if narrow:
            trunc = arith.TruncFOp(res, t)
            rw.insert_op(trunc, _before(op))
            res = trunc.result
        rw.replace_op(op, [], [res])


def _before(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


def _libm_calls(module: ModuleOp) -> None:
    for op in list(module.walk()):
        if isinstance(op, func.CallOp) and op.callee.root_reference.data in LIBM_CALLS:
            new = LIBM_CALLS[op.callee.root_reference.data]
            op.callee = SymbolRefAttr(new)
        elif isinstance(op, func.FuncOp) and op.sym_name.data in LIBM_CALLS and not op.body.blocks:
            op.sym_name = StringAttr(LIBM_CALLS[op.sym_name.data])


def _ids_and_barriers(module: ModuleOp) -> None:
    rw = Rewriter()
    for op in list(module.walk()):
        reg = _SREG.get(type(op))
        if reg is not None:
            sreg = SREG_OPS[f"{reg}.{op.dimension.data.value}"]()
            cast = arith.IndexCastOp(sreg.res, IndexType())
            rw.insert_op([sreg, cast], _before(op))
            rw.replace_op(op, [], [cast.result])
        elif isinstance(op, gpu.BarrierOp):
            rw.replace_op(op, Barrier0Op())


def _shared_memory(module: ModuleOp) -> None:
    """Shared allocas -> internal addrspace(3) globals (one per alloca)."""
    from minixla.passes.lower_to_llvm.common import PTR, memory_type

    rw = Rewriter()
    n = 0
    for op in list(module.walk()):
        if not isinstance(op, memref.AllocaOp):
            continue
        t = op.memref.type
        space = t.memory_space
        if not (isinstance(space, IntegerAttr) and space.value.data == 3):
            continue
        name = f"__shared_{n}"
        n += 1
        array = llvm.LLVMArrayType(max(prod(t.get_shape()), 1), memory_type(t.element_type))
        module.body.block.insert_op_before(
            llvm.GlobalOp(array, name, "internal", addr_space=3, alignment=16), module.body.block.first_op)
        addr = llvm.AddressOfOp(name, PTR)
        cast = UnrealizedConversionCastOp.get([addr.result], [t])
        rw.insert_op([addr, cast], _before(op))
        rw.replace_op(op, [], [cast.results[0]])


def _gpu_funcs_to_func(module: ModuleOp) -> dict[str, dict]:
    """gpu.func -> func.func; returns kernel name -> attributes to restore."""
    kernels: dict[str, dict] = {}
    for op in list(module.ops):
        if not isinstance(op, gpu.FuncOp):
            continue
        name = op.sym_name.data
        if op.kernel is not None:
            keep = {k: v for k, v in op.attributes.items() if k not in ("sym_name",)}
            kernels[name] = keep
        body = op.body.clone()
        for block in body.blocks:
            term = block.last_op
            if isinstance(term, gpu.ReturnOp):
                ret = func.ReturnOp(*term.args)
                block.insert_op_before(ret, term)
                term.detach()
                term.erase()
        new = func.FuncOp(name, op.function_type, body)
        module.body.block.insert_op_before(new, op)
        op.detach()
        op.erase()
    return kernels


def _finish_llvm(module: ModuleOp, kernels: dict[str, dict]) -> None:
    """Drop the C wrappers, tag kernels, heap allocation -> device malloc."""
    from minixla.passes.lower_to_llvm.common import PTR
    from minixla.passes.lower_to_llvm.func_to_llvm import CIFACE_PREFIX

    for op in list(module.ops):
        if isinstance(op, llvm.FuncOp):
            name = op.sym_name.data
            if name.startswith(CIFACE_PREFIX):
                op.detach()
                op.erase()
            elif name in kernels:
                op.attributes[KERNEL_ATTR] = UnitAttr()
                for key in (BLOCK_SIZE_ATTR, MAPPING_ATTR):
                    if key in kernels[name]:
                        op.attributes[key] = kernels[name][key]
    rw = Rewriter()
    need_malloc = False
    for op in list(module.walk()):
        if isinstance(op, llvm.CallOp) and op.callee is not None and \
                op.callee.root_reference.data == "aligned_alloc":
            rw.replace_op(op, llvm.CallOp("malloc", op.args[1], return_type=PTR))
            need_malloc = True
    for op in list(module.ops):
        if isinstance(op, llvm.FuncOp) and op.sym_name.data == "aligned_alloc":
            op.detach()
            op.erase()
    if need_malloc:
        module.body.block.add_op(llvm.FuncOp("malloc", llvm.LLVMFunctionType([i64], PTR),
                                             linkage=llvm.LinkageAttr("external"), sym_visibility="private"))


def lower_device_module(kmod: gpu.ModuleOp, ctx: Context) -> None:
    """Lower one gpu.module's contents to the llvm dialect (+ nvvm ops)."""
    from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE
    from minixla.passes.pipeline import build_pipeline

    tmp = ModuleOp(Region(Block()))
    for op in list(kmod.body.block.ops):
        op.detach()
        tmp.body.block.add_op(op)
    kernels = _gpu_funcs_to_func(tmp)
    _ids_and_barriers(tmp)
    _shared_memory(tmp)
    _libm_calls(tmp)
    _math_to_libdevice(tmp)
    build_pipeline(LOWER_TO_LLVM_PIPELINE).apply(ctx, tmp)
    _finish_llvm(tmp, kernels)
    for op in list(tmp.body.block.ops):
        op.detach()
        kmod.body.block.add_op(op)


@dataclass(frozen=True)
class ConvertGpuToNVVM(ModulePass):
    """Device code in gpu.modules -> llvm dialect with nvvm intrinsics ops."""

    name = "convert-gpu-to-nvvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kmod in [o for o in op.ops if isinstance(o, gpu.ModuleOp)]:
            lower_device_module(kmod, ctx)


@dataclass(frozen=True)
class ConvertNVVMToLLVM(ModulePass):
    """nvvm ops -> llvm.call_intrinsic of the matching llvm.nvvm.* intrinsic."""

    name = "convert-nvvm-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rw = Rewriter()
        for o in list(op.walk()):
            if o.dialect_name() != "nvvm":
                continue
            name, result = intrinsic(o)
            call = llvm.CallIntrinsicOp(name, list(o.operands), [] if result is None else [result])
            rw.replace_op(o, call, [call.results[0]] if result is not None else [])
