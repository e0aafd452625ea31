"""Convolution as a gemm-shaped contraction (im2col), for float convolutions
without groups. Why: `convert-linalg-to-blas` turns the contraction into a
BLAS gemm, so a convolution runs as fast as its matmul form; without BLAS it
is the same loops as the direct form plus one copy.

With M = the output's dims but its feature dim (in output order), K = the
kernel's dims but its output feature dim (in kernel order) and N = the
output feature:

    patches[M..., K...] = x[batch = M_b, feature = K_i, spatial_j = M_j * stride_j + K_wj * rhs_dil_j]
    out[M..., N] = sum_K patches[M..., K...] * kernel[K..., N]

`x` is already padded (and lhs-dilated). The patches tensor is laid out so K
collapses into one matrix dimension; the kernel is transposed (a small copy)
when its output feature dim is neither first nor last, so K collapses there
too. 1x1 windows with unit strides read `x` directly (no patches). Patches
larger than `MAX_PATCH_ELEMENTS` keep the direct form (memory).
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod

from xdsl.ir import Attribute, SSAValue

from .common import PARALLEL, REDUCTION, Emitter, amap, d, empty, fill, generic, identity, kind, shape_of

#: the largest patches tensor built (elements): 256 MiB of f32
MAX_PATCH_ELEMENTS = 1 << 26


def _transpose(e: Emitter, x: SSAValue, perm: list[int], t: Attribute) -> SSAValue:
    xs = shape_of(x)
    out = empty(e, [xs[p] for p in perm], t)
    in_map = amap(len(xs), [perm.index(j) for j in range(len(xs))])
    return generic(e, [x], [out], [in_map, identity(len(xs))], [PARALLEL] * len(xs), lambda b, a: [a[0]])[0]


def conv_as_gemm(e: Emitter, x: SSAValue, k: SSAValue, dn, strides, rhs_dil, rs, types: tuple[Attribute, ...],
                 zero: Callable[[], SSAValue], mac: Callable) -> SSAValue | None:
    """The convolution's result through patches + contraction, or None when
    this form does not apply (non-float, mixed types, zero sizes, too big)."""
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
    if all(ks[s] == 1 for s in ksp) and all(s == 1 for s in strides):
        a, a_map = x, amap(loops, x_exprs(0, nm + 1, window=False))
    else:
        pshape = [rs[o] for o in odims] + [ks[kd] for kd in kdims]
        if prod(pshape) > MAX_PATCH_ELEMENTS:
            return None
        pl = 2 * nm
        a = generic(e, [x], [empty(e, pshape, tx)], [amap(pl, x_exprs(0, nm, window=True)), identity(pl)],
                    [PARALLEL] * pl, lambda b, v: [v[0]])[0]
        a_map = amap(loops, [*range(nm), *range(nm + 1, loops)])
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
