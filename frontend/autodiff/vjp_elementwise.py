"""VJP rules of the elementwise hlo ops, from two tables.

Unary rules give d(result)/dx as builder code of (x, y); binary rules give the
two partial products of the cotangent g as builder code of (a, b, y, g).
Non-differentiable ops (compare, integer/bit ops, floor/ceil/round/sign) are
never recorded (tape.NON_DIFFERENTIABLE), so their gradient is None as in TF.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.autodiff.backprop import defvjp


def _k(b, v, like):
    return b.full(like.shape, v, like.dtype)


#: mnemonic -> derivative(b, x, y) (multiplied by the cotangent)
UNARY_DERIVATIVES = {
    "negate": lambda b, x, y: _k(b, -1, x),
    "exponential": lambda b, x, y: y,
    "exponential_minus_one": lambda b, x, y: b.add(y, _k(b, 1, y)),
    "log": lambda b, x, y: b.divide(_k(b, 1, x), x),
    "log_plus_one": lambda b, x, y: b.divide(_k(b, 1, x), b.add(x, _k(b, 1, x))),
    "sqrt": lambda b, x, y: b.divide(_k(b, 0.5, y), y),
    "rsqrt": lambda b, x, y: b.multiply(_k(b, -0.5, y), b.multiply(y, b.multiply(y, y))),
    "tanh": lambda b, x, y: b.subtract(_k(b, 1, y), b.multiply(y, y)),
    "logistic": lambda b, x, y: b.multiply(y, b.subtract(_k(b, 1, y), y)),
    "sine": lambda b, x, y: b.cosine(x),
    "cosine": lambda b, x, y: b.negate(b.sine(x)),
    "cbrt": lambda b, x, y: b.divide(_k(b, 1 / 3, y), b.multiply(y, y)),
    "tan": lambda b, x, y: b.add(_k(b, 1, y), b.multiply(y, y)),
}


def _trunc(b, q):
    return b.select(b.compare(q, _k(b, 0, q), "GE"), b.floor(q), b.ceil(q))


def _max_min(direction):
    """TF's Maximum/Minimum gradient: ties go to the first operand."""

    def rule(b, a, c, y, g):
        first = b.compare(a, c, direction)
        zero = _k(b, 0, g)
        return b.select(first, g, zero), b.select(first, zero, g)

    return rule


def _power(b, a, c, y, g):
    """TF's Pow gradient: g * c * a^(c-1), and g * y * log_a with log_a = (a > 0 ? log(a) : 0) -- so the
    exponent's gradient is NaN where y is NaN or infinite (0^-1, (-2)^0.5), as in TF."""
    da = b.multiply(b.multiply(g, c), b.power(a, b.subtract(c, _k(b, 1, c))))
    positive = b.compare(a, _k(b, 0, a), "GT")
    safe = b.select(positive, a, _k(b, 1, a))
    dc = b.multiply(b.multiply(g, y), b.select(positive, b.log(safe), _k(b, 0, a)))
    return da, dc


def _atan2(b, a, c, y, g):
    denom = b.add(b.multiply(a, a), b.multiply(c, c))
    return b.divide(b.multiply(g, c), denom), b.negate(b.divide(b.multiply(g, a), denom))


#: mnemonic -> (b, a, c, y, g) -> (cotangent of a, cotangent of c)
BINARY_VJPS = {
    "add": lambda b, a, c, y, g: (g, g),
    "subtract": lambda b, a, c, y, g: (g, b.negate(g)),
    "multiply": lambda b, a, c, y, g: (b.multiply(g, c), b.multiply(g, a)),
    "divide": lambda b, a, c, y, g: (b.divide(g, c), b.negate(b.divide(b.multiply(g, y), c))),
    "remainder": lambda b, a, c, y, g: (g, b.negate(b.multiply(g, _trunc(b, b.divide(a, c))))),
    "power": _power,
    "maximum": _max_min("GE"),
    "minimum": _max_min("LE"),
    "atan2": _atan2,
}


def _unary_rule(derivative):
    def rule(b, p, cts):
        x, y = p.operands[0], p.results[0]
        return [b.multiply(cts[0], derivative(b, x, y))]

    return rule


def _binary_rule(vjp):
    def rule(b, p, cts):
        return list(vjp(b, p.operands[0], p.operands[1], p.results[0], cts[0]))

    return rule


for _op, _d in UNARY_DERIVATIVES.items():
    defvjp(_op)(_unary_rule(_d))
for _op, _v in BINARY_VJPS.items():
    defvjp(_op)(_binary_rule(_v))


@defvjp("abs")
def _abs(b, p, cts):
    """g * sign(x); of a complex x, TF's ComplexAbs gradient complex(g, 0) * x / |x| (0 where x is 0)."""
    x, y, g = p.operands[0], p.results[0], cts[0]
    if np.dtype(x.dtype).kind != "c":
        return [b.multiply(g, b.sign(x))]
    zero = _k(b, 0, y)
    at_zero = b.compare(y, zero, "EQ")
    scale = b.select(at_zero, zero, b.divide(g, b.select(at_zero, _k(b, 1, y), y)))
    return [b.complex(b.multiply(scale, b.real(x)), b.multiply(scale, b.imag(x)))]


@defvjp("select")
def _select(b, p, cts):
    pred, t, _ = p.operands
    g = cts[0]
    zero = _k(b, 0, g)
    return [None, b.select(pred, g, zero), b.select(pred, zero, g)]


@defvjp("clamp")
def _clamp(b, p, cts):
    lo, x, hi = p.operands
    g = cts[0]
    zero = _k(b, 0, g)
    lo_b, hi_b = (b.broadcast_to(v, x.shape) for v in (lo, hi))
    below, above = b.compare(x, lo_b, "LT"), b.compare(x, hi_b, "GT")
    inside = b.select(below, zero, b.select(above, zero, g))

    def bound(v, mask):
        part = b.select(mask, g, zero)
        if tuple(v.shape) == tuple(x.shape):
            return part
        return b.reduce(part, b.scalar(0, g.dtype), list(range(len(x.shape))), "add")

    return [bound(lo, below), inside, bound(hi, above)]


@defvjp("convert")
def _convert(b, p, cts):
    return [b.convert(cts[0], p.operands[0].dtype)]
