"""TF's StridedSlice semantics (masks, ellipsis, new axes, negative strides)
reduced to one static plan: reverse some dims, slice with positive strides,
reshape to the final shape."""

from __future__ import annotations

from dataclasses import dataclass

from minixla.frontend.ops.registry import op_error


@dataclass
class SlicePlan:
    reverse: list[int]
    start: list[int]
    limit: list[int]
    strides: list[int]
    final_shape: list[int]


def plan_strided_slice(shape, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                       shrink_axis_mask) -> SlicePlan:
    rank = len(shape)
    k = len(begin)
    if not len(end) == len(strides) == k:
        raise op_error("StridedSlice", "Expected begin, end, and strides to be 1D equal size tensors")
    n_real = sum(1 for i in range(k) if not (new_axis_mask >> i) & 1 and not (ellipsis_mask >> i) & 1)
    start, limit, step, rev, final = [0] * rank, list(shape), [1] * rank, [], []
    d = 0
    seen_ellipsis = False
    for i in range(k):
        if (ellipsis_mask >> i) & 1:
            if seen_ellipsis:
                raise op_error("StridedSlice", "Multiple ellipses in slice spec not allowed")
            seen_ellipsis = True
            for _ in range(rank - n_real):
                final.append(shape[d])
                d += 1
            continue
        if (new_axis_mask >> i) & 1:
            final.append(1)
            continue
        if d >= rank:
            raise op_error("StridedSlice", f"Index out of range using input dim {d}; input has only {rank} dims")
        n, s = shape[d], strides[i]
        if s == 0:
            raise op_error("StridedSlice", f"strides[{i}] must be non-zero")
        if (shrink_axis_mask >> i) & 1:
            idx = begin[i] + n if begin[i] < 0 else begin[i]
            if not 0 <= idx < n:
                raise op_error("StridedSlice", f"slice index {begin[i]} of dimension {d} out of bounds.")
            start[d], limit[d] = idx, idx + 1
            d += 1
            continue

        def wrap(x, lo, hi):
            x = x + n if x < 0 else x
            return min(max(x, lo), hi)

        if s > 0:
            bb = 0 if (begin_mask >> i) & 1 else wrap(begin[i], 0, n)
            ee = n if (end_mask >> i) & 1 else wrap(end[i], 0, n)
            length = max(0, -(-(ee - bb) // s))
            start[d], step[d] = bb, s
        else:
            bb = n - 1 if (begin_mask >> i) & 1 else wrap(begin[i], -1, n - 1)
            ee = -1 if (end_mask >> i) & 1 else wrap(end[i], -1, n - 1)
            length = max(0, -(-(bb - ee) // -s))
            rev.append(d)
            start[d], step[d] = n - 1 - bb, -s
        if length == 0:
            start[d] = limit[d] = 0
            step[d] = 1
        else:
            limit[d] = start[d] + (length - 1) * step[d] + 1
        final.append(length)
        d += 1
    for dd in range(d, rank):
        final.append(shape[dd])
    return SlicePlan(rev, start, limit, step, final)
