"""VJP rules of the structured hlo ops: dot_general, convolution, reduce,
reduce_window (sum; max/min via select_and_scatter), select_and_scatter,
sort, while and if. The convolution and window formulas are XLA's/JAX's
transposes (a strided window's gradient is a dilated window)."""

from __future__ import annotations

import numpy as np

from minixla.frontend.autodiff.backprop import backprop, defvjp
from minixla.frontend.autodiff.tape import RecordingBuilder, RValue, Tape, differentiable, new_key


# -- dot_general ---------------------------------------------------------------------

def _dot_transpose(b, g, other, mine_shape, my_batch, my_contract, other_batch, other_contract, g_free, mine_free):
    """Cotangent of one dot_general operand: contract g's other-free dims with `other`'s free dims."""
    other_free = [d for d in range(len(other.shape)) if d not in other_batch + other_contract]
    nb = len(my_batch)
    batch = list(range(nb))
    contracted = [my_contract[other_contract.index(c)] for c in sorted(other_contract)]
    # g . other gives dims (batch, my free, my contracting); the transpose restores my order (on the cpu
    # backend a materialized transpose + row-major matmul measured faster than contracting dimension 0)
    res = b.dot_general(g, other, (g_free, other_free), (batch, list(other_batch)))
    order = list(my_batch) + mine_free + contracted
    return b.transpose(res, [order.index(d) for d in range(len(mine_shape))])


@defvjp("dot_general")
def _dot_general(b, p, cts):
    lhs, rhs = p.operands
    g = cts[0]
    lc, rc, lb, rb = (list(p.attrs[k]) for k in ("lc", "rc", "lb", "rb"))
    lfree = [d for d in range(len(lhs.shape)) if d not in lb + lc]
    rfree = [d for d in range(len(rhs.shape)) if d not in rb + rc]
    nb = len(lb)
    g_l = list(range(nb, nb + len(lfree)))
    g_r = list(range(nb + len(lfree), nb + len(lfree) + len(rfree)))
    gl = _dot_transpose(b, g, rhs, lhs.shape, lb, lc, rb, rc, g_r, lfree)
    gr = _dot_transpose(b, g, lhs, rhs.shape, rb, rc, lb, lc, g_l, rfree)
    return [b.convert(gl, lhs.dtype), b.convert(gr, rhs.dtype)]


# -- convolution ---------------------------------------------------------------------

def _dilate(shape, dil):
    return [0 if n == 0 else 1 + d * (n - 1) for n, d in zip(shape, dil)]


def _specs(dn):
    ib, if_, isp, ki, ko, ksp, ob, of, osp = dn
    return (ib, if_, *isp), (ko, ki, *ksp), (ob, of, *osp)


def _dn(lhs_spec, rhs_spec, out_spec):
    return (lhs_spec[0], lhs_spec[1], tuple(lhs_spec[2:]), rhs_spec[1], rhs_spec[0], tuple(rhs_spec[2:]),
            out_spec[0], out_spec[1], tuple(out_spec[2:]))


def _swap(spec):
    return (spec[1], spec[0], *spec[2:])


def _axis_out_of(b, src, size1, x):
    """Split axis `src` into (size1, n // size1) (JAX's _reshape_axis_out_of)."""
    shape = list(x.shape)
    shape[src:src + 1] = [size1, shape[src] // size1]
    return b.reshape(x, shape)


def _axis_into(b, src, dst, x):
    """Merge axis `src` into axis `dst` (of the array without `src`), as the major part (JAX's _reshape_axis_into)."""
    perm = [i for i in range(len(x.shape)) if i != src]
    perm.insert(dst, src)
    shape = [x.shape[i] for i in range(len(x.shape)) if i != src]
    shape[dst] *= x.shape[src]
    return b.reshape(b.transpose(x, perm), shape)


@defvjp("convolution")
def _convolution(b, p, cts):
    """XLA's/JAX's conv transposes; grouped convolutions move the groups between the kernel's
    feature dimensions (lhs) or turn feature groups into batch groups (rhs)."""
    lhs, rhs = p.operands
    g = cts[0]
    a = p.attrs
    fgc, bgc = a["fgc"], a["bgc"]
    ls, rs, os_ = _specs(a["dn"])
    in_sp = [lhs.shape[d] for d in ls[2:]]
    k_sp = [rhs.shape[d] for d in rs[2:]]
    out_sp = [g.shape[d] for d in os_[2:]]
    strides, pads, ld, rd = a["strides"], a["padding"], a["lhs_dilation"], a["rhs_dilation"]
    lhs_d, rhs_d, out_d = _dilate(in_sp, ld), _dilate(k_sp, rd), _dilate(out_sp, strides)
    before = [r - lo - 1 for r, (lo, _) in zip(rhs_d, pads)]
    after = [l_ + r - 1 - o - bf for l_, r, o, bf in zip(lhs_d, rhs_d, out_d, before)]
    k = rhs
    groups = max(fgc, bgc)
    if groups > 1:
        k = _axis_into(b, rs[0], rs[1], _axis_out_of(b, rs[0], groups, k))
    g_lhs = b.convolution(g, b.reverse(k, list(rs[2:])), ld, list(zip(before, after)), strides, rd,
                          _dn(os_, _swap(rs), ls), feature_group_count=groups)
    if bgc > 1:
        g_lhs = _axis_into(b, ls[1], ls[0], _axis_out_of(b, ls[1], bgc, g_lhs))
    hi = [o - l_ + r - lo - 1 for o, l_, r, (lo, _) in zip(out_d, lhs_d, rhs_d, pads)]
    g_rhs = b.convolution(lhs, g, rd, [(lo, h) for (lo, _), h in zip(pads, hi)], ld, strides,
                          _dn(_swap(ls), _swap(os_), _swap(rs)), feature_group_count=bgc, batch_group_count=fgc)
    return [g_lhs, g_rhs]


# -- reductions ------------------------------------------------------------------------

@defvjp("reduce")
def _reduce(b, p, cts):
    n = p.attrs["n"]
    name = getattr(p.body, "combiner", None)
    if n != 1 or name not in ("add", "maximum", "minimum", "multiply"):
        raise NotImplementedError("gradient of a variadic or custom-bodied hlo.reduce is not implemented")
    x, y, g = p.operands[0], p.results[0], cts[0]
    kept = [d for d in range(len(x.shape)) if d not in p.attrs["dims"]]
    gb = b.broadcast_in_dim(g, x.shape, kept)
    if name == "add":
        return [gb, None]
    yb = b.broadcast_in_dim(y, x.shape, kept)
    if name == "multiply":
        return [b.divide(b.multiply(gb, yb), x), None]
    hits = b.select(b.compare(x, yb, "EQ"), b.full(x.shape, 1, x.dtype), b.full(x.shape, 0, x.dtype))
    count = b.reduce(hits, b.scalar(0, x.dtype), p.attrs["dims"], "add")
    return [b.multiply(b.divide(gb, b.broadcast_in_dim(count, x.shape, kept)), hits), None]


def _window_sum_transpose(b, g, in_shape, window, strides, padding):
    ones = [1] * len(in_shape)
    lhs_d, out_d = list(in_shape), _dilate(g.shape, strides)
    before = [w - lo - 1 for w, (lo, _) in zip(window, padding)]
    after = [n + w - 1 - o - bf for n, w, o, bf in zip(lhs_d, window, out_d, before)]
    padded = b.pad(g, b.scalar(0, g.dtype), before, after, [s - 1 for s in strides])
    return b.reduce_window(padded, b.scalar(0, g.dtype), window, ones, [(0, 0)] * len(ones), "add")


@defvjp("reduce_window")
def _reduce_window(b, p, cts):
    x, g = p.operands[0], cts[0]
    a = p.attrs
    if a["combiner"] == "add":
        return [_window_sum_transpose(b, g, x.shape, a["window"], a["strides"], a["padding"]), None]
    if a["combiner"] in ("maximum", "minimum"):
        select = "GE" if a["combiner"] == "maximum" else "LE"
        return [b.select_and_scatter(x, g, b.scalar(0, g.dtype), a["window"], a["strides"], a["padding"],
                                     select, "add"), None]
    if a["combiner"] == "multiply":
        # d y_j / d x_i = y_j / x_i for every window j holding x_i: TF's Cumprod gradient,
        # cumsum(y * g, reverse) / x (infinite or NaN where x == 0, as in TF)
        yg = b.multiply(g, p.results[0])
        return [b.divide(_window_sum_transpose(b, yg, x.shape, a["window"], a["strides"], a["padding"]), x), None]
    raise NotImplementedError(f"no gradient for hlo.reduce_window with combiner {a['combiner']!r}")


@defvjp("select_and_scatter")
def _select_and_scatter(b, p, cts):
    """Source cotangent: per window, the cotangent at the element `select` picked (unrolled over the window)."""
    x, src, _ = p.operands
    g = cts[0]
    a = p.attrs
    if a["combiner"] != "add":
        raise NotImplementedError("gradient of select_and_scatter needs the add combiner")
    worst = -np.inf if a["select"] in ("GE", "GT") else np.inf
    lows, highs = [lo for lo, _ in a["padding"]], [hi for _, hi in a["padding"]]
    xp = b.pad(x, b.scalar(worst, x.dtype), lows, highs)
    gp = b.pad(g, b.scalar(0, g.dtype), lows, highs)
    best_x = best_g = None
    strict = {"GE": "GT", "LE": "LT"}.get(a["select"], a["select"])
    for offsets in np.ndindex(*a["window"]):
        start = list(offsets)
        limit = [o + (n - 1) * s + 1 for o, n, s in zip(offsets, src.shape, a["strides"])]
        cx, cg = b.slice(xp, start, limit, a["strides"]), b.slice(gp, start, limit, a["strides"])
        if best_x is None:
            best_x, best_g = cx, cg
            continue
        take = b.compare(cx, best_x, strict)  # the first selected element wins ties
        best_x, best_g = b.select(take, cx, best_x), b.select(take, cg, best_g)
    return [None, best_g, None]


# -- sort ------------------------------------------------------------------------------

@defvjp("sort")
def _sort(b, p, cts):
    n, dim = p.attrs["n"], p.attrs["dimension"]
    xs = p.operands
    comparator = p.body
    simple = getattr(comparator, "simple", None)
    iota = b.iota(xs[0].shape, dim, np.int32)
    if simple is not None:
        perm = b.sort(list(xs) + [iota], dim, key=simple[0], descending=simple[1])[-1]
    else:
        perm = b.sort(list(xs) + [iota], dim, lambda bb, lhs, rhs: comparator(bb, lhs[:n], rhs[:n]))[-1]
    # sorting the cotangents by the permutation puts g[j] back at position perm[j]
    back = b.sort([perm] + list(cts), dim)[1:]
    return [g if differentiable(x.dtype) else None for g, x in zip(back, xs)]


# -- control flow ------------------------------------------------------------------------

def _branch_vjp(bb, fn, operands, cts):
    """Cotangents of `operands` for `fn(b, operands) -> outputs` given the outputs' cotangents."""
    tape = Tape()
    rb = RecordingBuilder(bb, [tape])
    wrapped = [RValue(v, new_key()) for v in operands]
    tape.tracked.update(w.key for w in wrapped)
    outs = [rb.wrap(o) for o in fn(rb, wrapped)]
    seeds: dict = {}
    plain = RecordingBuilder(bb, [])
    for o, c in zip(outs, cts):
        if o.key is not None and differentiable(o.dtype):
            seeds[o.key] = rb.wrap(c) if o.key not in seeds else plain.add(seeds[o.key], rb.wrap(c))
    got = backprop(plain, tape.records, seeds)
    return [got.get(w.key).v if w.key in got else bb.full(w.shape, 0, w.dtype) for w in wrapped]


@defvjp("if")
def _if(b, p, cts):
    pred, ops = p.operands[0], p.operands[1:]
    k = len(ops)
    true_fn, false_fn = p.body, p.attrs["false_fn"]

    def backward(fn):
        return lambda bb, vals: _branch_vjp(bb, fn, vals[:k], vals[k:])

    grads = b.conditional(pred, list(ops) + list(cts), backward(true_fn), backward(false_fn))
    return [None] + list(grads)


@defvjp("case")
def _case(b, p, cts):
    index, ops = p.operands[0], p.operands[1:]
    k = len(ops)

    def backward(fn):
        return lambda bb, vals: _branch_vjp(bb, fn, vals[:k], vals[k:])

    grads = b.case(index, list(ops) + list(cts), [backward(fn) for fn in p.attrs["branches"]])
    return [None] + list(grads)


@defvjp("while")
def _while(b, p, cts):
    """Reverse iteration k = N-1..0; the state at step k is recomputed from the inits (O(N^2) work)."""
    inits = list(p.operands)
    m = len(inits)
    cond, body = p.attrs["cond"], p.body
    i32 = np.int32

    def one(bb):
        return bb.scalar(1, i32)

    count = b.while_loop(lambda bb, v: cond(bb, v[1:]), lambda bb, v: [bb.add(v[0], one(bb))] + list(body(bb, v[1:])),
                         [b.scalar(0, i32)] + inits)[0]

    def state_at(bb, k, start):
        return bb.while_loop(lambda b2, v: b2.compare(v[0], v[1], "LT"),
                             lambda b2, v: [b2.add(v[0], b2.scalar(1, i32)), v[1]] + list(body(b2, v[2:])),
                             [bb.scalar(0, i32), k] + list(start))[2:]

    def step(bb, v):
        k, ct, start = v[0], v[1:1 + m], v[1 + m:]
        k1 = bb.subtract(k, bb.scalar(1, i32))
        new_ct = _branch_vjp(bb, body, state_at(bb, k1, start), ct)
        return [k1] + new_ct + list(start)

    out = b.while_loop(lambda bb, v: bb.compare(v[0], bb.scalar(0, i32), "GT"), step, [count] + list(cts) + inits)
    return [g if differentiable(x.dtype) else None for g, x in zip(out[1:1 + m], inits)]
