"""`expand-math-polynomials`: f32 `math.exp`, `expm1`, `tanh`, `log` and `log1p` as arith ops.

Why: lowered to libm (`expf`, `tanhf`, `logf`), each element is an opaque call and LLVM cannot
vectorize the loop around it; the LSTM example's training step spent ~30% of its time in scalar
libm. XLA's CPU backend and MLIR's `math-polynomial-approximation` expand these ops instead; this
pass does the same with its own range reductions and coefficients (near-minimax fits in float64 by
Lawson's iteration, rounded to f32), branch-free so the loop vectorizer sees only arith ops. f32
scalars and vectors only; f64 and narrow floats (computed in f32 by their lowering) keep libm.

- exp: x clamped to [-104, 88.8] (NaN kept aside), k = x*log2(e) rounded (by adding 1.5*2^23),
  r = x - k*ln2 (Cody-Waite, two constants), exp(r) = 1 + r + r^2*P(r) (degree 6 in all), times 2^k built as
  two exponent-field floats 2^(k>>1) * 2^(k-(k>>1)), so subnormal results round once and
  x >= 88.73 overflows to +inf by itself.
- expm1: exp's reduction, then 2 * (s*expm1(r) + (s - 1/2)) with s = 2^(k-1) (x clamped to
  [-87, 88.8]: s stays a normal float, overflow happens in the last doubling only); x itself for
  |x| < 2^-25 (so -0 and subnormals stay exact).
- tanh: |x| < 0.9 (or NaN): x + x^3*Q(x^2) (degree 15); otherwise copysign(1 - 2/(exp(2|x|)+1), x)
  with |x| clamped at 10 (tanh rounds to 1 from ~9.01 on); -0 stays -0.
- log: subnormals scaled by 2^23, x = 2^e * m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact),
  log(1+f) = f - f^2/2 + f^3*P(f) (P degree 7), plus e*ln2 in two parts; log(0) = -inf,
  log(+inf) = +inf, log(x<0) = NaN.
- log1p: log(u) + (x - (u - 1))/u with u = 1 + x rounded; x where u == 1, -inf at -1.

Accuracy (tests/passes/test_math_polynomials.py, compiled through the CPU backend, against numpy
float64 rounded to f32, over every f32 where the result is not constant): exp 0.98 ulp on [-104, 89]
(subnormal results in subnormal ulps), expm1 1.54 ulp on [-90, 89], tanh 1.08 ulp on [-10, 10]
(glibc's tanhf: 2.19), log 0.87 ulp on all positive floats, log1p 1.44 ulp on [-1, inf); exact
at +-0, +-inf, NaN, the overflow and underflow thresholds, tanh's saturation. More in docs/cpu-pipeline.md, "Session 11: f32 math polynomials".
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import (DenseIntOrFPElementsAttr, Float32Type, FloatAttr, IntegerAttr,
                                   ModuleOp, VectorType, i32)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass

from minixla.passes.fast_build import like
from minixla.passes.rewrite_driver import nested_ops

# exp(r) = 1 + r + r^2 * P(r) on |r| <= ln(2)/2
_EXP_P = (0.4999999403953552, 0.1666652113199234, 0.04166838899254799, 0.008368715643882751,
          0.0013814599951729178)
_LOG2E = 1.4426950408889634
_LN2_HI = 0.693359375  # 9 significant bits: k*_LN2_HI is exact for |k| <= 2^15
_LN2_LO = -2.1219444005469057e-4
_EXP_LO, _EXP_HI = -104.0, 88.8  # exp(-104) < 2^-150 rounds to 0; exp(88.8) > FLT_MAX
_EXPM1_LO = -87.0  # expm1 rounds to -1 from -17.4 on; k - 1 >= -127 keeps 2^(k-1) an exponent field
_EXPM1_TINY = 2.0 ** -25  # expm1(x) rounds to x below
# tanh(x) = x + x^3 * Q(x^2) on |x| < 0.9
_TANH_Q = (-0.33333322405815125, 0.13332977890968323, -0.05392930284142494, 0.021663542836904526,
           -0.008264546282589436, 0.002582669723778963, -0.00045546062756329775)
_TANH_SMALL = 0.9
_TANH_CLAMP = 10.0  # tanh(x) rounds to 1 from x ~ 9.01 on
# log(1 + f) = f - f^2/2 + f^3 * P(f) on sqrt(1/2)-1 <= f < sqrt(2)-1
_LOG_P = (0.3333333134651184, -0.250008225440979, 0.20001226663589478, -0.16623356938362122,
          0.14201761782169342, -0.131601944565773, 0.12761549651622772, -0.07634429633617401)
_SQRT_HALF = 0.7071067811865476
_FLT_MIN = 1.1754943508222875e-38
# 1.5 * 2^23: v + _MAGIC rounds v (|v| < 2^22) to an integer n, the float's low bits holding n
# (bits - _MAGIC_BITS == n); the same trick turns an i32 back into a float without sitofp/fptosi
_MAGIC = 12582912.0
_MAGIC_BITS = 0x4B400000


class _Builder:
    """Builds the replacement of one op before it: f32 (or vector of f32) values, i32 twins."""

    def __init__(self, at: Operation, t: Attribute, consts: dict[tuple[str, float], SSAValue],
                 const_block: Block) -> None:
        self.at, self.t, self.const_block = at, t, const_block
        shape = t.get_shape() if isinstance(t, VectorType) else None
        self.it = VectorType(i32, shape) if shape is not None else i32
        self.consts = consts  # shared by the function's expansions, first in `const_block` (they dominate)

    def __call__(self, op: Operation) -> SSAValue:
        self.at.parent_block().insert_op_before(op, self.at)  # type: ignore[union-attr]
        return op.results[0]

    def op(self, cls: type[Operation], *args: SSAValue, **kw) -> SSAValue:
        """`cls(*args, **kw)`, built from a remembered shape after the first (passes/fast_build.py)."""
        key = (cls, *(a.type for a in args), *sorted(kw.items()))
        return self(like(key, lambda: cls(*args, **kw), args))

    def const(self, value: float, integer: bool = False) -> SSAValue:
        key = ("i" if integer else "f", value)
        if key not in self.consts:
            t = self.it if integer else self.t
            attr = _constant_attr(value, integer, t)
            op = arith.ConstantOp.create(result_types=[t], properties={"value": attr})
            self.const_block.insert_op_before(op, self.const_block.first_op)  # type: ignore[arg-type]
            self.consts[key] = op.results[0]
        return self.consts[key]

    # float helpers
    def add(self, a, b): return self.op(arith.AddfOp, a, b)
    def sub(self, a, b): return self.op(arith.SubfOp, a, b)
    def mul(self, a, b): return self.op(arith.MulfOp, a, b)
    def div(self, a, b): return self.op(arith.DivfOp, a, b)
    def cmp(self, a, b, pred: str): return self.op(arith.CmpfOp, a, b, arg=pred)
    def select(self, c, a, b): return self.op(arith.SelectOp, c, a, b)

    def horner(self, x: SSAValue, coeffs: tuple[float, ...]) -> SSAValue:
        acc = self.const(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            acc = self.add(self.mul(acc, x), self.const(c))
        return acc

    def pow2(self, n: SSAValue) -> SSAValue:
        """2^n for an i32 n in [-126, 127]: the exponent field alone."""
        biased = self.op(arith.AddiOp, n, self.const(127, True))
        return self.op(arith.BitcastOp, self.op(arith.ShLIOp, biased, self.const(23, True)), target_type=self.t)


_ATTRS: dict[tuple, Attribute] = {}


def _constant_attr(value: float, integer: bool, t: Attribute) -> Attribute:
    """The (immutable, so shared) value attribute of a constant: its verified constructor runs once
    per value and type (first compiles build a few dozen)."""
    key = (value, integer, t)
    attr = _ATTRS.get(key)
    if attr is None:
        scalar = IntegerAttr(int(value), i32) if integer else FloatAttr(float(value), Float32Type())
        attr = DenseIntOrFPElementsAttr.from_list(t, [scalar.value.data]) if isinstance(t, VectorType) else scalar
        _ATTRS[key] = attr
    return attr


def _reduce(b: _Builder, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(expm1(r), k as i32) with x = k*ln2 + r, |r| <= ln2/2 (x in [_EXP_LO, _EXP_HI], not NaN)."""
    shifted = b.add(b.mul(x, b.const(_LOG2E)), b.const(_MAGIC))  # rounds x*log2(e) to an integer k
    k = b.sub(shifted, b.const(_MAGIC))
    r = b.add(b.add(x, b.mul(k, b.const(-_LN2_HI))), b.mul(k, b.const(-_LN2_LO)))  # x - k*ln2, exact first step
    q = b.add(b.mul(b.mul(r, r), b.horner(r, _EXP_P)), r)
    return q, b.op(arith.SubiOp, b.op(arith.BitcastOp, shifted, target_type=b.it), b.const(_MAGIC_BITS, True))


def _exp_clamped(b: _Builder, x: SSAValue, normal: bool = False) -> SSAValue:
    """exp(x) for x already in [_EXP_LO, _EXP_HI] (not NaN); `normal`: x in [0, 88] (a normal
    result: 2^k is one exponent-field float)."""
    q, k_int = _reduce(b, x)
    p = b.add(q, b.const(1.0))
    if normal:
        return b.mul(p, b.pow2(k_int))
    half = b.op(arith.ShRSIOp, k_int, b.const(1, True))
    return b.mul(b.mul(p, b.pow2(half)), b.pow2(b.op(arith.SubiOp, k_int, half)))


def _exp(b: _Builder, x: SSAValue) -> SSAValue:
    clamped = b.op(arith.MinnumfOp, b.op(arith.MaxnumfOp, x, b.const(_EXP_LO)), b.const(_EXP_HI))
    return b.select(b.cmp(x, x, "uno"), x, _exp_clamped(b, clamped))


def _expm1(b: _Builder, x: SSAValue) -> SSAValue:
    """2^k*expm1(r) + (2^k - 1), as 2 * (s*q + (s - 1/2)) with s = 2^(k-1) (a normal float for
    x in [-87, 88.8], and no overflow before the last doubling); |x| < 2^-25 gives x itself."""
    clamped = b.op(arith.MinnumfOp, b.op(arith.MaxnumfOp, x, b.const(_EXPM1_LO)), b.const(_EXP_HI))
    q, k_int = _reduce(b, clamped)
    s = b.pow2(b.op(arith.SubiOp, k_int, b.const(1, True)))
    r = b.mul(b.add(b.mul(s, q), b.sub(s, b.const(0.5))), b.const(2.0))
    tiny = b.cmp(b.op(math.AbsFOp, x), b.const(_EXPM1_TINY), "ult")  # (NaN too)
    return b.select(tiny, x, r)


def _tanh(b: _Builder, x: SSAValue) -> SSAValue:
    a = b.op(math.AbsFOp, x)  # computed on |x|, the sign put back last (so tanh(-0) = -0)
    a2 = b.mul(a, a)
    small = b.add(b.mul(b.mul(a, a2), b.horner(a2, _TANH_Q)), a)
    e = _exp_clamped(b, b.mul(b.op(arith.MinnumfOp, a, b.const(_TANH_CLAMP)), b.const(2.0)), normal=True)
    one = b.const(1.0)
    large = b.sub(one, b.div(b.const(2.0), b.add(e, one)))
    return b.op(math.CopySignOp, b.select(b.cmp(a, b.const(_TANH_SMALL), "ult"), small, large), x)


def _log(b: _Builder, x: SSAValue) -> SSAValue:
    tiny = b.cmp(x, b.const(_FLT_MIN), "olt")
    xs = b.select(tiny, b.mul(x, b.const(8388608.0)), x)
    bits = b.op(arith.BitcastOp, xs, target_type=b.it)
    mant = b.op(arith.OrIOp, b.op(arith.AndIOp, bits, b.const(0x007FFFFF, True)), b.const(0x3F000000, True))
    m = b.op(arith.BitcastOp, mant, target_type=b.t)  # in [0.5, 1)
    biased = b.op(arith.ShRSIOp, bits, b.const(23, True))
    # the exponent (biased - 126, or - 149 after the 2^23 scaling) as a float by the _MAGIC trick, spelled
    # biased + (_MAGIC_BITS - bias): the form LLVM's instcombine gives it (so both emitters' code agrees)
    unbias = b.op(arith.SelectOp, tiny, b.const(_MAGIC_BITS - 149, True), b.const(_MAGIC_BITS - 126, True))
    e_float = b.sub(b.op(arith.BitcastOp, b.op(arith.AddiOp, biased, unbias), target_type=b.t), b.const(_MAGIC))
    low = b.cmp(m, b.const(_SQRT_HALF), "olt")
    one = b.const(1.0)
    e = b.sub(e_float, b.select(low, one, b.const(0.0)))
    f = b.sub(b.select(low, b.add(m, m), m), one)
    z = b.mul(f, f)
    y = b.mul(b.mul(f, z), b.horner(f, _LOG_P))
    y = b.add(y, b.mul(e, b.const(_LN2_LO)))
    y = b.sub(y, b.mul(z, b.const(0.5)))
    r = b.add(b.add(f, y), b.mul(e, b.const(_LN2_HI)))
    zero = b.const(0.0)
    r = b.select(b.cmp(x, b.const(float("inf")), "oeq"), x, r)
    r = b.select(b.cmp(x, zero, "oeq"), b.const(float("-inf")), r)
    return b.select(b.cmp(x, zero, "ult"), b.const(float("nan")), r)


def _log1p(b: _Builder, x: SSAValue) -> SSAValue:
    """log(u) + (x - (u - 1)) / u with u = 1 + x rounded (the quotient adds back u's rounding error);
    x itself where u == 1, -inf at -1, +inf at +inf."""
    one = b.const(1.0)
    u = b.add(x, one)
    r = b.add(_log(b, u), b.div(b.sub(x, b.sub(u, one)), u))
    r = b.select(b.cmp(u, one, "oeq"), x, r)
    r = b.select(b.cmp(u, b.const(0.0), "oeq"), b.const(float("-inf")), r)
    inf = b.const(float("inf"))
    return b.select(b.cmp(x, inf, "oeq"), inf, r)


EXPANSIONS = {math.ExpOp: _exp, math.ExpM1Op: _expm1, math.TanhOp: _tanh, math.LogOp: _log,
              math.Log1pOp: _log1p}


def _is_f32(t: Attribute) -> bool:
    return isinstance(t, Float32Type) or isinstance(t, VectorType) and isinstance(t.element_type, Float32Type) \
        and not any(s <= 0 for s in t.get_shape())


def _constant_scope(op: Operation) -> Block:
    """Where `op`'s expansion puts its constants: the entry block of its function (so every loop body
    of the function shares them: a training step's math ops sit in dozens of small loops), or its own
    block outside a function."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    if parent is None or not parent.body.blocks:
        return op.parent_block()  # type: ignore[return-value]
    return parent.body.blocks[0]


def expand(module: ModuleOp) -> int:
    """Replace every f32 math op of `EXPANSIONS` in `module`; returns how many."""
    count = 0
    consts: dict[tuple[int, Attribute], dict] = {}
    for op in nested_ops(module):
        expansion = EXPANSIONS.get(type(op))
        t = op.results[0].type if expansion is not None else None
        if t is None or not _is_f32(t):
            continue
        scope = _constant_scope(op)
        shared = consts.setdefault((id(scope), t), {})
        result = expansion(_Builder(op, t, shared, scope), op.operands[0])
        op.results[0].replace_all_uses_with(result)
        op.parent_block().erase_op(op)  # type: ignore[union-attr]
        count += 1
    return count


@dataclass(frozen=True)
class ExpandMathPolynomials(ModulePass):
    """f32 `math.exp`/`math.tanh`/`math.log` -> branch-free arith ops that LLVM vectorizes."""

    name = "expand-math-polynomials"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        expand(op)


__all__ = ["EXPANSIONS", "ExpandMathPolynomials", "expand"]
