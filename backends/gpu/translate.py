"""Device code (a `gpu.module` in the llvm dialect) -> LLVM IR for
`nvptx64-nvidia-cuda` -> PTX.

Reuses the CPU translator (backends/cpu/translate.py) unchanged and adds the
NVPTX specifics around it: the triple and NVPTX data layout, the
`ptx_kernel` calling convention on functions tagged `gpu.kernel`, an
`addrspacecast` where a generic `!llvm.ptr` takes the address of a shared
(addrspace 3) global, and libdevice linked in (then internalized, so LLVM
keeps only what is called) when kernels call `__nv_*` math. PTX comes from
llvmlite's NVPTX target after the -O3 pipeline (which also runs NVVMReflect
and address-space inference, so shared accesses become `ld/st.shared`).
"""

from __future__ import annotations

import llvmlite.binding as llvm_b
import llvmlite.ir as ir
from xdsl.dialects import gpu, llvm
from xdsl.dialects.builtin import ModuleOp

from minixla.backends.cpu import translate as cpu_translate

from minixla.backends.gpu.target import DEFAULT_ARCH, TRIPLE, data_layout, libdevice_module, target_machine

KERNEL_ATTR = "gpu.kernel"


class GpuFunctionTranslator(cpu_translate.FunctionTranslator):
    def translate(self, op, b: ir.IRBuilder) -> None:
        if isinstance(op, llvm.AddressOfOp):
            g = self.module.get_global(op.global_name.root_reference.data)
            want = cpu_translate.convert_type(op.result.type)
            if isinstance(g.type, ir.PointerType) and g.type.addrspace != want.addrspace:
                self.set(op, b.addrspacecast(g, want))
                return
        super().translate(op, b)


def kernel_names(ops) -> list[str]:
    return [op.sym_name.data for op in ops if isinstance(op, llvm.FuncOp) and KERNEL_ATTR in op.attributes]


def device_ops(module: ModuleOp) -> list:
    """The ops of the (single) gpu.module, or of `module` itself when it is
    a plain llvm-dialect module."""
    kmods = [op for op in module.ops if isinstance(op, gpu.ModuleOp)]
    if len(kmods) > 1:
        raise cpu_translate.TranslationError("several gpu.modules; translate one at a time")
    return list(kmods[0].body.block.ops) if kmods else list(module.ops)


def translate_device(module: ModuleOp) -> ir.Module:
    """LLVM IR (llvmlite.ir) for the device code of `module`."""
    ops = device_ops(module)
    out = ir.Module(name="minixla_kernels")
    out.triple = TRIPLE
    out.data_layout = data_layout()
    funcs: list[llvm.FuncOp] = []
    for op in ops:
        if isinstance(op, llvm.GlobalOp):
            cpu_translate._declare_global(out, op)
        elif isinstance(op, llvm.FuncOp):
            funcs.append(op)
        else:
            where = "the device module" if any(isinstance(o, gpu.ModuleOp) for o in module.ops) else \
                "a module without gpu.module (run `minixla-opt -p hlo-to-gpu` first)"
            raise cpu_translate.TranslationError(
                f"'{op.name}' in {where}: device code must be lowered by convert-gpu-to-nvvm and "
                "convert-nvvm-to-llvm")
    for op in funcs:
        cpu_translate._declare_function(out, op)
        if KERNEL_ATTR in op.attributes:
            out.get_global(op.sym_name.data).calling_convention = "ptx_kernel"
    for op in funcs:
        if op.body.blocks:
            GpuFunctionTranslator(out, op).run()
    return out


def translate_to_nvptx_ir(module: ModuleOp) -> str:
    return str(translate_device(module))


def _optimize(mod: llvm_b.ModuleRef, arch: str, kernels: list[str]) -> None:
    if any(f.is_declaration and f.name.startswith("__nv_") for f in mod.functions):
        mod.link_in(libdevice_module())
    for f in mod.functions:
        if not f.is_declaration and f.name not in kernels:
            f.linkage = "internal"
    tm = target_machine(arch)
    pto = llvm_b.create_pipeline_tuning_options(speed_level=3)
    pb = llvm_b.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)


def llvm_ir_to_ptx(text: str, arch: str = DEFAULT_ARCH, kernels: list[str] | None = None) -> str:
    """Optimize NVPTX LLVM IR (linking libdevice if needed) and emit PTX."""
    mod = llvm_b.parse_assembly(text)
    mod.verify()
    if kernels is None:
        kernels = [f.name for f in mod.functions if "ptx_kernel" in str(f).split("(", 1)[0]]
    _optimize(mod, arch, kernels)
    return _emit(mod, arch)


def _emit(mod: llvm_b.ModuleRef, arch: str) -> str:
    return target_machine(arch).emit_assembly(mod)


def translate_to_ptx(module: ModuleOp, arch: str = DEFAULT_ARCH) -> str:
    """PTX for the device code of `module` (after `hlo-to-gpu`)."""
    ops = device_ops(module)
    irmod = translate_device(module)
    return llvm_ir_to_ptx(str(irmod), arch, kernel_names(ops))


__all__ = ["translate_device", "translate_to_nvptx_ir", "translate_to_ptx", "llvm_ir_to_ptx", "kernel_names"]
