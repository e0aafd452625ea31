"""Special functions as raw ops (Lgamma, Digamma, Erfc, Erfinv, Ndtri, NextAfter, Zeta, Polygamma,
Betainc): builder-level rules with the same
formulas as the tf-level functions of frontend/api/math_special.py and math_extras.py (which a raw op
cannot call: rules see builder values, not tensors). Lanczos (g = 7) for lgamma/digamma with Euler's
reflection below 1/2, Eigen/XLA's float32 rational erfc (Cephes' in float64), XLA's NextAfter on the bit
pattern. Half precision is computed in float32, as XLA does.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import broadcast_all, is_float, op_error, register, register_gradient
from minixla.frontend.ops.special_coefficients import (  # the tables, shared with the raw-op rules
    LANCZOS as _LANCZOS, ERFC_P as _ERFC_P, ERFC_Q as _ERFC_Q, ERFC_SMALL as _ERFC_SMALL, ERFC64_P as _ERFC64_P,
    ERFC64_Q as _ERFC64_Q, ERFC64_R as _ERFC64_R, ERFC64_S as _ERFC64_S, ERF64_T as _ERF64_T, ERF64_U as
    _ERF64_U, ERFINV_LT5 as _ERFINV_LT5, ERFINV_GE5 as _ERFINV_GE5, ERFINV64_LT625 as _ERFINV64_LT625,
    ERFINV64_LT16 as _ERFINV64_LT16, ERFINV64_GE16 as _ERFINV64_GE16, zeta_tail as _zeta_tail)

_G = 7.0
_BASE = 0.99999999999980993227684700473478

class _E:
    """Elementwise arithmetic on builder values of one shape and dtype, so the formulas read as math."""

    def __init__(self, b, like):
        self.b, self.shape, self.dtype = b, tuple(like.shape), like.dtype

    def c(self, v):
        return self.b.full(self.shape, v, self.dtype)

    def poly(self, x, coeffs):
        """Horner's rule, highest degree first."""
        acc = self.c(coeffs[0])
        for k in coeffs[1:]:
            acc = self.b.add(self.b.multiply(acc, x), self.c(k))
        return acc

    def where(self, p, t, f):
        return self.b.select(p, t, f)

    def lt(self, x, v):
        return self.b.compare(x, self.c(v), "LT")


def _float(op, x):
    if not is_float(x.dtype):
        raise op_error(op, f"Value for attr 'T' of {np.dtype(x.dtype).name} is not in the list of allowed values: "
                           "bfloat16, half, float, double")


def _upcast(fn):
    def rule(b, x):
        _float(fn.__name__, x)
        dt = np.dtype(x.dtype)
        y = fn(b, b.convert(x, np.float32) if dt.itemsize < 4 else x)
        return b.convert(y, dt)

    rule.__doc__ = fn.__doc__
    return rule


def _lanczos(b, e, x):
    reflect = e.lt(x, 0.5)
    z = e.where(reflect, b.negate(x), b.subtract(x, e.c(1)))
    log_t = b.add(e.c(np.log(_G + 0.5)), b.log_plus_one(b.divide(z, e.c(_G + 0.5))))
    return reflect, z, log_t


def lgamma(b, x):
    """log|Gamma(x)|."""
    e = _E(b, x)
    reflect, z, log_t = _lanczos(b, e, x)
    a = e.c(_BASE)
    for i, c in enumerate(_LANCZOS):
        a = b.add(a, b.divide(e.c(c), b.add(z, e.c(i + 1))))
    t = b.add(z, e.c(_G + 0.5))
    log_y = b.add(b.add(e.c(0.5 * np.log(2 * np.pi)),
                        b.multiply(b.subtract(b.add(z, e.c(0.5)), b.divide(t, log_t)), log_t)), b.log(a))
    ax = b.abs(x)
    frac = b.subtract(ax, b.floor(ax))
    frac = e.where(b.compare(frac, e.c(0.5), "GT"), b.subtract(e.c(1), frac), frac)
    frac = e.where(reflect, frac, e.c(0.5))  # sin(pi/2) on the unused branch: no pole
    denom = b.log(b.sine(b.multiply(e.c(np.pi), frac)))
    finite = b.is_finite(denom)
    reflection = e.where(finite, b.subtract(b.subtract(e.c(np.log(np.pi)), e.where(finite, denom, e.c(0))), log_y),
                         b.negate(denom))
    out = e.where(reflect, reflection, log_y)
    return e.where(b.compare(b.abs(x), e.c(np.inf), "EQ"), e.c(np.inf), out)


def digamma(b, x):
    """d/dx lgamma; -inf at 0, nan at the negative integers."""
    e = _E(b, x)
    reflect, z, log_t = _lanczos(b, e, x)
    num, den = e.c(0), e.c(_BASE)
    for i, c in enumerate(_LANCZOS):
        zi = b.add(z, e.c(i + 1))
        num = b.subtract(num, b.divide(e.c(c), b.multiply(zi, zi)))
        den = b.add(den, b.divide(e.c(c), zi))
    t = b.add(z, e.c(_G + 0.5))
    y = b.subtract(b.add(log_t, b.divide(num, den)), b.divide(e.c(_G), t))
    reduced = b.multiply(e.c(np.pi), b.add(x, b.abs(b.floor(b.add(x, e.c(0.5))))))
    out = e.where(reflect, b.subtract(y, b.divide(b.multiply(e.c(np.pi), b.cosine(reduced)), b.sine(reduced))), y)
    out = e.where(b.compare(x, e.c(0), "EQ"), e.c(-np.inf), out)
    negint = b.and_(e.lt(x, 0), b.compare(x, b.floor(x), "EQ"))
    return e.where(negint, e.c(np.nan), out)


def erfc(b, x):
    """1 - erf(x) without cancellation: a polynomial for |x| <= 1, exp(-x^2) times a rational function above."""
    e = _E(b, x)
    large = b.compare(b.abs(x), e.c(1), "GT")
    xs = e.where(large, e.c(0), x)
    if np.dtype(x.dtype) == np.float64:
        xl = e.where(large, x, e.c(2))
        ax = b.abs(xl)
        ez = b.exponential(b.negate(b.multiply(xl, xl)))
        near = b.divide(b.multiply(ez, e.poly(ax, _ERFC64_P)), e.poly(ax, _ERFC64_Q))
        far = b.divide(b.multiply(ez, e.poly(ax, _ERFC64_R)), e.poly(ax, _ERFC64_S))
        tail = e.where(e.lt(ax, 8), near, far)
        tail = e.where(e.lt(b.negate(b.multiply(xl, xl)), -7.09782712893383996843E2), e.c(0), tail)
        tail = e.where(e.lt(xl, 0), b.subtract(e.c(2), tail), tail)
        x2 = b.multiply(xs, xs)
        small = b.subtract(e.c(1), b.divide(b.multiply(xs, e.poly(x2, _ERF64_T)), e.poly(x2, _ERF64_U)))
        return e.where(large, tail, small)
    xl = e.where(large, x, e.c(1))  # keeps 1/x^2 finite on the unused branch
    ax = b.minimum(b.abs(xl), e.c(10.06))
    q2 = b.divide(e.c(1), b.multiply(xl, xl))
    tail = b.divide(b.multiply(b.exponential(b.negate(b.multiply(xl, xl))), e.poly(q2, _ERFC_P)),
                    b.multiply(ax, e.poly(q2, _ERFC_Q)))
    tail = e.where(e.lt(xl, 0), b.subtract(e.c(2), tail), tail)
    return e.where(large, tail, b.add(b.multiply(xs, e.poly(b.multiply(xs, xs), _ERFC_SMALL)), e.c(1)))


for _name, _fn in (("Lgamma", lgamma), ("Digamma", digamma), ("Erfc", erfc)):
    _fn.__name__ = _name
    register(_name, ("x",), _upcast(_fn))


def next_after(b, x1, x2):
    """x1 moved one representable value towards x2 (+-1 on the bit pattern, XLA's NextAfter)."""
    dt = np.dtype(x1.dtype)
    if dt.itemsize not in (4, 8) or not is_float(dt):
        raise op_error("NextAfter", f"Value for attr 'T' of {dt.name} is not in the list of allowed values: "
                                    "double, float")
    x1, x2 = broadcast_all(b, "NextAfter", x1, x2)
    ity = np.dtype(f"int{dt.itemsize * 8}")
    bits = dt.itemsize * 8
    a, c = b.bitcast_convert(x1, ity), b.bitcast_convert(x2, ity)

    def k(v):
        return b.full(a.shape, v, ity)

    sign_mask, mag_mask = k(-(1 << (bits - 1))), k((1 << (bits - 1)) - 1)
    a_abs, c_abs = b.and_(a, mag_mask), b.and_(c, mag_mask)
    a_sign, c_sign = b.and_(a, sign_mask), b.and_(c, sign_mask)
    smaller = b.or_(b.compare(a_abs, c_abs, "GT"), b.compare(a_sign, c_sign, "NE"))
    out = b.add(a, b.select(smaller, k(-1), k(1)))
    from_zero = b.or_(c_sign, k(1))
    out = b.select(b.compare(a_abs, k(0), "EQ"), b.select(b.compare(c_abs, k(0), "EQ"), c, from_zero), out)
    out = b.select(b.compare(a, c, "EQ"), c, out)
    res = b.bitcast_convert(out, dt)
    nan = b.or_(b.compare(x1, x1, "NE"), b.compare(x2, x2, "NE"))
    return b.select(nan, b.full(res.shape, np.nan, dt), res)


register("NextAfter", ("x1", "x2"), next_after)


@register_gradient("NextAfter")
def _next_after_grad(b, op, grad):
    """TF's: the upstream gradient for x1, zeros for x2 (a bitcast has no derivative of its own)."""
    x1, x2 = op.inputs
    return [_unbroadcast(b, grad, x1.shape), b.full(x2.shape, 0, grad.dtype)]


# -- Hurwitz zeta and polygamma (math_special.py's formulas) ---------------------------------------------

_ZETA_N = 9


def _zeta(b, x, q):
    """sum_k (q + k)^-x: 9 terms, then the Euler-Maclaurin tail; nan outside x > 1, q > 0, inf at x = 1."""
    e = _E(b, x)
    ok = b.and_(b.compare(x, e.c(1), "GT"), b.compare(q, e.c(0), "GT"))
    xs, qs = e.where(ok, x, e.c(2)), e.where(ok, q, e.c(1))
    neg = b.negate(xs)
    s = e.c(0)
    for k in range(_ZETA_N):
        s = b.add(s, b.power(b.add(qs, e.c(k)), neg))
    w = b.add(qs, e.c(_ZETA_N))
    w_neg = b.power(w, neg)
    s = b.add(s, b.add(b.divide(b.power(w, b.subtract(e.c(1), xs)), b.subtract(xs, e.c(1))),
                       b.multiply(e.c(0.5), w_neg)))
    fac, term = e.c(1), b.divide(w_neg, w)
    for j, a in enumerate(_zeta_tail()):
        fac = b.multiply(fac, xs) if j == 0 else b.multiply(fac, b.multiply(b.add(xs, e.c(2 * j - 1)),
                                                                            b.add(xs, e.c(2 * j))))
        s = b.add(s, b.divide(b.multiply(fac, term), e.c(a)))
        term = b.divide(term, b.multiply(w, w))
    out = e.where(ok, s, e.c(np.nan))
    return e.where(b.compare(x, e.c(1), "EQ"), e.c(np.inf), out)


def _two_float(op, fn):
    def rule(b, x, q):
        _float(op, x)
        x, q = broadcast_all(b, op, x, q)
        dt = np.dtype(x.dtype)
        if dt.itemsize < 4:
            x, q = b.convert(x, np.float32), b.convert(q, np.float32)
        return b.convert(fn(b, x, q), dt)

    return rule


def _polygamma(b, a, x):
    """digamma for a = 0, (-1)^(a+1) a! zeta(a + 1, x) above; nan for a negative or non-integral order."""
    e = _E(b, x)
    ok = b.and_(b.compare(a, b.floor(a), "EQ"), b.compare(a, e.c(0), "GE"))
    sa = e.where(ok, a, e.c(0))
    half = b.multiply(sa, e.c(0.5))
    odd = b.compare(half, b.floor(half), "NE")
    sign = e.where(odd, e.c(1), e.c(-1))  # (-1)^(a+1)
    fact = b.exponential(lgamma(b, b.add(sa, e.c(1))))
    higher = b.multiply(b.multiply(sign, fact), _zeta(b, b.add(sa, e.c(1)), x))
    out = e.where(b.compare(sa, e.c(0), "EQ"), digamma(b, x), higher)
    return e.where(ok, out, e.c(np.nan))


_ZETA_RULE = _two_float("Zeta", _zeta)
_POLYGAMMA_RULE = _two_float("Polygamma", _polygamma)
register("Zeta", ("x", "q"), _ZETA_RULE)
register("Polygamma", ("a", "x"), _POLYGAMMA_RULE)


def _unbroadcast(b, g, shape):
    lead = len(g.shape) - len(shape)
    dims = list(range(lead)) + [lead + d for d, n in enumerate(shape) if n == 1 and g.shape[lead + d] != 1]
    return b.reshape(b.reduce(g, b.scalar(0, g.dtype), dims, "add"), shape) if dims else g


@register_gradient("Zeta")
def _zeta_grad(b, op, grad):
    """TF's: -x zeta(x + 1, q) for q, none for x."""
    x, q = op.inputs
    xb, qb = broadcast_all(b, "Zeta", x, q)
    d = b.negate(b.multiply(xb, _ZETA_RULE(b, b.add(xb, b.full(xb.shape, 1, xb.dtype)), qb)))
    return [None, _unbroadcast(b, b.multiply(grad, d), q.shape)]


@register_gradient("Polygamma")
def _polygamma_grad(b, op, grad):
    """TF's: polygamma(a + 1, x) for x, none for a."""
    a, x = op.inputs
    ab, xb = broadcast_all(b, "Polygamma", a, x)
    d = _POLYGAMMA_RULE(b, b.add(ab, b.full(ab.shape, 1, ab.dtype)), xb)
    return [None, _unbroadcast(b, b.multiply(grad, d), x.shape)]


# -- inverse error function and the normal quantile (Giles' approximations, as XLA) ------------------------


def _erfinv_poly64(b, e, w):
    """Giles' double-precision polynomials in w = -log(1 - x^2), three ranges split at 6.25 and 16."""
    lt625, lt16 = e.lt(w, 6.25), e.lt(w, 16)
    sqrt_w = b.sqrt(e.where(lt625, e.c(36), w))
    w = e.where(lt625, b.subtract(w, e.c(3.125)), b.subtract(sqrt_w, e.where(lt16, e.c(3.25), e.c(5.0))))

    def coeff(i):
        c = e.c(_ERFINV64_LT625[i])
        if i < 19:
            c = e.where(lt625, c, e.c(_ERFINV64_LT16[i]))
        if i < 17:
            c = e.where(lt16, c, e.c(_ERFINV64_GE16[i]))
        return c

    p = coeff(0)
    for i in range(1, 23):
        step = b.add(coeff(i), b.multiply(p, w))
        p = step if i < 17 else e.where(lt16 if i < 19 else lt625, step, p)
    return p


def erfinv(b, x):
    """w = -log(1 - x^2); a polynomial in w - 2.5 (w < 5) or sqrt(w) - 3, times x (float32); +-inf at +-1."""
    e = _E(b, x)
    edge = b.compare(b.abs(x), e.c(1), "EQ")
    xs = e.where(edge, e.c(0), x)
    w = b.negate(b.log_plus_one(b.negate(b.multiply(xs, xs))))
    if np.dtype(x.dtype) == np.float64:
        p = _erfinv_poly64(b, e, w)
    else:
        lt = e.lt(w, 5)
        w = e.where(lt, b.subtract(w, e.c(2.5)), b.subtract(b.sqrt(e.where(lt, e.c(25), w)), e.c(3)))
        p = e.where(lt, e.c(_ERFINV_LT5[0]), e.c(_ERFINV_GE5[0]))
        for lo, hi in zip(_ERFINV_LT5[1:], _ERFINV_GE5[1:]):
            p = b.add(e.where(lt, e.c(lo), e.c(hi)), b.multiply(p, w))
    inf = e.where(b.compare(x, e.c(0), "GT"), e.c(np.inf), e.c(-np.inf))
    return e.where(edge, inf, b.multiply(p, xs))


def ndtri(b, x):
    """sqrt(2) erfinv(2x - 1)."""
    e = _E(b, x)
    return b.multiply(e.c(np.sqrt(2.0)), erfinv(b, b.subtract(b.multiply(e.c(2), x), e.c(1))))


for _name, _fn in (("Erfinv", erfinv), ("Ndtri", ndtri)):
    _fn.__name__ = _name
    register(_name, ("x",), _upcast(_fn))


@register_gradient("Erfinv")
def _erfinv_grad(b, op, grad):
    """TF's: sqrt(pi) / 2 exp(erfinv(x)^2)."""
    y = op.outputs[0]
    return [b.multiply(grad, b.multiply(b.full(y.shape, np.sqrt(np.pi) / 2, y.dtype), b.exponential(b.multiply(y, y))))]


@register_gradient("Ndtri")
def _ndtri_grad(b, op, grad):
    """TF's: sqrt(2 pi) exp(ndtri(x)^2 / 2)."""
    y = op.outputs[0]
    half = b.multiply(b.multiply(y, y), b.full(y.shape, 0.5, y.dtype))
    return [b.multiply(grad, b.multiply(b.full(y.shape, np.sqrt(2 * np.pi), y.dtype), b.exponential(half)))]


# -- regularized incomplete beta (math_special.py's modified Lentz loop, as an hlo.while) ------------------

def _betainc(b, a, b_, x):
    """I_x(a, b): the continued fraction at x < (a+1)/(a+b+2), else 1 - I_(1-x)(b, a); 200 steps in float32,
    600 in float64; nan outside a, b > 0, 0 <= x <= 1."""
    e = _E(b, x)
    nan = b.or_(b.or_(b.compare(a, e.c(0), "LE"), b.compare(b_, e.c(0), "LE")),
                b.or_(e.lt(x, 0), b.compare(x, e.c(1), "GT")))
    fast = b.compare(x, b.divide(b.add(a, e.c(1)), b.add(b.add(a, b_), e.c(2))), "LT")
    a, b_, x = e.where(fast, a, b_), e.where(fast, b_, a), e.where(fast, x, b.subtract(e.c(1), x))
    eps = float(np.finfo(x.dtype).eps) / 2
    steps = 200 if np.dtype(x.dtype).itemsize == 4 else 600
    shape, dt = list(x.shape), x.dtype
    dims = list(range(len(shape)))

    def body(bb, vals):
        n, _, c, d, h, aa, bv, xx = vals

        def k(v):
            return bb.full(shape, v, dt)

        def fix(v):
            return bb.select(bb.compare(bb.abs(v), k(eps), "LT"), k(eps), v)

        m = bb.broadcast_in_dim(bb.convert(bb.divide(bb.subtract(n, bb.scalar(1, np.int32)), bb.scalar(2, np.int32)),
                                           dt), shape, [])
        a2m = bb.add(aa, bb.multiply(k(2), m))
        even = bb.divide(bb.multiply(bb.negate(bb.multiply(bb.add(aa, m), bb.add(bb.add(aa, bv), m))), xx),
                         bb.multiply(a2m, bb.add(a2m, k(1))))
        odd = bb.divide(bb.multiply(bb.multiply(m, bb.subtract(bv, m)), xx), bb.multiply(bb.subtract(a2m, k(1)), a2m))
        is_even = bb.compare(bb.remainder(n, bb.scalar(2, np.int32)), bb.scalar(0, np.int32), "EQ")
        num = bb.select(is_even, even, odd)
        num = bb.select(bb.compare(n, bb.scalar(1, np.int32), "EQ"), k(1), num)
        c2 = fix(bb.add(k(1), bb.divide(num, c)))
        d2 = bb.divide(k(1), fix(bb.add(k(1), bb.multiply(num, d))))
        delta = bb.multiply(c2, d2)
        far = bb.compare(bb.abs(bb.subtract(delta, k(1))), k(eps), "GE")
        more = bb.reduce(far, bb.scalar(False, np.bool_), dims, "or") if dims else far
        return [bb.add(n, bb.scalar(1, np.int32)), more, c2, d2, bb.multiply(h, delta), aa, bv, xx]

    def cond(bb, vals):
        return bb.and_(bb.compare(vals[0], bb.scalar(steps, np.int32), "LT"), vals[1])

    tiny = e.c(eps)
    out = b.while_loop(cond, body, [b.scalar(1, np.int32), b.scalar(True, np.bool_), tiny, e.c(0), tiny, a, b_, x])
    frac = out[4]
    lbeta_ab = b.subtract(b.add(lgamma(b, a), lgamma(b, b_)), lgamma(b, b.add(a, b_)))
    safe_x = e.where(nan, e.c(0.5), x)
    log_core = b.subtract(b.add(b.multiply(b.log(safe_x), a), b.multiply(b.log_plus_one(b.negate(safe_x)), b_)),
                          lbeta_ab)
    res = b.divide(b.multiply(frac, b.exponential(log_core)), a)
    res = e.where(nan, e.c(np.nan), res)
    return e.where(fast, res, b.subtract(e.c(1), res))


def betainc(b, a, b_, x):
    _float("Betainc", x)
    a, b_, x = broadcast_all(b, "Betainc", a, b_, x)
    dt = np.dtype(x.dtype)
    if dt.itemsize < 4:
        a, b_, x = (b.convert(v, np.float32) for v in (a, b_, x))
    return b.convert(_betainc(b, a, b_, x), dt)


register("Betainc", ("a", "b", "x"), betainc)


@register_gradient("Betainc")
def _betainc_grad(b, op, grad):
    """TF's, in x only: x^(a-1) (1-x)^(b-1) / B(a, b)."""
    a, b_, x = op.inputs
    a, b_, xb = broadcast_all(b, "Betainc", a, b_, x)
    e = _E(b, xb)
    log_d = b.add(b.multiply(b.subtract(b_, e.c(1)), b.log_plus_one(b.negate(xb))),
                  b.multiply(b.subtract(a, e.c(1)), b.log(xb)))
    log_d = b.add(b.subtract(b.subtract(log_d, lgamma(b, a)), lgamma(b, b_)), lgamma(b, b.add(a, b_)))
    return [None, None, _unbroadcast(b, b.multiply(grad, b.exponential(log_d)), x.shape)]
