"""Elementwise TF ops (categories 2 and 3), mostly generated from tables.

Binary ops broadcast numpy-style first (TF's implicit broadcasting, done with
`broadcast_in_dim` as tf2xla does) and then apply one or a few hlo ops.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import broadcast_all, is_float, is_int, op_error, register

# -- binary: TF op -> hlo op applied after broadcasting ------------------------------
SIMPLE_BINARY = {
    "AddV2": "add", "Sub": "subtract", "Mul": "multiply", "RealDiv": "divide", "Div": "divide",
    "TruncateDiv": "divide", "TruncateMod": "remainder", "Maximum": "maximum", "Minimum": "minimum",
    "Pow": "power", "LogicalAnd": "and_", "LogicalOr": "or_", "BitwiseAnd": "and_", "BitwiseOr": "or_",
    "BitwiseXor": "xor", "LeftShift": "shift_left", "Atan2": "atan2",
}

COMPARISONS = {"Equal": "EQ", "NotEqual": "NE", "Less": "LT", "LessEqual": "LE", "Greater": "GT",
               "GreaterEqual": "GE"}


def _simple(method: str, name: str):
    def rule(b, x, y):
        x, y = broadcast_all(b, name, x, y)
        return getattr(b, method)(x, y)

    return rule


def _compare(direction: str, name: str):
    def rule(b, x, y):
        x, y = broadcast_all(b, name, x, y)
        return b.compare(x, y, direction)

    return rule


def _zero(b, x):
    return b.full(x.shape, 0, x.dtype)


def floor_div(b, x, y):
    """Floats: floor(x / y). Signed ints: x / y rounded toward -inf (tf2xla FloorDivImpl)."""
    x, y = broadcast_all(b, "FloorDiv", x, y)
    if is_float(x.dtype):
        return b.floor(b.divide(x, y))
    q = b.divide(x, y)
    if np.dtype(x.dtype).kind == "u":
        return q
    zero = _zero(b, x)
    signs_differ = b.compare(b.compare(x, zero, "LT"), b.compare(y, zero, "LT"), "NE")
    inexact = b.compare(b.remainder(x, y), zero, "NE")
    return b.select(b.and_(signs_differ, inexact), b.subtract(q, b.full(x.shape, 1, x.dtype)), q)


def floor_mod(b, x, y):
    """Python's %: the remainder takes the divisor's sign."""
    x, y = broadcast_all(b, "FloorMod", x, y)
    rem = b.remainder(x, y)
    zero = _zero(b, x)
    if np.dtype(x.dtype).kind == "u":
        return rem
    fix = b.and_(b.compare(rem, zero, "NE"), b.compare(b.compare(rem, zero, "LT"), b.compare(y, zero, "LT"), "NE"))
    return b.select(fix, b.add(rem, y), rem)


def squared_difference(b, x, y):
    x, y = broadcast_all(b, "SquaredDifference", x, y)
    d = b.subtract(x, y)
    return b.multiply(d, d)


# The `*_no_nan`/`x*y` ops divide or take the log of a *safe* operand (1 where the result is the
# constant 0) so that the unselected branch's zero cotangent never meets 0/0 or 0*log(0): their
# gradients are TF's (0 there), not NaN.


def div_no_nan(b, x, y):
    x, y = broadcast_all(b, "DivNoNan", x, y)
    zero = _zero(b, y)
    is_zero = b.compare(y, zero, "EQ")
    return b.select(is_zero, zero, b.divide(x, b.select(is_zero, _one(b, y), y)))


def mul_no_nan(b, x, y):
    x, y = broadcast_all(b, "MulNoNan", x, y)
    zero = _zero(b, y)
    return b.select(b.compare(y, zero, "EQ"), zero, b.multiply(x, y))


def xlogy(b, x, y):
    x, y = broadcast_all(b, "Xlogy", x, y)
    zero = _zero(b, x)
    is_zero = b.compare(x, zero, "EQ")
    return b.select(is_zero, zero, b.multiply(x, b.log(b.select(is_zero, _one(b, y), y))))


def xdivy(b, x, y):
    x, y = broadcast_all(b, "Xdivy", x, y)
    zero = _zero(b, x)
    is_zero = b.compare(x, zero, "EQ")
    return b.select(is_zero, zero, b.divide(x, b.select(is_zero, _one(b, y), y)))


def right_shift(b, x, y):
    x, y = broadcast_all(b, "RightShift", x, y)
    if np.dtype(x.dtype).kind == "u":
        return b.shift_right_logical(x, y)
    return b.shift_right_arithmetic(x, y)


def logical_xor(b, x, y):
    x, y = broadcast_all(b, "LogicalXor", x, y)
    return b.xor(x, y)


for _tf, _m in SIMPLE_BINARY.items():
    register(_tf, ("x", "y"), _simple(_m, _tf))
for _tf, _d in COMPARISONS.items():
    register(_tf, ("x", "y"), _compare(_d, _tf))
for _tf, _rule in (("FloorDiv", floor_div), ("FloorMod", floor_mod), ("SquaredDifference", squared_difference),
                   ("DivNoNan", div_no_nan), ("MulNoNan", mul_no_nan), ("Xlogy", xlogy), ("Xdivy", xdivy),
                   ("RightShift", right_shift)):
    register(_tf, ("x", "y"), _rule)


def add_n(b, inputs):
    acc = inputs[0]
    for x in inputs[1:]:
        acc = b.add(acc, x)
    return acc


register("AddN", ("*inputs",), add_n)


# -- unary ---------------------------------------------------------------------------
SIMPLE_UNARY = {
    "Abs": "abs", "Neg": "negate", "Sign": "sign", "Sqrt": "sqrt", "Rsqrt": "rsqrt", "Exp": "exponential",
    "Expm1": "exponential_minus_one", "Log": "log", "Log1p": "log_plus_one", "Sin": "sine", "Cos": "cosine",
    "Tanh": "tanh", "Floor": "floor", "Ceil": "ceil", "Sigmoid": "logistic", "IsFinite": "is_finite",
    "LogicalNot": "not_", "Invert": "not_",
}


def _unary(method: str):
    def rule(b, x):
        return getattr(b, method)(x)

    return rule


def abs_(b, x):
    """Abs takes real types only (TF: complex magnitudes are ComplexAbs, which `tf.abs` picks)."""
    if np.dtype(x.dtype).kind == "c":
        raise op_error("Abs", f"Value for attr 'T' of {np.dtype(x.dtype).name} is not in the list of allowed values: "
                              "bfloat16, half, float, double, int8, int16, int32, int64")
    return b.abs(x)


def _one(b, x):
    return b.full(x.shape, 1, x.dtype)


def square(b, x):
    return b.multiply(x, x)


def reciprocal(b, x):
    return b.divide(_one(b, x), x)


def round_(b, x):
    """Banker's rounding for floats; integers are already round."""
    return b.round_nearest_even(x) if is_float(x.dtype) else x


def softplus(b, x):
    """log1p(exp(-|x|)) + max(x, 0) (tf2xla's form): never overflows. Written as
    log1p(exp(min(x, -x))) + max(0, x) so that its gradient is TF's SoftplusGrad, sigmoid(x), also at
    x == 0 (0.5; ties of the maximum/minimum VJPs go to the first operand), with the same values."""
    return b.add(b.log_plus_one(b.exponential(b.minimum(x, b.negate(x)))), b.maximum(_zero(b, x), x))


def is_nan(b, x):
    return b.compare(x, x, "NE")


def is_inf(b, x):
    return b.compare(b.abs(x), b.full(x.shape, np.inf, x.dtype), "EQ")


def tan(b, x):
    return b.divide(b.sine(x), b.cosine(x))


def atan(b, x):
    return b.atan2(x, _one(b, x))


def _sqrt_one_minus_sq(b, x):
    return b.sqrt(b.subtract(_one(b, x), b.multiply(x, x)))


def asin(b, x):
    """2 * atan2(x, 1 + sqrt(1 - x^2)) (XLA's expansion)."""
    two = b.full(x.shape, 2, x.dtype)
    return b.multiply(two, b.atan2(x, b.add(_one(b, x), _sqrt_one_minus_sq(b, x))))


def acos(b, x):
    """2 * atan2(sqrt(1 - x^2), 1 + x)."""
    two = b.full(x.shape, 2, x.dtype)
    return b.multiply(two, b.atan2(_sqrt_one_minus_sq(b, x), b.add(_one(b, x), x)))


def sinh(b, x):
    half = b.full(x.shape, 0.5, x.dtype)
    return b.multiply(half, b.subtract(b.exponential(x), b.exponential(b.negate(x))))


def cosh(b, x):
    half = b.full(x.shape, 0.5, x.dtype)
    return b.multiply(half, b.add(b.exponential(x), b.exponential(b.negate(x))))


def log_sigmoid(b, x):
    return b.negate(softplus(b, b.negate(x)))


for _tf, _m in SIMPLE_UNARY.items():
    register(_tf, ("x",), abs_ if _tf == "Abs" else _unary(_m))
for _tf, _rule in (("Square", square), ("Reciprocal", reciprocal), ("Inv", reciprocal), ("Round", round_),
                   ("Rint", round_), ("Softplus", softplus), ("IsNan", is_nan), ("IsInf", is_inf),
                   ("Tan", tan), ("Atan", atan), ("Asin", asin), ("Acos", acos), ("Sinh", sinh),
                   ("Cosh", cosh)):
    register(_tf, ("x",), _rule)


def cast(b, x, DstT, Truncate=False):
    """`Cast`: hlo.convert (float -> int truncates toward 0; -> bool is != 0)."""
    return b.convert(x, DstT)


register("Cast", ("x",), cast, attrs={"DstT": None, "Truncate": False})


def clip(b, t, lo, hi):
    t, lo, hi = broadcast_all(b, "ClipByValue", t, lo, hi)
    return b.minimum(b.maximum(t, lo), hi)


register("ClipByValue", ("t", "clip_value_min", "clip_value_max"), clip)


def select_v2(b, condition, t, e):
    condition, t, e = broadcast_all(b, "SelectV2", condition, t, e)
    return b.select(condition, t, e)


register("SelectV2", ("condition", "t", "e"), select_v2, typed=("t", "e"))

__all__ = ["is_int"]


_ERF_ALPHA = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
              -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02)
_ERF_BETA = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
             -1.42647390514189e-02)


def erf(b, x):
    """Rational approximation on [-4, 4] (Eigen/XLA's f32 erf; ~1 ulp in f32)."""
    c = b.clamp(b.scalar(-4, x.dtype), x, b.scalar(4, x.dtype))
    x2 = b.multiply(c, c)

    def horner(coeffs):
        acc = b.full(x.shape, coeffs[0], x.dtype)
        for k in coeffs[1:]:
            acc = b.add(b.multiply(acc, x2), b.full(x.shape, k, x.dtype))
        return acc

    return b.divide(b.multiply(c, horner(_ERF_ALPHA)), horner(_ERF_BETA))


register("Erf", ("x",), erf)
