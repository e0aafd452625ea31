"""Convolution as a gemm-shaped contraction (im2col), for float convolutions
without groups. Why: `convert-linalg-to-blas` turns the contraction into a
BLAS gemm, so a convolution runs as fast as its matmul form; without BLAS it
is the same loops as the direct form plus one copy.

With M = the output's dims but its feature dim (in output order), K = the
kernel's dims but its output feature dim (in kernel order) and N = the
output feature:

    patches[M..., K...] = x[batch = M_b, feature = K_i, spatial_j = M_j * stride_j + K_wj * rhs_dil_j]
    out[M..., N] = sum_K patches[M..., K...] * kernel[K..., N]

Padding and lhs dilation are fused into the patches (bounds-checked reads
of the unpadded `x`, zero outside): no separate padded copy. The patches
are `[M..., K...]`, or `[K..., M...]` when x's innermost (unit-stride) dim is
its batch dim (the kernel gradient's `[f, 0, 1, b]` input), so the copy's
innermost loop is unit-stride in x either way; gemm takes either (a
transposed operand is CblasTrans). The kernel is transposed (a small copy)
when its output feature dim is neither first nor last, so K collapses there
too. 1x1 windows with unit strides read the (padded) `x` directly (no
patches; the caller pads). `convert-linalg-to-blas` builds the patches block
by block (passes/im2col_blocking.py); for the loops path, patches larger than
`MAX_PATCH_ELEMENTS` keep the direct form (memory).
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod

from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Attribute, SSAValue

from minixla.passes.hlo_to_linalg.common import PARALLEL, REDUCTION, Emitter, amap, d, elem, empty, fill, generic, identity, kind, shape_of

#: the largest patches tensor built (elements): 256 MiB of f32
MAX_PATCH_ELEMENTS = 1 << 26


def _transpose(e: Emitter, x: SSAValue, perm: list[int], t: Attribute) -> SSAValue:
    xs = shape_of(x)
    out = empty(e, [xs[p] for p in perm], t)
    in_map = amap(len(xs), [perm.index(j) for j in range(len(xs))])
    return generic(e, [x], [out], [in_map, identity(len(xs))], [PARALLEL] * len(xs), lambda b, a: [a[0]])[0]


def is_direct(ks, dn, strides) -> bool:
    """1x1 window, unit strides: the contraction reads x itself (no patches)."""
    return all(ks[s] == 1 for s in dn.kernel_spatial_dimensions) and all(s == 1 for s in strides)


def _padded_read(x: SSAValue, dn, pads, lhs_dil, zero: SSAValue):
    """Patches body reading x[idx] of the padded, lhs-dilated x from the
    unpadded one: zero outside it or between dilated elements."""
    xs = shape_of(x)

    def read(b: Emitter, idx: list[SSAValue]) -> SSAValue:
        ok, src = None, list(idx)
        for j, dim in enumerate(dn.input_spatial_dimensions):
            lo, step = pads[j][0], lhs_dil[j]
            if lo == 0 and step == 1 and pads[j][1] <= 0:
                continue  # no padding (or only cropping): always inside x
            rel = b(arith.SubiOp(idx[dim], b.index(lo))) if lo else idx[dim]
            good = b(arith.AndIOp(b(arith.CmpiOp(rel, b.index(0), "sge")),
                                  b(arith.CmpiOp(rel, b.index((xs[dim] - 1) * step + 1), "slt"))))
            q = rel
            if step != 1:
                q = b(arith.DivSIOp(rel, b.index(step)))
                good = b(arith.AndIOp(good, b(arith.CmpiOp(b(arith.RemSIOp(rel, b.index(step))), b.index(0), "eq"))))
            ok = good if ok is None else b(arith.AndIOp(ok, good))
            src[dim] = b(arith.MaxSIOp(b(arith.MinSIOp(q, b.index(xs[dim] - 1))), b.index(0)))
        v = b(tensor.ExtractOp(x, src, elem(x.type)))
        return v if ok is None else b(arith.SelectOp(ok, v, zero))

    return read


def _eval(b: Emitter, ex, loop: list[SSAValue]) -> SSAValue:
    """An affine expression of dims (+, * constant) on index values."""
    from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr

    if isinstance(ex, int):
        return b.index(ex)
    if isinstance(ex, AffineDimExpr):
        return loop[ex.position]
    if isinstance(ex, AffineConstantExpr):
        return b.index(ex.value)
    assert isinstance(ex, AffineBinaryOpExpr) and ex.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
    lhs, rhs = _eval(b, ex.lhs, loop), _eval(b, ex.rhs, loop)
    return b(arith.AddiOp(lhs, rhs) if ex.kind == AffineBinaryOpKind.Add else arith.MuliOp(lhs, rhs))


def conv_as_gemm(e: Emitter, x: SSAValue, k: SSAValue, dn, strides, rhs_dil, rs, types: tuple[Attribute, ...],
                 zero: Callable[[], SSAValue], mac: Callable, pads=None, lhs_dil=None) -> SSAValue | None:
    """The convolution's result through patches + contraction, or None when
    this form does not apply (non-float, mixed types, zero sizes, too big).
    `pads`/`lhs_dil`: x is unpadded and they are fused into the patches (not
    for the direct 1x1 form, which needs x padded by the caller)."""
    tx, tk, tr = types
    if kind(tr) != "float" or not (tx == tk == tr):
        return None
    n = len(dn.input_spatial_dimensions)
    xs, ks = shape_of(x), shape_of(k)
    if 0 in xs or 0 in ks or 0 in rs:
        return None
    ko, ki = dn.kernel_output_feature_dimension, dn.kernel_input_feature_dimension
    ksp = list(dn.kernel_spatial_dimensions)
    if ko not in (0, n + 1):  # put the output feature last: K collapses in the kernel
        perm = [i for i in range(n + 2) if i != ko] + [ko]
        k = _transpose(e, k, perm, tk)
        ko, ki, ksp = n + 1, perm.index(ki), [perm.index(s) for s in ksp]
        ks = shape_of(k)
    kdims = [i for i in range(n + 2) if i != ko]
    fdim = dn.output_feature_dimension
    odims = [i for i in range(n + 2) if i != fdim]
    nm = n + 1  # M loops: 0..n; N loop: nm; K loops: nm+1..

    def x_exprs(m0: int, k0: int, window: bool) -> list:
        ex: list = [0] * (n + 2)
        ex[dn.input_batch_dimension] = d(m0 + odims.index(dn.output_batch_dimension))
        ex[dn.input_feature_dimension] = d(k0 + kdims.index(ki))
        for j in range(n):
            m = d(m0 + odims.index(dn.output_spatial_dimensions[j]))
            ex[dn.input_spatial_dimensions[j]] = (m * strides[j] + d(k0 + kdims.index(ksp[j])) * rhs_dil[j]
                                                  if window else m)
        return ex

    loops = 2 * nm + 1
    fused = pads is not None and (any(p != (0, 0) for p in pads) or any(v != 1 for v in lhs_dil))
    if all(ks[s] == 1 for s in ksp) and all(s == 1 for s in strides):
        if fused:
            return None
        a, a_map = x, amap(loops, x_exprs(0, nm + 1, window=False))
    else:
        mshape, kshape = [rs[o] for o in odims], [ks[kd] for kd in kdims]
        k_first = dn.input_batch_dimension == n + 1  # x's unit-stride dim is an M dim: put K outer
        pshape = kshape + mshape if k_first else mshape + kshape
        if prod(pshape) > MAX_PATCH_ELEMENTS:
            return None
        pl = 2 * nm
        m0, k0 = (nm, 0) if k_first else (0, nm)
        if fused:
            read = _padded_read(x, dn, pads, lhs_dil, zero())

            def body(b: Emitter, v):
                loop = [b(IndexOp(i)) for i in range(pl)]
                idx = [_eval(b, ex, loop) for ex in x_exprs(m0, k0, window=True)]
                return [read(b, idx)]

            a = generic(e, [], [empty(e, pshape, tx)], [identity(pl)], [PARALLEL] * pl, body)[0]
        else:
            a = generic(e, [x], [empty(e, pshape, tx)], [amap(pl, x_exprs(m0, k0, window=True)), identity(pl)],
                        [PARALLEL] * pl, lambda b, v: [v[0]])[0]
        mloops, kloops = list(range(nm)), list(range(nm + 1, loops))
        a_map = amap(loops, kloops + mloops if k_first else mloops + kloops)
    kmap: list = [0] * (n + 2)
    for j, kd in enumerate(kdims):
        kmap[kd] = nm + 1 + j
    kmap[ko] = nm
    omap: list = [0] * (n + 2)
    for j, od in enumerate(odims):
        omap[od] = j
    omap[fdim] = nm
    out = fill(e, zero(), rs)
    return generic(e, [a, k], [out], [a_map, amap(loops, kmap), amap(loops, omap)],
                   [PARALLEL] * (nm + 1) + [REDUCTION] * nm,
                   lambda b, v: [mac(b, v[0], v[1], v[2], tx, tk, tr)])[0]
