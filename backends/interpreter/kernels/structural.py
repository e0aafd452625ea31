"""Data-movement kernels: iota, broadcast, slicing, padding, gather, scatter.

Pure numpy functions taking plain Python ints/tuples, following the spec's
index formulas; gather and scatter are vectorized with advanced indexing
(one index array per operand dimension) instead of looping over elements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


def iota(shape: Sequence[int], dimension: int, dtype: np.dtype) -> np.ndarray:
    shape = tuple(shape)
    ramp = np.arange(shape[dimension], dtype=np.int64)
    view = ramp.reshape([-1 if d == dimension else 1 for d in range(len(shape))])
    out = np.broadcast_to(view, shape)
    if np.dtype(dtype) == np.bool_:
        return out != 0
    return out.astype(dtype)


def broadcast_in_dim(x: np.ndarray, shape: Sequence[int], dims: Sequence[int]) -> np.ndarray:
    """result[i] = x[i[dims]] where operand dims of size 1 broadcast."""
    shape = tuple(shape)
    view_shape = [1] * len(shape)
    for src, dst in enumerate(dims):
        view_shape[dst] = x.shape[src]
    return np.broadcast_to(x.reshape(view_shape), shape).copy()


def slice_(x: np.ndarray, start: Sequence[int], limit: Sequence[int], strides: Sequence[int]) -> np.ndarray:
    return x[tuple(slice(s, l, st) for s, l, st in zip(start, limit, strides))].copy()


def _clamped_starts(shape: Sequence[int], sizes: Sequence[int], starts: Sequence[int]) -> list[int]:
    return [int(min(max(int(s), 0), d - z)) for s, d, z in zip(starts, shape, sizes)]


def dynamic_slice(x: np.ndarray, starts: Sequence[int], sizes: Sequence[int]) -> np.ndarray:
    """Start indices are clamped to [0, dim - size] (spec)."""
    st = _clamped_starts(x.shape, sizes, starts)
    return x[tuple(slice(s, s + z) for s, z in zip(st, sizes))].copy()


def dynamic_update_slice(x: np.ndarray, update: np.ndarray, starts: Sequence[int]) -> np.ndarray:
    st = _clamped_starts(x.shape, update.shape, starts)
    out = x.copy()
    out[tuple(slice(s, s + z) for s, z in zip(st, update.shape))] = update
    return out


def concatenate(inputs: Sequence[np.ndarray], dimension: int) -> np.ndarray:
    return np.concatenate(list(inputs), axis=dimension)


def pad(x: np.ndarray, value, low: Sequence[int], high: Sequence[int], interior: Sequence[int]) -> np.ndarray:
    """Interior padding first, then edge padding; negative edges crop."""
    value = np.asarray(value, dtype=x.dtype)
    dilated = [0 if d == 0 else (d - 1) * (i + 1) + 1 for d, i in zip(x.shape, interior)]
    full_shape = [max(lo + d + hi, 0) for lo, d, hi in zip(low, dilated, high)]
    out = np.full(full_shape, value, dtype=x.dtype)
    # where each operand element lands in `out`, cropping negative edges
    src, dst = [], []
    for d, lo, i, size in zip(x.shape, low, interior, full_shape):
        pos = lo + np.arange(d) * (i + 1)
        keep = (pos >= 0) & (pos < size)
        src.append(np.nonzero(keep)[0])
        dst.append(pos[keep])
    if all(len(s) for s in src) or x.ndim == 0:
        out[np.ix_(*dst)] = x[np.ix_(*src)] if x.ndim else x
    return out


def reverse(x: np.ndarray, dims: Sequence[int]) -> np.ndarray:
    return np.flip(x, axis=tuple(dims)).copy() if dims else x.copy()


def _index_vectors(indices: np.ndarray, index_vector_dim: int) -> np.ndarray:
    """Move the index vector dim last (appending a size-1 one if it equals the rank)."""
    if index_vector_dim == indices.ndim:
        return indices[..., None]
    return np.moveaxis(indices, index_vector_dim, -1)


def _batch_position(d_start: int, index_vector_dim: int) -> int:
    return d_start - (1 if d_start > index_vector_dim else 0)


def gather(operand: np.ndarray, start_indices: np.ndarray, *, offset_dims: Sequence[int],
           collapsed_slice_dims: Sequence[int], operand_batching_dims: Sequence[int] = (),
           start_indices_batching_dims: Sequence[int] = (), start_index_map: Sequence[int],
           index_vector_dim: int, slice_sizes: Sequence[int]) -> np.ndarray:
    """Spec formula, vectorized: operand[full_start + full_batching + full_offset]."""
    vecs = _index_vectors(start_indices.astype(np.int64), index_vector_dim)
    batch_shape = vecs.shape[:-1]
    rank = operand.ndim
    base = np.zeros(batch_shape + (rank,), dtype=np.int64)
    for k, d in enumerate(start_index_map):
        base[..., d] = np.clip(vecs[..., k], 0, operand.shape[d] - slice_sizes[d])
    for ob, sb in zip(operand_batching_dims, start_indices_batching_dims):
        axis = _batch_position(sb, index_vector_dim)
        ramp = np.arange(batch_shape[axis]).reshape([-1 if a == axis else 1 for a in range(len(batch_shape))])
        base[..., ob] = ramp
    window_dims = [d for d in range(rank) if d not in collapsed_slice_dims and d not in operand_batching_dims]
    window_shape = tuple(slice_sizes[d] for d in window_dims)
    nb, nw = len(batch_shape), len(window_shape)
    index = []
    for d in range(rank):
        idx = base[..., d].reshape(batch_shape + (1,) * nw)
        if d in window_dims:
            w = window_dims.index(d)
            idx = idx + np.arange(slice_sizes[d]).reshape([-1 if a == w else 1 for a in range(nw)])
        index.append(idx)
    gathered = operand[tuple(index)] if rank else np.broadcast_to(operand, batch_shape)
    gathered = np.broadcast_to(gathered, batch_shape + window_shape)
    # result axes: offset_dims take the window axes in order, the rest the batch axes
    out_rank = nb + nw
    perm, next_batch = [], 0
    for r in range(out_rank):
        if r in offset_dims:
            perm.append(nb + list(offset_dims).index(r))
        else:
            perm.append(next_batch)
            next_batch += 1
    return np.transpose(gathered, perm).copy()


def scatter_targets(operand_shape: Sequence[int], scatter_indices: np.ndarray, updates_shape: Sequence[int], *,
                    update_window_dims: Sequence[int], inserted_window_dims: Sequence[int],
                    input_batching_dims: Sequence[int] = (), scatter_indices_batching_dims: Sequence[int] = (),
                    scatter_dims_to_operand_dims: Sequence[int], index_vector_dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(flat operand index, in-bounds mask) for every update element, in the
    row-major order of `updates`."""
    rank = len(operand_shape)
    updates_shape = tuple(updates_shape)
    vecs = _index_vectors(scatter_indices.astype(np.int64), index_vector_dim)
    scatter_axes = [d for d in range(len(updates_shape)) if d not in update_window_dims]
    window_operand_dims = [d for d in range(rank) if d not in inserted_window_dims and d not in input_batching_dims]
    grids = np.indices(updates_shape, sparse=True) if updates_shape else []
    # the scatter part of each update index selects an index vector
    scatter_idx = tuple(grids[a] for a in scatter_axes)
    vec = vecs[scatter_idx] if scatter_axes else np.broadcast_to(vecs, updates_shape + vecs.shape[-1:])
    full = []
    for d in range(rank):
        idx = np.zeros((1,) * len(updates_shape), dtype=np.int64)
        if d in scatter_dims_to_operand_dims:
            idx = idx + vec[..., list(scatter_dims_to_operand_dims).index(d)]
        if d in input_batching_dims:
            sb = scatter_indices_batching_dims[list(input_batching_dims).index(d)]
            idx = idx + grids[scatter_axes[_batch_position(sb, index_vector_dim)]]
        if d in window_operand_dims:
            idx = idx + grids[update_window_dims[window_operand_dims.index(d)]]
        full.append(np.broadcast_to(idx, updates_shape))
    in_bounds = np.ones(updates_shape, dtype=bool)
    for d, idx in enumerate(full):
        in_bounds &= (idx >= 0) & (idx < operand_shape[d])
    clipped = [np.clip(i, 0, max(n - 1, 0)) for i, n in zip(full, operand_shape)]
    if rank and 0 not in operand_shape:
        flat = np.ravel_multi_index(clipped, operand_shape)
    else:  # a scalar operand, or an empty one (where every update is out of bounds)
        flat = np.zeros(updates_shape, dtype=np.int64)
    return flat.reshape(-1), in_bounds.reshape(-1)


Combine = Callable[[list[np.ndarray], list[np.ndarray]], list[np.ndarray]]


def scatter_apply(results: list[np.ndarray], targets: np.ndarray, values: list[np.ndarray],
                  combine: Combine, ufunc: np.ufunc | None = None) -> list[np.ndarray]:
    """results[t] = combine(results[t], value) for each (t, value) in order.

    With `ufunc` (single result), `ufunc.at` does it in one call. Otherwise
    updates go in rounds: each round takes the next not-yet-applied update of
    every distinct target, so updates to one target apply in order.
    """
    flats = [r.reshape(-1).copy() for r in results]
    if len(targets) == 0:
        return [f.reshape(r.shape) for f, r in zip(flats, results)]
    if ufunc is not None and len(flats) == 1:
        ufunc.at(flats[0], targets, values[0])
        return [flats[0].reshape(results[0].shape)]
    order = np.argsort(targets, kind="stable")
    sorted_t = targets[order]
    starts = np.r_[0, np.nonzero(np.diff(sorted_t))[0] + 1]
    rank_in_group = np.arange(len(sorted_t)) - np.repeat(starts, np.diff(np.r_[starts, len(sorted_t)]))
    for rnd in range(int(rank_in_group.max()) + 1):
        pick = order[rank_in_group == rnd]
        t = targets[pick]
        new = combine([f[t] for f in flats], [v[pick] for v in values])
        for f, n in zip(flats, new):
            f[t] = n
    return [f.reshape(r.shape) for f, r in zip(flats, results)]
