"""`lower-thread-dispatch`: the calls `convert-parallel-loops-to-threads` (threads.py) left, after the
llvm-dialect lowering, become calls of the thread pool's `minixla_parallel_for` with a context struct.
The JIT's direct path (backends/cpu/emit_llvm*.py) emits the same dispatch itself."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.passes import ModulePass

from minixla.passes.lower_to_llvm.threads import RUNTIME, TASK_SUFFIX, THREADED_SUFFIX
from minixla.passes.rewrite_driver import nested_ops

PTR = llvm.LLVMPointerType()


@dataclass(frozen=True)
class LowerThreadDispatch(ModulePass):
    """`llvm.call @X__threaded(lo, hi, caps...)` -> context struct + `minixla_parallel_for`."""

    name = "lower-thread-dispatch"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        decls = {o.sym_name.data: o for o in op.ops if isinstance(o, llvm.FuncOp)
                 and o.sym_name.data.endswith(THREADED_SUFFIX) and not o.body.blocks}
        if not decls:
            return
        top = op.body.block
        # the calls of each decl, in walk order, off one walk (no rewrite below makes or moves such a call)
        calls: dict[str, list[llvm.CallOp]] = {name: [] for name in decls}
        for o in nested_ops(op):
            if type(o) is llvm.CallOp and o.callee is not None and (name := o.callee.string_value()) in calls:
                calls[name].append(o)
        for name, decl in decls.items():
            body_name = name.removesuffix(THREADED_SUFFIX)
            cap_types = list(decl.function_type.inputs.data[2:])
            top.add_op(_task_function(body_name, cap_types))
            for call in calls[name]:
                _rewrite_call(call, body_name, len(cap_types))
            decl.detach()
            decl.erase()
        top.add_op(llvm.FuncOp(RUNTIME, llvm.LLVMFunctionType([PTR, PTR, i64, i64], llvm.LLVMVoidType()),
                               linkage=llvm.LinkageAttr("external"), sym_visibility="private"))


def _task_function(body_name: str, cap_types: list[Attribute]) -> llvm.FuncOp:
    """The context is an array of 8-byte slots, one per capture (pointers,
    integers up to i64, f16..f64: all fit)."""
    block = Block(arg_types=[i64, i64, PTR])
    args = [block.args[0], block.args[1]]
    for i, t in enumerate(cap_types):
        gep = llvm.GEPOp.from_mixed_indices(block.args[2], [i], PTR)
        load = llvm.LoadOp(gep, t)
        block.add_ops([gep, load])
        args.append(load.dereferenced_value)
    block.add_ops([llvm.CallOp(body_name, *args), llvm.ReturnOp()])
    return llvm.FuncOp(body_name + TASK_SUFFIX, llvm.LLVMFunctionType([i64, i64, PTR], llvm.LLVMVoidType()),
                       linkage=llvm.LinkageAttr("internal"), body=Region(block))


def _rewrite_call(call: llvm.CallOp, body_name: str, n_caps: int) -> None:
    fn = call.parent_op()
    while not isinstance(fn, llvm.FuncOp):
        fn = fn.parent_op()  # type: ignore[union-attr]
    entry = fn.body.blocks[0]
    one = llvm.ConstantOp(IntegerAttr(max(n_caps, 1), i64), i64)
    slot = llvm.AllocaOp(one, PTR, alignment=8)  # ptr-typed slots: llvmlite then types them opaquely
    first = entry.first_op
    for o in (one, slot):
        entry.insert_op_before(o, first) if first is not None else entry.add_op(o)
    block = call.parent_block()
    assert block is not None
    ops: list[Operation] = []
    for i, v in enumerate(call.args[2:]):
        gep = llvm.GEPOp.from_mixed_indices(slot.res, [i], PTR)
        ops += [gep, llvm.StoreOp(v, gep)]
    task = llvm.AddressOfOp(body_name + TASK_SUFFIX, PTR)
    ops += [task, llvm.CallOp(RUNTIME, task, slot.res, call.args[0], call.args[1])]
    for o in ops:
        block.insert_op_before(o, call)
    call.detach()
    call.erase()


__all__ = ["LowerThreadDispatch"]
