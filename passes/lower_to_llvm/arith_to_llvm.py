"""`convert-arith-to-llvm`: arith ops to LLVM instructions and intrinsics.

Semantics are pinned down where MLIR leaves them undefined (poison/UB),
following StableHLO/XLA so that no input traps or yields poison:
- integer add/sub/mul wrap (no nsw/nuw flags);
- x / 0 == -1 (all ones), x % 0 == x, INT_MIN / -1 == INT_MIN,
  INT_MIN % -1 == 0 (a select feeds a safe divisor to sdiv/udiv);
- shifts by >= bit width (amount read as unsigned) give 0, or the sign fill
  for `shrsi`;
- float -> int saturates and maps NaN to 0 (`llvm.fpto[su]i.sat`), as XLA does;
- uitofp: zero-extend and `sitofp` (exact below 64 bits); u64 halves with a
  sticky bit so the rounding stays correct;
- fast-math flags are copied from the op, never added.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    f32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from minixla.passes.fast_build import like
from minixla.passes.lower_to_llvm.common import (
    Emit,
    LoweringError,
    element_type,
    int_width,
    llvm_type,
    operands_to_llvm,
    replace_with_values,
)
from minixla.passes.rewrite_driver import rewrite_once

Handler = Callable[[Operation, Emit, Sequence[SSAValue]], Sequence[SSAValue]]


def _fm(op: Operation) -> llvm.FastMathAttr:
    attr = getattr(op, "fastmath", None)
    if attr is None or not attr.data:
        return llvm.FastMathAttr(None)
    return llvm.FastMathAttr(sorted(attr.data, key=lambda f: f.value))


def _binary(cls: type[Operation]) -> Handler:
    return lambda op, e, a: [e(like((cls, a[0].type, a[1].type), lambda: cls(a[0], a[1]), a[:2]))]


def _float_binary(cls: type[Operation]) -> Handler:
    def handler(op, e, a):
        flags = getattr(op, "fastmath", None)
        key = (cls, a[0].type, a[1].type, None if flags is None else flags.data)
        return [e(like(key, lambda: cls(a[0], a[1], _fm(op)), a[:2]))]

    return handler


def _vector_like(t: Attribute, elem: Attribute) -> Attribute:
    return VectorType(elem, t.get_shape()) if isinstance(t, VectorType) else elem


def _min_int(t: Attribute) -> int:
    return -(1 << (int_width(t) - 1))


# --- integer division and remainder -------------------------------------------------


def _divsi(op, e: Emit, a):
    lhs, rhs = a
    t = lhs.type
    zero, one, minus1 = e.const(t, 0), e.const(t, 1), e.const(t, -1)
    is_zero = e.icmp("eq", rhs, zero)
    overflow = e(llvm.AndOp(e.icmp("eq", lhs, e.const(t, _min_int(t))), e.icmp("eq", rhs, minus1)))
    bad = e(llvm.OrOp(is_zero, overflow))
    q = e(llvm.SDivOp(lhs, e.select(bad, one, rhs)))  # INT_MIN / 1 is the overflow result
    return [e.select(is_zero, minus1, q)]


def _remsi(op, e: Emit, a):
    lhs, rhs = a
    t = lhs.type
    zero, one, minus1 = e.const(t, 0), e.const(t, 1), e.const(t, -1)
    is_zero = e.icmp("eq", rhs, zero)
    bad = e(llvm.OrOp(is_zero, e.icmp("eq", rhs, minus1)))  # x % -1 == 0 for every x
    r = e(llvm.SRemOp(lhs, e.select(bad, one, rhs)))
    return [e.select(is_zero, lhs, r)]


def _divui(op, e: Emit, a):
    lhs, rhs = a
    t = lhs.type
    is_zero = e.icmp("eq", rhs, e.const(t, 0))
    q = e(llvm.UDivOp(lhs, e.select(is_zero, e.const(t, 1), rhs)))
    return [e.select(is_zero, e.const(t, -1), q)]


def _remui(op, e: Emit, a):
    lhs, rhs = a
    t = lhs.type
    is_zero = e.icmp("eq", rhs, e.const(t, 0))
    r = e(llvm.URemOp(lhs, e.select(is_zero, e.const(t, 1), rhs)))
    return [e.select(is_zero, lhs, r)]


def _rounded_divsi(sign_predicate: str, step: type[Operation]) -> Handler:
    """floor/ceil signed division: truncate, then step the quotient by one when the
    division was inexact and the operands' signs differ (floor) or agree (ceil)."""

    def lower(op, e: Emit, a):
        lhs, rhs = a
        t = lhs.type
        q = _divsi(op, e, a)[0]
        r = _remsi(op, e, a)[0]
        zero = e.const(t, 0)
        inexact = e.icmp("ne", r, zero)
        signs = e.icmp(sign_predicate, e(llvm.XOrOp(lhs, rhs)), zero)
        adjust = e(llvm.AndOp(e(llvm.AndOp(inexact, signs)), e.icmp("ne", rhs, zero)))
        return [e.select(adjust, e(step(q, e.const(t, 1))), q)]

    return lower


_floordivsi = _rounded_divsi("slt", llvm.SubOp)
_ceildivsi = _rounded_divsi("sge", llvm.AddOp)


def _ceildivui(op, e: Emit, a):
    lhs, rhs = a
    t = lhs.type
    q = _divui(op, e, a)[0]
    r = _remui(op, e, a)[0]
    adjust = e(llvm.AndOp(e.icmp("ne", r, e.const(t, 0)), e.icmp("ne", rhs, e.const(t, 0))))
    return [e.select(adjust, e(llvm.AddOp(q, e.const(t, 1))), q)]


# --- shifts -------------------------------------------------------------------------


def _shift(cls: type[Operation], sign_fill: bool) -> Handler:
    def lower(op, e: Emit, a):
        x, amount = a
        t = x.type
        width = int_width(t)
        oob = e.icmp("uge", amount, e.const(t, width))
        if sign_fill:
            return [e(cls(x, e.select(oob, e.const(t, width - 1), amount)))]
        return [e.select(oob, e.const(t, 0), e(cls(x, amount)))]

    return lower


# --- comparisons, selects, min/max --------------------------------------------------

_CMPI = arith.CMPI_COMPARISON_OPERATIONS


def _cmpi(op: arith.CmpiOp, e: Emit, a):
    return [e.icmp(_CMPI[op.predicate.value.data], a[0], a[1])]


def _cmpf(op: arith.CmpfOp, e: Emit, a):
    pred = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
    if pred in ("false", "true"):
        t = _vector_like(a[0].type, builtin.i1)
        return [e.const(t, 1 if pred == "true" else 0)]
    return [e(llvm.FCmpOp(a[0], a[1], pred))]


def _intrinsic_name(base: str, t: Attribute) -> str:
    return f"{base}.{mangle(t)}"


def mangle(t: Attribute) -> str:
    """LLVM's intrinsic type suffix: f32, bf16, i8, v4f32, ..."""
    t = llvm_type(t)
    if isinstance(t, VectorType):
        return f"v{t.element_count()}{mangle(t.element_type)}"
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, AnyFloat):
        return f"f{t.bitwidth}"
    raise LoweringError(f"no intrinsic mangling for {t}")


def _intrinsic(base: str) -> Handler:
    return lambda op, e, a: [e.intrinsic(_intrinsic_name(base, a[0].type), a, a[0].type)]


# --- casts --------------------------------------------------------------------------


def _res(op: Operation) -> Attribute:
    return llvm_type(op.results[0].type)


def _extend_or_trunc(op, e: Emit, a, signed: bool):
    src, dst = int_width(a[0].type), int_width(_res(op))
    if src == dst:
        return [a[0]]
    if src > dst:
        return [e(llvm.TruncOp(a[0], _res(op)))]
    return [e((llvm.SExtOp if signed else llvm.ZExtOp)(a[0], _res(op)))]


def _index_cast(op, e: Emit, a):
    return _extend_or_trunc(op, e, a, signed=True)


def _sitofp(op, e: Emit, a):
    return [e(llvm.SIToFPOp(a[0], _res(op)))]


def _uitofp(op, e: Emit, a):
    x = a[0]
    width = int_width(x.type)
    res = _res(op)
    if width < 64:
        wide = _vector_like(x.type, i64)
        return [e(llvm.SIToFPOp(e(llvm.ZExtOp(x, wide)), res))]
    if width > 64:
        raise LoweringError(f"uitofp from {x.type} is not supported")
    # u64: halve (keeping a sticky bit) when the top bit is set, convert, double.
    t = x.type
    one = e.const(t, 1)
    neg = e.icmp("slt", x, e.const(t, 0))
    halved = e(llvm.OrOp(e(llvm.LShrOp(x, one)), e(llvm.AndOp(x, one))))
    f = e(llvm.SIToFPOp(e.select(neg, halved, x), res))
    return [e.select(neg, e(llvm.FAddOp(f, f)), f)]


def _fptoi(signed: bool) -> Handler:
    def lower(op, e: Emit, a):
        x = a[0]
        if isinstance(element_type(x.type), (Float16Type, BFloat16Type)):
            x = e(llvm.FPExtOp(x, _vector_like(x.type, f32)))  # exact
        res = _res(op)
        name = f"llvm.fpto{'s' if signed else 'u'}i.sat.{mangle(res)}.{mangle(x.type)}"
        return [e.intrinsic(name, [x], res)]

    return lower


def _float_resize(op, e: Emit, a):
    src, dst = element_type(a[0].type), element_type(_res(op))
    if src == dst:
        return [a[0]]
    if isinstance(src, BFloat16Type) and isinstance(dst, Float16Type) or \
            isinstance(src, Float16Type) and isinstance(dst, BFloat16Type):
        wide = e(llvm.FPExtOp(a[0], _vector_like(a[0].type, f32)))
        return [e(llvm.FPTruncOp(wide, _res(op)))]
    cls = llvm.FPExtOp if src.bitwidth < dst.bitwidth else llvm.FPTruncOp
    return [e(cls(a[0], _res(op)))]


def _bitcast(op, e: Emit, a):
    if a[0].type == _res(op):
        return [a[0]]
    return [e(llvm.BitcastOp(a[0], _res(op)))]


# --- constants and extended arithmetic ----------------------------------------------


def _constant(op: arith.ConstantOp, e: Emit, a):
    t = _res(op)
    value = op.value
    if isinstance(value, IntegerAttr):
        return [e.const(t, value.value.data)]
    if isinstance(value, FloatAttr):
        return [e(llvm.ConstantOp(FloatAttr(value.value.data, t), t))]
    if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(t, VectorType):
        vals = value.get_values()
        return [e(llvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, list(vals)), t))]
    raise LoweringError(f"unsupported constant {value} of type {op.results[0].type}")


def _mul_extended(signed: bool) -> Handler:
    def lower(op, e: Emit, a):
        t = a[0].type
        width = int_width(t)
        wide = _vector_like(t, IntegerType(2 * width))
        ext = llvm.SExtOp if signed else llvm.ZExtOp
        prod = e(llvm.MulOp(e(ext(a[0], wide)), e(ext(a[1], wide))))
        low = e(llvm.TruncOp(prod, t))
        high = e(llvm.TruncOp(e(llvm.LShrOp(prod, e.const(wide, width))), t))
        return [low, high]

    return lower


def _addui_extended(op, e: Emit, a):
    s = e(llvm.AddOp(a[0], a[1]))
    return [s, e.icmp("ult", s, a[0])]


def _negf(op, e: Emit, a):
    return [e(llvm.FNegOp(a[0], _fm(op)))]


def _select(op, e: Emit, a):
    return [e.select(a[0], a[1], a[2])]


HANDLERS: dict[type[Operation], Handler] = {
    arith.ConstantOp: _constant,
    arith.AddiOp: _binary(llvm.AddOp),
    arith.SubiOp: _binary(llvm.SubOp),
    arith.MuliOp: _binary(llvm.MulOp),
    arith.AndIOp: _binary(llvm.AndOp),
    arith.OrIOp: _binary(llvm.OrOp),
    arith.XOrIOp: _binary(llvm.XOrOp),
    arith.DivSIOp: _divsi,
    arith.DivUIOp: _divui,
    arith.RemSIOp: _remsi,
    arith.RemUIOp: _remui,
    arith.FloorDivSIOp: _floordivsi,
    arith.CeilDivSIOp: _ceildivsi,
    arith.CeilDivUIOp: _ceildivui,
    arith.ShLIOp: _shift(llvm.ShlOp, sign_fill=False),
    arith.ShRUIOp: _shift(llvm.LShrOp, sign_fill=False),
    arith.ShRSIOp: _shift(llvm.AShrOp, sign_fill=True),
    arith.MaxSIOp: _intrinsic("llvm.smax"),
    arith.MinSIOp: _intrinsic("llvm.smin"),
    arith.MaxUIOp: _intrinsic("llvm.umax"),
    arith.MinUIOp: _intrinsic("llvm.umin"),
    arith.MulSIExtendedOp: _mul_extended(signed=True),
    arith.MulUIExtendedOp: _mul_extended(signed=False),
    arith.AddUIExtendedOp: _addui_extended,
    arith.AddfOp: _float_binary(llvm.FAddOp),
    arith.SubfOp: _float_binary(llvm.FSubOp),
    arith.MulfOp: _float_binary(llvm.FMulOp),
    arith.DivfOp: _float_binary(llvm.FDivOp),
    arith.NegfOp: _negf,
    arith.MaximumfOp: _intrinsic("llvm.maximum"),
    arith.MinimumfOp: _intrinsic("llvm.minimum"),
    arith.MaxnumfOp: _intrinsic("llvm.maxnum"),
    arith.MinnumfOp: _intrinsic("llvm.minnum"),
    arith.CmpiOp: _cmpi,
    arith.CmpfOp: _cmpf,
    arith.SelectOp: _select,
    arith.ExtSIOp: lambda op, e, a: _extend_or_trunc(op, e, a, signed=True),
    arith.ExtUIOp: lambda op, e, a: _extend_or_trunc(op, e, a, signed=False),
    arith.TruncIOp: lambda op, e, a: _extend_or_trunc(op, e, a, signed=True),
    arith.IndexCastOp: _index_cast,
    arith.SIToFPOp: _sitofp,
    arith.UIToFPOp: _uitofp,
    arith.FPToSIOp: _fptoi(signed=True),
    arith.FPToUIOp: _fptoi(signed=False),
    arith.ExtFOp: _float_resize,
    arith.TruncFOp: _float_resize,
    arith.BitcastOp: _bitcast,
}


def involves_index(op: Operation) -> bool:
    return any(isinstance(element_type(v.type), IndexType) for v in (*op.operands, *op.results))


@dataclass
class ArithToLLVMPattern(RewritePattern):
    """Rewrites every arith op in HANDLERS that `only_index` admits."""

    only_index: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        handler = HANDLERS.get(type(op))
        if handler is None or (self.only_index and not involves_index(op)):
            return
        if type(op) is arith.ConstantOp and not isinstance(op.value, (IntegerAttr, FloatAttr)) \
                and not isinstance(op.results[0].type, VectorType):
            return  # dense tensor/memref constants are not scalar values
        args = operands_to_llvm(rewriter, op.operands)
        replace_with_values(rewriter, op, handler(op, Emit(rewriter), args))


@dataclass(frozen=True)
class ConvertArithToLLVM(ModulePass):
    """All arith ops (index-typed ones too, as i64) to the llvm dialect."""

    name = "convert-arith-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        rewrite_once(op, ArithToLLVMPattern(), tuple(HANDLERS))
