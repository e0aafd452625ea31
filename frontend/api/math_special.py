"""tf.math special functions built from core ops the way XLA's client library (xla/hlo/builder/lib/math.cc)
builds them, so that they compile and differentiate through their decomposition: Lanczos lgamma and
digamma, Giles' erfinv, Cephes' Chebyshev series for the scaled Bessel functions, the Euler-Maclaurin
Hurwitz zeta, and nextafter on the bit patterns. Where TF's gradient is not the derivative of the
value (zeta and polygamma in their order, the incomplete functions in a and b) the argument is cut
from the tape, as TF has no gradient there."""

from __future__ import annotations

import numpy as np

from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.execute import execute
from minixla.frontend.ops import special_ops  # noqa: F401 -- registers the Bessel ops
from minixla.frontend.ops.special_coefficients import (  # the tables, shared with the raw-op rules
    LANCZOS as _LANCZOS, ERFINV_LT5 as _ERFINV_LT5, ERFINV_GE5 as _ERFINV_GE5, ERFINV64_LT625 as
    _ERFINV64_LT625, ERFINV64_LT16 as _ERFINV64_LT16, ERFINV64_GE16 as _ERFINV64_GE16, zeta_tail as _zeta_tail)

tf = None  # the public `tf` module, set by install()

_LANCZOS_G = 7.0
_LANCZOS_BASE = 0.99999999999980993227684700473478

_TF_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _f(x):
    x = tf.convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"Value for attr 'T' of {_TF_NAMES.get(x.dtype.name, x.dtype.name)} is not in the "
                                   "list of allowed values: bfloat16, half, float, double")
    return x


def _full_like(x, value):
    return tf.zeros_like(x) + tf.constant(value, x.dtype)


def _up(x):
    """Half precision is computed in float32 (XLA's DoWithUpcastToF32)."""
    return tf.cast(x, "float32") if x.dtype.size < 4 else x


def _lanczos_z(x):
    reflect = x < 0.5
    return reflect, tf.where(reflect, -x, x - 1)


def _log_t(z):
    """log(g + 1/2 + z) as log(g + 1/2) + log1p(z / (g + 1/2))."""
    return np.log(_LANCZOS_G + 0.5) + tf.math.log1p(z / (_LANCZOS_G + 0.5))


def lgamma(x, name=None):
    """log|Gamma(x)|: Lanczos (g = 7, 8 terms) for x >= 1/2, Euler's reflection below."""
    x0 = _f(x)
    x = _up(x0)
    reflect, z = _lanczos_z(x)
    a = tf.zeros_like(x) + _LANCZOS_BASE
    for i, c in enumerate(_LANCZOS):
        a = a + c / (z + (i + 1))
    t = z + (_LANCZOS_G + 0.5)
    log_t = _log_t(z)
    log_y = 0.5 * np.log(2 * np.pi) + (z + 0.5 - t / log_t) * log_t + tf.math.log(a)
    ax = tf.abs(x)
    frac = ax - tf.floor(ax)
    frac = tf.where(frac > 0.5, 1 - frac, frac)
    frac = tf.where(reflect, frac, tf.ones_like(frac) * 0.5)  # sin(pi/2): no pole on the unused branch
    denom = tf.math.log(tf.sin(np.pi * frac))
    finite = tf.math.is_finite(denom)
    reflection = tf.where(finite, np.log(np.pi) - tf.where(finite, denom, tf.zeros_like(denom)) - log_y, -denom)
    out = tf.where(reflect, reflection, log_y)
    out = tf.where(tf.math.is_inf(x), _full_like(x, np.inf), out)
    return tf.cast(out, x0.dtype)


def digamma(x, name=None):
    """d/dx lgamma: log t + A'(z)/A(z) - g/t (Lanczos) for x >= 1/2, psi(1-x) - pi cot(pi x) below; -inf at
    0 and nan at the negative integers."""
    x0 = _f(x)
    x = _up(x0)
    reflect, z = _lanczos_z(x)
    num, den = tf.zeros_like(x), tf.zeros_like(x) + _LANCZOS_BASE
    for i, c in enumerate(_LANCZOS):
        zi = z + (i + 1)
        num = num - c / (zi * zi)
        den = den + c / zi
    t = z + (_LANCZOS_G + 0.5)
    y = _log_t(z) + num / den - _LANCZOS_G / t
    reduced = x + tf.abs(tf.floor(x + 0.5))
    out = tf.where(reflect, y - np.pi * tf.cos(np.pi * reduced) / tf.sin(np.pi * reduced), y)
    out = tf.where(tf.equal(x, 0), _full_like(x, -np.inf), out)
    negint = tf.logical_and(x < 0, tf.equal(x, tf.floor(x)))
    out = tf.where(negint, _full_like(x, np.nan), out)
    return tf.cast(out, x0.dtype)


def lbeta(x, name=None):
    """log|Beta(x)| over the last axis: sum(lgamma(x)) - lgamma(sum(x)); an empty last axis gives 0."""
    x = _f(x)
    if x.shape.rank == 0:
        raise InvalidArgumentError("Invalid reduction dimension (-1 for input with 0 dimension(s) [Op:Sum]")
    if x.shape[-1] == 0:
        return tf.zeros(x.shape.as_list()[:-1], x.dtype)
    return tf.reduce_sum(lgamma(x), axis=-1) - lgamma(tf.reduce_sum(x, axis=-1))


def _erfinv_poly64(w, x):
    """Giles' double-precision polynomials in w = -log(1 - x^2) (three ranges: 6.25 and 16 split them)."""
    lt625, lt16 = w < 6.25, w < 16
    sqrt_w = tf.sqrt(tf.where(lt625, tf.ones_like(w) * 36, w))
    w = tf.where(lt625, w - 3.125, sqrt_w - tf.where(lt16, tf.ones_like(w) * 3.25, tf.ones_like(w) * 5.0))

    def coeff(i):
        c = tf.zeros_like(x) + _ERFINV64_LT625[i]
        if i < 19:
            c = tf.where(lt625, c, tf.zeros_like(x) + _ERFINV64_LT16[i])
        if i < 17:
            c = tf.where(lt16, c, tf.zeros_like(x) + _ERFINV64_GE16[i])
        return c

    p = coeff(0)
    for i in range(1, 23):
        step = coeff(i) + p * w
        p = step if i < 17 else tf.where(lt16 if i < 19 else lt625, step, p)
    return p


def erfinv(x, name=None):
    """Giles' approximation: w = -log(1 - x^2), a polynomial in w - 2.5 (w < 5) or sqrt(w) - 3 (float32;
    float64 uses his three-range double-precision polynomials), times x; +-inf at +-1."""
    x0 = _f(x)
    x = _up(x0)
    edge = tf.equal(tf.abs(x), 1)
    xs = tf.where(edge, tf.zeros_like(x), x)
    w = -tf.math.log1p(-xs * xs)
    if x.dtype == tf.float64:
        p = _erfinv_poly64(w, x)
    else:
        lt = w < 5
        w = tf.where(lt, w - 2.5, tf.sqrt(tf.where(lt, tf.ones_like(w) * 25, w)) - 3)
        p = tf.where(lt, tf.zeros_like(x) + _ERFINV_LT5[0], tf.zeros_like(x) + _ERFINV_GE5[0])
        for lo, hi in zip(_ERFINV_LT5[1:], _ERFINV_GE5[1:]):
            p = tf.where(lt, tf.zeros_like(x) + lo, tf.zeros_like(x) + hi) + p * w
    out = tf.where(edge, tf.where(x > 0, _full_like(x, np.inf), _full_like(x, -np.inf)), p * xs)
    return tf.cast(out, x0.dtype)


def ndtri(x, name=None):
    """The standard normal quantile: sqrt(2) erfinv(2x - 1)."""
    return np.sqrt(2.0) * erfinv(2 * _f(x) - 1)


def erfcinv(x, name=None):
    """erfc^-1(x) = -ndtri(x / 2) / sqrt(2)."""
    return -ndtri(0.5 * _f(x)) / np.sqrt(2.0)


def bessel_i0e(x, name=None):
    """exp(-|x|) I0(x) (frontend/ops/special_ops.py)."""
    return execute("BesselI0e", [_f(x)])


def bessel_i1e(x, name=None):
    """exp(-|x|) I1(x)."""
    return execute("BesselI1e", [_f(x)])


def bessel_i0(x, name=None):
    """I0(x); TF 2.21 has no XLA kernel for it (jit_compile=True raises as in TF)."""
    return execute("BesselI0", [_f(x)])


def bessel_i1(x, name=None):
    return execute("BesselI1", [_f(x)])


_ZETA_N = 9


def zeta(x, q, name=None):
    """The Hurwitz zeta sum_k (q + k)^-x: 9 terms, then the Euler-Maclaurin tail. Domain: x > 1, q > 0
    (nan elsewhere, inf at x = 1). TF differentiates it in q only."""
    x0, q = _f(x), _f(q)
    x0, q = x0 + tf.zeros_like(q), q + tf.zeros_like(x0)
    x = tf.stop_gradient(_up(x0))
    q = _up(q)
    ok = tf.logical_and(x > 1, q > 0)
    xs = tf.where(ok, x, tf.ones_like(x) * 2)
    qs = tf.where(ok, q, tf.ones_like(q))
    s = tf.zeros_like(qs)
    for k in range(_ZETA_N):
        s = s + tf.pow(qs + k, -xs)
    w = qs + _ZETA_N
    s = s + tf.pow(w, 1 - xs) / (xs - 1) + 0.5 * tf.pow(w, -xs)
    fac, term = tf.ones_like(xs), tf.pow(w, -xs) / w  # w^(-x-1)
    for j, a in enumerate(_zeta_tail()):
        fac = fac * (xs + 2 * j) if j == 0 else fac * (xs + 2 * j - 1) * (xs + 2 * j)
        s = s + fac * term / a
        term = term / (w * w)
    out = tf.where(ok, s, _full_like(s, np.nan))
    out = tf.where(tf.equal(x, 1), _full_like(s, np.inf), out)
    return tf.cast(out, x0.dtype)


def polygamma(a, x, name=None):
    """psi^(a)(x): digamma for a = 0, (-1)^(a+1) a! zeta(a + 1, x) above; nan for a non-integral or
    negative order. TF differentiates it in x only."""
    a, x = _f(a), _f(x)
    a, x = a + tf.zeros_like(x), x + tf.zeros_like(a)
    a = tf.stop_gradient(a)
    order_ok = tf.logical_and(tf.equal(a, tf.floor(a)), a >= 0)
    safe_a = tf.where(order_ok, a, tf.zeros_like(a))
    sign = 2 * tf.math.floormod(safe_a, 2) - 1  # (-1)^(a+1)
    fact = tf.exp(lgamma(safe_a + 1))
    higher = sign * fact * zeta(safe_a + 1, x)
    out = tf.where(tf.equal(safe_a, 0), digamma(x), higher)
    return tf.where(order_ok, out, _full_like(out, np.nan))


def _next_bits(x1, x2):
    """XLA's NextAfter on the integer bit patterns."""
    ity = {4: "int32", 8: "int64"}[x1.dtype.size]
    bits = 8 * x1.dtype.size
    a, b = tf.bitcast(x1, ity), tf.bitcast(x2, ity)
    sign_mask = tf.constant(np.array(-(1 << (bits - 1))).astype(ity))
    mag_mask = tf.constant(np.array((1 << (bits - 1)) - 1).astype(ity))
    a_abs, b_abs = tf.bitwise.bitwise_and(a, mag_mask), tf.bitwise.bitwise_and(b, mag_mask)
    a_sign, b_sign = tf.bitwise.bitwise_and(a, sign_mask), tf.bitwise.bitwise_and(b, sign_mask)
    smaller = tf.logical_or(a_abs > b_abs, tf.not_equal(a_sign, b_sign))
    out = a + tf.where(smaller, -tf.ones_like(a), tf.ones_like(a))
    from_zero = tf.bitwise.bitwise_or(b_sign, tf.ones_like(b))
    out = tf.where(tf.equal(a_abs, 0), tf.where(tf.equal(b_abs, 0), b, from_zero), out)
    out = tf.where(tf.equal(a, b), b, out)
    res = tf.bitcast(out, x1.dtype)
    return tf.where(tf.logical_or(tf.math.is_nan(x1), tf.math.is_nan(x2)), _full_like(res, np.nan), res)


def nextafter(x1, x2, name=None):
    """The next representable value after x1 towards x2: +-1 on the bit pattern (XLA's NextAfter). TF's
    gradient passes the upstream gradient to x1 and zeros to x2."""
    x1, x2 = _f(x1), _f(x2)
    if x1.dtype.size not in (4, 8):
        raise InvalidArgumentError(f"Value for attr 'T' of {_TF_NAMES.get(x1.dtype.name, x1.dtype.name)} is not in "
                                   "the list of allowed values: double, float")
    x1, x2 = x1 + tf.zeros_like(x2), x2 + tf.zeros_like(x1)

    @tf.custom_gradient
    def step(a, b):
        return _next_bits(a, b), lambda dy: (dy, tf.zeros_like(dy))

    return step(x1, x2)


# -- incomplete gamma and beta (while loops, as XLA; gradients are TF's closed forms) --------------

def _eps(x):
    return float(np.finfo(x.dtype.as_numpy_dtype).eps)


def _igamma_series(ax, x, a, enabled, derivative):
    """sum_n x^n / (a+1)...(a+n), run while any enabled element's last term is above eps (or, for
    the derivative in a, its last term's derivative)."""
    eps = _eps(x)

    def body(on, r, c, ans, dc_da, dans_da):
        r2 = r + 1
        dc2 = dc_da * (x / r2) + (-1 * c * x) / (r2 * r2)
        dans2 = dans_da + dc2
        c2 = c * (x / r2)
        ans2 = ans + c2
        test = tf.abs(dc2 / dans2) if derivative else c2 / ans2
        keep = lambda new, old: tf.where(on, new, old)  # noqa: E731
        return (tf.logical_and(on, test > eps), keep(r2, r), keep(c2, c), keep(ans2, ans), keep(dc2, dc_da),
                keep(dans2, dans_da))

    one, zero = tf.ones_like(x), tf.zeros_like(x)
    out = tf.while_loop(lambda on, *_: tf.reduce_any(on), body, (enabled, a, one, one, zero, zero))
    ans, dans_da = out[3], out[5]
    if not derivative:
        return ans * ax / a
    return ax * (ans * (tf.math.log(x) - digamma(a + 1)) + dans_da) / a


def _igammac_fraction(ax, x, a, enabled, derivative):
    """Legendre's continued fraction for Q(a, x) (Cephes' igamc), with its derivative in a carried
    along; at most 2000 steps."""
    eps = _eps(x)
    y0 = 1 - a
    z0 = x + y0 + 1
    pkm1, qkm1 = x + 1, z0 * x
    ans0 = pkm1 / qkm1
    zero, one = tf.zeros_like(x), tf.ones_like(x)
    dqkm1 = -x
    dans0 = (zero - ans0 * dqkm1) / qkm1

    def body(on, ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2, dpkm2, dqkm2, dpkm1, dqkm1, dans):
        c = c + 1
        y2, z2 = y + 1, z + 2
        yc = y2 * c
        pk = pkm1 * z2 - pkm2 * yc
        qk = qkm1 * z2 - qkm2 * yc
        nz = tf.not_equal(qk, 0)
        r = pk / tf.where(nz, qk, one)
        t2 = tf.where(nz, tf.abs((ans - r) / tf.where(tf.equal(r, 0), one, r)), one)
        ans2 = tf.where(nz, r, ans)
        dpk = dpkm1 * z2 - pkm1 - dpkm2 * yc + pkm2 * c
        dqk = dqkm1 * z2 - qkm1 - dqkm2 * yc + qkm2 * c
        dans2 = tf.where(nz, (dpk - ans2 * dqk) / tf.where(nz, qk, one), dans)
        grad_test = tf.where(nz, tf.abs(dans2 - dans), one)
        big = tf.abs(pk) > 1 / eps
        sc = lambda v: tf.where(big, v * eps, v)  # noqa: E731
        new = [ans2, t2, y2, z2, c, sc(pk), sc(qk), sc(pkm1), sc(qkm1), sc(dpkm1), sc(dqkm1), sc(dpk), sc(dqk),
               dans2]
        old = [ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2, dpkm2, dqkm2, dpkm1, dqkm1, dans]
        kept = [n if k == 4 else tf.where(on, n, o) for k, (n, o) in enumerate(zip(new, old))]
        test = grad_test if derivative else t2
        return (tf.logical_and(on, test > eps), *kept)

    init = (enabled, ans0, one, y0, z0, zero, pkm1, qkm1, one, x, zero, zero, zero, dqkm1, dans0)
    out = tf.while_loop(lambda on, *v: tf.logical_and(tf.reduce_any(on), tf.reduce_max(v[4]) < 2000), body, init)
    ans, dans = out[1], out[14]
    if not derivative:
        return ans * ax
    return ax * (ans * (tf.math.log(x) - digamma(a)) + dans)


def _igamma_parts(a, x):
    """The shared setup of P and Q: ax = x^a e^-x / Gamma(a), which method each element takes, and
    the masks (XLA's Igamma)."""
    is_nan = tf.logical_or(tf.math.is_nan(a), tf.math.is_nan(x))
    x_zero = tf.equal(x, 0)
    domain = tf.logical_or(x < 0, a <= 0)
    use_q = tf.logical_and(x > 1, x > a)
    safe_x = tf.where(tf.logical_or(x_zero, domain), tf.ones_like(x), x)
    safe_a = tf.where(domain, tf.ones_like(a), a)
    log_ax = safe_a * tf.math.log(safe_x) - safe_x - lgamma(safe_a)
    underflow = log_ax < -np.log(np.finfo(x.dtype.as_numpy_dtype).max)
    enabled = tf.logical_not(tf.logical_or(tf.logical_or(x_zero, domain), tf.logical_or(underflow, is_nan)))
    return is_nan, x_zero, domain, use_q, safe_a, safe_x, tf.exp(log_ax), enabled


def _igamma_value(a, x, derivative=False):
    is_nan, x_zero, domain, use_q, sa, sx, ax, enabled = _igamma_parts(a, x)
    q = _igammac_fraction(ax, sx, sa, tf.logical_and(enabled, use_q), derivative)
    p = _igamma_series(ax, sx, sa, tf.logical_and(enabled, tf.logical_not(use_q)), derivative)
    out = tf.where(use_q, -q if derivative else 1 - q, p)
    out = tf.where(x_zero, tf.zeros_like(out), out)
    if not derivative:
        out = tf.where(tf.equal(x, np.inf), tf.ones_like(out), out)
    return tf.where(tf.logical_or(domain, is_nan), _full_like(out, np.nan), out)


def _igamma_dx(a, x):
    """d/dx P(a, x) = x^(a-1) e^-x / Gamma(a)."""
    return tf.exp(-x + (a - 1) * tf.math.log(x) - lgamma(a))


def _pair(a, x):
    a, x = _f(a), _f(x)
    return a + tf.zeros_like(x), x + tf.zeros_like(a)


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma P(a, x): the series for x <= max(1, a), 1 - Q by the
    continued fraction above; nan outside a > 0, x >= 0."""
    a, x = _pair(a, x)

    @tf.custom_gradient
    def step(a, x):
        def grad(dy):
            return dy * _igamma_value(a, x, derivative=True), dy * _igamma_dx(a, x)

        return _igamma_value(a, x), grad

    return step(a, x)


def igammac(a, x, name=None):
    """Q(a, x) = 1 - P(a, x), computed directly where it is the small one (1 outside the domain)."""
    a, x = _pair(a, x)

    @tf.custom_gradient
    def step(a, x):
        def grad(dy):
            return -dy * _igamma_value(a, x, derivative=True), -dy * _igamma_dx(a, x)

        out_of_range = tf.logical_or(x <= 0, a <= 0)
        _, _, _, _, sa, sx, ax, enabled = _igamma_parts(a, x)
        use_p = tf.logical_or(x < 1, x < a)
        enabled = tf.logical_and(enabled, tf.logical_not(out_of_range))
        p = _igamma_series(ax, sx, sa, tf.logical_and(enabled, use_p), False)
        q = _igammac_fraction(ax, sx, sa, tf.logical_and(enabled, tf.logical_not(use_p)), False)
        out = tf.where(use_p, 1 - p, q)
        out = tf.where(tf.equal(x, np.inf), tf.zeros_like(out), out)
        return tf.where(out_of_range, tf.ones_like(out), out), grad

    return step(a, x)


def betainc(a, b, x, name=None):
    """The regularized incomplete beta I_x(a, b): the continued fraction (modified Lentz, 200 steps in
    float32, 600 in float64) at x < (a+1)/(a+b+2), else 1 - I_(1-x)(b, a). TF differentiates it in x
    only: x^(a-1) (1-x)^(b-1) / B(a, b)."""
    a, b, x = _f(a), _f(b), _f(x)
    zero = tf.zeros_like(a) + tf.zeros_like(b) + tf.zeros_like(x)
    a, b, x = tf.stop_gradient(a + zero), tf.stop_gradient(b + zero), x + zero

    @tf.custom_gradient
    def step(x):
        def grad(dy):
            log_d = (b - 1) * tf.math.log1p(-x) + (a - 1) * tf.math.log(x) - lgamma(a) - lgamma(b) + lgamma(a + b)
            return dy * tf.exp(log_d)

        return _betainc_value(a, b, x), grad

    return step(x)


def _betainc_value(a, b, x):
    nan = tf.logical_or(tf.logical_or(a <= 0, b <= 0), tf.logical_or(x < 0, x > 1))
    fast = x < (a + 1) / (a + b + 2)
    a, b, x = tf.where(fast, a, b), tf.where(fast, b, a), tf.where(fast, x, 1 - x)
    eps = _eps(x) / 2
    steps = 200 if x.dtype.size == 4 else 600

    tiny = tf.zeros_like(x) + eps
    fix = lambda v: tf.where(tf.abs(v) < eps, tiny, v)  # noqa: E731

    def body(n, unconverged, c, d, h):
        m = tf.cast((n - 1) // 2, x.dtype)
        even = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        odd = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        num = tf.where(tf.equal(n % 2, 0), even, odd)
        num = tf.where(tf.equal(n, 1), tf.ones_like(x), num)
        c2 = fix(1 + num / c)
        d2 = 1 / fix(1 + num * d)
        delta = c2 * d2
        return n + 1, tf.reduce_any(tf.abs(delta - 1) >= eps), c2, d2, h * delta

    h0 = tiny  # the 0-th partial denominator is 0, below `small`
    out = tf.while_loop(lambda n, u, *_: tf.logical_and(n < steps, u), body,
                        (tf.constant(1), tf.constant(True), h0, tf.zeros_like(x), h0))
    frac = out[4]
    lbeta_ab = lgamma(a) + lgamma(b) - lgamma(a + b)
    safe_x = tf.where(nan, tf.ones_like(x) * 0.5, x)
    res = frac * tf.exp(tf.math.log(safe_x) * a + tf.math.log1p(-safe_x) * b - lbeta_ab) / a
    res = tf.where(nan, _full_like(res, np.nan), res)
    return tf.where(fast, res, 1 - res)


_MATH = ["lgamma", "digamma", "lbeta", "erfinv", "erfcinv", "ndtri", "bessel_i0", "bessel_i0e", "bessel_i1",
         "bessel_i1e", "zeta", "polygamma", "nextafter", "igamma", "igammac", "betainc"]


def install(module) -> None:
    global tf
    tf = module
    g = globals()
    for n in _MATH:
        setattr(module.math, n, g[n])
    module.math.special = type(module.math)(**{n: g[n] for n in ("bessel_i0", "bessel_i0e", "bessel_i1",
                                                                 "bessel_i1e")})
