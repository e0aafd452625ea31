"""Scalar semantics of hlo elementwise ops, as arith/math builders.

`SCALAR_OPS[mnemonic][kind]` builds the op for one element-type class
(float/sint/uint/bool, see `common.kind`); every entry follows the StableHLO
spec (and the interpreter's reading of its TBDs) exactly: integer division
never traps (x/0 = -1, x%0 = x, INT_MIN/-1 = INT_MIN), shifts by >= width give
0 (or the sign fill), max/min propagate NaN, power on integers squares.
The same table inlines reduction/comparator bodies, so every use agrees.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, func, math, scf
from xdsl.dialects.builtin import Float32Type, Float64Type, IndexType, IntegerType, ReducedPrecisionFloatType
from xdsl.ir import Attribute, Block, Region, SSAValue

from minixla.passes.fast_build import like
from minixla.passes.hlo_to_linalg.common import Emitter, is_low_float, kind, signless, width

Scalar = Callable[[Emitter, Sequence[SSAValue], Attribute], SSAValue]


def _promoted(op_cls) -> Scalar:
    """A float math op; f16/bf16 are computed in f32 and rounded once."""

    def build(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
        if is_low_float(t):
            wide = [e(arith.ExtFOp(x, Float32Type())) for x in a]
            return e(arith.TruncFOp(e(_op(op_cls, wide)), t))
        return e(_op(op_cls, a))

    return build


def _op(op_cls, args: Sequence[SSAValue]):
    """`op_cls(*args)` (its type follows from the operands'), from a remembered shape (passes/fast_build.py)."""
    return like((op_cls, *(v.type for v in args)), lambda: op_cls(*args), args)


def _simple(op_cls) -> Scalar:
    return lambda e, a, t: e(_op(op_cls, a))


def _logistic(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
    def core(x: SSAValue, ft: Attribute) -> SSAValue:
        one = e.const(1.0, ft)
        return e(arith.DivfOp(one, e(arith.AddfOp(one, e(math.ExpOp(e(arith.NegfOp(x))))))))

    if is_low_float(t):
        return e(arith.TruncFOp(core(e(arith.ExtFOp(a[0], Float32Type())), Float32Type()), t))
    return core(a[0], t)


def _float_sign(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
    x = a[0]
    one = e(math.CopySignOp(e.const(1.0, t), x))
    is_zero = e(arith.CmpfOp(x, e.const(0.0, t), "oeq"))
    is_nan = e(arith.CmpfOp(x, x, "uno"))
    keep = e(arith.OrIOp(is_zero, is_nan))
    return e(arith.SelectOp(keep, x, one))


def _int_sign(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
    x, st = a[0], signless(t)
    zero = e.const(0, st)
    pos = e(arith.CmpiOp(x, zero, "sgt"))
    neg = e(arith.CmpiOp(x, zero, "slt"))
    return e(arith.SelectOp(pos, e.const(1, st), e(arith.SelectOp(neg, e.const(-1, st), zero))))


def _not(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
    return e(arith.XOrIOp(a[0], e.const(-1, signless(t))))


def _negi(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
    return e(arith.SubiOp(e.const(0, signless(t)), a[0]))


def _int_div(signed: bool, rem: bool) -> Scalar:
    """Truncating division without UB: the divisor is made safe, then fixed up."""

    def build(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
        x, y = a
        st = signless(t)
        zero = e(arith.CmpiOp(y, e.const(0, st), "eq"))
        bad = zero
        if signed:
            overflow = e(arith.AndIOp(e(arith.CmpiOp(x, e.const(1 << (width(st) - 1), st), "eq")),
                                      e(arith.CmpiOp(y, e.const(-1, st), "eq"))))
            bad = e(arith.OrIOp(zero, overflow))
        safe = e(arith.SelectOp(bad, e.const(1, st), y))
        if rem:
            r = e((arith.RemSIOp if signed else arith.RemUIOp)(x, safe))
            return e(arith.SelectOp(zero, x, r))
        q = e((arith.DivSIOp if signed else arith.DivUIOp)(x, safe))  # INT_MIN / 1 = INT_MIN
        return e(arith.SelectOp(zero, e.const(-1, st), q))

    return build


def _fmod(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
    """Exact float remainder via libm `fmod` (in f64, exact for every narrower type)."""
    f64 = Float64Type()
    wide = [x if isinstance(t, Float64Type) else e(arith.ExtFOp(x, f64)) for x in a]
    r = e.op(func.CallOp("fmod", wide, [f64])).results[0]
    if isinstance(t, Float64Type):
        return r
    if is_low_float(t):  # exact through f32 (the result is representable); LLVM's
        r = e(arith.TruncFOp(r, Float32Type()))  # f64 -> bf16 is an unresolved libcall
    return e(arith.TruncFOp(r, t))


def _int_power(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
    """Exponentiation by squaring over all bits of the exponent (wrapping);
    a negative exponent gives 0 unless |base| = 1 (reference semantics)."""
    x, y = a
    st = signless(t)
    w = width(st)
    signed = kind(t) == "sint"
    negative = e(arith.CmpiOp(y, e.const(0, st), "slt")) if signed else None
    if negative is not None:
        y = e(arith.SelectOp(negative, e(arith.AndIOp(y, e.const(1, st))), y))
    body = Block(arg_types=[IndexType(), st, st, st])
    b = Emitter(body)
    _, res, base, ex = body.args
    odd = b(arith.CmpiOp(b(arith.AndIOp(ex, b.const(1, st))), b.const(0, st), "ne"))
    res2 = b(arith.SelectOp(odd, b(arith.MuliOp(res, base)), res))
    base2 = b(arith.MuliOp(base, base))
    ex2 = b(arith.ShRUIOp(ex, b.const(1, st)))
    b.op(scf.YieldOp(res2, base2, ex2))
    loop = e.op(scf.ForOp(e.index(0), e.index(w), e.index(1), [e.const(1, st), x, y], Region(body)))
    r = loop.results[0]
    if negative is None:
        return r
    unit = e(arith.OrIOp(e(arith.CmpiOp(x, e.const(1, st), "eq")), e(arith.CmpiOp(x, e.const(-1, st), "eq"))))
    zero_it = e(arith.AndIOp(negative, e(arith.XOrIOp(unit, e.const(1, IntegerType(1))))))
    return e(arith.SelectOp(zero_it, e.const(0, st), r))


def _shift(op_cls, arithmetic: bool = False) -> Scalar:
    """Shift amounts are unsigned; >= width gives 0 (or all sign bits)."""

    def build(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
        x, y = a
        st = signless(t)
        w = width(st)
        oor = e(arith.CmpiOp(y, e.const(w, st), "uge"))
        if arithmetic:
            return e(op_cls(x, e(arith.SelectOp(oor, e.const(w - 1, st), y))))
        r = e(op_cls(x, e(arith.SelectOp(oor, e.const(0, st), y))))
        return e(arith.SelectOp(oor, e.const(0, st), r))

    return build


SCALAR_OPS: dict[str, dict[str, Scalar]] = {
    # unary
    "abs": {"float": _simple(math.AbsFOp), "sint": _simple(math.AbsIOp)},
    "negate": {"float": _simple(arith.NegfOp), "sint": _negi, "uint": _negi},
    "exponential": {"float": _promoted(math.ExpOp)},
    "exponential_minus_one": {"float": _promoted(math.ExpM1Op)},
    "log": {"float": _promoted(math.LogOp)},
    "log_plus_one": {"float": _promoted(math.Log1pOp)},
    "sqrt": {"float": _promoted(math.SqrtOp)},
    "rsqrt": {"float": _promoted(math.RsqrtOp)},
    "tanh": {"float": _promoted(math.TanhOp)},
    "logistic": {"float": _logistic},
    "sine": {"float": _promoted(math.SinOp)},
    "cosine": {"float": _promoted(math.CosOp)},
    "floor": {"float": _simple(math.FloorOp)},
    "ceil": {"float": _simple(math.CeilOp)},
    "round_nearest_even": {"float": _simple(math.RoundEvenOp)},
    "round_nearest_afz": {"float": _simple(math.RoundOp)},
    "tan": {"float": _promoted(math.TanOp)},
    "cbrt": {"float": _promoted(math.CbrtOp)},
    "popcnt": {k: _simple(math.CtPopOp) for k in ("sint", "uint")},
    "count_leading_zeros": {k: _simple(math.CountLeadingZerosOp) for k in ("sint", "uint")},
    "sign": {"float": _float_sign, "sint": _int_sign},
    "not": {"bool": _not, "sint": _not, "uint": _not},
    # binary
    "add": {"float": _simple(arith.AddfOp), "sint": _simple(arith.AddiOp), "uint": _simple(arith.AddiOp),
            "bool": _simple(arith.OrIOp)},
    "subtract": {"float": _simple(arith.SubfOp), "sint": _simple(arith.SubiOp), "uint": _simple(arith.SubiOp)},
    "multiply": {"float": _simple(arith.MulfOp), "sint": _simple(arith.MuliOp), "uint": _simple(arith.MuliOp),
                 "bool": _simple(arith.AndIOp)},
    "divide": {"float": _simple(arith.DivfOp), "sint": _int_div(True, False), "uint": _int_div(False, False)},
    "remainder": {"float": _fmod, "sint": _int_div(True, True), "uint": _int_div(False, True)},
    "power": {"float": _promoted(math.PowFOp), "sint": _int_power, "uint": _int_power},
    "maximum": {"float": _simple(arith.MaximumfOp), "sint": _simple(arith.MaxSIOp), "uint": _simple(arith.MaxUIOp),
                "bool": _simple(arith.OrIOp)},
    "minimum": {"float": _simple(arith.MinimumfOp), "sint": _simple(arith.MinSIOp), "uint": _simple(arith.MinUIOp),
                "bool": _simple(arith.AndIOp)},
    "and": {k: _simple(arith.AndIOp) for k in ("bool", "sint", "uint")},
    "or": {k: _simple(arith.OrIOp) for k in ("bool", "sint", "uint")},
    "xor": {k: _simple(arith.XOrIOp) for k in ("bool", "sint", "uint")},
    "atan2": {"float": _promoted(math.Atan2Op)},
    "shift_left": {k: _shift(arith.ShLIOp) for k in ("sint", "uint")},
    "shift_right_logical": {k: _shift(arith.ShRUIOp) for k in ("sint", "uint")},
    "shift_right_arithmetic": {k: _shift(arith.ShRSIOp, True) for k in ("sint", "uint")},
}


def scalar_op(mnemonic: str, t: Attribute) -> Scalar | None:
    """The builder for `hlo.<mnemonic>` on element type `t` (None: unsupported)."""
    build = SCALAR_OPS.get(mnemonic, {}).get(kind(t))
    if build is None or not isinstance(t, ReducedPrecisionFloatType):
        return build
    return _in_f32(build)


def _in_f32(build: Scalar) -> Scalar:
    """fp8/fp6/fp4: the op computed in f32 and rounded once, as ml_dtypes computes (and with
    f32 constants: 0, 1 or inf may not exist in the format)."""

    def wrapped(e: Emitter, a: Sequence[SSAValue], t: Attribute) -> SSAValue:
        r = build(e, [e(arith.ExtFOp(x, Float32Type())) for x in a], Float32Type())
        return e(arith.TruncFOp(r, t))

    return wrapped


# -- compare -------------------------------------------------------------------

_FLOAT_PRED = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge"}
_INT_PRED = {"EQ": "eq", "NE": "ne", "LT": "lt", "LE": "le", "GT": "gt", "GE": "ge"}


def _total_order_key(e: Emitter, x: SSAValue, t: Attribute) -> SSAValue:
    """Signed-integer key ordering -NaN < -inf < ... < -0 < +0 < ... < inf < NaN."""
    it = IntegerType(width(t))
    bits = e(arith.BitcastOp(x, it))
    sign = e(arith.ShRSIOp(bits, e.const(width(t) - 1, it)))
    return e(arith.XOrIOp(bits, e(arith.ShRUIOp(sign, e.const(1, it)))))


def compare(e: Emitter, a: SSAValue, b: SSAValue, direction: str, compare_type: str | None, t: Attribute) -> SSAValue:
    from minixla.dialects.hlo_ops.elementwise import default_compare_type

    ct = compare_type if compare_type not in (None, "NOTYPE") else default_compare_type(t)
    if ct == "FLOAT":
        return e(arith.CmpfOp(a, b, _FLOAT_PRED[direction]))
    if ct == "TOTALORDER":
        if isinstance(t, ReducedPrecisionFloatType):  # by the exact f32 values, as the interpreter
            a, b, t = e(arith.ExtFOp(a, Float32Type())), e(arith.ExtFOp(b, Float32Type())), Float32Type()
        a, b = _total_order_key(e, a, t), _total_order_key(e, b, t)
        ct = "SIGNED"
    pred = _INT_PRED[direction]
    if pred not in ("eq", "ne"):
        pred = ("s" if ct == "SIGNED" else "u") + pred
    return e(arith.CmpiOp(a, b, pred))


# -- convert -------------------------------------------------------------------

def convert(e: Emitter, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """Elementwise conversion with the interpreter's semantics: float -> int
    truncates and saturates (NaN -> 0); anything -> bool is `!= 0`. fp8/fp6/fp4
    sources are widened to f32 first (exact; their constants could not hold the
    bounds below)."""
    if isinstance(src, ReducedPrecisionFloatType) and src != dst:
        x, src = e(arith.ExtFOp(x, Float32Type())), Float32Type()
    sk, dk = kind(src), kind(dst)
    s, t = signless(src), signless(dst)
    if dk == "bool":
        if sk == "float":
            return e(arith.CmpfOp(x, e.const(0.0, s), "une"))
        return e(arith.CmpiOp(x, e.const(0, s), "ne"))
    if sk in ("sint", "uint", "bool") and dk in ("sint", "uint"):
        ws, wt = width(s), width(t)
        if ws == wt:
            return x
        if ws > wt:
            return e(arith.TruncIOp(x, t))
        return e((arith.ExtSIOp if sk == "sint" else arith.ExtUIOp)(x, t))
    if sk in ("sint", "uint", "bool") and dk == "float":
        return e((arith.SIToFPOp if sk == "sint" else arith.UIToFPOp)(x, t))
    if sk == "float" and dk == "float":
        if s == t:
            return x
        if width(s) == width(t):  # f16 <-> bf16
            x, s = e(arith.ExtFOp(x, Float32Type())), Float32Type()
        if isinstance(s, Float64Type) and is_low_float(t):
            x, s = _f64_to_f32_round_to_odd(e, x), Float32Type()
        return e((arith.ExtFOp if width(s) < width(t) else arith.TruncFOp)(x, t))
    if sk == "float" and dk in ("sint", "uint"):
        w = width(t)
        lo, hi = (-(2 ** (w - 1)), 2 ** (w - 1)) if dk == "sint" else (0, 2 ** w)
        wide = x if width(s) >= 32 else e(arith.ExtFOp(x, Float32Type()))
        ft = wide.type
        tr = e(math.TruncOp(wide))
        too_big = e(arith.CmpfOp(tr, e.const(float(hi), ft), "oge"))
        too_small = e(arith.CmpfOp(tr, e.const(float(lo), ft), "olt"))
        nan = e(arith.CmpfOp(tr, tr, "uno"))
        bad = e(arith.OrIOp(e(arith.OrIOp(too_big, too_small)), nan))
        safe = e(arith.SelectOp(bad, e.const(0.0, ft), tr))
        r = e((arith.FPToSIOp if dk == "sint" else arith.FPToUIOp)(safe, t))
        r = e(arith.SelectOp(too_big, e.const(hi - 1, t), r))
        return e(arith.SelectOp(too_small, e.const(lo, t), r))
    raise NotImplementedError(f"convert from {src} to {dst}")


def _f64_to_f32_round_to_odd(e: Emitter, x: SSAValue) -> SSAValue:
    """f64 -> f32 rounding to odd: truncating that to f16/bf16 then rounds
    correctly once (24 bits >= 2 * 11 + 2), where f64 -> f32 -> f16 with two
    nearest-even roundings may not; and LLVM's direct f64 -> bf16 truncation
    is a libcall (`__truncdfbf2`) the JIT cannot resolve (a crash)."""
    f32, i32 = Float32Type(), IntegerType(32)
    r = e(arith.TruncFOp(x, f32))
    back = e(arith.ExtFOp(r, x.type))
    inexact = e(arith.CmpfOp(back, x, "one"))  # false for NaN
    bits = e(arith.BitcastOp(r, i32))
    # toward zero: one step down in magnitude where nearest-even rounded away
    away = e(arith.CmpfOp(e(math.AbsFOp(back)), e(math.AbsFOp(x)), "ogt"))
    down = e(arith.SelectOp(away, e(arith.SubiOp(bits, e.const(1, i32))), bits))
    odd = e(arith.OrIOp(down, e.const(1, i32)))
    return e(arith.BitcastOp(e(arith.SelectOp(inexact, odd, bits)), f32))


def is_finite(e: Emitter, x: SSAValue, t: Attribute) -> SSAValue:
    if isinstance(t, ReducedPrecisionFloatType):  # no inf to compare with in most of them
        x, t = e(arith.ExtFOp(x, Float32Type())), Float32Type()
    return e(arith.CmpfOp(e(math.AbsFOp(x)), e.const(float("inf"), t), "olt"))
