"""gather, scatter and select_and_scatter.

gather is a `linalg.generic` over the result that computes each operand index
from `linalg.index` values and `tensor.extract`s of the (clamped) start
indices: the indices are runtime data, which affine maps cannot carry.

scatter and the second half of select_and_scatter must apply updates to the
same element in order (the spec lets the schedule be anything; the
interpreter, and so we, use the row-major order of `updates`), so they are
serial `scf.for` nests on tensors with `tensor.extract`/`tensor.insert`,
which bufferize turns into in-place loads/stores. Out-of-bounds updates are
made branch-free: the index is clamped, and the old value is written back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import IndexType, IntegerType, TensorType, i64
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.base import ints
from minixla.dialects.hlo_ops.reduction import padding_pairs

from minixla.passes.hlo_to_linalg.common import (PARALLEL, REDUCTION, Emitter, amap, elem, empty, fill, generic, kind, shape_of, signless,
                     unsupported, width)
from minixla.passes.hlo_to_linalg.scalar_region import inline_scalar_region
from minixla.passes.hlo_to_linalg.shape import reshape
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering

LoopBody = Callable[[Emitter, Sequence[SSAValue], Sequence[SSAValue]], Sequence[SSAValue]]


def loop_nest(e: Emitter, bounds: Sequence[int], carried: Sequence[SSAValue], body: LoopBody) -> list[SSAValue]:
    """Nested `scf.for` over `bounds` (row-major: the last bound innermost)
    carrying `carried`; `body(emitter, ivs, values)` returns the new values."""
    if not bounds:
        return list(body(e, [], carried))

    def level(b: Emitter, k: int, ivs: list[SSAValue], vals: Sequence[SSAValue]) -> list[SSAValue]:
        blk = Block(arg_types=[IndexType(), *[v.type for v in vals]])
        inner = Emitter(blk)
        iv, args = blk.args[0], list(blk.args[1:])
        if k + 1 < len(bounds):
            out = level(inner, k + 1, [*ivs, iv], args)
        else:
            out = list(body(inner, [*ivs, iv], args))
        inner.op(scf.YieldOp(*out))
        loop = b.op(scf.ForOp(b.index(0), b.index(bounds[k]), b.index(1), list(vals), Region(blk)))
        return list(loop.results)

    return level(e, 0, [], carried)


def index_of(b: Emitter, v: SSAValue, t: Attribute) -> SSAValue:
    """An integer index scalar of hlo type `t` as a signed `index` (unsigned
    values zero-extend; a ui64 above 2**63 - 1 becomes negative, i.e. out of bounds)."""
    if width(t) < 64:
        v = b((arith.ExtUIOp if kind(t) == "uint" else arith.ExtSIOp)(v, i64))
    return b(arith.IndexCastOp(v, IndexType()))


def clamped_index(b: Emitter, v: SSAValue, t: Attribute, hi: int) -> SSAValue:
    """clamp(v, 0, hi) as an `index`, comparing unsigned values as unsigned (spec)."""
    if kind(t) == "uint" and width(t) == 64:
        v = b(arith.MinUIOp(v, b.const(hi, i64)))
    i = index_of(b, v, t)
    return b(arith.MaxSIOp(b(arith.MinSIOp(i, b.index(hi))), b.index(0)))


def read_index_vector(b: Emitter, indices: SSAValue, batch: Sequence[SSAValue], ivd: int, count: int) -> list[SSAValue]:
    """The `count` components of the index vector at batch position `batch`
    (`:` inserted at `index_vector_dim`, or a trailing implicit size-1 dim)."""
    et = elem(indices.type)
    rank = len(shape_of(indices))
    if ivd >= rank:
        return [b(tensor.ExtractOp(indices, list(batch), et))]
    out = []
    for k in range(count):
        pos = [*batch[:ivd], b.index(k), *batch[ivd:]]
        out.append(b(tensor.ExtractOp(indices, pos, et)))
    return out


def _batch_pos(d_start: int, ivd: int) -> int:
    return d_start - (0 if d_start < ivd else 1)


def _in_range(b: Emitter, i: SSAValue, n: int) -> SSAValue:
    return b(arith.AndIOp(b(arith.CmpiOp(i, b.index(0), "sge")), b(arith.CmpiOp(i, b.index(n), "slt"))))


def _clamp(b: Emitter, i: SSAValue, n: int) -> SSAValue:
    return b(arith.MaxSIOp(b(arith.MinSIOp(i, b.index(max(n - 1, 0)))), b.index(0)))


def _prod(xs: Sequence[int]) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def check_region_types(op: Operation, region: Region, types: Sequence[Attribute]) -> None:
    got = [signless(elem(a.type)) for a in region.block.args]
    want = [signless(t) for t in types]
    if got != want:
        raise unsupported(op, "region arguments of a type other than the element types are not supported")


# -- gather ----------------------------------------------------------------------


@lowering(hlo.GatherOp)
def lower_gather(lw: Lowerer, op: Operation):
    x, idx = lw.v(op.operand), lw.v(op.start_indices)
    it = elem(op.start_indices.type)
    dn = op.dimension_numbers
    sizes = ints(op.slice_sizes)
    xs, rs = shape_of(x), shape_of(op.result.type)
    rank, out_rank = len(xs), len(rs)
    offset_dims = list(dn.offset_dims)
    batch_dims = [d for d in range(out_rank) if d not in offset_dims]
    collapsed, obatch = list(dn.collapsed_slice_dims), list(dn.operand_batching_dims)
    sbatch, smap, ivd = list(dn.start_indices_batching_dims), list(dn.start_index_map), dn.index_vector_dim
    window_dims = [d for d in range(rank) if d not in collapsed and d not in obatch]
    out = empty(lw.e, rs, elem(x.type))
    if _prod(rs) == 0:
        return [out]
    if _prod(xs) == 0:
        raise unsupported(op, "gathering a non-empty result from an empty operand reads out of bounds")

    def body(b: Emitter, a):
        ri = [b(IndexOp(d)) for d in range(out_rank)]
        batch = [ri[d] for d in batch_dims]
        starts = read_index_vector(b, idx, batch, ivd, len(smap))
        full: list[SSAValue | None] = [None] * rank
        for k, dd in enumerate(smap):
            full[dd] = clamped_index(b, starts[k], it, xs[dd] - sizes[dd])
        for ob, sb in zip(obatch, sbatch):
            full[ob] = batch[_batch_pos(sb, ivd)]
        for w, dd in enumerate(window_dims):
            off = ri[offset_dims[w]]
            full[dd] = off if full[dd] is None else b(arith.AddiOp(full[dd], off))
        pos = [v if v is not None else b.index(0) for v in full]
        return [b(tensor.ExtractOp(x, pos, elem(x.type)))]

    return generic(lw.e, [], [out], [amap(out_rank, list(range(out_rank)))], [PARALLEL] * out_rank, body)


# -- scatter ---------------------------------------------------------------------


@lowering(hlo.ScatterOp)
def lower_scatter(lw: Lowerer, op: Operation):
    xs, idx, ups = lw.vs(op.inputs), lw.v(op.scatter_indices), lw.vs(op.updates)
    it = elem(op.scatter_indices.type)
    n = len(xs)
    check_region_types(op, op.update_computation, [elem(v.type) for v in (*op.inputs, *op.inputs)])
    dn = op.scatter_dimension_numbers
    shape, us = shape_of(xs[0]), shape_of(ups[0])
    rank = len(shape)
    uwd = list(dn.update_window_dims)
    inserted, ibatch = list(dn.inserted_window_dims), list(dn.input_batching_dims)
    sbatch, sdims, ivd = list(dn.scatter_indices_batching_dims), list(dn.scatter_dims_to_operand_dims), dn.index_vector_dim
    usd = [d for d in range(len(us)) if d not in uwd]
    window_dims = [d for d in range(rank) if d not in inserted and d not in ibatch]
    if _prod(us) == 0 or _prod(shape) == 0:
        return xs

    def body(b: Emitter, ivs, res):
        usi = [ivs[d] for d in usd]
        starts = [index_of(b, s, it) for s in read_index_vector(b, idx, usi, ivd, len(sdims))]
        full: list[SSAValue | None] = [None] * rank
        for k, dd in enumerate(sdims):
            full[dd] = starts[k]
        for ib, sb in zip(ibatch, sbatch):
            v = usi[_batch_pos(sb, ivd)]
            full[ib] = v if full[ib] is None else b(arith.AddiOp(full[ib], v))
        for w, dd in enumerate(window_dims):
            v = ivs[uwd[w]]
            full[dd] = v if full[dd] is None else b(arith.AddiOp(full[dd], v))
        pos = [v if v is not None else b.index(0) for v in full]
        ok = None
        for dd, p in enumerate(pos):
            if full[dd] is not None:
                r = _in_range(b, p, shape[dd])
                ok = r if ok is None else b(arith.AndIOp(ok, r))
        if ok is None:
            ok = b.const(1, IntegerType(1))
        pos = [_clamp(b, p, shape[dd]) if full[dd] is not None else p for dd, p in enumerate(pos)]
        cur = [b(tensor.ExtractOp(r, pos, elem(r.type))) for r in res]
        upd = [b(tensor.ExtractOp(u, list(ivs), elem(u.type))) for u in ups]
        new = inline_scalar_region(b, op.update_computation, [*cur, *upd])
        return [b(tensor.InsertOp(b(arith.SelectOp(ok, v, c)), r, pos)) for v, c, r in zip(new, cur, res)]

    return loop_nest(lw.e, us, xs, body)[:n]


# -- select_and_scatter -------------------------------------------------------------


@lowering(hlo.SelectAndScatterOp)
def lower_select_and_scatter(lw: Lowerer, op: Operation):
    """1) a reduction generic over (source dims, window dims) folds `select`
    over each window's in-bounds elements, in row-major window order, into
    (selected value, flat operand position, any-valid flag); 2) a serial loop
    over the source combines each source value into its selected position of
    a flattened result filled with the init value."""
    x, src, init = lw.v(op.operand), lw.v(op.source), lw.v(op.init_value)
    t = elem(op.operand.type)
    st = signless(t)
    check_region_types(op, op.select, [t, t])
    check_region_types(op, op.scatter, [t, t])
    xs, ss = shape_of(x), shape_of(src)
    rank = len(xs)
    window = ints(op.window_dimensions) or (1,) * rank
    strides = ints(op.window_strides) or (1,) * rank
    lows = [p[0] for p in padding_pairs(op.padding, rank)]
    result = fill(lw.e, init, xs)
    if _prod(xs) == 0 or _prod(ss) == 0:
        return [result]
    flat_strides = [_prod(xs[k + 1:]) for k in range(rank)]
    e = lw.e
    zero = e.const(0.0 if kind(t) == "float" else 0, st)
    outs = [fill(e, zero, ss), fill(e, e.const(0, i64), ss), fill(e, e.const(0, IntegerType(1)), ss)]
    win = e(tensor.EmptyOp([], TensorType(st, list(window))))  # carries the window loop bounds
    loops = 2 * rank
    out_map = amap(loops, list(range(rank)))

    def select_body(b: Emitter, a):
        _, sel, pos, have = a
        valid = b.const(1, IntegerType(1))  # rank 0: the only element
        clipped, flat = [], b.const(0, i64)
        for k in range(rank):
            p = b(arith.AddiOp(b(arith.MuliOp(b(IndexOp(k)), b.index(strides[k]))), b(IndexOp(rank + k))))
            p = b(arith.SubiOp(p, b.index(lows[k])))
            valid = b(arith.AndIOp(valid, _in_range(b, p, xs[k])))
            c = _clamp(b, p, xs[k])
            clipped.append(c)
            flat = b(arith.AddiOp(flat, b(arith.MuliOp(b(arith.IndexCastOp(c, i64)), b.const(flat_strides[k], i64)))))
        cand = b(tensor.ExtractOp(x, clipped, st))
        keep = b(arith.AndIOp(inline_scalar_region(b, op.select, [sel, cand])[0], have))
        take = b(arith.AndIOp(valid, b(arith.XOrIOp(keep, b.const(1, IntegerType(1))))))
        return [b(arith.SelectOp(take, cand, sel)), b(arith.SelectOp(take, flat, pos)), b(arith.OrIOp(have, valid))]

    _, pos, have = generic(e, [win], outs, [amap(loops, [rank + k for k in range(rank)]), out_map, out_map, out_map],
                           [PARALLEL] * rank + [REDUCTION] * rank, select_body)
    flat_result = reshape(e, result, [_prod(xs)])

    def scatter_body(b: Emitter, ivs, res):
        ok = b(tensor.ExtractOp(have, list(ivs), IntegerType(1)))
        p = b(arith.IndexCastOp(b(tensor.ExtractOp(pos, list(ivs), i64)), IndexType()))
        cur = b(tensor.ExtractOp(res[0], [p], st))
        v = b(tensor.ExtractOp(src, list(ivs), st))
        new = inline_scalar_region(b, op.scatter, [cur, v])[0]
        return [b(tensor.InsertOp(b(arith.SelectOp(ok, new, cur)), res[0], [p]))]

    flat_result = loop_nest(e, ss, [flat_result], scatter_body)[0]
    return [reshape(e, flat_result, xs)]
