"""VJP rules of the data-movement hlo ops: each is the transpose of a linear map
(broadcast <-> reduce, slice <-> pad, gather <-> scatter-add, ...)."""

from __future__ import annotations

import numpy as np

from minixla.frontend.autodiff.backprop import defvjp, zeros_like


def sum_to(b, g, shape, dims):
    """Transpose of `broadcast_in_dim(x, g.shape, dims)` for an operand of `shape`."""
    stretched = [i for i, n in enumerate(shape) if n == 1 and g.shape[dims[i]] != 1]
    reduced = [d for d in range(len(g.shape)) if d not in dims] + [dims[i] for i in stretched]
    kept = [i for i in range(len(shape)) if i not in stretched]
    if reduced:
        g = b.reduce(g, b.scalar(0, g.dtype), sorted(reduced), "add")
    by_position = sorted(kept, key=lambda i: dims[i])
    g = b.transpose(g, [by_position.index(i) for i in kept])
    return b.reshape(g, shape)


@defvjp("broadcast_in_dim")
def _broadcast(b, p, cts):
    return [sum_to(b, cts[0], p.operands[0].shape, p.attrs["dims"])]


@defvjp("reshape")
def _reshape(b, p, cts):
    return [b.reshape(cts[0], p.operands[0].shape)]


@defvjp("transpose")
def _transpose(b, p, cts):
    return [b.transpose(cts[0], list(np.argsort(p.attrs["perm"])))]


@defvjp("reverse")
def _reverse(b, p, cts):
    return [b.reverse(cts[0], p.attrs["dims"])]


@defvjp("slice")
def _slice(b, p, cts):
    x, g = p.operands[0], cts[0]
    start, strides = p.attrs["start"], p.attrs["strides"]
    high = [n - (s + (o - 1) * k + 1) if o else n - s for n, s, o, k in zip(x.shape, start, g.shape, strides)]
    low = list(start) if all(g.shape) else [0] * len(start)
    if not all(g.shape):
        return [zeros_like(b, x)]
    return [b.pad(g, b.scalar(0, g.dtype), low, high, [k - 1 for k in strides])]


@defvjp("dynamic_slice")
def _dynamic_slice(b, p, cts):
    x, starts = p.operands[0], p.operands[1:]
    return [b.dynamic_update_slice(zeros_like(b, x), cts[0], starts)] + [None] * len(starts)


@defvjp("dynamic_update_slice")
def _dynamic_update_slice(b, p, cts):
    upd, starts = p.operands[1], p.operands[2:]
    g = cts[0]
    return [b.dynamic_update_slice(g, zeros_like(b, upd), starts), b.dynamic_slice(g, starts, upd.shape)] \
        + [None] * len(starts)


@defvjp("concatenate")
def _concatenate(b, p, cts):
    g, dim = cts[0], p.attrs["dimension"]
    out, offset = [], 0
    for x in p.operands:
        start = [0] * len(g.shape)
        limit = list(g.shape)
        start[dim], limit[dim] = offset, offset + x.shape[dim]
        out.append(b.slice(g, start, limit))
        offset += x.shape[dim]
    return out


@defvjp("pad")
def _pad(b, p, cts):
    x, value = p.operands
    g = cts[0]
    low, high, interior = p.attrs["low"], p.attrs["high"], p.attrs["interior"]
    # undo negative padding (which cropped), then take every (interior+1)-th element
    g2 = b.pad(g, b.scalar(0, g.dtype), [max(-lo, 0) for lo in low], [max(-hi, 0) for hi in high])
    start = [max(lo, 0) for lo in low]
    limit = [s + (n - 1) * (i + 1) + 1 if n else s for s, n, i in zip(start, x.shape, interior)]
    gx = b.slice(g2, start, limit, [i + 1 for i in interior])
    total = b.reduce(g, b.scalar(0, g.dtype), list(range(len(g.shape))), "add")
    inner = b.reduce(gx, b.scalar(0, g.dtype), list(range(len(gx.shape))), "add")
    return [gx, b.subtract(total, inner)]


@defvjp("gather")
def _gather(b, p, cts):
    x, idx = p.operands
    od, cd, obd, sbd, sim, ivd = p.attrs["dn"]
    gx = b.scatter(zeros_like(b, x), idx, cts[0], update_window_dims=od, inserted_window_dims=cd,
                   scatter_dims_to_operand_dims=sim, index_vector_dim=ivd, combiner="add",
                   input_batching_dims=obd, scatter_indices_batching_dims=sbd)
    return [gx, None]


@defvjp("scatter")
def _scatter(b, p, cts):
    x, idx, upd = p.operands
    g = cts[0]
    uwd, iwd, ibd, sbd, sdod, ivd = p.attrs["dn"]
    window_sizes = iter(upd.shape[d] for d in uwd)
    sizes = [1 if d in iwd or d in ibd else next(window_sizes) for d in range(len(x.shape))]
    combiner = p.attrs["combiner"]
    if combiner not in ("add", "replace", "maximum", "minimum"):
        raise NotImplementedError(f"no gradient for hlo.scatter with combiner {combiner!r}")

    def gather(v):
        return b.gather(v, idx, offset_dims=uwd, collapsed_slice_dims=iwd, start_index_map=sdod,
                        index_vector_dim=ivd, slice_sizes=sizes, operand_batching_dims=ibd,
                        start_indices_batching_dims=sbd)

    if combiner in ("maximum", "minimum"):  # TF's _TensorScatterMinOrMaxGrad: ties share the gradient
        out = p.results[0]
        x_hit = b.convert(b.compare(x, out, "EQ"), g.dtype)
        u_hit = b.convert(b.compare(upd, gather(out), "EQ"), g.dtype)
        hits = b.add(x_hit, b.scatter(zeros_like(b, x), idx, u_hit, update_window_dims=uwd, inserted_window_dims=iwd,
                                      scatter_dims_to_operand_dims=sdod, index_vector_dim=ivd, combiner="add",
                                      input_batching_dims=ibd, scatter_indices_batching_dims=sbd))
        share = b.divide(g, hits)
        return [b.multiply(share, x_hit), None, b.multiply(gather(share), u_hit)]
    gu = _drop_skipped(b, gather(g), idx, upd, x.shape, sizes, uwd, sdod, ivd)
    gx = g
    if combiner == "replace":  # overwritten positions get no gradient
        gx = b.scatter(g, idx, zeros_like(b, upd), update_window_dims=uwd, inserted_window_dims=iwd,
                       scatter_dims_to_operand_dims=sdod, index_vector_dim=ivd, combiner="replace",
                       input_batching_dims=ibd, scatter_indices_batching_dims=sbd)
    return [gx, None, gu]


def _drop_skipped(b, gu, idx, upd, operand_shape, sizes, uwd, sdod, ivd):
    """Zero the gradient of the updates scatter skipped (a window out of bounds: TF's
    UnsortedSegmentSum drops negative and too-large ids). The clamped gather would hand
    them a neighbour's gradient (TF's _GatherDropNegatives zeroes them)."""
    rank = len(idx.shape)
    batch_shape = [n for d, n in enumerate(idx.shape) if d != ivd]
    valid = None
    for k, dim in enumerate(sdod):
        if ivd < rank:
            start, limit = [0] * rank, list(idx.shape)
            start[ivd], limit[ivd] = k, k + 1
            comp = b.reshape(b.slice(idx, start, limit), batch_shape)
        else:
            comp = idx
        low = b.compare(comp, b.full(batch_shape, 0, idx.dtype), "GE")
        high = b.compare(comp, b.full(batch_shape, operand_shape[dim] - sizes[dim], idx.dtype), "LE")
        ok = b.and_(low, high)
        valid = ok if valid is None else b.and_(valid, ok)
    if valid is None:
        return gu
    scatter_dims = [d for d in range(len(upd.shape)) if d not in uwd]
    mask = b.broadcast_in_dim(valid, list(upd.shape), scatter_dims)
    return b.select(mask, gu, b.full(list(upd.shape), 0, gu.dtype))
