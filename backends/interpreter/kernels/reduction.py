"""reduce, reduce_window, select_and_scatter and sort.

Bodies come in as vectorized callables `combine(lhs_list, rhs_list) -> list`
working on whole arrays (a scalar region applied elementwise). The reduce
schedule is a pairwise tree over the reduced elements (in order) with the
init value as leftmost leaf, a schedule the spec allows; it needs only
log2(n) body evaluations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from minixla.backends.interpreter.kernels.structural import pad, scatter_apply

Combine = Callable[[list[np.ndarray], list[np.ndarray]], list[np.ndarray]]
Select = Callable[[np.ndarray, np.ndarray], np.ndarray]
Less = Callable[[list[np.ndarray], list[np.ndarray]], np.ndarray]


def _tree(xs: list[np.ndarray], combine: Combine) -> list[np.ndarray]:
    """Reduce along the last axis in order, pairing neighbours."""
    while xs[0].shape[-1] > 1:
        n = xs[0].shape[-1]
        even = n - n % 2
        left = [x[..., 0:even:2] for x in xs]
        right = [x[..., 1:even:2] for x in xs]
        paired = combine(left, right)
        if n % 2:
            paired = [np.concatenate([p, x[..., -1:]], axis=-1) for p, x in zip(paired, xs)]
        xs = [np.asarray(p) for p in paired]
    return [x[..., 0] for x in xs]


def _rounds_each_step(dtype) -> bool:
    return np.dtype(dtype) == np.float16 or np.dtype(dtype).name == "bfloat16"


def _sequential_reduce(ufunc: np.ufunc, full: np.ndarray) -> np.ndarray:
    """ufunc folded left to right along the last axis, rounding to the dtype after each step
    (`accumulate` is sequential; numpy's `reduce` sums float16 pairwise)."""
    return ufunc.accumulate(full, axis=-1)[..., -1]


def reduce(inputs: Sequence[np.ndarray], init_values: Sequence[np.ndarray], dimensions: Sequence[int],
           combine: Combine, ufunc: np.ufunc | None = None) -> list[np.ndarray]:
    """results = body(init, reduce(inputs over `dimensions`)) per kept index."""
    dims = sorted(dimensions)
    x0 = inputs[0]
    kept = [d for d in range(x0.ndim) if d not in dims]
    out_shape = tuple(x0.shape[d] for d in kept)
    inits = [np.broadcast_to(np.asarray(v), out_shape) for v in init_values]
    count = int(np.prod([x0.shape[d] for d in dims], dtype=np.int64))
    if count == 0:
        return [np.array(v, copy=True) for v in inits]
    if ufunc is not None and len(inputs) == 1 and _rounds_each_step(x0.dtype):
        # 16-bit floats round after every step, so the order shows: fold from the init value through
        # the reduced elements in row-major order, as StableHLO's reference interpreter and our CPU code do
        flat = np.transpose(x0, kept + dims).reshape(out_shape + (count,))
        full = np.concatenate([np.asarray(inits[0], x0.dtype)[..., None], flat], axis=-1)
        return [np.asarray(_sequential_reduce(ufunc, full)).astype(x0.dtype)]
    if ufunc is not None and len(inputs) == 1:
        part = ufunc.reduce(inputs[0], axis=tuple(dims)) if dims else inputs[0]
        return [np.asarray(ufunc(inits[0], part)).astype(x0.dtype)]
    flat = [np.transpose(x, kept + dims).reshape(out_shape + (count,)) for x in inputs]
    partial = _tree(flat, combine)
    return [np.asarray(r).astype(x.dtype, copy=False) for r, x in
            zip(combine([np.array(v) for v in inits], partial), inputs)]


def _window_geometry(shape, window, strides, base_dilations, window_dilations, padding):
    dilated = [0 if d == 0 else (d - 1) * b + 1 for d, b in zip(shape, base_dilations)]
    padded = [lo + d + hi for d, (lo, hi) in zip(dilated, padding)]
    spans = [0 if w == 0 else (w - 1) * wd + 1 for w, wd in zip(window, window_dilations)]
    return [0 if p < s else (p - s) // st + 1 for p, s, st in zip(padded, spans, strides)]


def _window_slice(offsets, window_dilations, out_shape, strides):
    return tuple(slice(k * wd, k * wd + (o - 1) * st + 1, st) if o else slice(0, 0)
                 for k, wd, o, st in zip(offsets, window_dilations, out_shape, strides))


def reduce_window(inputs: Sequence[np.ndarray], init_values: Sequence[np.ndarray], *, window_dimensions: Sequence[int],
                  window_strides: Sequence[int], base_dilations: Sequence[int], window_dilations: Sequence[int],
                  padding: Sequence[tuple[int, int]], combine: Combine) -> list[np.ndarray]:
    """Pad with the init values (base dilation = interior padding), then fold
    each window position into an accumulator started at the init value."""
    padded = [pad(x, v, [p[0] for p in padding], [p[1] for p in padding], [b - 1 for b in base_dilations])
              for x, v in zip(inputs, init_values)]
    out_shape = _window_geometry(inputs[0].shape, window_dimensions, window_strides, base_dilations,
                                 window_dilations, padding)
    acc = [np.full(out_shape, np.asarray(v), dtype=x.dtype) for v, x in zip(init_values, inputs)]
    for offsets in np.ndindex(*window_dimensions):
        sl = _window_slice(offsets, window_dilations, out_shape, window_strides)
        acc = [np.asarray(a).astype(x.dtype, copy=False) for a, x in zip(combine(acc, [p[sl] for p in padded]), inputs)]
    return acc


def select_and_scatter(operand: np.ndarray, source: np.ndarray, init_value: np.ndarray, *,
                       window_dimensions: Sequence[int], window_strides: Sequence[int],
                       padding: Sequence[tuple[int, int]], select: Select, scatter: Combine,
                       scatter_ufunc: np.ufunc | None = None) -> np.ndarray:
    """Per window, fold `select` over the in-bounds elements (padding is never
    selected); then combine each source value into the selected position."""
    rank = operand.ndim
    out_shape = list(source.shape)
    lows = [p[0] for p in padding]
    sel_val = np.zeros(out_shape, dtype=operand.dtype)
    sel_pos = np.zeros(out_shape, dtype=np.int64)
    have = np.zeros(out_shape, dtype=bool)
    grids = np.indices(out_shape) if rank else np.zeros((0,), dtype=np.int64)
    for offsets in np.ndindex(*window_dimensions):
        pos = [grids[d] * window_strides[d] + offsets[d] - lows[d] for d in range(rank)]
        valid = np.ones(out_shape, dtype=bool)
        for d in range(rank):
            valid &= (pos[d] >= 0) & (pos[d] < operand.shape[d])
        clipped = [np.clip(p, 0, max(n - 1, 0)) for p, n in zip(pos, operand.shape)]
        cand = operand[tuple(clipped)] if rank else operand
        flat = np.ravel_multi_index(clipped, operand.shape) if rank else np.zeros(out_shape, dtype=np.int64)
        keep_old = np.asarray(select(sel_val, cand)).astype(bool) & have
        take = valid & ~keep_old
        sel_val = np.where(take, cand, sel_val)
        sel_pos = np.where(take, flat, sel_pos)
        have |= valid
    result = np.full(operand.shape, np.asarray(init_value), dtype=operand.dtype)
    targets = sel_pos.reshape(-1)[have.reshape(-1)]
    values = source.reshape(-1)[have.reshape(-1)]
    return scatter_apply([result], targets, [values], scatter, scatter_ufunc)[0]


def _merge_sort(n: int, less: Callable[[int, int], bool]) -> list[int]:
    """Stable merge sort of range(n) with a scalar `less(i, j)`."""
    order = list(range(n))
    width = 1
    while width < n:
        merged: list[int] = []
        for lo in range(0, n, 2 * width):
            a, b = order[lo:lo + width], order[lo + width:lo + 2 * width]
            i = j = 0
            while i < len(a) and j < len(b):
                if less(b[j], a[i]):
                    merged.append(b[j])
                    j += 1
                else:
                    merged.append(a[i])
                    i += 1
            merged.extend(a[i:])
            merged.extend(b[j:])
        order = merged
        width *= 2
    return order


def sort(inputs: Sequence[np.ndarray], dimension: int, less: Less) -> list[np.ndarray]:
    """General stable sort of 1-d slices along `dimension`; `less` gets lists
    of scalar arrays (lhs values, rhs values) and returns a boolean."""
    moved = [np.moveaxis(x, dimension, -1) for x in inputs]
    outs = [np.empty_like(m) for m in moved]
    n = moved[0].shape[-1] if moved[0].ndim else 1
    for idx in np.ndindex(*moved[0].shape[:-1]):
        rows = [m[idx] for m in moved]

        def lt(i: int, j: int, rows=rows) -> bool:
            return bool(less([r[i] for r in rows], [r[j] for r in rows]))

        order = _merge_sort(n, lt)
        for o, r in zip(outs, rows):
            o[idx] = r[order]
    return [np.moveaxis(o, -1, dimension) for o in outs]


def argsort_stable(key: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Stable ascending or descending order (ties keep their original order)."""
    if not descending:
        return np.argsort(key, axis=axis, kind="stable")
    n = key.shape[axis]
    flipped = np.flip(key, axis=axis)
    order = np.argsort(flipped, axis=axis, kind="stable")
    return np.flip(n - 1 - order, axis=axis)
