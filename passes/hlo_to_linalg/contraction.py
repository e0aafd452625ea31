"""dot_general -> contraction `linalg.generic` (or `linalg.matmul` for a plain
2-d float matmul, kept named for later fast paths); convolution -> pad (lhs
dilation = interior padding), then (float, no groups) patches + a gemm-shaped
contraction (im2col.py, padding fused into the patches), or else a generic over (batch, output feature,
output spatial, input feature, window) with strided/dilated maps; feature
(or batch) groups become a separate loop, so maps stay pure (no
floordiv/mod); window reversal reverses the kernel first. 16/8/6/4-bit floats
accumulate in f32 (as XLA's CPU backend and numpy): a dot in its generic's
accumulator, a convolution on operands extended to f32 (so it takes the f32
gemm) with its result truncated once."""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, ReducedPrecisionFloatType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.base import int_value, ints
from minixla.dialects.hlo_ops.reduction import padding_pairs

from minixla.passes.hlo_to_linalg import scalar
from minixla.passes.hlo_to_linalg.common import (PARALLEL, REDUCTION, Emitter, amap, d, elem, fill, generic, identity, kind,
                     shape_of, signless, unsupported)
from minixla.passes.hlo_to_linalg.im2col import conv_as_gemm, is_direct
from minixla.passes.hlo_to_linalg.shape import pad, reshape
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering


def _zero(e: Emitter, t: Attribute) -> SSAValue:
    return e.const(0.0 if kind(t) == "float" else 0, signless(t))


def _mac(b: Emitter, x: SSAValue, y: SSAValue, acc: SSAValue, tx: Attribute, ty: Attribute, tr: Attribute) -> SSAValue:
    """acc + convert(x) * convert(y) in the result type."""
    x = scalar.convert(b, x, tx, tr) if signless(tx) != signless(tr) else x
    y = scalar.convert(b, y, ty, tr) if signless(ty) != signless(tr) else y
    k = kind(tr)
    mul = scalar.SCALAR_OPS["multiply"][k]
    add = scalar.SCALAR_OPS["add"][k]
    return add(b, [acc, mul(b, [x, y], tr)], tr)


@lowering(hlo.DotGeneralOp)
def lower_dot_general(lw: Lowerer, op: Operation):
    a, b_ = lw.v(op.lhs), lw.v(op.rhs)
    ta, tb, tr = elem(op.lhs.type), elem(op.rhs.type), elem(op.result.type)
    if "complex" in (kind(ta), kind(tb), kind(tr)):
        raise unsupported(op, "complex dot products are not supported")
    dn = op.dot_dimension_numbers
    lb, rb, lc, rc = (list(dn.lhs_batching_dimensions), list(dn.rhs_batching_dimensions),
                      list(dn.lhs_contracting_dimensions), list(dn.rhs_contracting_dimensions))
    sa, sb = shape_of(a), shape_of(b_)
    lf = [k for k in range(len(sa)) if k not in lb + lc]
    rf = [k for k in range(len(sb)) if k not in rb + rc]
    rs = shape_of(op.result.type)
    narrow = _is_narrow(tr)
    acc_t = Float32Type() if narrow else tr  # 16/8/6/4-bit floats accumulate in f32 (as XLA's CPU backend and numpy)
    out = fill(lw.e, _zero(lw.e, acc_t), rs)
    if not lb and lc == [1] and rc == [0] and len(sa) == 2 and len(sb) == 2 and kind(tr) == "float" \
            and ta == tb == tr and not narrow:
        return list(lw.e.op(MatmulOp([a, b_], [out])).results)
    nb, nl, nr, nc = len(lb), len(lf), len(rf), len(lc)
    loops = nb + nl + nr + nc
    lmap, rmap = [0] * len(sa), [0] * len(sb)
    for i, (x, y) in enumerate(zip(lb, rb)):
        lmap[x], rmap[y] = i, i
    for i, x in enumerate(lf):
        lmap[x] = nb + i
    for i, y in enumerate(rf):
        rmap[y] = nb + nl + i
    for i, (x, y) in enumerate(zip(lc, rc)):
        lmap[x], rmap[y] = nb + nl + nr + i, nb + nl + nr + i
    maps = [amap(loops, lmap), amap(loops, rmap), amap(loops, list(range(nb + nl + nr)))]
    iters = [PARALLEL] * (nb + nl + nr) + [REDUCTION] * nc
    acc = generic(lw.e, [a, b_], [out], maps, iters, lambda b, x: [_mac(b, x[0], x[1], x[2], ta, tb, acc_t)])
    if not narrow:
        return acc
    rank = len(rs)
    return generic(lw.e, acc, [fill(lw.e, _zero(lw.e, tr), rs)], [identity(rank)] * 2, [PARALLEL] * rank,
                   lambda b, x: [scalar.convert(b, x[0], acc_t, tr)])


@lowering(hlo.ConvolutionOp)
def lower_convolution(lw: Lowerer, op: Operation):
    x, k = lw.v(op.lhs), lw.v(op.rhs)
    tx, tk, tr = elem(op.lhs.type), elem(op.rhs.type), elem(op.result.type)
    if "complex" in (kind(tx), kind(tk), kind(tr)):
        raise unsupported(op, "complex convolutions are not supported")
    narrow_result = _is_narrow(tr)
    if narrow_result or _is_narrow(tx) or _is_narrow(tk):  # 16/8/6/4-bit floats: in f32, as the dot
        x, k = _converted(lw.e, x, tx, Float32Type()), _converted(lw.e, k, tk, Float32Type())
        tx = tk = Float32Type()
        if narrow_result:
            tr = Float32Type()
    batch_groups = int_value(op.batch_group_count)
    groups = int_value(op.feature_group_count) * batch_groups  # at most one of them is > 1 (spec)
    dn = op.dimension_numbers
    n = len(dn.input_spatial_dimensions)
    reversal = list(ints(op.window_reversal)) if op.window_reversal is not None else []
    if any(reversal):  # reversing the lhs window = reversing the kernel's spatial dims
        k = _reverse(lw.e, k, [dim for j, dim in enumerate(dn.kernel_spatial_dimensions) if reversal[j]])
    ones = (1,) * n
    strides = ints(op.window_strides) or ones
    lhs_dil, rhs_dil = ints(op.lhs_dilation) or ones, ints(op.rhs_dilation) or ones
    pads = padding_pairs(op.padding, n)
    xs = shape_of(x)
    rs = shape_of(op.result.type)
    if groups == 1 and not is_direct(shape_of(k), dn, strides):  # padding fused into the patches
        res = conv_as_gemm(lw.e, x, k, dn, strides, rhs_dil, rs, (tx, tk, tr), lambda: _zero(lw.e, tr), _mac,
                           pads, lhs_dil)
        if res is not None:
            return [_converted(lw.e, res, tr, elem(op.result.type))]
    if any(p != (0, 0) for p in pads) or any(v != 1 for v in lhs_dil):
        lo, hi, inner = [0] * (n + 2), [0] * (n + 2), [0] * (n + 2)
        for j, dim in enumerate(dn.input_spatial_dimensions):
            lo[dim], hi[dim], inner[dim] = pads[j][0], pads[j][1], lhs_dil[j] - 1
        padded = [(0 if s == 0 else (s - 1) * (inner[i] + 1) + 1) + lo[i] + hi[i] for i, s in enumerate(xs)]
        zero = lw.e(tensor.FromElementsOp(_zero(lw.e, tx), result_type=TensorType(signless(tx), [])))
        x = pad(lw.e, x, zero, lo, hi, inner, padded)
    if groups == 1 and is_direct(shape_of(k), dn, strides):
        res = conv_as_gemm(lw.e, x, k, dn, strides, rhs_dil, rs, (tx, tk, tr), lambda: _zero(lw.e, tr), _mac)
        if res is not None:
            return [_converted(lw.e, res, tr, elem(op.result.type))]
    ks = shape_of(k)
    out_f = ks[dn.kernel_output_feature_dimension]
    in_f = ks[dn.kernel_input_feature_dimension]
    per_group = out_f // groups
    # loops: batch, group, out feature in group, out spatial..., in feature (in group), window...
    B, G, O = 0, 1, 2
    S = 3
    C = 3 + n
    W = 4 + n
    loops = 4 + 2 * n
    xmap = [0] * (n + 2)
    if batch_groups > 1:  # group g reads batch slice g (of the output's batch size)
        xmap[dn.input_batch_dimension] = d(G) * rs[dn.output_batch_dimension] + d(B)
        xmap[dn.input_feature_dimension] = d(C)
    else:
        xmap[dn.input_batch_dimension] = d(B)
        xmap[dn.input_feature_dimension] = d(G) * in_f + d(C)
    for j, dim in enumerate(dn.input_spatial_dimensions):
        xmap[dim] = d(S + j) * strides[j] + d(W + j) * rhs_dil[j]
    kmap = [0] * (n + 2)
    kmap[dn.kernel_output_feature_dimension] = d(G) * per_group + d(O)
    kmap[dn.kernel_input_feature_dimension] = d(C)
    for j, dim in enumerate(dn.kernel_spatial_dimensions):
        kmap[dim] = d(W + j)
    # the output is viewed with its feature dim split in (group, feature): expand it
    split = list(rs)
    fdim = dn.output_feature_dimension
    split[fdim:fdim + 1] = [groups, per_group]
    omap = []
    for dim in range(n + 2):
        if dim == dn.output_batch_dimension:
            omap.append(d(B))
        elif dim == fdim:
            omap += [d(G), d(O)]
        else:
            omap.append(d(S + list(dn.output_spatial_dimensions).index(dim)))
    out = fill(lw.e, _zero(lw.e, tr), split)
    # loop bounds of C and window dims come from the kernel; spatial from the output
    res = generic(lw.e, [x, k], [out], [amap(loops, xmap), amap(loops, kmap), amap(loops, omap)],
                  [PARALLEL] * (3 + n) + [REDUCTION] * (1 + n),
                  lambda b, a: [_mac(b, a[0], a[1], a[2], tx, tk, tr)])[0]
    return [_converted(lw.e, reshape(lw.e, res, rs), tr, elem(op.result.type))]


def _is_narrow(t: Attribute) -> bool:
    return isinstance(t, (Float16Type, BFloat16Type, ReducedPrecisionFloatType))


def _converted(e: Emitter, v: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """Tensor `v` of element type `src` converted elementwise to `dst` (itself when they are one type)."""
    if signless(src) == signless(dst):
        return v
    rank = len(shape_of(v))
    return generic(e, [v], [fill(e, _zero(e, dst), shape_of(v))], [identity(rank)] * 2, [PARALLEL] * rank,
                   lambda b, a: [scalar.convert(b, a[0], src, dst)])[0]


def _reverse(e: Emitter, x: SSAValue, dims) -> SSAValue:
    from xdsl.ir.affine import AffineExpr

    from minixla.passes.hlo_to_linalg.common import empty, identity

    xs = shape_of(x)
    r = len(xs)
    exprs = [AffineExpr.constant(xs[i] - 1) - d(i) if i in dims else d(i) for i in range(r)]
    return generic(e, [x], [empty(e, xs, elem(x.type))], [amap(r, exprs), identity(r)], [PARALLEL] * r,
                   lambda b, a: [a[0]])[0]


