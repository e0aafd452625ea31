"""Elementwise hlo ops -> `linalg.generic` with identity maps and a scalar body
from `scalar.SCALAR_OPS` (one table for all unary/binary ops)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.elementwise import BINARY_OPS, UNARY_OPS

from minixla.passes.hlo_to_linalg import scalar
from minixla.passes.hlo_to_linalg.common import elem, kind, map_elementwise, signless, unsupported, width
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering

#: the unary and binary elementwise op classes: one lowering through the scalar table
UNARY_OP_CLASSES = [hlo.OPS[m] for m in UNARY_OPS]
BINARY_OP_CLASSES = [hlo.OPS[m] for m in BINARY_OPS]


@lowering(*UNARY_OP_CLASSES, *BINARY_OP_CLASSES)
def lower_table_op(lw: Lowerer, op: Operation):
    m = op.name.split(".", 1)[1]
    t = elem(op.operands[0].type)
    fn = scalar.scalar_op(m, t)
    if fn is None:
        raise unsupported(op, f"element type {t} ({kind(t)}) is not supported")
    return [map_elementwise(lw.e, lw.vs(op.operands), signless(op.results[0].type), lambda b, a: fn(b, a, t))]


@lowering(hlo.CompareOp)
def lower_compare(lw: Lowerer, op: Operation):
    t = elem(op.operands[0].type)
    if kind(t) == "complex":
        raise unsupported(op, "complex comparisons are not supported")
    direction = op.comparison_direction.data.value
    ct = op.compare_type.data.value if op.compare_type is not None else None
    return [map_elementwise(lw.e, lw.vs(op.operands), op.results[0].type,
                            lambda b, a: scalar.compare(b, a[0], a[1], direction, ct, t))]


@lowering(hlo.SelectOp)
def lower_select(lw: Lowerer, op: Operation):
    return [map_elementwise(lw.e, lw.vs(op.operands), signless(op.results[0].type),
                            lambda b, a: b(arith.SelectOp(a[0], a[1], a[2])))]


@lowering(hlo.ClampOp)
def lower_clamp(lw: Lowerer, op: Operation):
    """clamp = min(max(operand, min), max), with hlo's max/min semantics."""
    t = elem(op.operand.type)
    mx, mn = scalar.scalar_op("maximum", t), scalar.scalar_op("minimum", t)
    if mx is None or mn is None:
        raise unsupported(op, f"element type {t} is not supported")

    def body(b, a):
        lo, x, hi = a
        return mn(b, [mx(b, [x, lo], t), hi], t)

    return [map_elementwise(lw.e, lw.vs(op.operands), signless(op.results[0].type), body)]


@lowering(hlo.ConvertOp)
def lower_convert(lw: Lowerer, op: Operation):
    src, dst = elem(op.operand.type), elem(op.result.type)
    if "complex" in (kind(src), kind(dst)):
        raise unsupported(op, "complex conversions are not supported")
    return [map_elementwise(lw.e, [lw.v(op.operand)], signless(op.result.type),
                            lambda b, a: scalar.convert(b, a[0], src, dst))]


@lowering(hlo.IsFiniteOp)
def lower_is_finite(lw: Lowerer, op: Operation):
    t = elem(op.x.type)
    return [map_elementwise(lw.e, [lw.v(op.x)], op.y.type, lambda b, a: scalar.is_finite(b, a[0], t))]


@lowering(hlo.BitcastConvertOp)
def lower_bitcast(lw: Lowerer, op: Operation):
    src, dst = elem(op.operand.type), elem(op.result.type)
    if "complex" in (kind(src), kind(dst)):
        raise unsupported(op, "complex bitcasts are not supported")
    if width(src) != width(dst):
        return [_bitcast_resize(lw, op, src, dst)]
    s, t = signless(src), signless(dst)
    if s == t or (isinstance(s, IntegerType) and isinstance(t, IntegerType)):
        return [lw.v(op.operand)] if s == t else [map_elementwise(lw.e, [lw.v(op.operand)], signless(op.result.type),
                                                                   lambda b, a: a[0])]
    return [map_elementwise(lw.e, [lw.v(op.operand)], signless(op.result.type),
                            lambda b, a: b(arith.BitcastOp(a[0], t)))]


def _bitcast_resize(lw: Lowerer, op: Operation, src, dst):
    """Widths differ: as the interpreter (little-endian), narrowing splits each
    element into a trailing dim, low-order part first (i1: bit k); widening
    ORs the trailing dim's parts together, part k shifted by k * width."""
    from xdsl.dialects import tensor
    from xdsl.dialects.linalg.ops import IndexOp

    from minixla.passes.hlo_to_linalg.common import PARALLEL, amap, empty, generic, shape_of

    x = lw.v(op.operand)
    ws, wd = width(src), width(dst)
    ist, idt = IntegerType(ws), IntegerType(wd)
    rs = shape_of(op.result.type)
    n = len(rs)
    out = empty(lw.e, rs, signless(dst))

    def to_int(b, v, t, it):
        return b(arith.BitcastOp(v, it)) if kind(t) == "float" else v

    def from_int(b, v):
        return b(arith.BitcastOp(v, signless(dst))) if kind(dst) == "float" else v

    if wd < ws:
        def narrow(b, a):
            bits = to_int(b, a[0], src, ist)
            k = b(arith.IndexCastOp(b(IndexOp(n - 1)), ist))
            shift = b(arith.MuliOp(k, b.const(wd, ist)))
            return [from_int(b, b(arith.TruncIOp(b(arith.ShRUIOp(bits, shift)), idt)))]

        return generic(lw.e, [x], [out], [amap(n, list(range(n - 1))), amap(n, list(range(n)))], [PARALLEL] * n,
                       narrow)[0]

    ratio = wd // ws

    def widen(b, a):
        idx = [b(IndexOp(d)) for d in range(n)]
        acc = b.const(0, idt)
        for k in range(ratio):
            part = to_int(b, b(tensor.ExtractOp(x, [*idx, b.index(k)], signless(src))), src, ist)
            part = b(arith.ExtUIOp(part, idt))
            if k:
                part = b(arith.ShLIOp(part, b.const(k * ws, idt)))
            acc = b(arith.OrIOp(acc, part))
        return [from_int(b, acc)]

    return generic(lw.e, [], [out], [amap(n, list(range(n)))], [PARALLEL] * n, widen)[0]


@lowering(hlo.OptimizationBarrierOp)
def lower_barrier(lw: Lowerer, op: Operation):
    return lw.vs(op.operands)
