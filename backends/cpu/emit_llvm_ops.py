"""The per-op half of the direct LLVM IR emitter (emit_llvm.py): types, constants, and the arith and
math ops as LLVM IR text, one table entry per op class (memref ops: emit_llvm_memref.py).

Each handler writes what the llvm-dialect lowering (passes/lower_to_llvm/) would have produced and
translate.py printed, instruction for instruction: the same safe integer division, shift and
saturating-cast sequences, fast-math flags copied from the op (never added), type-mangled
intrinsics, libm calls for what LLVM has no intrinsic for, f16/bf16 math computed in f32. An op or type
outside these tables raises `Unsupported`, and the old pipeline compiles the module instead.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ReducedPrecisionFloatType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from minixla.passes.lower_to_llvm.common import LoweringError, normalize_int, static_layout
from minixla.passes.lower_to_llvm.math_tables import INT_WITH_FLAG, INTRINSICS, LIBM, NARROW_OK

FASTMATH_ORDER = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")


class Unsupported(Exception):
    """An op or type the direct emitter does not know (the caller falls back to the old pipeline)."""


# ---- types and constants -------------------------------------------------------------------------
_TYPES: dict[Attribute, str] = {}


def llvm_type(t: Attribute) -> str:
    """The LLVM IR type of a value of builtin type `t` (passes/lower_to_llvm/common.py's `llvm_type`)."""
    s = _TYPES.get(t)
    if s is None:
        if isinstance(t, IndexType):
            s = "i64"
        elif isinstance(t, IntegerType):
            s = f"i{t.width.data}"
        elif isinstance(t, Float32Type):
            s = "float"
        elif isinstance(t, Float64Type):
            s = "double"
        elif isinstance(t, Float16Type):
            s = "half"
        elif isinstance(t, BFloat16Type):
            s = "bfloat"
        elif isinstance(t, ReducedPrecisionFloatType):
            s = "i8"  # fp8/fp6/fp4: their byte
        elif isinstance(t, MemRefType):
            try:
                static_layout(t)
            except LoweringError as err:
                raise Unsupported(str(err)) from None
            s = "ptr"
        else:
            raise Unsupported(f"type {t}")
        _TYPES[t] = s
    return s


def result_type(types) -> str:
    """void, the one result's type, or a literal struct of several (func_to_llvm.result_type)."""
    if not types:
        return "void"
    if len(types) == 1:
        return llvm_type(types[0])
    return "{" + ", ".join(llvm_type(t) for t in types) + "}"


def memory_type(elem: Attribute) -> str:
    """How an element is stored: i1, i2, i4 in one byte."""
    s = llvm_type(elem)
    return "i8" if s[0] == "i" and int(s[1:]) < 8 else s


def int_width(t: Attribute) -> int:
    s = llvm_type(t)
    if s[0] != "i":
        raise Unsupported(f"integer op on {t}")
    return int(s[1:])


def is_ieee(t: Attribute) -> bool:
    return isinstance(t, (Float16Type, BFloat16Type, Float32Type, Float64Type))


def float_literal(s: str, value: float) -> str:
    """A float constant as LLVM IR writes it: the hex of its double value (exact for half/float), bfloat
    as 0xR<bits> (round to nearest even, as translate.BFloatType)."""
    if s == "bfloat":
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        bits = 0x7FC0 if value != value else (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        return f"0xR{bits & 0xFFFF:04X}"
    if s == "float":
        value = struct.unpack("<f", struct.pack("<f", value))[0]
    elif s == "half":
        value = struct.unpack("<e", struct.pack("<e", value))[0]
    return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"


def literal(s: str, value) -> str:
    if s[0] == "i":
        return str(normalize_int(int(value), int(s[1:])))
    return float_literal(s, float(value))


def mangle(s: str) -> str:
    """LLVM's intrinsic suffix of an LLVM IR type text."""
    return {"float": "f32", "double": "f64", "half": "f16", "bfloat": "bf16"}.get(s, s)


def fastmath(op: Operation) -> str:
    """The op's fast-math flags in LLVM's order ('fast' for all), with a trailing space, or ''."""
    attr = getattr(op, "fastmath", None)
    if attr is None or not attr.data:
        return ""
    flags = {f.value for f in attr.data}
    if set(FASTMATH_ORDER) <= flags:
        return "fast "
    return " ".join(f for f in FASTMATH_ORDER if f in flags) + " "


def int_constant(v: SSAValue) -> int | None:
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


# ---- arith --------------------------------------------------------------------------------------
Handler = Callable[["object", Operation], None]  # (FunctionEmitter, op)


def _binary(opcode: str) -> Handler:
    def h(e, op):
        t = llvm_type(op.results[0].type)
        e.set(op, e.new(f"{opcode} {t} {e.v(op.operands[0])}, {e.v(op.operands[1])}"))
    return h


def _float_binary(opcode: str) -> Handler:
    def h(e, op):
        t = llvm_type(op.results[0].type)
        e.set(op, e.new(f"{opcode} {fastmath(op)}{t} {e.v(op.operands[0])}, {e.v(op.operands[1])}"))
    return h


def _divsi_values(e, t: str, lhs: str, rhs: str) -> str:
    width = int(t[1:])
    is_zero = e.new(f"icmp eq {t} {rhs}, 0")
    a = e.new(f"icmp eq {t} {lhs}, {normalize_int(-(1 << (width - 1)), width)}")
    b = e.new(f"icmp eq {t} {rhs}, -1")
    bad = e.new(f"or i1 {is_zero}, {e.new(f'and i1 {a}, {b}')}")
    q = e.new(f"sdiv {t} {lhs}, {e.new(f'select i1 {bad}, {t} 1, {t} {rhs}')}")
    return e.new(f"select i1 {is_zero}, {t} -1, {t} {q}")


def _remsi_values(e, t: str, lhs: str, rhs: str) -> str:
    is_zero = e.new(f"icmp eq {t} {rhs}, 0")
    bad = e.new(f"or i1 {is_zero}, {e.new(f'icmp eq {t} {rhs}, -1')}")
    r = e.new(f"srem {t} {lhs}, {e.new(f'select i1 {bad}, {t} 1, {t} {rhs}')}")
    return e.new(f"select i1 {is_zero}, {t} {lhs}, {t} {r}")


def _unsigned_values(e, opcode: str, t: str, lhs: str, rhs: str) -> str:
    is_zero = e.new(f"icmp eq {t} {rhs}, 0")
    r = e.new(f"{opcode} {t} {lhs}, {e.new(f'select i1 {is_zero}, {t} 1, {t} {rhs}')}")
    return e.new(f"select i1 {is_zero}, {t} {'-1' if opcode == 'udiv' else lhs}, {t} {r}")


def _int_args(e, op) -> tuple[str, str, str]:
    t = llvm_type(op.results[0].type)
    int_width(op.results[0].type)
    return t, e.v(op.operands[0]), e.v(op.operands[1])


def _divsi(e, op):
    e.set(op, _divsi_values(e, *_int_args(e, op)))


def _remsi(e, op):
    e.set(op, _remsi_values(e, *_int_args(e, op)))


def _divui(e, op):
    e.set(op, _unsigned_values(e, "udiv", *_int_args(e, op)))


def _remui(e, op):
    e.set(op, _unsigned_values(e, "urem", *_int_args(e, op)))


def _rounded_divsi(sign_predicate: str, step: str) -> Handler:
    def h(e, op):
        t, lhs, rhs = _int_args(e, op)
        q = _divsi_values(e, t, lhs, rhs)
        r = _remsi_values(e, t, lhs, rhs)
        inexact = e.new(f"icmp ne {t} {r}, 0")
        signs = e.new(f"icmp {sign_predicate} {t} {e.new(f'xor {t} {lhs}, {rhs}')}, 0")
        both = e.new(f"and i1 {inexact}, {signs}")
        adjust = e.new(f"and i1 {both}, {e.new(f'icmp ne {t} {rhs}, 0')}")
        e.set(op, e.new(f"select i1 {adjust}, {t} {e.new(f'{step} {t} {q}, 1')}, {t} {q}"))
    return h


def _ceildivui(e, op):
    t, lhs, rhs = _int_args(e, op)
    q = _unsigned_values(e, "udiv", t, lhs, rhs)
    r = _unsigned_values(e, "urem", t, lhs, rhs)
    adjust = e.new(f"and i1 {e.new(f'icmp ne {t} {r}, 0')}, {e.new(f'icmp ne {t} {rhs}, 0')}")
    e.set(op, e.new(f"select i1 {adjust}, {t} {e.new(f'add {t} {q}, 1')}, {t} {q}"))


def _shift(opcode: str, sign_fill: bool) -> Handler:
    def h(e, op):
        t, x, amount = _int_args(e, op)
        width = int(t[1:])
        oob = e.new(f"icmp uge {t} {amount}, {normalize_int(width, width)}")
        if sign_fill:
            fill = normalize_int(width - 1, width)
            e.set(op, e.new(f"{opcode} {t} {x}, {e.new(f'select i1 {oob}, {t} {fill}, {t} {amount}')}"))
        else:
            e.set(op, e.new(f"select i1 {oob}, {t} 0, {t} {e.new(f'{opcode} {t} {x}, {amount}')}"))
    return h


def _intrinsic(base: str) -> Handler:
    def h(e, op):
        t = llvm_type(op.results[0].type)
        e.set(op, e.call_intrinsic(f"{base}.{mangle(t)}", t, [(llvm_type(a.type), e.v(a)) for a in op.operands]))
    return h


def _cmpi(e, op):
    pred = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
    e.set(op, e.new(f"icmp {pred} {llvm_type(op.lhs.type)} {e.v(op.lhs)}, {e.v(op.rhs)}"))


def _cmpf(e, op):
    pred = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
    if pred in ("false", "true"):
        e.set(op, "1" if pred == "true" else "0")
        return
    llvm_type(op.rhs.type)
    e.set(op, e.new(f"fcmp {pred} {llvm_type(op.lhs.type)} {e.v(op.lhs)}, {e.v(op.rhs)}"))


def _select(e, op):
    c, a, b = op.operands
    if llvm_type(c.type) != "i1":
        raise Unsupported("select on a vector condition")
    t = llvm_type(a.type)
    e.set(op, e.new(f"select i1 {e.v(c)}, {t} {e.v(a)}, {t} {e.v(b)}"))


def _resize_int(signed: bool) -> Handler:
    def h(e, op):
        src, dst = int_width(op.operands[0].type), int_width(op.results[0].type)
        x = e.v(op.operands[0])
        if src == dst:
            e.set(op, x)
            return
        opcode = "trunc" if src > dst else "sext" if signed else "zext"
        e.set(op, e.new(f"{opcode} i{src} {x} to i{dst}"))
    return h


def _sitofp(e, op):
    src, dst = llvm_type(op.operands[0].type), llvm_type(op.results[0].type)
    int_width(op.operands[0].type)
    e.set(op, e.new(f"sitofp {src} {e.v(op.operands[0])} to {dst}"))


def _uitofp(e, op):
    width = int_width(op.operands[0].type)
    t, res, x = f"i{width}", llvm_type(op.results[0].type), e.v(op.operands[0])
    if width < 64:
        e.set(op, e.new(f"sitofp i64 {e.new(f'zext {t} {x} to i64')} to {res}"))
        return
    if width > 64:
        raise Unsupported(f"uitofp from {t}")
    neg = e.new(f"icmp slt {t} {x}, 0")
    halved = e.new(f"or {t} {e.new(f'lshr {t} {x}, 1')}, {e.new(f'and {t} {x}, 1')}")
    f = e.new(f"sitofp {t} {e.new(f'select i1 {neg}, {t} {halved}, {t} {x}')} to {res}")
    e.set(op, e.new(f"select i1 {neg}, {res} {e.new(f'fadd {res} {f}, {f}')}, {res} {f}"))


def _fptoi(signed: bool) -> Handler:
    def h(e, op):
        src_t = op.operands[0].type
        if not is_ieee(src_t):
            raise Unsupported(f"float -> int cast from {src_t}")
        src, x = llvm_type(src_t), e.v(op.operands[0])
        if src in ("half", "bfloat"):
            x, src = e.new(f"fpext {src} {x} to float"), "float"
        res = llvm_type(op.results[0].type)
        int_width(op.results[0].type)
        name = f"llvm.fpto{'s' if signed else 'u'}i.sat.{mangle(res)}.{mangle(src)}"
        e.set(op, e.call_intrinsic(name, res, [(src, x)]))
    return h


def _float_resize(e, op):
    a, r = op.operands[0].type, op.results[0].type
    if not is_ieee(a) or not is_ieee(r):
        raise Unsupported(f"float cast {a} -> {r}")
    src, dst, x = llvm_type(a), llvm_type(r), e.v(op.operands[0])
    if src == dst:
        e.set(op, x)
    elif {src, dst} == {"half", "bfloat"}:
        e.set(op, e.new(f"fptrunc float {e.new(f'fpext {src} {x} to float')} to {dst}"))
    else:
        e.set(op, e.new(f"{'fpext' if a.bitwidth < r.bitwidth else 'fptrunc'} {src} {x} to {dst}"))


def _bitcast(e, op):
    src, dst = llvm_type(op.operands[0].type), llvm_type(op.results[0].type)
    x = e.v(op.operands[0])
    e.set(op, x if src == dst else e.new(f"bitcast {src} {x} to {dst}"))


def _constant(e, op):
    t = llvm_type(op.results[0].type)
    value = op.value
    e.cur.consts += 1
    if isinstance(value, IntegerAttr) and t[0] == "i":
        e.set(op, literal(t, value.value.data))
    elif isinstance(value, FloatAttr) and t[0] != "i":
        e.set(op, float_literal(t, value.value.data))
    else:
        raise Unsupported(f"constant {value}")


def _mul_extended(signed: bool) -> Handler:
    def h(e, op):
        t, a, b = _int_args(e, op)
        width = int(t[1:])
        wide, ext = f"i{2 * width}", "sext" if signed else "zext"
        p = e.new(f"mul {wide} {e.new(f'{ext} {t} {a} to {wide}')}, {e.new(f'{ext} {t} {b} to {wide}')}")
        low = e.new(f"trunc {wide} {p} to {t}")
        high = e.new(f"trunc {wide} {e.new(f'lshr {wide} {p}, {width}')} to {t}")
        e.set_all(op, [low, high])
    return h


def _addui_extended(e, op):
    t, a, b = _int_args(e, op)
    s = e.new(f"add {t} {a}, {b}")
    e.set_all(op, [s, e.new(f"icmp ult {t} {s}, {a}")])


def _negf(e, op):
    e.set(op, e.new(f"fneg {fastmath(op)}{llvm_type(op.results[0].type)} {e.v(op.operands[0])}"))


ARITH: dict[type[Operation], Handler] = {
    arith.ConstantOp: _constant,
    arith.AddiOp: _binary("add"), arith.SubiOp: _binary("sub"), arith.MuliOp: _binary("mul"),
    arith.AndIOp: _binary("and"), arith.OrIOp: _binary("or"), arith.XOrIOp: _binary("xor"),
    arith.DivSIOp: _divsi, arith.DivUIOp: _divui, arith.RemSIOp: _remsi, arith.RemUIOp: _remui,
    arith.FloorDivSIOp: _rounded_divsi("slt", "sub"), arith.CeilDivSIOp: _rounded_divsi("sge", "add"),
    arith.CeilDivUIOp: _ceildivui,
    arith.ShLIOp: _shift("shl", False), arith.ShRUIOp: _shift("lshr", False), arith.ShRSIOp: _shift("ashr", True),
    arith.MaxSIOp: _intrinsic("llvm.smax"), arith.MinSIOp: _intrinsic("llvm.smin"),
    arith.MaxUIOp: _intrinsic("llvm.umax"), arith.MinUIOp: _intrinsic("llvm.umin"),
    arith.MulSIExtendedOp: _mul_extended(True), arith.MulUIExtendedOp: _mul_extended(False),
    arith.AddUIExtendedOp: _addui_extended,
    arith.AddfOp: _float_binary("fadd"), arith.SubfOp: _float_binary("fsub"),
    arith.MulfOp: _float_binary("fmul"), arith.DivfOp: _float_binary("fdiv"), arith.NegfOp: _negf,
    arith.MaximumfOp: _intrinsic("llvm.maximum"), arith.MinimumfOp: _intrinsic("llvm.minimum"),
    arith.MaxnumfOp: _intrinsic("llvm.maxnum"), arith.MinnumfOp: _intrinsic("llvm.minnum"),
    arith.CmpiOp: _cmpi, arith.CmpfOp: _cmpf, arith.SelectOp: _select,
    arith.ExtSIOp: _resize_int(True), arith.ExtUIOp: _resize_int(False), arith.TruncIOp: _resize_int(True),
    arith.IndexCastOp: _resize_int(True),
    arith.SIToFPOp: _sitofp, arith.UIToFPOp: _uitofp, arith.FPToSIOp: _fptoi(True), arith.FPToUIOp: _fptoi(False),
    arith.ExtFOp: _float_resize, arith.TruncFOp: _float_resize, arith.BitcastOp: _bitcast,
}


# ---- math ---------------------------------------------------------------------------------------
def _math(e, op):
    kind = type(op)
    res_t = op.results[0].type
    t = llvm_type(res_t)
    args = [(llvm_type(a.type), e.v(a)) for a in op.operands]
    if kind in INT_WITH_FLAG:
        int_width(res_t)
        e.set(op, e.call_intrinsic(f"{INT_WITH_FLAG[kind]}.{t}", t, [args[0], ("i1", "0")]))
        return
    if kind is math.CtPopOp:
        int_width(res_t)
        e.set(op, e.call_intrinsic(f"llvm.ctpop.{t}", t, args))
        return
    if not is_ieee(res_t):
        raise Unsupported(f"'{op.name}' on {res_t}")
    narrow = t in ("half", "bfloat") and kind not in NARROW_OK
    if narrow:
        args = [("float", e.new(f"fpext {t} {v} to float")) if s == t else (s, v) for s, v in args]
    work = "float" if narrow else t
    fm = fastmath(op)
    if kind in INTRINSICS:
        result = e.call_intrinsic(f"{INTRINSICS[kind]}.{mangle(work)}", work, args, fm)
    elif kind is math.RsqrtOp:
        root = e.call_intrinsic(f"llvm.sqrt.{mangle(work)}", work, args)
        result = e.new(f"fdiv {fm}{work} {float_literal(work, 1.0)}, {root}")
    elif kind is math.FPowIOp:
        result = e.call_intrinsic(f"llvm.powi.{mangle(work)}.{args[1][0]}", work, args)
    elif work in ("float", "double"):
        name = LIBM[kind] + ("f" if work == "float" else "")
        e.declare(name, work, [s for s, _ in args])
        result = e.new(f"call {fm}{work} @\"{name}\"({', '.join(f'{s} {v}' for s, v in args)})")
    else:
        raise Unsupported(f"'{op.name}' on {res_t} has no libm lowering")
    e.set(op, e.new(f"fptrunc float {result} to {t}") if narrow else result)


MATH: dict[type[Operation], Handler] = {
    k: _math for k in (*INTRINSICS, *LIBM, *INT_WITH_FLAG, math.RsqrtOp, math.FPowIOp)}


__all__ = ["ARITH", "MATH", "Unsupported", "float_literal", "llvm_type", "result_type"]
