"""The regularized incomplete gamma functions as raw ops (Igamma, Igammac, IgammaGradA): XLA's Igamma
with math_special.py's algorithm, as hlo.while loops: the power series for P where x <= max(1, a),
Legendre's continued fraction for Q above, each optionally carrying its derivative in a (IgammaGradA).
Gradients are TF's closed forms: IgammaGradA in a, x^(a-1) e^-x / Gamma(a) in x.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.raw_math_ops import _E, _float, _unbroadcast, digamma, lgamma
from minixla.frontend.ops.registry import broadcast_all, register, register_gradient


def _loop(b, enabled, state, step, max_steps=None):
    """Run `step(bb, on, state) -> (still_on, new_state)` while any element is on (and, with max_steps,
    the counter in state[0] is below it); off elements keep their values."""
    shape = list(enabled.shape)
    dims = list(range(len(shape)))

    def any_(bb, v):
        return bb.reduce(v, bb.scalar(False, np.bool_), dims, "or") if dims else v

    def cond(bb, vals):
        go = any_(bb, vals[0])
        if max_steps is not None:
            go = bb.and_(go, bb.compare(bb.reduce(vals[1], bb.scalar(-np.inf, vals[1].dtype), dims, "maximum")
                                        if dims else vals[1], bb.scalar(max_steps, vals[1].dtype), "LT"))
        return go

    def body(bb, vals):
        on, rest = vals[0], vals[1:]
        still, new = step(bb, on, rest)
        return [bb.and_(on, still)] + [bb.select(on, n, o) for n, o in zip(new, rest)]

    return b.while_loop(cond, body, [enabled] + list(state))[1:]


def _series(b, ax, x, a, enabled, derivative):
    """P by sum_n x^n / (a+1)...(a+n) (and its derivative in a)."""
    e = _E(b, x)
    eps = float(np.finfo(x.dtype).eps)

    def step(bb, on, s):
        r, c, ans, dc, dans, xx = s

        def k(v):
            return bb.full(xx.shape, v, xx.dtype)

        r2 = bb.add(r, k(1))
        dc2 = bb.add(bb.multiply(dc, bb.divide(xx, r2)), bb.divide(bb.negate(bb.multiply(c, xx)), bb.multiply(r2, r2)))
        dans2 = bb.add(dans, dc2)
        c2 = bb.multiply(c, bb.divide(xx, r2))
        ans2 = bb.add(ans, c2)
        test = bb.abs(bb.divide(dc2, dans2)) if derivative else bb.divide(c2, ans2)
        return bb.compare(test, k(eps), "GT"), [r2, c2, ans2, dc2, dans2, xx]

    r, c, ans, dc, dans, _ = _loop(b, enabled, [a, e.c(1), e.c(1), e.c(0), e.c(0), x], step)
    if not derivative:
        return b.divide(b.multiply(ans, ax), a)
    inner = b.add(b.multiply(ans, b.subtract(b.log(x), digamma(b, b.add(a, e.c(1))))), dans)
    return b.divide(b.multiply(ax, inner), a)


def _fraction(b, ax, x, a, enabled, derivative):
    """Q by Legendre's continued fraction (Cephes' igamc) with its derivative in a; at most 2000 steps."""
    e = _E(b, x)
    eps = float(np.finfo(x.dtype).eps)
    y0 = b.subtract(e.c(1), a)
    z0 = b.add(b.add(x, y0), e.c(1))
    pkm1, qkm1 = b.add(x, e.c(1)), b.multiply(z0, x)
    ans0 = b.divide(pkm1, qkm1)
    dqkm1 = b.negate(x)
    dans0 = b.divide(b.negate(b.multiply(ans0, dqkm1)), qkm1)

    def step(bb, on, s):
        c, ans, t, y, z, pkm1, qkm1, pkm2, qkm2, dpkm2, dqkm2, dpkm1, dqkm1, dans = s

        def k(v):
            return bb.full(c.shape, v, c.dtype)

        c = bb.add(c, k(1))
        y2, z2 = bb.add(y, k(1)), bb.add(z, k(2))
        yc = bb.multiply(y2, c)
        pk = bb.subtract(bb.multiply(pkm1, z2), bb.multiply(pkm2, yc))
        qk = bb.subtract(bb.multiply(qkm1, z2), bb.multiply(qkm2, yc))
        nz = bb.compare(qk, k(0), "NE")
        r = bb.divide(pk, bb.select(nz, qk, k(1)))
        rel = bb.abs(bb.divide(bb.subtract(ans, r), bb.select(bb.compare(r, k(0), "EQ"), k(1), r)))
        t2 = bb.select(nz, rel, k(1))
        ans2 = bb.select(nz, r, ans)
        dpk = bb.add(bb.subtract(bb.subtract(bb.multiply(dpkm1, z2), pkm1), bb.multiply(dpkm2, yc)),
                     bb.multiply(pkm2, c))
        dqk = bb.add(bb.subtract(bb.subtract(bb.multiply(dqkm1, z2), qkm1), bb.multiply(dqkm2, yc)),
                     bb.multiply(qkm2, c))
        dans2 = bb.select(nz, bb.divide(bb.subtract(dpk, bb.multiply(ans2, dqk)), bb.select(nz, qk, k(1))), dans)
        grad_test = bb.select(nz, bb.abs(bb.subtract(dans2, dans)), k(1))
        big = bb.compare(bb.abs(pk), k(1 / eps), "GT")

        def sc(v):
            return bb.select(big, bb.multiply(v, k(eps)), v)

        new = [c, ans2, t2, y2, z2, sc(pk), sc(qk), sc(pkm1), sc(qkm1), sc(dpkm1), sc(dqkm1), sc(dpk), sc(dqk), dans2]
        test = grad_test if derivative else t2
        return bb.compare(test, k(eps), "GT"), new

    init = [e.c(0), ans0, e.c(1), y0, z0, pkm1, qkm1, e.c(1), x, e.c(0), e.c(0), e.c(0), dqkm1, dans0]
    out = _loop(b, enabled, init, step, max_steps=2000)
    ans, dans = out[1], out[13]
    if not derivative:
        return b.multiply(ans, ax)
    return b.multiply(ax, b.add(b.multiply(ans, b.subtract(b.log(x), digamma(b, a))), dans))


def _parts(b, e, a, x):
    is_nan = b.or_(b.compare(a, a, "NE"), b.compare(x, x, "NE"))
    x_zero = b.compare(x, e.c(0), "EQ")
    domain = b.or_(e.lt(x, 0), b.compare(a, e.c(0), "LE"))
    use_q = b.and_(b.compare(x, e.c(1), "GT"), b.compare(x, a, "GT"))
    sx = e.where(b.or_(x_zero, domain), e.c(1), x)
    sa = e.where(domain, e.c(1), a)
    log_ax = b.subtract(b.subtract(b.multiply(sa, b.log(sx)), sx), lgamma(b, sa))
    underflow = e.lt(log_ax, -np.log(np.finfo(x.dtype).max))
    enabled = b.not_(b.or_(b.or_(x_zero, domain), b.or_(underflow, is_nan)))
    return is_nan, x_zero, domain, use_q, sa, sx, b.exponential(log_ax), enabled


def _igamma(b, a, x, derivative=False):
    e = _E(b, x)
    is_nan, x_zero, domain, use_q, sa, sx, ax, enabled = _parts(b, e, a, x)
    q = _fraction(b, ax, sx, sa, b.and_(enabled, use_q), derivative)
    p = _series(b, ax, sx, sa, b.and_(enabled, b.not_(use_q)), derivative)
    out = e.where(use_q, b.negate(q) if derivative else b.subtract(e.c(1), q), p)
    out = e.where(x_zero, e.c(0), out)
    if not derivative:
        out = e.where(b.compare(x, e.c(np.inf), "EQ"), e.c(1), out)
    return e.where(b.or_(domain, is_nan), e.c(np.nan), out)


def _igammac(b, a, x):
    e = _E(b, x)
    out_of_range = b.or_(b.compare(x, e.c(0), "LE"), b.compare(a, e.c(0), "LE"))
    _, _, _, _, sa, sx, ax, enabled = _parts(b, e, a, x)
    use_p = b.or_(e.lt(x, 1), b.compare(x, a, "LT"))
    enabled = b.and_(enabled, b.not_(out_of_range))
    p = _series(b, ax, sx, sa, b.and_(enabled, use_p), False)
    q = _fraction(b, ax, sx, sa, b.and_(enabled, b.not_(use_p)), False)
    out = e.where(use_p, b.subtract(e.c(1), p), q)
    out = e.where(b.compare(x, e.c(np.inf), "EQ"), e.c(0), out)
    out = e.where(out_of_range, e.c(1), out)
    # TF's kernel (Eigen): nan outside the domain a > 0, x >= 0 (XLA's gives 1 there)
    nan = b.or_(b.or_(e.lt(x, 0), b.compare(a, e.c(0), "LE")), b.or_(b.compare(a, a, "NE"), b.compare(x, x, "NE")))
    return e.where(nan, e.c(np.nan), out)


def _rule(op, fn):
    def rule(b, a, x):
        _float(op, x)
        a, x = broadcast_all(b, op, a, x)
        dt = np.dtype(x.dtype)
        if dt.itemsize < 4:
            a, x = b.convert(a, np.float32), b.convert(x, np.float32)
        return b.convert(fn(b, a, x), dt)

    return rule


_IGAMMA = _rule("Igamma", _igamma)
_IGAMMAC = _rule("Igammac", _igammac)
_GRAD_A = _rule("IgammaGradA", lambda b, a, x: _igamma(b, a, x, derivative=True))
register("Igamma", ("a", "x"), _IGAMMA)
register("Igammac", ("a", "x"), _IGAMMAC)
register("IgammaGradA", ("a", "x"), _GRAD_A)


def _dx(b, a, x):
    """d/dx P(a, x) = x^(a-1) e^-x / Gamma(a)."""
    e = _E(b, x)
    return b.exponential(b.subtract(b.add(b.negate(x), b.multiply(b.subtract(a, e.c(1)), b.log(x))), lgamma(b, a)))


def _gradient(op, sign):
    @register_gradient(op)
    def rule(b, gop, grad):
        a, x = gop.inputs
        ab, xb = broadcast_all(b, op, a, x)
        s = b.full(grad.shape, sign, grad.dtype)
        ga = b.multiply(b.multiply(grad, s), _GRAD_A(b, ab, xb))
        gx = b.multiply(b.multiply(grad, s), _dx(b, ab, xb))
        return [_unbroadcast(b, ga, a.shape), _unbroadcast(b, gx, x.shape)]

    return rule


_gradient("Igamma", 1)
_gradient("Igammac", -1)
