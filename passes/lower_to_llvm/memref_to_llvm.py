"""`convert-memref-to-llvm`: static-layout memrefs as bare `!llvm.ptr`s.

A memref value is the pointer to its *base* element (MLIR's aligned pointer);
the static layout in the type (strides, offset) is applied at each access as
one `getelementptr inbounds` over a linearised i64 index, so every address
computation stays visible to LLVM. Views (`subview`, `collapse_shape`,
`expand_shape`, `reinterpret_cast`, `cast`) therefore reuse the pointer
unchanged: their result type carries the new strides and offset.

i1 elements are bytes in memory (zext on store, trunc on load). Heap buffers
come from `aligned_alloc(64, n)` and go back with `free`; constant globals are
64-byte aligned private LLVM globals.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import builtin, llvm, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    i1,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from minixla.passes.fast_build import like, split_before
from minixla.passes.lower_to_llvm.common import (
    PTR,
    Emit,
    LoweringError,
    byte_size,
    is_contiguous,
    llvm_type,
    memory_type,
    replace_with_values,
    static_layout,
    to_llvm,
)
from minixla.passes.lower_to_llvm.math_to_llvm import declare_function
from minixla.passes.rewrite_driver import rewrite_in_order

ALLOC_ALIGNMENT = 64
NSW = llvm.OverflowAttr([llvm.OverflowFlag.NO_SIGNED_WRAP])


def _module_of(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    while not isinstance(parent, ModuleOp):
        assert parent is not None
        parent = parent.parent_op()
    return parent


def _nsw(cls: type[Operation], a: SSAValue, b: SSAValue) -> Operation:
    return like((cls, a.type, "nsw"), lambda: cls(a, b, overflow=NSW), (a, b))


def element_pointer(e: Emit, base: SSAValue, t: MemRefType, indices: list[SSAValue]) -> SSAValue:
    """GEP inbounds to element `indices` of memref type `t` (indices are i64)."""
    strides, offset = static_layout(t)
    linear: SSAValue | None = None
    for idx, stride in zip(indices, strides, strict=True):
        term = idx if stride == 1 else e(_nsw(llvm.MulOp, idx, e.const(i64, stride)))
        linear = term if linear is None else e(_nsw(llvm.AddOp, linear, term))
    if offset:
        off = e.const(i64, offset)
        linear = off if linear is None else e(_nsw(llvm.AddOp, linear, off))
    if linear is None:
        return base
    elem = memory_type(t.element_type)
    return e(like(("llvm.getelementptr", elem, linear.type), lambda: llvm.GEPOp.from_mixed_indices(
        base, [linear], elem, inbounds=True), (base, linear)))


def load_element(e: Emit, ptr: SSAValue, elem) -> SSAValue:
    mem = memory_type(elem)
    value = e(like(("llvm.load", mem), lambda: llvm.LoadOp(ptr, mem), (ptr,)))
    if mem != llvm_type(elem):
        value = e(llvm.TruncOp(value, llvm_type(elem)))
    return value


def store_element(e: Emit, value: SSAValue, ptr: SSAValue) -> None:
    if isinstance(value.type, builtin.IntegerType) and value.type.width.data < 8:
        value = e(llvm.ZExtOp(value, builtin.i8))
    e(like(("llvm.store",), lambda: llvm.StoreOp(value, ptr), (value, ptr)))


class LoadStoreLowering(RewritePattern):
    OP_TYPES = (memref.LoadOp, memref.StoreOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, (memref.LoadOp, memref.StoreOp)):
            return
        e = Emit(rewriter)
        t = op.memref.type
        assert isinstance(t, MemRefType)
        indices = [to_llvm(rewriter, i) for i in op.indices]
        ptr = element_pointer(e, to_llvm(rewriter, op.memref), t, indices)
        if isinstance(op, memref.LoadOp):
            replace_with_values(rewriter, op, [load_element(e, ptr, t.element_type)])
        else:
            store_element(e, to_llvm(rewriter, op.value), ptr)
            rewriter.erase(op)


class AllocLowering(RewritePattern):
    OP_TYPES = (memref.AllocOp, memref.AllocaOp, memref.DeallocOp)

    def __init__(self) -> None:
        self._declared: set[tuple[int, str]] = set()  # (module, callee) declared in this run

    def _declare(self, op: Operation, name: str, inputs: list, output) -> None:
        """`declare_function` once per module and callee (a symbol lookup scans the module)."""
        module = _module_of(op)
        if (id(module), name) not in self._declared:
            declare_function(module, name, inputs, output)
            self._declared.add((id(module), name))

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if isinstance(op, memref.AllocOp):
            self._heap(op, rewriter)
        elif isinstance(op, memref.AllocaOp):
            t = op.memref.type
            static_layout(t)
            e = Emit(rewriter)
            align = max(op.alignment.value.data if op.alignment else 0, 16)
            n = e.const(i64, max(prod(t.get_shape()), 1))
            replace_with_values(rewriter, op, [e(llvm.AllocaOp(n, memory_type(t.element_type), align))])
        elif isinstance(op, memref.DeallocOp):
            self._declare(op, "free", [PTR], llvm.LLVMVoidType())
            ptr = to_llvm(rewriter, op.memref)
            Emit(rewriter)(like(("llvm.call", "free"), lambda: llvm.CallOp("free", ptr), (ptr,)))
            rewriter.erase(op)

    def _heap(self, op: memref.AllocOp, rewriter: PatternRewriter) -> None:
        t = op.memref.type
        strides, offset = static_layout(t)
        span = offset + sum((d - 1) * s for d, s in zip(t.get_shape(), strides)) + 1
        if 0 in t.get_shape():
            span = 1
        align = max(ALLOC_ALIGNMENT, op.alignment.value.data if op.alignment else 0)
        size = -(-span * byte_size(t.element_type) // align) * align  # aligned_alloc wants a multiple
        self._declare(op, "aligned_alloc", [i64, i64], PTR)
        e = Emit(rewriter)
        args = (e.const(i64, align), e.const(i64, size))
        ptr = e(like(("llvm.call", "aligned_alloc"),
                     lambda: llvm.CallOp("aligned_alloc", *args, return_type=PTR), args))
        replace_with_values(rewriter, op, [ptr])


_VIEWS = (memref.SubviewOp, memref.CastOp, memref.ReinterpretCastOp, memref.CollapseShapeOp,
          memref.ExpandShapeOp, memref.MemorySpaceCastOp, memref.AssumeAlignmentOp)


class ViewLowering(RewritePattern):
    """Views keep the base pointer; only their (static) type changes."""

    OP_TYPES = _VIEWS

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, _VIEWS):
            return
        result = op.results[0]
        assert isinstance(result.type, MemRefType)
        static_layout(result.type)
        replace_with_values(rewriter, op, [to_llvm(rewriter, op.operands[0])])


class MetadataLowering(RewritePattern):
    OP_TYPES = (memref.DimOp, memref.RankOp, memref.ExtractAlignedPointerAsIndexOp, memref.GetGlobalOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        e = Emit(rewriter)
        if isinstance(op, memref.DimOp):
            t = op.source.type
            idx = op.index.owner
            value = getattr(idx, "value", None)
            if not isinstance(value, IntegerAttr) or not isinstance(t, MemRefType):
                raise LoweringError("memref.dim needs a constant index")
            replace_with_values(rewriter, op, [e.const(i64, t.get_shape()[value.value.data])])
        elif isinstance(op, memref.RankOp):
            replace_with_values(rewriter, op, [e.const(i64, op.source.type.get_num_dims())])
        elif isinstance(op, memref.ExtractAlignedPointerAsIndexOp):
            replace_with_values(rewriter, op, [e(llvm.PtrToIntOp(to_llvm(rewriter, op.source)))])
        elif isinstance(op, memref.GetGlobalOp):
            name = op.name_.root_reference.data
            replace_with_values(rewriter, op, [e(llvm.AddressOfOp(name, PTR))])


class GlobalLowering(RewritePattern):
    """memref.global -> llvm.mlir.global (array of the memory element type),
    keeping the dense initial value; the translator lays out its bytes."""

    OP_TYPES = (memref.GlobalOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, memref.GlobalOp):
            return
        t = op.type
        assert isinstance(t, MemRefType)
        static_layout(t)
        n = max(prod(t.get_shape()), 1)
        array = llvm.LLVMArrayType(n, memory_type(t.element_type))
        value = op.initial_value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            value = None  # uninitialised: zero
        private = op.sym_visibility is not None and op.sym_visibility.data == "private"
        align = max(ALLOC_ALIGNMENT, op.alignment.value.data if op.alignment else 0)
        rewriter.replace(op, llvm.GlobalOp(
            array, op.sym_name, "private" if private else "external",
            constant=op.constant is not None, value=value, alignment=align))


class CopyLowering(RewritePattern):
    """memref.copy: one `llvm.memcpy` when both sides are dense with equal
    layouts, else a flat element loop (multi-index by div/rem of constants)."""
    OP_TYPES = (memref.CopyOp,)


    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, memref.CopyOp):
            return
        src_t, dst_t = op.source.type, op.destination.type
        assert isinstance(src_t, MemRefType) and isinstance(dst_t, MemRefType)
        src, dst = to_llvm(rewriter, op.source), to_llvm(rewriter, op.destination)
        shape = src_t.get_shape()
        n = prod(shape)
        e = Emit(rewriter)
        if n == 0:
            rewriter.erase(op)
            return
        if is_contiguous(src_t) and is_contiguous(dst_t):
            zeros = [e.const(i64, 0)] * len(shape)
            s = element_pointer(e, src, src_t, zeros)
            d = element_pointer(e, dst, dst_t, zeros)
            nbytes = e.const(i64, n * byte_size(src_t.element_type))
            e.intrinsic("llvm.memcpy.p0.p0.i64", [d, s, nbytes, e.const(i1, 0)], None)
            rewriter.erase(op)
            return
        self._loop(op, rewriter, src, dst, src_t, dst_t, n)

    @staticmethod
    def _loop(op, rewriter: PatternRewriter, src, dst, src_t, dst_t, n: int) -> None:
        block = op.parent_block()
        cont = split_before(block, op)
        header = Block(arg_types=[i64])
        body = Block()
        region = block.parent_region()
        region.insert_block_before(header, cont)
        region.insert_block_before(body, cont)
        e = Emit(rewriter, InsertPoint.at_end(block))
        e(llvm.BrOp(header, e.const(i64, 0)))
        e = Emit(rewriter, InsertPoint.at_end(header))
        k = header.args[0]
        e(llvm.CondBrOp(e.icmp("slt", k, e.const(i64, n)), body, [], cont, []))
        e = Emit(rewriter, InsertPoint.at_end(body))
        indices: list[SSAValue] = []
        rest = k
        for d in reversed(src_t.get_shape()):
            size = e.const(i64, d)
            indices.append(e(llvm.URemOp(rest, size)))
            rest = e(llvm.UDivOp(rest, size))
        indices.reverse()
        value = e(llvm.LoadOp(element_pointer(e, src, src_t, indices), memory_type(src_t.element_type)))
        e(llvm.StoreOp(value, element_pointer(e, dst, dst_t, indices)))
        e(llvm.BrOp(header, e(llvm.AddOp(k, e.const(i64, 1), overflow=NSW))))
        rewriter.erase(op)


@dataclass(frozen=True)
class ConvertMemRefToLLVM(ModulePass):
    """memref ops with static layouts -> pointer arithmetic on !llvm.ptr."""

    name = "convert-memref-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        # one walk: no pattern creates memref ops
        rewrite_in_order(op, [(p, p.OP_TYPES) for p in (GlobalLowering(), MetadataLowering(), ViewLowering(),
                                                         LoadStoreLowering(), AllocLowering(), CopyLowering())])
