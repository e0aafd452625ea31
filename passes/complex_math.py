"""Complex arithmetic as float hlo ops on (real, imaginary) pairs of tensors.

Used by `hlo-complex-to-real` (passes/complex_to_real.py). Each function takes and
returns pairs of same-typed float tensors and inserts hlo ops before an anchor op, so
the rest of the CPU pipeline (fusion, linalg, loops, LLVM) sees only float math.
The formulas are numpy's (and so the interpreter's, our oracle): Smith-style division
with numpy's zero-divisor case, `abs` through a scaled hypot, csqrt, FreeBSD's ctanh,
expm1/log1p without cancellation. complex<f32> runs its non-trivial math in f64 and
rounds once, as the interpreter does.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float64Type, TensorType, f64, i1
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.attrs import HLO_ATTRS, ComparisonDirection, ComparisonType
from minixla.dialects.hlo_ops.base import is_float
from minixla.dialects.hlo_ops.syntax import i64_array

Parts = tuple[SSAValue, SSAValue]


class Builder:
    """Inserts float hlo ops before `anchor`; every value has the same tensor type
    except the i1 masks of comparisons."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor
        #: splat constants made for this anchor, by (value, type): one each, not one per use
        self.splats: dict[tuple[str, object], SSAValue] = {}

    def insert(self, op: Operation) -> SSAValue:
        """Insert `op`; its first result (terminators: none)."""
        Rewriter.insert_op(op, InsertPoint.before(self.anchor))
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def op(self, name: str, *args: SSAValue, result_type=None, **props) -> SSAValue:
        cls = hlo.OPS[name]
        return self.insert(cls.create(operands=list(args), result_types=[result_type or args[0].type],
                                      properties=props))

    def const(self, value: float, like: SSAValue) -> SSAValue:
        t = like.type
        assert isinstance(t, TensorType)
        key = (repr(float(value)), t)
        if key not in self.splats:
            scalar = TensorType(t.element_type, [])
            c = self.insert(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(scalar, [value])))
            self.splats[key] = c if not t.get_shape() else self.op(
                "broadcast_in_dim", c, result_type=t, broadcast_dimensions=i64_array([]))
        return self.splats[key]

    def cmp(self, direction: str, a: SSAValue, b: SSAValue) -> SSAValue:
        t = a.type
        assert isinstance(t, TensorType)
        kind = "FLOAT" if is_float(t.element_type) else "SIGNED"
        return self.insert(hlo.CompareOp.create(
            operands=[a, b], result_types=[TensorType(i1, t.get_shape())],
            properties={"comparison_direction": HLO_ATTRS.comparison_direction(ComparisonDirection(direction)),
                        "compare_type": HLO_ATTRS.comparison_type(ComparisonType(kind))}))

    def select(self, pred: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op("select", pred, a, b, result_type=a.type)

    def convert(self, x: SSAValue, result_type) -> SSAValue:
        return x if x.type == result_type else self.insert(hlo.ConvertOp(x, result_type))

    # -- float helpers ------------------------------------------------------
    def add(self, a, b):
        return self.op("add", a, b)

    def sub(self, a, b):
        return self.op("subtract", a, b)

    def mul(self, a, b):
        return self.op("multiply", a, b)

    def div(self, a, b):
        return self.op("divide", a, b)

    def neg(self, a):
        return self.op("negate", a)

    def fabs(self, a):
        return self.op("abs", a)

    def half(self, a):
        return self.mul(a, self.const(0.5, a))

    def is_nan(self, a):
        return self.cmp("NE", a, a)

    def is_inf(self, a):
        return self.cmp("EQ", self.fabs(a), self.const(float("inf"), a))

    def signbit(self, a):
        """a < 0 or a is -0.0 (1/-0 = -inf)."""
        one_over = self.div(self.const(1.0, a), a)
        return self.op("or", self.cmp("LT", a, self.const(0.0, a)), self.cmp("LT", one_over, self.const(0.0, a)),
                       result_type=TensorType(i1, a.type.get_shape()))

    def both(self, p, q):
        return self.op("and", p, q)

    def either(self, p, q):
        return self.op("or", p, q)

    def copysign(self, mag, sign_of):
        """|mag| with the sign of `sign_of` (mag is >= 0 here)."""
        return self.select(self.signbit(sign_of), self.neg(mag), mag)

    def sinh(self, x):
        """(expm1(x) - expm1(-x)) / 2: no cancellation near 0, inf for large |x|."""
        return self.half(self.sub(self.op("exponential_minus_one", x), self.op("exponential_minus_one", self.neg(x))))

    def cosh(self, x):
        return self.half(self.add(self.op("exponential", x), self.op("exponential", self.neg(x))))

    def hypot(self, x, y):
        """max * sqrt(1 + (min/max)^2); 0 for (0, 0); inf if either is inf (even with a NaN)."""
        ax, ay = self.fabs(x), self.fabs(y)
        big, small = self.op("maximum", ax, ay), self.op("minimum", ax, ay)
        r = self.div(small, big)
        h = self.mul(big, self.op("sqrt", self.add(self.const(1.0, r), self.mul(r, r))))
        h = self.select(self.cmp("EQ", big, self.const(0.0, big)), self.const(0.0, big), h)
        return self.select(self.either(self.is_inf(x), self.is_inf(y)), self.const(float("inf"), h), h)


# -- complex operations on pairs ----------------------------------------------

def cmul(b: Builder, x: Parts, y: Parts) -> Parts:
    (p, q), (r, s) = x, y
    return b.sub(b.mul(p, r), b.mul(q, s)), b.add(b.mul(p, s), b.mul(q, r))


def cdiv(b: Builder, x: Parts, y: Parts) -> Parts:
    """numpy's algorithm: Smith's division, scaled by the larger divisor part; a zero divisor
    divides each part by |0| (inf or NaN as numpy gives)."""
    (p, q), (r, s) = x, y
    ar, as_ = b.fabs(r), b.fabs(s)
    one = b.const(1.0, r)
    # |r| >= |s|: t = s/r
    t1 = b.div(s, r)
    scl1 = b.div(one, b.add(r, b.mul(s, t1)))
    re1 = b.mul(b.add(p, b.mul(q, t1)), scl1)
    im1 = b.mul(b.sub(q, b.mul(p, t1)), scl1)
    # |r| < |s|: t = r/s
    t2 = b.div(r, s)
    scl2 = b.div(one, b.add(s, b.mul(r, t2)))
    re2 = b.mul(b.add(b.mul(p, t2), q), scl2)
    im2 = b.mul(b.sub(b.mul(q, t2), p), scl2)
    first = b.cmp("GE", ar, as_)
    re, im = b.select(first, re1, re2), b.select(first, im1, im2)
    zero = b.both(b.cmp("EQ", ar, b.const(0.0, ar)), b.cmp("EQ", as_, b.const(0.0, as_)))
    return b.select(zero, b.div(p, ar), re), b.select(zero, b.div(q, as_), im)


def cabs(b: Builder, x: Parts) -> SSAValue:
    return b.hypot(*x)


def cexp(b: Builder, x: Parts) -> Parts:
    """e^a (cos y, sin y); a zero imaginary part stays exactly zero (numpy's cexp)."""
    a, y = x
    ea = b.op("exponential", a)
    im = b.select(b.cmp("EQ", y, b.const(0.0, y)), y, b.mul(ea, b.op("sine", y)))
    return b.mul(ea, b.op("cosine", y)), im


def cexpm1(b: Builder, x: Parts) -> Parts:
    """numpy: (expm1(a) cos y - 2 sin^2(y/2), e^a sin y)."""
    a, y = x
    s = b.op("sine", b.half(y))
    re = b.sub(b.mul(b.op("exponential_minus_one", a), b.op("cosine", y)), b.mul(b.const(2.0, s), b.mul(s, s)))
    return re, b.mul(b.op("exponential", a), b.op("sine", y))


def clog(b: Builder, x: Parts) -> Parts:
    a, y = x
    return b.op("log", b.hypot(a, y)), b.op("atan2", y, a)


def clog1p(b: Builder, x: Parts) -> Parts:
    """The spec's (log(hypot(a + 1, y)), atan2(y, a + 1)), as numpy computes it."""
    a, y = x
    a1 = b.add(a, b.const(1.0, a))
    return b.op("log", b.hypot(a1, y)), b.op("atan2", y, a1)


def csqrt(b: Builder, x: Parts) -> Parts:
    """The C99 csqrt: principal root, branch cut along the negative reals, signed zeros kept."""
    a, y = x
    h = b.hypot(a, y)
    t_pos = b.op("sqrt", b.half(b.add(a, h)))
    t_neg = b.op("sqrt", b.half(b.sub(h, a)))
    two = b.const(2.0, a)
    pos = b.cmp("GE", a, b.const(0.0, a))
    re = b.select(pos, t_pos, b.div(b.fabs(y), b.mul(two, t_neg)))
    im = b.select(pos, b.div(y, b.mul(two, t_pos)), b.copysign(t_neg, y))
    zero = b.both(b.cmp("EQ", a, b.const(0.0, a)), b.cmp("EQ", y, b.const(0.0, y)))
    re = b.select(zero, b.const(0.0, a), re)
    im = b.select(zero, y, im)
    inf_y = b.is_inf(y)
    return b.select(inf_y, b.const(float("inf"), a), re), b.select(inf_y, y, im)


def crsqrt(b: Builder, x: Parts) -> Parts:
    a, _ = x
    return cdiv(b, (b.const(1.0, a), b.const(0.0, a)), csqrt(b, x))


def csign(b: Builder, x: Parts) -> Parts:
    """x/|x|; 0 for 0; (NaN, NaN) if either part of the input or quotient is NaN (an infinite
    input: inf/inf, as numpy's complex division by |x| gives)."""
    a, y = x
    mag = b.hypot(a, y)
    zero = b.cmp("EQ", mag, b.const(0.0, mag))
    safe = b.select(zero, b.const(1.0, mag), mag)
    re = b.select(zero, b.const(0.0, a), b.div(a, safe))
    im = b.select(zero, b.const(0.0, a), b.div(y, safe))
    nan = b.either(b.either(b.is_nan(a), b.is_nan(y)), b.is_inf(mag))
    q = b.const(float("nan"), a)
    return b.select(nan, q, re), b.select(nan, q, im)


def ccos(b: Builder, x: Parts) -> Parts:
    a, y = x
    return b.mul(b.op("cosine", a), b.cosh(y)), b.neg(b.mul(b.op("sine", a), b.sinh(y)))


def csin(b: Builder, x: Parts) -> Parts:
    a, y = x
    return b.mul(b.op("sine", a), b.cosh(y)), b.mul(b.op("cosine", a), b.sinh(y))


def ctanh(b: Builder, x: Parts) -> Parts:
    """FreeBSD's ctanh (numpy's): tan(y) = t, beta = 1 + t^2, s = sinh(a), rho = sqrt(1 + s^2),
    (beta rho s, t) / (1 + beta s^2); for |a| >= 22 the real part is sign(a)."""
    a, y = x
    t = b.div(b.op("sine", y), b.op("cosine", y))
    one = b.const(1.0, a)
    beta = b.add(one, b.mul(t, t))
    s = b.sinh(a)
    ss = b.mul(s, s)
    rho = b.op("sqrt", b.add(one, ss))
    denom = b.add(one, b.mul(beta, ss))
    re = b.div(b.mul(b.mul(beta, rho), s), denom)
    im = b.div(t, denom)
    large = b.cmp("GE", b.fabs(a), b.const(22.0, a))
    return b.select(large, b.op("sign", a), re), b.select(large, b.mul(b.const(0.0, im), im), im)


def ctan(b: Builder, x: Parts) -> Parts:
    """tan(z) = -i tanh(iz)."""
    a, y = x
    p, q = ctanh(b, (b.neg(y), a))
    return q, b.neg(p)


def clogistic(b: Builder, x: Parts) -> Parts:
    a, y = x
    er, ei = cexp(b, (b.neg(a), b.neg(y)))
    return cdiv(b, (b.const(1.0, a), b.const(0.0, a)), (b.add(b.const(1.0, er), er), ei))


def cpow(b: Builder, x: Parts, w: Parts) -> Parts:
    """exp(w log x); x^0 = 1; 0^w = 0 for real w > 0, else NaN (numpy's cpow)."""
    a, y = x
    c, d = w
    re, im = cexp(b, cmul(b, w, clog(b, x)))
    zero_base = b.both(b.cmp("EQ", a, b.const(0.0, a)), b.cmp("EQ", y, b.const(0.0, y)))
    real_pos = b.both(b.cmp("GT", c, b.const(0.0, c)), b.cmp("EQ", d, b.const(0.0, d)))
    z = b.const(0.0, a)
    n = b.const(float("nan"), a)
    re = b.select(zero_base, b.select(real_pos, z, n), re)
    im = b.select(zero_base, b.select(real_pos, z, n), im)
    zero_exp = b.both(b.cmp("EQ", c, b.const(0.0, c)), b.cmp("EQ", d, b.const(0.0, d)))
    return b.select(zero_exp, b.const(1.0, a), re), b.select(zero_exp, z, im)


def ccbrt(b: Builder, x: Parts) -> Parts:
    """The principal cube root exp(log(x) / 3), as the interpreter's x ** (1/3)."""
    a, _ = x
    return cpow(b, x, (b.const(1.0 / 3.0, a), b.const(0.0, a)))


def catan2(b: Builder, y: Parts, x: Parts) -> Parts:
    """-i log((x + i y) / sqrt(x^2 + y^2)), the interpreter's formula."""
    u = (b.sub(x[0], y[1]), b.add(x[1], y[0]))
    xx, yy = cmul(b, x, x), cmul(b, y, y)
    s = csqrt(b, (b.add(xx[0], yy[0]), b.add(xx[1], yy[1])))
    lr, li = clog(b, cdiv(b, u, s))
    return li, b.neg(lr)


def cpick(b: Builder, x: Parts, y: Parts, direction: str) -> Parts:
    """Lexicographic (real, imag) maximum (GT) or minimum (LT)."""
    take_x = b.select(b.cmp("EQ", x[0], y[0]), b.cmp(direction, x[1], y[1]), b.cmp(direction, x[0], y[0]))
    return b.select(take_x, x[0], y[0]), b.select(take_x, x[1], y[1])


def ccompare(b: Builder, x: Parts, y: Parts, direction: str) -> SSAValue:
    if direction == "EQ":
        return b.both(b.cmp("EQ", x[0], y[0]), b.cmp("EQ", x[1], y[1]))
    if direction == "NE":
        return b.either(b.cmp("NE", x[0], y[0]), b.cmp("NE", x[1], y[1]))
    return b.select(b.cmp("EQ", x[0], y[0]), b.cmp(direction, x[1], y[1]), b.cmp(direction, x[0], y[0]))


# -- the table the pass uses: mnemonic -> pairs in, pair (or real tensor) out --

UNARY: dict[str, Callable[[Builder, Parts], Parts]] = {
    "exponential": cexp, "exponential_minus_one": cexpm1, "log": clog, "log_plus_one": clog1p,
    "sqrt": csqrt, "rsqrt": crsqrt, "sign": csign, "cosine": ccos, "sine": csin, "tanh": ctanh,
    "tan": ctan, "logistic": clogistic, "cbrt": ccbrt,
}
BINARY: dict[str, Callable[[Builder, Parts, Parts], Parts]] = {
    "multiply": cmul, "divide": cdiv, "power": cpow, "atan2": catan2,
    "maximum": lambda b, x, y: cpick(b, x, y, "GT"), "minimum": lambda b, x, y: cpick(b, x, y, "LT"),
}


def widened(b: Builder, fn, *pairs: Parts):
    """Run `fn` in f64 when the parts are narrower, rounding the result once."""
    t = pairs[0][0].type
    assert isinstance(t, TensorType)
    if isinstance(t.element_type, Float64Type):
        return fn(b, *pairs)
    wide = TensorType(f64, t.get_shape())
    result = fn(b, *[(b.convert(p, wide), b.convert(q, wide)) for p, q in pairs])
    if isinstance(result, tuple):
        return b.convert(result[0], t), b.convert(result[1], t)
    return b.convert(result, t)
