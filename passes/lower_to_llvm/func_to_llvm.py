"""`convert-func-to-llvm`: functions, calls and returns, plus the C entry
point the CPU runtime calls.

Types map through `llvm_type` (memref -> !llvm.ptr, index -> i64); several
results are packed into a literal struct. Public functions keep external
linkage and get a wrapper

    llvm.func @_mlir_ciface_<name>(%args: !llvm.ptr)

reading one pointer per parameter and then per result from the array
`%args`: a memref parameter receives that pointer itself (its data), a scalar
parameter is loaded from it, and each result is stored through it. So a
caller crosses into native code with a single pointer-array argument.
Private functions get internal linkage so LLVM may inline and drop them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func, llvm
from xdsl.dialects.builtin import MemRefType, i1, i8, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from minixla.passes.fast_build import like
from minixla.passes.lower_to_llvm.common import (
    PTR,
    Emit,
    cast_to,
    llvm_type,
    operands_to_llvm,
    replace_with_values,
    to_llvm,
)
from minixla.passes.rewrite_driver import rewrite_in_order

CIFACE_PREFIX = "_mlir_ciface_"


def result_type(types: tuple[Attribute, ...] | list[Attribute]) -> Attribute:
    if not types:
        return llvm.LLVMVoidType()
    if len(types) == 1:
        return llvm_type(types[0])
    return llvm.LLVMStructType.from_type_list([llvm_type(t) for t in types])


def convert_entry_args(rewriter: PatternRewriter, block: Block) -> None:
    """Retype the block's arguments to LLVM types, casting back for users."""
    for arg in list(block.args):
        target = llvm_type(arg.type)
        if target == arg.type:
            continue
        old_type = arg.type
        new = rewriter.replace_value_with_new_type(arg, target)
        if not new.uses:
            continue
        uses = list(new.uses)
        back = cast_to(rewriter, new, old_type, InsertPoint.at_start(block))
        for use in uses:
            use.operation.operands[use.index] = back


class FuncLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter, /):
        ftype = op.function_type
        inputs = [llvm_type(t) for t in ftype.inputs.data]
        fn_type = llvm.LLVMFunctionType(inputs, result_type(ftype.outputs.data))
        public = op.sym_visibility is None or op.sym_visibility.data == "public"
        declaration = not op.body.blocks
        if declaration:
            linkage, visibility = "external", "private"
        else:
            linkage, visibility = ("external" if public else "internal"), None
        body = rewriter.move_region_contents_to_new_regions(op.body)
        new = llvm.FuncOp(op.sym_name.data, fn_type, linkage=llvm.LinkageAttr(linkage),
                          sym_visibility=visibility, body=body)
        rewriter.replace(op, new, [])
        if not declaration:
            convert_entry_args(rewriter, body.blocks[0])
            if public:
                wrapper = build_ciface(op.sym_name.data, list(ftype.inputs.data), list(ftype.outputs.data), fn_type)
                rewriter.insert(wrapper, InsertPoint.after(new))


def build_ciface(name: str, inputs: list[Attribute], outputs: list[Attribute],
                 fn_type: llvm.LLVMFunctionType) -> llvm.FuncOp:
    """`void _mlir_ciface_<name>(ptr args)`: unpack, call, store results."""
    block = Block(arg_types=[PTR])
    ops: list = []

    def emit(o):
        ops.append(o)
        return o.results[0] if o.results else None

    def slot(i: int) -> SSAValue:
        base = block.args[0]
        p = emit(like(("llvm.getelementptr", PTR, i), lambda: llvm.GEPOp.from_mixed_indices(
            base, [i], PTR, inbounds=True), (base,)))
        return emit(like(("llvm.load", PTR), lambda: llvm.LoadOp(p, PTR), (p,)))

    args: list[SSAValue] = []
    for i, t in enumerate(inputs):
        p = slot(i)
        if isinstance(t, MemRefType):
            args.append(p)
        elif llvm_type(t) == i1:
            args.append(emit(llvm.TruncOp(emit(llvm.LoadOp(p, i8)), i1)))
        else:
            args.append(emit(llvm.LoadOp(p, llvm_type(t))))
    ret = fn_type.output
    call = emit(llvm.CallOp(name, *args, return_type=None if isinstance(ret, llvm.LLVMVoidType) else ret))
    for j, t in enumerate(outputs):
        value = call if len(outputs) == 1 else emit(llvm.ExtractValueOp(
            builtin.DenseArrayBase.from_list(i64, [j]), call, llvm_type(t)))
        if value.type == i1:
            value = emit(llvm.ZExtOp(value, i8))
        emit(llvm.StoreOp(value, slot(len(inputs) + j)))
    emit(llvm.ReturnOp())
    block.add_ops(ops)
    return llvm.FuncOp(CIFACE_PREFIX + name, llvm.LLVMFunctionType([PTR], llvm.LLVMVoidType()),
                       linkage=llvm.LinkageAttr("external"), body=Region(block))


class CallLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter, /):
        e = Emit(rewriter)
        args = operands_to_llvm(rewriter, op.arguments)
        types = list(op.result_types)
        ret = result_type(types)
        call = e(llvm.CallOp(op.callee, *args, return_type=None if not types else ret))
        if len(types) <= 1:
            replace_with_values(rewriter, op, [call] if types else [])
            return
        parts = [e(llvm.ExtractValueOp(builtin.DenseArrayBase.from_list(i64, [j]), call, llvm_type(t)))
                 for j, t in enumerate(types)]
        replace_with_values(rewriter, op, parts)


class ReturnLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter, /):
        e = Emit(rewriter)
        values = [to_llvm(rewriter, v) for v in op.arguments]
        if len(values) <= 1:
            rewriter.replace(op, llvm.ReturnOp(values[0] if values else None))
            return
        struct_t = result_type([v.type for v in values])
        acc = e(llvm.UndefOp(struct_t))
        for j, v in enumerate(values):
            acc = e(llvm.InsertValueOp(builtin.DenseArrayBase.from_list(i64, [j]), acc, v))
        rewriter.replace(op, llvm.ReturnOp(acc))


@dataclass(frozen=True)
class ConvertFuncToLLVM(ModulePass):
    """func.{func,call,return} -> llvm.{func,call,return} + C wrappers."""

    name = "convert-func-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        rewrite_in_order(op, [(CallLowering(), func.CallOp), (ReturnLowering(), func.ReturnOp),
                              (FuncLowering(), func.FuncOp)])
