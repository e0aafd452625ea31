"""dot_general and convolution.

Both accumulate in the result type's precision or better: floats in float64
(complex in complex128) rounded once to the result type, integers in the
result integer type (wrapping, as a fixed-width accumulator would).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from minixla.dialects.numpy_types import is_bool, is_complex, is_float
from minixla.backends.interpreter.kernels.structural import pad


def _accumulator(operand_dtypes: Sequence[np.dtype], result_dtype: np.dtype) -> np.dtype:
    if any(is_complex(d) for d in operand_dtypes) or is_complex(result_dtype):
        return np.dtype(np.complex128)
    if any(is_float(d) for d in operand_dtypes) or is_float(result_dtype):
        return np.dtype(np.float64)
    if is_bool(result_dtype):
        return np.dtype(np.int64)
    return np.dtype(result_dtype)


def _finish(acc: np.ndarray, result_dtype: np.dtype) -> np.ndarray:
    from minixla.backends.interpreter.kernels.conversions import convert

    if is_bool(result_dtype):
        return acc != 0
    return convert(acc, result_dtype) if acc.dtype != result_dtype else acc


def dot_general(lhs: np.ndarray, rhs: np.ndarray, *, lhs_batching: Sequence[int] = (),
                rhs_batching: Sequence[int] = (), lhs_contracting: Sequence[int] = (),
                rhs_contracting: Sequence[int] = (), result_dtype: np.dtype | None = None) -> np.ndarray:
    """Result dims: batch dims, then lhs free dims, then rhs free dims (in order)."""
    result_dtype = np.dtype(result_dtype or lhs.dtype)
    acc = _accumulator([lhs.dtype, rhs.dtype], result_dtype)
    lfree = [d for d in range(lhs.ndim) if d not in lhs_batching and d not in lhs_contracting]
    rfree = [d for d in range(rhs.ndim) if d not in rhs_batching and d not in rhs_contracting]
    bshape = [lhs.shape[d] for d in lhs_batching]
    b, k = int(np.prod(bshape, dtype=np.int64)), int(np.prod([lhs.shape[d] for d in lhs_contracting], dtype=np.int64))
    m = int(np.prod([lhs.shape[d] for d in lfree], dtype=np.int64))
    n = int(np.prod([rhs.shape[d] for d in rfree], dtype=np.int64))
    a = np.transpose(lhs, list(lhs_batching) + lfree + list(lhs_contracting)).astype(acc).reshape(b, m, k)
    c = np.transpose(rhs, list(rhs_batching) + list(rhs_contracting) + rfree).astype(acc).reshape(b, k, n)
    out = np.matmul(a, c) if k else np.zeros((b, m, n), dtype=acc)
    shape = bshape + [lhs.shape[d] for d in lfree] + [rhs.shape[d] for d in rfree]
    return _finish(out.reshape(shape), result_dtype)


def convolution(lhs: np.ndarray, rhs: np.ndarray, *, window_strides: Sequence[int],
                padding: Sequence[tuple[int, int]], lhs_dilation: Sequence[int], rhs_dilation: Sequence[int],
                window_reversal: Sequence[bool], input_batch_dimension: int, input_feature_dimension: int,
                input_spatial_dimensions: Sequence[int], kernel_input_feature_dimension: int,
                kernel_output_feature_dimension: int, kernel_spatial_dimensions: Sequence[int],
                output_batch_dimension: int, output_feature_dimension: int,
                output_spatial_dimensions: Sequence[int], feature_group_count: int = 1,
                batch_group_count: int = 1, result_dtype: np.dtype | None = None) -> np.ndarray:
    """Spec semantics: dilate and pad the input, slide the (dilated, optionally
    reversed) kernel with strides; feature/batch groups split contiguously."""
    result_dtype = np.dtype(result_dtype or lhs.dtype)
    acc = _accumulator([lhs.dtype, rhs.dtype], result_dtype)
    nsp = len(input_spatial_dimensions)
    x = np.transpose(lhs, [input_batch_dimension, input_feature_dimension, *input_spatial_dimensions]).astype(acc)
    w = np.transpose(rhs, [kernel_output_feature_dimension, kernel_input_feature_dimension,
                           *kernel_spatial_dimensions]).astype(acc)
    for s, rev in enumerate(window_reversal):
        if rev:
            w = np.flip(w, axis=2 + s)
    x = pad(x, np.zeros((), acc), [0, 0] + [p[0] for p in padding], [0, 0] + [p[1] for p in padding],
            [0, 0] + [d - 1 for d in lhs_dilation])
    ksz = w.shape[2:]
    out_sp = []
    for s in range(nsp):
        span = 0 if ksz[s] == 0 else (ksz[s] - 1) * rhs_dilation[s] + 1
        size = x.shape[2 + s]
        out_sp.append(0 if size < span else (size - span) // window_strides[s] + 1)
    n_all, c_all = x.shape[:2]
    o_all = w.shape[0]
    nb = n_all // batch_group_count
    out = np.zeros((nb, o_all, *out_sp), dtype=acc)
    fg, bg = feature_group_count, batch_group_count
    cg = c_all // fg
    groups = fg * bg
    og = o_all // groups if groups else 0
    for kpos in np.ndindex(*ksz):
        sl = tuple(slice(k * d, k * d + (o - 1) * st + 1, st) if o else slice(0, 0)
                   for k, d, o, st in zip(kpos, rhs_dilation, out_sp, window_strides))
        patch = x[(slice(None), slice(None)) + sl]  # (N, C, *out_sp)
        wk = w[(slice(None), slice(None)) + tuple(kpos)]  # (O, Cg)
        for g in range(groups):
            f, b = (g, 0) if fg > 1 else (0, g)
            xs = patch[b * nb:(b + 1) * nb, f * cg:(f + 1) * cg]
            ws = wk[g * og:(g + 1) * og]
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", xs, ws)
    perm = [0] * (2 + nsp)
    perm[output_batch_dimension] = 0
    perm[output_feature_dimension] = 1
    for s, d in enumerate(output_spatial_dimensions):
        perm[d] = 2 + s
    return _finish(np.transpose(out, perm), result_dtype)
