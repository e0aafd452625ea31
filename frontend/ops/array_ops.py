"""Shape manipulation, slicing and indexing (category 6).

Shapes, permutations, axes, paddings and slice bounds are compile-time
constants here (tf2xla's CompileTimeConstantInput), so every rule lowers to
static `hlo` data-movement ops.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import axes, op_error, register, shape_text


def _ints(v) -> list[int]:
    return [int(x) for x in np.asarray(v).reshape(-1)]


def reshape(b, tensor, shape):
    target = _ints(shape)
    n = int(np.prod(tensor.shape, dtype=np.int64))
    unknown = [i for i, d in enumerate(target) if d == -1]
    if len(unknown) > 1:
        raise op_error("Reshape", f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}")
    known = int(np.prod([d for d in target if d != -1], dtype=np.int64))
    if unknown:
        if known == 0 or n % known:
            raise op_error("Reshape", f"Input to reshape is a tensor with {n} values, but the requested shape "
                                      f"requires a multiple of {known}")
        target[unknown[0]] = n // known
    elif known != n:
        raise op_error("Reshape", f"Input to reshape is a tensor with {n} values, but the requested shape has {known}")
    return b.reshape(tensor, target)


register("Reshape", ("tensor", "shape"), reshape, const_inputs=("shape",))


def transpose(b, x, perm):
    p = _ints(perm)
    rank = len(x.shape)
    if sorted(d % rank if rank else d for d in p) != list(range(rank)) or len(p) != rank:
        raise op_error("Transpose", f"transpose expects a vector of size {rank}. But input(1) is a vector of "
                                    f"size {len(p)}" if len(p) != rank else f"{p} is not a valid permutation")
    return b.transpose(x, [d % rank for d in p])


register("Transpose", ("x", "perm"), transpose, const_inputs=("perm",))


def expand_dims(b, input, dim):
    rank = len(input.shape)
    (d,) = _ints(dim)[:1]
    if not -rank - 1 <= d <= rank:
        raise op_error("ExpandDims", f"Tried to expand dim index {d} for tensor with {rank} dimensions.")
    d = d % (rank + 1)
    shape = list(input.shape)
    shape.insert(d, 1)
    return b.reshape(input, shape)


register("ExpandDims", ("input", "dim"), expand_dims, const_inputs=("dim",))


def squeeze(b, input, squeeze_dims=()):
    rank = len(input.shape)
    dims = {d % rank for d in squeeze_dims} if squeeze_dims else {i for i, n in enumerate(input.shape) if n == 1}
    for d in dims:
        if input.shape[d] != 1:
            raise op_error("Squeeze", f"Can not squeeze dim[{d}], expected a dimension of 1, got {input.shape[d]}")
    return b.reshape(input, [n for i, n in enumerate(input.shape) if i not in dims])


register("Squeeze", ("input",), squeeze, attrs={"squeeze_dims": ()})


def concat(b, values, axis):
    rank = len(values[0].shape)
    (ax,) = axes("ConcatV2", axis, rank)
    for i, v in enumerate(values[1:], 1):
        if len(v.shape) != rank or any(v.shape[k] != values[0].shape[k] for k in range(rank) if k != ax):
            raise op_error("ConcatV2", f"ConcatOp : Dimension {next((k for k in range(rank) if k != ax and (len(v.shape) != rank or v.shape[k] != values[0].shape[k])), 0)} in both shapes must be equal: "
                                       f"shape[0] = {shape_text(values[0].shape)} vs. shape[{i}] = {shape_text(v.shape)}")
    return b.concatenate(values, ax)


register("ConcatV2", ("*values", "axis"), concat, const_inputs=("axis",))


def pack(b, values, axis=0):
    rank = len(values[0].shape) + 1
    ax = axis % rank
    for i, v in enumerate(values[1:], 1):
        if tuple(v.shape) != tuple(values[0].shape):
            raise op_error("Pack", f"Shapes of all inputs must match: values[0].shape = {shape_text(values[0].shape)} "
                                   f"!= values[{i}].shape = {shape_text(v.shape)}")
    expanded = [b.reshape(v, list(v.shape[:ax]) + [1] + list(v.shape[ax:])) for v in values]
    return b.concatenate(expanded, ax)


register("Pack", ("*values",), pack, attrs={"axis": 0})


def unpack(b, value, num=None, axis=0):
    rank = len(value.shape)
    ax = axis % rank
    out = []
    for i in range(value.shape[ax]):
        start = [0] * rank
        limit = list(value.shape)
        start[ax], limit[ax] = i, i + 1
        piece = b.slice(value, start, limit)
        out.append(b.reshape(piece, [n for d, n in enumerate(value.shape) if d != ax]))
    return tuple(out)


register("Unpack", ("value",), unpack, attrs={"num": None, "axis": 0})


def _split_sizes(b, value, sizes, ax):
    out, offset = [], 0
    for s in sizes:
        start = [0] * len(value.shape)
        limit = list(value.shape)
        start[ax], limit[ax] = offset, offset + s
        out.append(b.slice(value, start, limit))
        offset += s
    return tuple(out)


def split(b, axis, value, num_split):
    (ax,) = axes("Split", axis, len(value.shape))
    n = value.shape[ax]
    if n % num_split:
        raise op_error("Split", f"Number of ways to split should evenly divide the split dimension, but got "
                                f"split_dim {ax} (size = {n}) and num_split {num_split}")
    return _split_sizes(b, value, [n // num_split] * num_split, ax)


register("Split", ("axis", "value"), split, attrs={"num_split": 1}, const_inputs=("axis",))


def split_v(b, value, size_splits, axis):
    (ax,) = axes("SplitV", axis, len(value.shape))
    sizes = _ints(size_splits)
    if -1 in sizes:
        sizes[sizes.index(-1)] = value.shape[ax] - (sum(sizes) + 1)
    if sum(sizes) != value.shape[ax]:
        raise op_error("SplitV", f"Determined shape must either match input shape along split_dim exactly if fully "
                                 f"specified, or be less than the size of the input along split_dim if not fully "
                                 f"specified.  Got: {sum(sizes)}")
    return _split_sizes(b, value, sizes, ax)


register("SplitV", ("value", "size_splits", "axis"), split_v, const_inputs=("size_splits", "axis"))


def tile(b, input, multiples):
    m = _ints(multiples)
    rank = len(input.shape)
    if len(m) != rank:
        raise op_error("Tile", f"Expected multiples argument to be a vector of length {rank} but got length {len(m)}")
    # broadcast to [m0, n0, m1, n1, ...] then merge pairs (tf2xla's lowering)
    inter = [v for pair in zip(m, input.shape) for v in pair]
    x = b.broadcast_in_dim(input, inter, [2 * i + 1 for i in range(rank)])
    return b.reshape(x, [a * c for a, c in zip(m, input.shape)])


register("Tile", ("input", "multiples"), tile, const_inputs=("multiples",))


def broadcast_to(b, input, shape):
    from minixla.frontend.ops.registry import broadcast_shape

    target = tuple(_ints(shape))
    full = broadcast_shape("BroadcastTo", input.shape, target)
    if full != target:
        raise op_error("BroadcastTo", f"Unable to broadcast tensor of shape {shape_text(input.shape)} to tensor of "
                                      f"shape {shape_text(target)}")
    return b.broadcast_to(input, target)


register("BroadcastTo", ("input", "shape"), broadcast_to, const_inputs=("shape",))


def _pad_pairs(op, paddings, rank):
    p = np.asarray(paddings).reshape(-1, 2) if np.asarray(paddings).size else np.zeros((0, 2), int)
    if p.shape[0] != rank:
        raise op_error(op, f"The first dimension of paddings must be the rank of inputs{shape_text(p.shape)}, "
                           f"[{rank}]")
    return [int(v) for v in p[:, 0]], [int(v) for v in p[:, 1]]


def pad_v2(b, input, paddings, constant_values):
    lo, hi = _pad_pairs("PadV2", paddings, len(input.shape))
    return b.pad(input, b.reshape(constant_values, []), lo, hi)


def pad(b, input, paddings):
    lo, hi = _pad_pairs("Pad", paddings, len(input.shape))
    return b.pad(input, b.scalar(0, input.dtype), lo, hi)


def mirror_pad(b, input, paddings, mode="REFLECT"):
    """Slices, reversed, concatenated on each side (tf2xla's MirrorPad)."""
    lo, hi = _pad_pairs("MirrorPad", paddings, len(input.shape))
    x = input
    shift = 1 if mode.upper() == "REFLECT" else 0
    for d in range(len(x.shape)):
        n = x.shape[d]
        parts = []

        def piece(a, c):
            start, limit = [0] * len(x.shape), list(x.shape)
            start[d], limit[d] = a, c
            return b.reverse(b.slice(x, start, limit), [d])

        if lo[d]:
            parts.append(piece(shift, shift + lo[d]))
        parts.append(x)
        if hi[d]:
            parts.append(piece(n - shift - hi[d], n - shift))
        x = b.concatenate(parts, d)
    return x


register("Pad", ("input", "paddings"), pad, const_inputs=("paddings",))
register("PadV2", ("input", "paddings", "constant_values"), pad_v2, const_inputs=("paddings",))
register("MirrorPad", ("input", "paddings"), mirror_pad, attrs={"mode": "REFLECT"}, const_inputs=("paddings",))


def slice_(b, input, begin, size):
    st, sz = _ints(begin), _ints(size)
    sz = [input.shape[d] - st[d] if s == -1 else s for d, s in enumerate(sz)]
    for d, (s, z) in enumerate(zip(st, sz)):
        if s < 0 or s + z > input.shape[d]:
            raise op_error("Slice", f"Expected size[{d}] in [0, {input.shape[d] - s}], but got {z}")
    return b.slice(input, st, [s + z for s, z in zip(st, sz)])


register("Slice", ("input", "begin", "size"), slice_, const_inputs=("begin", "size"))


def strided_slice(b, input, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    """Static strided slice: slice (+reverse for negative strides) + reshape."""
    from minixla.frontend.ops.strided import plan_strided_slice

    plan = plan_strided_slice(input.shape, _ints(begin), _ints(end), _ints(strides), begin_mask, end_mask,
                              ellipsis_mask, new_axis_mask, shrink_axis_mask)
    x = input
    if plan.reverse:
        x = b.reverse(x, plan.reverse)
    x = b.slice(x, plan.start, plan.limit, plan.strides)
    return b.reshape(x, plan.final_shape)


register("StridedSlice", ("input", "begin", "end", "strides"), strided_slice,
         attrs={"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0},
         const_inputs=("begin", "end", "strides"))


def reverse_v2(b, tensor, axis):
    return b.reverse(tensor, axes("ReverseV2", axis, len(tensor.shape)))


register("ReverseV2", ("tensor", "axis"), reverse_v2, const_inputs=("axis",))
