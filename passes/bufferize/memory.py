"""Memref helpers for `bufferize`: tensor->memref types, strided view types,
copies (as memref `linalg.generic`, so linalg-to-loops handles them like any
other loop), constant globals, and dealloc insertion after the last use."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.dialects.builtin import (AffineMapAttr, DenseIntOrFPElementsAttr, IndexType, IntegerAttr, MemRefType,
                                   ModuleOp, NoneAttr, StridedLayoutAttr, StringAttr, TensorType, UnitAttr)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.dialects.linalg.attrs import IteratorTypeAttr

from minixla.passes.fast_build import like


_MEMREFS: dict[tuple[Attribute, tuple[int, ...]], MemRefType] = {}


def identity_memref(element_type: Attribute, shape: Sequence[int]) -> MemRefType:
    """`MemRefType(element_type, shape)`, memoized: xDSL's constructor re-checks its parameters
    against their constraints (~50 us each, a third of bufferize on the MLP step), and a program
    uses few distinct types (attributes are immutable values, so sharing them is safe)."""
    key = (element_type, tuple(shape))
    m = _MEMREFS.get(key)
    if m is None:
        if len(_MEMREFS) > 4096:  # the bound keeps a long-lived process flat
            _MEMREFS.clear()
        m = _MEMREFS[key] = MemRefType(element_type, shape)
    return m


def memref_type(t: Attribute) -> Attribute:
    """The identity-layout memref of a tensor type; other types unchanged."""
    if isinstance(t, TensorType):
        return identity_memref(t.element_type, t.get_shape())
    return t


def row_major(shape: Sequence[int]) -> list[int]:
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return strides[::-1]


def strides_offset(t: MemRefType) -> tuple[list[int], int]:
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = [s.data if hasattr(s, "data") else int(s) for s in layout.strides.data]
        off = layout.offset
        return strides, (off.data if hasattr(off, "data") else int(off))
    return row_major(t.get_shape()), 0


def is_identity(t: Attribute) -> bool:
    if not isinstance(t, MemRefType):
        return False
    if isinstance(t.layout, NoneAttr):
        return True
    strides, off = strides_offset(t)
    return off == 0 and strides == row_major(t.get_shape())


def subview(block: Block, src: SSAValue, offsets: Sequence[int], sizes: Sequence[int],
            steps: Sequence[int]) -> SSAValue:
    st = src.type
    assert isinstance(st, MemRefType)
    strides, off = strides_offset(st)
    new_strides = [s * k for s, k in zip(strides, steps)]
    new_off = off + sum(o * s for o, s in zip(offsets, strides))
    rt = MemRefType(st.element_type, list(sizes), StridedLayoutAttr(new_strides, new_off))
    op = memref.SubviewOp(src, [], [], [], list(offsets), list(sizes), list(steps), rt)
    block.add_op(op)
    return op.result


def copy(block: Block, src: SSAValue, dst: SSAValue) -> None:
    """dst[...] = src[...] as an elementwise memref generic."""
    rank = len(dst.type.get_shape())  # type: ignore[attr-defined]
    body = Block(arg_types=[src.type.element_type, dst.type.element_type])  # type: ignore[attr-defined]
    body.add_op(YieldOp(body.args[0]))
    ident = AffineMapAttr(AffineMap.identity(rank))
    block.add_op(GenericOp([src], [dst], Region(body), [ident, ident],
                                  [IteratorTypeAttr.parallel()] * rank))


def copy_to_offsets(block: Block, src: SSAValue, dst: SSAValue, offsets: Sequence[SSAValue | int],
                    steps: Sequence[int]) -> None:
    """dst[offsets + steps * i] = src[i] for every index i of `src`, at offsets known only at run time:
    an `scf.parallel` over `src` (a strided view's offset is static in our memref types, so the
    window cannot be a `memref.subview`). Only the window is written, so the cost is the update's
    size whatever the size of `dst`; a big window is threaded like any parallel loop."""
    shape = src.type.get_shape()  # type: ignore[attr-defined]
    offsets = [_index(block, o) if isinstance(o, int) else o for o in offsets]
    body = Block(arg_types=[IndexType()] * len(shape))
    zero, one = _index(block, 0), _index(block, 1)
    block.add_op(scf.ParallelOp([zero] * len(shape), [_index(block, n) for n in shape], [one] * len(shape),
                                Region(body)))
    at = []
    for iv, off, step in zip(body.args, offsets, steps):
        if step != 1:
            iv = _add(body, arith.MuliOp(iv, _index(body, step)))
        at.append(_add(body, arith.AddiOp(off, iv)))
    value = _add(body, memref.LoadOp.get(src, list(body.args)))
    body.add_op(memref.StoreOp.get(value, dst, at))
    body.add_op(scf.ReduceOp())


def _add(block: Block, op: Operation) -> SSAValue:
    block.add_op(op)
    return op.results[0]


def _index(block: Block, value: int) -> SSAValue:
    return _add(block, arith.ConstantOp(IntegerAttr(value, IndexType())))


def alloc(block: Block, t: MemRefType) -> SSAValue:
    op = like(("memref.alloc", t.element_type, tuple(t.get_shape())),
              lambda: memref.AllocOp([], [], identity_memref(t.element_type, t.get_shape()), alignment=None), ())
    block.add_op(op)
    return op.memref


class Globals:
    """Dense tensor constants as private constant `memref.global`s (deduplicated)."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.names: dict[DenseIntOrFPElementsAttr, str] = {}
        self.count = 0
        self.last_global: memref.GlobalOp | None = None

    def get(self, block: Block, value: DenseIntOrFPElementsAttr) -> SSAValue:
        t = memref_type(value.type)
        name = self.names.get(value)
        if name is None:
            name = f"__minixla_const_{self.count}"
            self.count += 1
            self.names[value] = name
            glob = memref.GlobalOp.get(StringAttr(name), t, value, StringAttr("private"), UnitAttr(), 64)
            top = self.module.body.block
            if self.last_global is not None:
                top.insert_op_after(glob, self.last_global)
            elif top.first_op is not None:
                top.insert_op_before(glob, top.first_op)
            else:
                top.add_op(glob)
            self.last_global = glob
        op = memref.GetGlobalOp(name, t)
        block.add_op(op)
        return op.memref


def insert_deallocs(block: Block, owned: dict[SSAValue, set[SSAValue]]) -> None:
    """For each owned allocation (root -> every memref aliasing it) defined in
    `block`, free it after the last op of `block` that touches an alias
    (before the terminator if the terminator is that op). One walk of the block
    records each value's last user among its ops (a nested use counts for the
    op that holds it), so this is linear in the block, not ops x allocations."""
    ops = list(block.ops)
    last_user: dict[SSAValue, int] = {}
    views: list[Operation] = []  # ops of `block` that may return a view of a memref operand
    for i, op in enumerate(ops):
        for o in op.walk():
            for v in o.operands:
                last_user[v] = i
        if _may_view(op):
            views.append(op)
    # A view made while lowering one op (the subview a pad writes its operand into) is bound to no
    # tensor, so it is in no alias set: its uses keep its sources alive. Views follow their sources
    # in the block, so one backward sweep carries chains of views.
    for op in reversed(views):
        last = max((last_user.get(r, -1) for r in op.results), default=-1)
        for v in op.operands:
            if isinstance(v.type, MemRefType) and last > last_user.get(v, -1):
                last_user[v] = last
    for root, aliases in owned.items():
        uses = [last_user[a] for a in aliases if a in last_user]
        last = ops[max(uses)] if uses else None
        dealloc = like(("memref.dealloc",), lambda: memref.DeallocOp.get(root), (root,))
        if last is None:
            owner = root.owner
            assert isinstance(owner, Operation)
            block.insert_op_after(dealloc, owner)
        elif _is_terminator(last):
            block.insert_op_before(dealloc, last)
        else:
            block.insert_op_after(dealloc, last)


def _may_view(op: Operation) -> bool:
    """Conservatively: an op taking and returning memrefs may return a view of an operand."""
    return any(isinstance(r.type, MemRefType) for r in op.results) and any(
        isinstance(v.type, MemRefType) for v in op.operands)


def _is_terminator(op: Operation) -> bool:
    from xdsl.traits import IsTerminator

    return op.has_trait(IsTerminator)
