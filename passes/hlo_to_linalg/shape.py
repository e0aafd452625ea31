"""Data movement: constant, iota, broadcast_in_dim, transpose, reverse through
indexing maps; slice/concatenate/edge pad through `tensor.extract_slice` and
`tensor.insert_slice`; reshape through `tensor.collapse_shape`/`expand_shape`;
dynamic_slice, dynamic_update_slice and interior/negative pad through a generic
over the result that reads its source with `tensor.extract` at computed,
clamped indices (offsets are runtime values, which affine maps cannot carry).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.dialects.builtin import (DYNAMIC_INDEX, ArrayAttr, DenseIntOrFPElementsAttr, IndexType, IntegerAttr,
                                   IntegerType, TensorType, i64)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.base import int_value, ints

from minixla.passes.hlo_to_linalg.common import (PARALLEL, Emitter, amap, d, elem, empty, extract_scalar, fill, generic, identity, kind,
                     scalar_map, shape_of, signless)
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering


@lowering(hlo.ConstantOp)
def lower_constant(lw: Lowerer, op: Operation):
    value = op.value
    t = signless(value.type)
    if t != value.type:
        et = elem(t)
        w = et.width.data
        vals = [int(v) for v in value.get_values()]
        vals = [v - (1 << w) if v >= 1 << (w - 1) else v for v in vals]
        value = DenseIntOrFPElementsAttr.from_list(t, vals)
    return [lw.e(arith.ConstantOp(value))]


def index_to_elem(b: Emitter, i: SSAValue, t) -> SSAValue:
    """An index value converted to element type `t` (signless)."""
    if kind(t) == "float":
        return b(arith.SIToFPOp(b(arith.IndexCastOp(i, i64)), t))
    return b(arith.IndexCastOp(i, t))


@lowering(hlo.IotaOp)
def lower_iota(lw: Lowerer, op: Operation):
    rt = signless(op.output.type)
    dim = int_value(op.iota_dimension)
    shape = shape_of(rt)
    n = len(shape)
    out = empty(lw.e, shape, elem(rt))
    return generic(lw.e, [], [out], [identity(n)], [PARALLEL] * n,
                   lambda b, a: [index_to_elem(b, b(IndexOp(dim)), elem(rt))])


@lowering(hlo.BroadcastInDimOp)
def lower_broadcast(lw: Lowerer, op: Operation):
    x = lw.v(op.operand)
    xs, rs = shape_of(x), shape_of(op.result.type)
    dims = ints(op.broadcast_dimensions)
    n = len(rs)
    exprs = [AffineExpr.constant(0) if xs[i] == 1 and rs[dd] != 1 else d(dd) for i, dd in enumerate(dims)]
    out = empty(lw.e, rs, elem(x.type))
    return generic(lw.e, [x], [out], [amap(n, exprs), identity(n)], [PARALLEL] * n, lambda b, a: [a[0]])


@lowering(hlo.TransposeOp)
def lower_transpose(lw: Lowerer, op: Operation):
    x = lw.v(op.operand)
    perm = ints(op.permutation)
    rs = shape_of(op.result.type)
    n = len(rs)
    out = empty(lw.e, rs, elem(x.type))
    return generic(lw.e, [x], [out], [amap(n, [perm.index(k) for k in range(n)]), identity(n)], [PARALLEL] * n,
                   lambda b, a: [a[0]])


@lowering(hlo.ReverseOp)
def lower_reverse(lw: Lowerer, op: Operation):
    x = lw.v(op.operand)
    xs = shape_of(x)
    n = len(xs)
    rev = set(ints(op.dimensions))
    exprs = [AffineExpr.constant(xs[i] - 1) - d(i) if i in rev else d(i) for i in range(n)]
    out = empty(lw.e, xs, elem(x.type))
    return generic(lw.e, [x], [out], [amap(n, exprs), identity(n)], [PARALLEL] * n, lambda b, a: [a[0]])


def _reassoc(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def reshape(e: Emitter, x: SSAValue, shape: Sequence[int]) -> SSAValue:
    """Reshape through rank 1: collapse everything, then expand (both views)."""
    xs = shape_of(x)
    if tuple(shape) == xs:
        return x
    et = elem(x.type)
    if not xs:  # rank 0 -> n ones: a broadcast (an expand_shape needs a non-empty reassociation)
        return fill(e, x, shape)
    if len(xs) != 1:
        groups = [list(range(len(xs)))] if xs else []
        x = e(tensor.CollapseShapeOp.create(operands=[x], result_types=[TensorType(et, [max(1, _prod(xs))] if xs else [])],
                                            properties={"reassociation": _reassoc(groups)}))
        if not xs:  # rank 0 -> rank 1 is an expand
            x = e(tensor.ExpandShapeOp(x, [], _reassoc([]), [1], TensorType(et, [1])))
    if len(shape) != 1:
        if not shape:
            return e(tensor.CollapseShapeOp.create(operands=[x], result_types=[TensorType(et, [])],
                                                   properties={"reassociation": _reassoc([])}))
        x = e(tensor.ExpandShapeOp(x, [], _reassoc([list(range(len(shape)))]), list(shape),
                                   TensorType(et, list(shape))))
    return x


def _prod(xs: Sequence[int]) -> int:
    p = 1
    for s in xs:
        p *= s
    return p


@lowering(hlo.ReshapeOp)
def lower_reshape(lw: Lowerer, op: Operation):
    return [reshape(lw.e, lw.v(op.operand), shape_of(op.result.type))]


def extract_slice(e: Emitter, x: SSAValue, offsets, sizes, strides) -> SSAValue:
    rt = TensorType(elem(x.type), list(sizes))
    return e(tensor.ExtractSliceOp(x, list(offsets), list(sizes), list(strides), rt))


def insert_slice(e: Emitter, src: SSAValue, dest: SSAValue, offsets, strides=None) -> SSAValue:
    sizes = list(shape_of(src))
    return e(tensor.InsertSliceOp.get(src, dest, sizes, list(offsets), list(strides or [1] * len(sizes))))


@lowering(hlo.SliceOp)
def lower_slice(lw: Lowerer, op: Operation):
    return [extract_slice(lw.e, lw.v(op.operand), ints(op.start_indices), shape_of(op.result.type), ints(op.strides))]


@lowering(hlo.ConcatenateOp)
def lower_concatenate(lw: Lowerer, op: Operation):
    dim = int_value(op.dimension)
    rs = shape_of(op.result.type)
    out = empty(lw.e, rs, elem(signless(op.result.type)))
    offset = 0
    for x in lw.vs(op.inputs):
        off = [0] * len(rs)
        off[dim] = offset
        if shape_of(x)[dim]:
            out = insert_slice(lw.e, x, out, off)
        offset += shape_of(x)[dim]
    return [out]


def _clamp_index(b: Emitter, i: SSAValue, hi: int) -> SSAValue:
    """max(0, min(i, hi)) on index values."""
    i = b(arith.MinSIOp(i, b.index(hi)))
    return b(arith.MaxSIOp(i, b.index(0)))


def start_index(lw: Lowerer, old: SSAValue, hi: int) -> SSAValue:
    """A 0-d integer tensor start index as a clamped `index` (spec: clamp to [0, hi])."""
    e = lw.e
    v = extract_scalar(e, lw.v(old))
    t = elem(old.type)
    if kind(t) == "uint" and t.width.data < 64:
        v = e(arith.ExtUIOp(v, IntegerType(64)))
    elif kind(t) == "uint":  # ui64 beyond int64 max: clamp first, in unsigned
        v = e(arith.MinUIOp(v, e.const(max(hi, 0), IntegerType(64))))
    return _clamp_index(e, e(arith.IndexCastOp(v, IndexType())), max(hi, 0))


def _in_range(b: Emitter, i: SSAValue, lo: SSAValue, hi: SSAValue) -> SSAValue:
    return b(arith.AndIOp(b(arith.CmpiOp(i, lo, "sge")), b(arith.CmpiOp(i, hi, "slt"))))


@lowering(hlo.DynamicSliceOp)
def lower_dynamic_slice(lw: Lowerer, op: Operation):
    x = lw.v(op.operand)
    xs = shape_of(x)
    sizes = ints(op.slice_sizes)
    starts = [start_index(lw, s, xs[k] - sizes[k]) for k, s in enumerate(op.start_indices)]
    n = len(sizes)
    out = empty(lw.e, sizes, elem(x.type))

    def body(b: Emitter, a):
        idx = [b(arith.AddiOp(b(IndexOp(k)), starts[k])) for k in range(n)]
        return [b(tensor.ExtractOp(x, idx, elem(x.type)))]

    return generic(lw.e, [], [out], [identity(n)], [PARALLEL] * n, body)


@lowering(hlo.DynamicUpdateSliceOp)
def lower_dynamic_update_slice(lw: Lowerer, op: Operation):
    """`tensor.insert_slice` of the update at the clamped start indices. Bufferization then writes the
    update's elements only, into the operand's own buffer when the operand is dead afterwards: a
    recurrent loop's stack of states (an RNN's outputs, one slice per step) costs O(slice) per step
    instead of a copy of the whole stack (and the two fork-joins its threaded copy cost)."""
    x, u = lw.v(op.operand), lw.v(op.update)
    xs, us = shape_of(x), shape_of(u)
    n = len(xs)
    if any(s == 0 for s in us):
        return [x]
    if n == 0:
        return [u]
    starts = [start_index(lw, s, xs[k] - us[k]) for k, s in enumerate(op.start_indices)]
    return [lw.e(tensor.InsertSliceOp.get(u, x, us, [DYNAMIC_INDEX] * n, offsets=starts))]


@lowering(hlo.PadOp)
def lower_pad(lw: Lowerer, op: Operation):
    x, pv = lw.v(op.operand), lw.v(op.padding_value)
    lo, hi, inner = ints(op.edge_padding_low), ints(op.edge_padding_high), ints(op.interior_padding)
    return [pad(lw.e, x, pv, lo, hi, inner, shape_of(op.result.type))]


def pad(e: Emitter, x: SSAValue, pv: SSAValue, lo, hi, inner, rs) -> SSAValue:
    """Pad `x` with the 0-d tensor `pv`: fill + insert_slice when every amount
    is >= 0 (interior padding becomes the insert stride), else a generic."""
    xs = shape_of(x)
    n = len(xs)
    if all(v >= 0 for v in (*lo, *hi)):
        out = fill(e, pv, rs)
        if all(xs):
            out = insert_slice(e, x, out, lo, [i + 1 for i in inner])
        return out

    def body(b: Emitter, a):
        ok, src = None, []
        for k in range(n):
            rel = b(arith.SubiOp(b(IndexOp(k)), b.index(lo[k])))
            step = inner[k] + 1
            q = b(arith.DivSIOp(rel, b.index(step))) if step != 1 else rel
            good = _in_range(b, rel, b.index(0), b.index((xs[k] - 1) * step + 1))
            if step != 1:
                r = b(arith.RemSIOp(rel, b.index(step)))
                good = b(arith.AndIOp(good, b(arith.CmpiOp(r, b.index(0), "eq"))))
            ok = good if ok is None else b(arith.AndIOp(ok, good))
            src.append(_clamp_index(b, q, xs[k] - 1))
        if ok is None or not all(xs):
            return [a[0]]
        v = b(tensor.ExtractOp(x, src, elem(x.type)))
        return [b(arith.SelectOp(ok, v, a[0]))]

    out = empty(e, rs, elem(x.type))
    m = len(rs)
    return generic(e, [pv], [out], [scalar_map(m), identity(m)], [PARALLEL] * m, body)[0]


__all__ = ["pad", "reshape", "start_index"]
