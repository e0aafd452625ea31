"""sort -> a stable bottom-up merge sort in `scf.for` loops on tensors, the
comparator region inlined as scalar ops.

It is the interpreter's merge sort step for step (runs of width 1, 2, 4...;
a merge takes from the right run only when `comparator(right, left)` holds),
so even a comparator that is not a strict weak order (FLOAT compare with
NaNs) gives the same permutation. All operands move together. Passes go in
pairs (src -> scratch, scratch -> src) inside one loop, so the carried
buffers are updated in place after bufferize and no pass copies.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Block, Operation, Region, SSAValue

from minixla.dialects import hlo
from minixla.passes.hlo_to_linalg.common import Emitter, elem, empty, shape_of
from minixla.passes.hlo_to_linalg.indexing import check_region_types, loop_nest
from minixla.passes.hlo_to_linalg.scalar_region import inline_scalar_region
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering


def _merge_pass(e: Emitter, op: Operation, srcs: Sequence[SSAValue], dsts: Sequence[SSAValue], w: SSAValue,
                dim: int) -> list[SSAValue]:
    """One bottom-up pass: merge runs [lo, lo+w) and [lo+w, lo+2w) of every
    1-d slice of `srcs` along `dim` into `dsts`."""
    shape = shape_of(srcs[0])
    n = shape[dim]
    outer = [s for k, s in enumerate(shape) if k != dim]
    types = [elem(s.type) for s in srcs]

    def slice_body(b: Emitter, ivs, dst):
        two_w = b(arith.MuliOp(w, b.index(2)))
        nn = b.index(n)

        def at(i: SSAValue) -> list[SSAValue]:
            return [*ivs[:dim], i, *ivs[dim:]]

        blk = Block(arg_types=[IndexType(), *[d.type for d in dst]])
        lb = Emitter(blk)
        lo = blk.args[0]
        mid = lb(arith.MinSIOp(lb(arith.AddiOp(lo, w)), nn))
        hi = lb(arith.MinSIOp(lb(arith.AddiOp(lo, two_w)), nn))
        # merge loop: k over [lo, hi) carrying (i, j, dst...)
        mblk = Block(arg_types=[IndexType(), IndexType(), IndexType(), *[d.type for d in dst]])
        m = Emitter(mblk)
        k, i, j, cur = mblk.args[0], mblk.args[1], mblk.args[2], list(mblk.args[3:])
        last = m.index(max(n - 1, 0))
        ic, jc = m(arith.MinSIOp(i, last)), m(arith.MinSIOp(j, last))
        a = [m(tensor.ExtractOp(s, at(ic), t)) for s, t in zip(srcs, types)]
        bv = [m(tensor.ExtractOp(s, at(jc), t)) for s, t in zip(srcs, types)]
        less = inline_scalar_region(m, op.comparator, [v for pair in zip(bv, a) for v in pair])[0]
        i_ok = m(arith.CmpiOp(i, mid, "slt"))
        j_ok = m(arith.CmpiOp(j, hi, "slt"))
        true = m.const(1, IntegerType(1))
        take_b = m(arith.AndIOp(j_ok, m(arith.OrIOp(m(arith.XOrIOp(i_ok, true)), less))))
        one = m.index(1)
        i2 = m(arith.SelectOp(take_b, i, m(arith.AddiOp(i, one))))
        j2 = m(arith.SelectOp(take_b, m(arith.AddiOp(j, one)), j))
        new = [m(tensor.InsertOp(m(arith.SelectOp(take_b, y, x)), d, at(k))) for x, y, d in zip(a, bv, cur)]
        m.op(scf.YieldOp(i2, j2, *new))
        merged = lb.op(scf.ForOp(lo, hi, lb.index(1), [lo, mid, *blk.args[1:]], Region(mblk)))
        lb.op(scf.YieldOp(*merged.results[2:]))
        runs = b.op(scf.ForOp(b.index(0), nn, two_w, list(dst), Region(blk)))
        return list(runs.results)

    return loop_nest(e, outer, dsts, slice_body)


@lowering(hlo.SortOp)
def lower_sort(lw: Lowerer, op: Operation):
    xs = lw.vs(op.inputs)
    check_region_types(op, op.comparator, [elem(v.type) for v in op.inputs for _ in range(2)])
    shape = shape_of(xs[0])
    if not shape:
        return xs
    dim = op.sort_dimension
    n = shape[dim]
    if n <= 1 or any(s == 0 for s in shape):
        return xs
    passes = (n - 1).bit_length()  # ceil(log2 n): run widths 1, 2, ..., < n
    pairs = (passes + 1) // 2  # an extra pass with width >= n copies: harmless
    e = lw.e
    blk = Block(arg_types=[IndexType(), IndexType(), *[x.type for x in xs]])
    b = Emitter(blk)
    w, srcs = blk.args[1], list(blk.args[2:])
    scratch = [empty(b, shape, elem(x.type)) for x in xs]
    tmp = _merge_pass(b, op, srcs, scratch, w, dim)
    w2 = b(arith.MuliOp(w, b.index(2)))
    out = _merge_pass(b, op, tmp, srcs, w2, dim)
    b.op(scf.YieldOp(b(arith.MuliOp(w2, b.index(2))), *out))
    loop = e.op(scf.ForOp(e.index(0), e.index(pairs), e.index(1), [e.index(1), *xs], Region(blk)))
    return list(loop.results[1:])
