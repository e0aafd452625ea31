"""Blocked patches for the BLAS path (part of `convert-linalg-to-blas`).

A convolution reaches the gemm as `A = alloc; P: A[...] = f(x) (all-parallel
copy, im2col); G: c += A . b (contraction)`. Materialising all of A costs more
than the gemm (a ResNet layer's A is 58 MiB: written once through fresh pages,
read once by gemm). Here A is instead built one block of its leading dims at a
time into one small reused buffer (`BLOCK_ELEMENTS`, cache-sized; more for long
rows, `MIN_BLOCK_ROWS`), each block
followed by its gemm call on the matching slice of c (blocks over m dims) or
of b, accumulating (blocks over k dims, e.g. the kernel gradient). The block's
copy is an `scf.parallel` (threaded by `convert-parallel-loops-to-threads`),
the calls stay sequential (OpenBLAS threads itself).
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, StridedLayoutAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from minixla.passes.linalg_to_loops import Emit, inline_body
from minixla.passes.lower_to_llvm.common import static_layout

#: elements of one block of patches: 4 MiB of f32, in the last-level cache between copy and gemm; big
#: enough that the two fork-joins per block (copy, gemm) cost little (2^18: conv 1.4-1.7x its matmul
#: form, 2^20: 1.1-1.2x, 2^22: no better; 8x56x56x64 3x3 conv, 2 cores)
BLOCK_ELEMENTS = 1 << 20
#: blocks over m dims hold at least this many rows of patches, up to 4 x BLOCK_ELEMENTS: every block's
#: gemm packs all of b again and costs ~11 fork-joins, so a long patch row (large k) wants more rows
#: than 2^20 elements give (8x28x28x256 3x3 conv, k = 2304: 392-row blocks 269 GFLOP/s, 1568-row 312;
#: 8x14x14x512, k = 4608: +7% CPU time per core; k = 576 keeps its 1568-row blocks; 2 cores)
MIN_BLOCK_ROWS = 2048


def _producer(a: SSAValue, g: GenericOp) -> tuple[GenericOp, Operation] | None:
    """(P, dealloc) when `a` is a fresh buffer written only by an
    all-parallel identity-output generic P before `g` and freed after it."""
    if not isinstance(a, OpResult) or not isinstance(a.op, memref.AllocOp):
        return None
    users = [u.operation for u in a.uses]
    prods = [u for u in users if isinstance(u, GenericOp) and list(u.outputs) == [a] and a not in u.inputs]
    deallocs = [u for u in users if isinstance(u, memref.DeallocOp)]
    if len(prods) != 1 or len(deallocs) != 1 or len(users) != 3 or g not in users:
        return None
    p = prods[0]
    rank = len(a.type.get_shape())  # type: ignore[attr-defined]
    if p.parent_block() is not g.parent_block() or p.body.block.args[-1].uses or \
            any(str(it.data) != "parallel" for it in p.iterator_types) or \
            p.indexing_maps.data[-1].data != AffineMap.identity(rank):
        return None
    return p, deallocs[0]


def _between_ok(p: GenericOp, g: GenericOp, c: SSAValue) -> list[Operation] | None:
    """The deallocs between P and G (moved after G), or None when an op there
    could write P's inputs (P then cannot move down to G)."""
    moved, op = [], p.next_op
    while op is not None and op is not g:
        if isinstance(op, memref.DeallocOp):
            moved.append(op)
        elif isinstance(op, (FillOp, GenericOp)):
            if list(op.outputs) != [c] or any(v in p.inputs for v in op.outputs):
                return None
        elif not isinstance(op, (arith.ConstantOp, memref.AllocOp)):
            return None
        op = op.next_op
    return moved if op is g else None


def _block_limit(shape: list[int], groups: list[str]) -> int:
    """Elements of one block: BLOCK_ELEMENTS, more for m blocks of long rows (MIN_BLOCK_ROWS)."""
    if groups[0] != "m":
        return BLOCK_ELEMENTS
    row = prod(n for n, grp in zip(shape, groups) if grp != "m")
    return min(4 * BLOCK_ELEMENTS, max(BLOCK_ELEMENTS, MIN_BLOCK_ROWS * row))


def _block_shape(shape: list[int], groups: list[str], limit: int) -> tuple[int, int] | None:
    """(p, r): loop A's dims before p, dim p in chunks of r, keep the rest:
    a block of at most `limit` elements, with all looped dims in one group."""
    for p in range(len(shape)):
        inner = prod(shape[p + 1:])
        if inner > limit:
            continue
        if groups[p] != groups[0]:
            return None
        fits = [v for v in range(1, shape[p] + 1) if shape[p] % v == 0 and v * inner <= limit]
        r = max(fits, default=1)
        return None if p == 0 and r == shape[0] else (p, r)
    return None


def _for(e: Emit, n: int, bodies: list[Block]) -> tuple[Emit, SSAValue]:
    body = Block(arg_types=[IndexType()])
    e(scf.ForOp(e.index(0), e.index(n), e.index(1), [], Region(body)))
    bodies.append(body)
    return Emit(body), body.args[0]


def block_patches(g: GenericOp, plan_gemm, emit_gemm, _zero_fill_before) -> bool:
    """Rewrite G's patches operand into blocks (see module doc); False when
    the pattern does not match (G is then left for the plain gemm path).
    The gemm planning and emission come from the caller (convert-linalg-to-blas),
    so this module depends on nothing above it."""
    if plan_gemm(g) is None:
        return False
    maps = [m.data for m in g.indexing_maps]
    for ai in (0, 1):
        found = _producer(g.inputs[ai], g)
        if found is not None:
            break
    else:
        return False
    p, a_dealloc = found
    a, b, c = g.inputs[ai], g.inputs[1 - ai], g.outputs[0]
    moved = _between_ok(p, g, c)
    if moved is None:
        return False
    a_map, b_map, c_map = maps[ai], maps[1 - ai], maps[2]
    used = {name: {r.position for r in m.results if isinstance(r, AffineDimExpr)}
            for name, m in (("b", b_map), ("c", c_map))}
    loop_of = [r.position for r in a_map.results]  # all dims (plan_gemm checked)
    groups = [("m" if j in used["c"] else "?") if j not in used["b"] else ("k" if j not in used["c"] else "?")
              for j in loop_of]
    shape = list(a.type.get_shape())  # type: ignore[attr-defined]
    if groups[0] == "?":
        return False
    limit = _block_limit(shape, groups)
    if prod(shape) <= limit:
        return False
    choice = _block_shape(shape, groups, limit)
    if choice is None:
        return False
    pos, r = choice
    elem = a.type.element_type  # type: ignore[attr-defined]
    esize = elem.bitwidth // 8  # type: ignore[attr-defined]

    # block operands, detached until the plan is known to exist
    bshape = [1] * pos + [r] + shape[pos + 1:]
    buf_op = memref.AllocOp([], [], MemRefType(elem, bshape), alignment=None)
    views: list[tuple[SSAValue, Operation | None, list[tuple[int, int]]]] = []  # value, subview, (A dim, stride)
    for v, m in ((b, b_map), (c, c_map)):
        hits = [(q, i) for q, j in enumerate(loop_of[:pos + 1]) for i, rr in enumerate(m.results)
                if isinstance(rr, AffineDimExpr) and rr.position == j]
        if not hits:
            views.append((v, None, []))
            continue
        strides, off = static_layout(v.type)  # type: ignore[arg-type]
        vshape = list(v.type.get_shape())  # type: ignore[attr-defined]
        for q, i in hits:
            vshape[i] = 1 if q < pos else r
        rt = MemRefType(elem, vshape, StridedLayoutAttr(list(strides), off))
        sv = memref.SubviewOp(v, [], [], [], [0] * len(vshape), vshape, [1] * len(vshape), rt)
        views.append((sv.result, sv, [(q, strides[i]) for q, i in hits]))
    ins = [buf_op.memref, views[0][0]] if ai == 0 else [views[0][0], buf_op.memref]
    g2 = GenericOp(ins, [views[1][0]], g.body.clone(), g.indexing_maps, g.iterator_types)
    plan = plan_gemm(g2)
    if plan is None or plan.empty:
        for o in (g2, *[sv for _, sv, _ in views if sv is not None], buf_op):
            o.erase()
        return False
    m_blocks = groups[0] == "m"
    fill = _zero_fill_before(g, c) if m_blocks and not plan.k_looped else None

    block = g.parent_block()
    assert block is not None
    top = Block()
    e = Emit(top)
    e(buf_op)
    ivs: list[SSAValue] = []
    bodies: list[Block] = []
    inner = e
    for q in range(pos):
        inner, iv = _for(inner, shape[q], bodies)
        ivs.append(iv)
    if shape[pos] // r > 1:
        inner, chunk = _for(inner, shape[pos] // r, bodies)
        ivs.append(inner(arith.MuliOp(chunk, inner.index(r))))
    else:
        ivs.append(inner.index(0))
    # the block's copy: P's body at global indices (outer ivs + local), stored locally
    local = [r, *shape[pos + 1:]]
    body = Block(arg_types=[IndexType()] * len(local))
    zero, one = inner.index(0), inner.index(1)
    inner(scf.ParallelOp([zero] * len(local), [inner.index(s) for s in local], [one] * len(local), Region(body)))
    pe = Emit(body)
    gidx = [*ivs[:pos], pe(arith.AddiOp(ivs[pos], body.args[0])), *body.args[1:]]
    pmaps = [m.data for m in p.indexing_maps]
    (val,) = inline_body(p, pe, pmaps, gidx, list(p.inputs), [None])
    pe(memref.StoreOp.get(val, buf_op.memref, [*[pe.index(0)] * pos, *body.args]))
    pe(scf.ReduceOp())
    # the block's gemm: views at offset 0 plus the block's byte offset
    extra: dict[SSAValue, SSAValue] = {}
    for v, sv, hits in views:
        if sv is None:
            continue
        inner(sv)
        off = None
        for q, stride in hits:
            term = inner(arith.MuliOp(ivs[q], inner.index(stride * esize)))
            off = term if off is None else inner(arith.AddiOp(off, term))
        extra[v] = off  # type: ignore[assignment]
    inner(g2)
    for body_block in bodies:
        body_block.add_op(scf.YieldOp())
    for o in list(top.ops):
        o.detach()
        block.insert_op_before(o, g)
    emit_gemm(plan, g2, extra, beta_zero=fill is not None)
    for o in moved:
        o.detach()
    for o in (memref.DeallocOp.get(buf_op.memref), *moved):
        block.insert_op_after(o, g)
    for o in (g, p, a_dealloc, *([fill] if fill is not None else [])):
        o.detach()
        o.erase()
    alloc_op = a.owner
    alloc_op.detach()  # type: ignore[union-attr]
    alloc_op.erase()  # type: ignore[union-attr]
    return True


__all__ = ["BLOCK_ELEMENTS", "MIN_BLOCK_ROWS", "block_patches"]
