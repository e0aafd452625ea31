"""`gpu-kernel-outlining`: each `gpu.launch` body becomes a kernel
`gpu.func` in the module's `gpu.module @minixla_kernels`, and the launch a
`gpu.launch_func` passing the values the body captured (constants are cloned
into the kernel instead). Globals and functions the kernels reference are
copied into the gpu.module, which must be self-contained (it is compiled to
PTX on its own). The builtin module gets `gpu.container_module`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, gpu, memref
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from minixla.passes.gpu.mapping import MAPPING_ATTR

KERNEL_MODULE = "minixla_kernels"


def _captured(launch: gpu.LaunchOp) -> list[SSAValue]:
    seen: list[SSAValue] = []
    for op in launch.body.walk():
        for v in op.operands:
            if v in seen:
                continue
            owner = v.owner
            top = owner if isinstance(owner, Operation) else owner.parent_op()
            if top is not None and launch.is_ancestor(top):
                continue
            seen.append(v)
    return seen


def _kernel_module(module: ModuleOp) -> gpu.ModuleOp:
    for op in module.ops:
        if isinstance(op, gpu.ModuleOp) and op.sym_name.data == KERNEL_MODULE:
            return op
    kmod = gpu.ModuleOp(StringAttr(KERNEL_MODULE), Region(Block()))
    module.body.block.add_op(kmod)
    return kmod


def _copy_symbols(kernel: gpu.FuncOp, kmod: gpu.ModuleOp, module: ModuleOp) -> None:
    """Copy referenced memref.globals and (transitively) called functions."""
    have = {op.sym_name.data for op in kmod.body.block.ops if hasattr(op, "sym_name")}
    top = {op.sym_name.data: op for op in module.ops
           if isinstance(op, (memref.GlobalOp, func.FuncOp))}
    work: list[Operation] = [kernel]
    while work:
        for op in work.pop().walk():
            name = None
            if isinstance(op, memref.GetGlobalOp):
                name = op.name_.root_reference.data
            elif isinstance(op, func.CallOp):
                name = op.callee.root_reference.data
            if name is None or name in have or name not in top:
                continue
            copy = top[name].clone()
            kmod.body.block.insert_op_before(copy, kmod.body.block.first_op)
            have.add(name)
            work.append(copy)


def outline(launch: gpu.LaunchOp, name: str, kmod: gpu.ModuleOp, module: ModuleOp) -> None:
    captured = _captured(launch)
    consts = [v for v in captured if isinstance(v.owner, arith.ConstantOp)]
    args = [v for v in captured if v not in consts]
    block = Block(arg_types=[v.type for v in args])
    mapper: dict[SSAValue, SSAValue] = dict(zip(args, block.args))
    for c in consts:
        new = c.owner.clone()
        block.add_op(new)
        mapper[c] = new.results[0]
    ids = {}
    for key, cls in (("bid", gpu.BlockIdOp), ("tid", gpu.ThreadIdOp), ("nb", gpu.GridDimOp),
                     ("nt", gpu.BlockDimOp)):
        op = cls(gpu.DimensionAttr(gpu.DimensionEnum.X))
        block.add_op(op)
        ids[key] = op.results[0]
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    block.add_ops([zero, one])
    largs = launch.body.block.args
    for i, v in enumerate(largs):
        group, dim = divmod(i, 3)
        if dim:
            mapper[v] = (zero if group < 2 else one).result
        else:
            mapper[v] = ids[("bid", "tid", "nb", "nt")[group]]
    for op in launch.body.block.ops:
        if isinstance(op, gpu.TerminatorOp):
            block.add_op(gpu.ReturnOp([]))
            continue
        new = op.clone(value_mapper=mapper)
        block.add_op(new)
        for a, b in zip(op.results, new.results):
            mapper[a] = b
    block_size = _const(launch.blockSizeX)
    kernel = gpu.FuncOp(name, ([v.type for v in args], []), Region(block), kernel=True,
                        known_block_size=[block_size, 1, 1] if block_size else None)
    if MAPPING_ATTR in launch.attributes:
        kernel.attributes[MAPPING_ATTR] = launch.attributes[MAPPING_ATTR]
    kmod.body.block.add_op(kernel)
    _copy_symbols(kernel, kmod, module)
    call = gpu.LaunchFuncOp(SymbolRefAttr(KERNEL_MODULE, [name]),
                            [launch.gridSizeX, launch.gridSizeY, launch.gridSizeZ],
                            [launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ],
                            kernelOperands=args)
    parent = launch.parent_block()
    assert parent is not None
    parent.insert_op_before(call, launch)
    launch.detach()
    launch.erase()


def _const(v: SSAValue) -> int | None:
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


@dataclass(frozen=True)
class GpuKernelOutlining(ModulePass):
    """gpu.launch -> gpu.func in gpu.module @minixla_kernels + gpu.launch_func."""

    name = "gpu-kernel-outlining"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        launches = [o for o in op.walk() if isinstance(o, gpu.LaunchOp)]
        if not launches:
            return
        kmod = _kernel_module(op)
        counts: dict[str, int] = {}
        for launch in launches:
            fn = launch.parent_op()
            while fn is not None and not isinstance(fn, func.FuncOp):
                fn = fn.parent_op()
            base = fn.sym_name.data if fn is not None else "kernel"
            n = counts.get(base, 0)
            counts[base] = n + 1
            outline(launch, f"{base}_kernel_{n}", kmod, op)
        op.attributes["gpu.container_module"] = UnitAttr()


__all__ = ["KERNEL_MODULE", "GpuKernelOutlining"]
