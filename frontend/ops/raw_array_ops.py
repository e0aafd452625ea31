"""Raw array ops missing from the registry: rearrangements (SpaceToDepth, DepthToSpace, SpaceToBatchND,
BatchToSpaceND, ReverseSequence), the gradients of slicing and padding (StridedSliceGrad, MirrorPadGrad),
searches (LowerBound, UpperBound), the V2 diagonal ops, DataFormat* permutations, SegmentSumV2 & co.
(the XLA versions of the sorted segment reductions, which take num_segments), PopulationCount,
TensorStridedSliceUpdate, Empty, ToBool, BroadcastArgs, Bincount/DenseBincount, SparseToDense and
TridiagonalMatMul.

Each is written with the builder as tf2xla lowers it: reshapes and transposes, pads, compares summed
over a broadcast axis, one scatter.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops import index_ops, scatter_matrix_ops
from minixla.frontend.ops.registry import is_float, op_error, register, shape_text
from minixla.frontend.ops.strided import plan_strided_slice


def _ints(v) -> list[int]:
    return [int(x) for x in np.asarray(v).reshape(-1)]


# -- gradients of slicing and padding -------------------------------------------------------------

def strided_slice_grad(b, shape, begin, end, strides, dy, begin_mask=0, end_mask=0, ellipsis_mask=0,
                       new_axis_mask=0, shrink_axis_mask=0):
    """dy placed where StridedSlice read it: interior padding by stride - 1, edges by the slice bounds."""
    full = _ints(shape)
    plan = plan_strided_slice(full, _ints(begin), _ints(end), _ints(strides), begin_mask, end_mask, ellipsis_mask,
                              new_axis_mask, shrink_axis_mask)
    sizes = [-(-(lim - st) // s) for st, lim, s in zip(plan.start, plan.limit, plan.strides)]
    g = b.reshape(dy, sizes)
    high = [n - (st + max(k - 1, 0) * s + (1 if k else 0)) for n, st, k, s in zip(full, plan.start, sizes, plan.strides)]
    g = b.pad(g, b.scalar(0, dy.dtype), plan.start, high, [s - 1 for s in plan.strides])
    return b.reverse(g, plan.reverse) if plan.reverse else g


def mirror_pad_grad(b, input, paddings, mode="REFLECT"):
    """Fold each padded edge back (reversed) onto the elements it mirrored, one dimension at a time."""
    pads = np.asarray(paddings).reshape(-1, 2).astype(int)
    if pads.shape[0] != len(input.shape):
        raise op_error("MirrorPadGrad", f"The first dimension of paddings must be the rank of inputs "
                                        f"{shape_text(pads.shape)}, {shape_text(input.shape)}")
    shift = 1 if mode.upper() == "REFLECT" else 0
    x = input
    for d, (lo, hi) in enumerate(pads.tolist()):
        n = x.shape[d] - lo - hi

        def part(a, c, x=x, d=d):
            start, limit = [0] * len(x.shape), list(x.shape)
            start[d], limit[d] = a, c
            return b.slice(x, start, limit)

        core = part(lo, lo + n)
        zero = b.scalar(0, x.dtype)
        none = [0] * len(x.shape)
        if lo:
            low = [0] * len(x.shape)
            high = [0] * len(x.shape)
            low[d], high[d] = shift, n - shift - lo
            core = b.add(core, b.pad(b.reverse(part(0, lo), [d]), zero, low, high, none))
        if hi:
            low = [0] * len(x.shape)
            high = [0] * len(x.shape)
            low[d], high[d] = n - shift - hi, shift
            core = b.add(core, b.pad(b.reverse(part(lo + n, lo + n + hi), [d]), zero, low, high, none))
        x = core
    return x


register("StridedSliceGrad", ("shape", "begin", "end", "strides", "dy"), strided_slice_grad,
         attrs={"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0},
         const_inputs=("shape", "begin", "end", "strides"), typed=("dy",))
register("MirrorPadGrad", ("input", "paddings"), mirror_pad_grad, attrs={"mode": "REFLECT"},
         const_inputs=("paddings",))


# -- rearrangements -------------------------------------------------------------------------------

def _nchw(op, data_format):
    if data_format not in ("NHWC", "NCHW"):
        raise op_error(op, f"Unsupported data format {data_format}")
    return data_format == "NCHW"


def space_to_depth(b, input, block_size, data_format="NHWC"):
    """[n, h, w, c] -> [n, h/bs, w/bs, bs*bs*c] (block row, block column, channel)."""
    s = int(block_size)
    x = b.transpose(input, [0, 2, 3, 1]) if _nchw("SpaceToDepth", data_format) else input
    n, h, w, c = x.shape
    if s < 2 or h % s or w % s:
        raise op_error("SpaceToDepth", f"Image width {w} and height {h} should be divisible by block_size: {s}")
    x = b.reshape(x, [n, h // s, s, w // s, s, c])
    x = b.reshape(b.transpose(x, [0, 1, 3, 2, 4, 5]), [n, h // s, w // s, s * s * c])
    return b.transpose(x, [0, 3, 1, 2]) if data_format == "NCHW" else x


def depth_to_space(b, input, block_size, data_format="NHWC"):
    s = int(block_size)
    x = b.transpose(input, [0, 2, 3, 1]) if _nchw("DepthToSpace", data_format) else input
    n, h, w, c = x.shape
    if s < 2 or c % (s * s):
        raise op_error("DepthToSpace", f"Input depth dimension {c} should be divisible by: {s * s}")
    x = b.reshape(x, [n, h, w, s, s, c // (s * s)])
    x = b.reshape(b.transpose(x, [0, 1, 3, 2, 4, 5]), [n, h * s, w * s, c // (s * s)])
    return b.transpose(x, [0, 3, 1, 2]) if data_format == "NCHW" else x


def space_to_batch_nd(b, input, block_shape, paddings):
    """Pad, split each blocked dim into (dim / block, block), move the blocks in front of the batch."""
    blocks = _ints(block_shape)
    m = len(blocks)
    pads = np.asarray(paddings).reshape(-1, 2).astype(int)
    if pads.shape[0] != m or len(input.shape) < m + 1:
        raise op_error("SpaceToBatchND", f"paddings should have shape [{m}, 2] instead of {shape_text(pads.shape)}")
    rest = list(input.shape[1 + m:])
    x = b.pad(input, b.scalar(0, input.dtype), [0] + pads[:, 0].tolist() + [0] * len(rest),
              [0] + pads[:, 1].tolist() + [0] * len(rest))
    n, sp = x.shape[0], list(x.shape[1:1 + m])
    for d, (size, k) in enumerate(zip(sp, blocks)):
        if size % k:
            raise op_error("SpaceToBatchND", f"padded_shape[{d}]={size} is not divisible by block_shape[{d}]={k}")
    split = [n] + [v for size, k in zip(sp, blocks) for v in (size // k, k)] + rest
    x = b.reshape(x, split)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, len(split)))
    x = b.transpose(x, perm)
    return b.reshape(x, [n * int(np.prod(blocks))] + [size // k for size, k in zip(sp, blocks)] + rest)


def batch_to_space_nd(b, input, block_shape, crops):
    blocks = _ints(block_shape)
    m = len(blocks)
    cr = np.asarray(crops).reshape(-1, 2).astype(int)
    prod = int(np.prod(blocks))
    if cr.shape[0] != m or input.shape[0] % prod:
        raise op_error("BatchToSpaceND", f"Input batch dimension ({input.shape[0]}) is not divisible by product of "
                                         f"block sizes ({prod})")
    n, sp, rest = input.shape[0] // prod, list(input.shape[1:1 + m]), list(input.shape[1 + m:])
    x = b.reshape(input, blocks + [n] + sp + rest)
    perm = [m] + [v for i in range(m) for v in (m + 1 + i, i)] + list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    x = b.reshape(b.transpose(x, perm), [n] + [s * k for s, k in zip(sp, blocks)] + rest)
    limit = [n] + [s * k - hi for s, k, hi in zip(sp, blocks, cr[:, 1])] + rest
    return b.slice(x, [0] + cr[:, 0].tolist() + [0] * len(rest), limit)


def space_to_batch(b, input, paddings, block_size):
    return space_to_batch_nd(b, input, [block_size, block_size], paddings)


def batch_to_space(b, input, crops, block_size):
    return batch_to_space_nd(b, input, [block_size, block_size], crops)


def reverse_sequence(b, input, seq_lengths, seq_dim, batch_dim=0):
    """Batch first, sequence second, then a batched gather of i -> len - 1 - i below len."""
    rank = len(input.shape)
    sd, bd = int(seq_dim) % rank, int(batch_dim) % rank
    if sd == bd or tuple(seq_lengths.shape) != (input.shape[bd],):
        raise op_error("ReverseSequence", f"Length of seq_lengths != input.dims({bd}), ({shape_text(seq_lengths.shape)}"
                                          f" vs. {input.shape[bd]})")
    perm = [bd, sd] + [d for d in range(rank) if d not in (bd, sd)]
    x = b.transpose(input, perm)
    nb, t = x.shape[0], x.shape[1]
    lens = b.broadcast_in_dim(b.convert(seq_lengths, np.int32), [nb, t], [0])
    i = b.iota([nb, t], 1, np.int32)
    rev = b.subtract(b.subtract(lens, b.full([nb, t], 1, np.int32)), i)
    idx = b.select(b.compare(i, lens, "LT"), rev, i)
    y = index_ops.gather_v2(b, x, idx, np.int32(1), batch_dims=1)
    return b.transpose(y, [perm.index(d) for d in range(rank)])


register("SpaceToDepth", ("input",), space_to_depth, attrs={"block_size": None, "data_format": "NHWC"})
register("DepthToSpace", ("input",), depth_to_space, attrs={"block_size": None, "data_format": "NHWC"})
register("SpaceToBatchND", ("input", "block_shape", "paddings"), space_to_batch_nd,
         const_inputs=("block_shape", "paddings"))
register("BatchToSpaceND", ("input", "block_shape", "crops"), batch_to_space_nd, const_inputs=("block_shape", "crops"))
register("SpaceToBatch", ("input", "paddings"), space_to_batch, attrs={"block_size": None},
         const_inputs=("paddings",))
register("BatchToSpace", ("input", "crops"), batch_to_space, attrs={"block_size": None}, const_inputs=("crops",))
register("ReverseSequence", ("input", "seq_lengths"), reverse_sequence, attrs={"seq_dim": None, "batch_dim": 0},
         typed=("input",))


# -- searches ------------------------------------------------------------------------------------

def _bound(op, direction):
    def rule(b, sorted_inputs, values, out_type=np.int32):
        s, v = sorted_inputs, values
        if len(s.shape) != 2 or len(v.shape) != 2 or s.shape[0] != v.shape[0]:
            raise op_error(op, f"Leading dim_size of both tensors must match: {shape_text(s.shape)} vs. "
                               f"{shape_text(v.shape)}")
        rows, n, m = s.shape[0], s.shape[1], v.shape[1]
        full = [rows, m, n]
        hit = b.compare(b.broadcast_in_dim(s, full, [0, 2]), b.broadcast_in_dim(v, full, [0, 1]), direction)
        dt = np.dtype(out_type)
        ones = b.select(hit, b.full(full, 1, dt), b.full(full, 0, dt))
        return b.reduce(ones, b.scalar(0, dt), [2], "add")

    return rule


register("LowerBound", ("sorted_inputs", "values"), _bound("LowerBound", "LT"), attrs={"out_type": np.int32})
register("UpperBound", ("sorted_inputs", "values"), _bound("UpperBound", "LE"), attrs={"out_type": np.int32})


# -- diagonals (V2: V3 with LEFT_LEFT alignment, the same for the main diagonal) ------------------------

def matrix_diag_v2(b, diagonal, k, num_rows, num_cols, padding_value):
    return scatter_matrix_ops.matrix_diag(b, diagonal, k, num_rows, num_cols, padding_value, "LEFT_LEFT")


def matrix_diag_part_v2(b, input, k, padding_value):
    return scatter_matrix_ops.matrix_diag_part(b, input, k, padding_value, "LEFT_LEFT")


register("MatrixDiagV2", ("diagonal", "k", "num_rows", "num_cols", "padding_value"), matrix_diag_v2,
         const_inputs=("k", "num_rows", "num_cols"), typed=("diagonal", "padding_value"))
register("MatrixDiagPartV2", ("input", "k", "padding_value"), matrix_diag_part_v2, const_inputs=("k",),
         typed=("input", "padding_value"))


# -- data formats ----------------------------------------------------------------------------------

def _formats(op, src, dst):
    if sorted(src) != sorted(dst) or len(set(src)) != len(src):
        raise op_error(op, f"Destination and source format must determine a permutation, got {src} and {dst}")
    return [src.index(c) for c in dst]


def data_format_dim_map(b, x, src_format="NHWC", dst_format="NCHW"):
    """The position in dst_format of each src_format dimension index (negatives wrap)."""
    n = len(src_format)
    perm = _formats("DataFormatDimMap", src_format, dst_format)
    table = np.array([perm.index(i) for i in range(n)], np.dtype(x.dtype))
    wrapped = b.remainder(b.add(b.remainder(x, b.full(x.shape, n, x.dtype)), b.full(x.shape, n, x.dtype)),
                          b.full(x.shape, n, x.dtype))
    out = b.full(x.shape, 0, x.dtype)
    for i in range(n):
        out = b.select(b.compare(wrapped, b.full(x.shape, i, x.dtype), "EQ"), b.full(x.shape, table[i], x.dtype), out)
    return out


def data_format_vec_permute(b, x, src_format="NHWC", dst_format="NCHW"):
    """A shape vector (or [n, 2] matrix) reordered from src_format to dst_format (spatial-only for 2 rows)."""
    perm = _formats("DataFormatVecPermute", src_format, dst_format)
    n = x.shape[0]
    if n == len(perm) - 2:  # spatial dims only
        spatial = [c for c in src_format if c not in "NC"]
        perm = [spatial.index(c) for c in dst_format if c not in "NC"]
    elif n != len(perm):
        raise op_error("DataFormatVecPermute", f"1D input must be of size 2 or 4, but got shape {shape_text(x.shape)}")
    rows = []
    for p in perm:
        start, limit = [0] * len(x.shape), list(x.shape)
        start[0], limit[0] = p, p + 1
        rows.append(b.slice(x, start, limit))
    return b.concatenate(rows, 0)


register("DataFormatDimMap", ("x",), data_format_dim_map, attrs={"src_format": "NHWC", "dst_format": "NCHW"})
register("DataFormatVecPermute", ("x",), data_format_vec_permute, attrs={"src_format": "NHWC", "dst_format": "NCHW"})


# -- sorted segment reductions with num_segments (XLA's versions) ------------------------------------

def _segment_v2(op, combiner):
    def rule(b, data, segment_ids, num_segments):
        n = int(np.asarray(num_segments))
        r = len(segment_ids.shape)
        if tuple(data.shape[:r]) != tuple(segment_ids.shape):
            raise op_error(op, f"data.shape = {shape_text(data.shape)} does not start with segment_ids.shape = "
                               f"{shape_text(segment_ids.shape)}")
        dt = np.dtype(data.dtype)
        info = np.finfo(dt) if is_float(dt) else np.iinfo(dt)
        init = {"add": 0, "multiply": 1, "maximum": info.min, "minimum": info.max}[combiner]
        out = [n] + list(data.shape[r:])
        return b.scatter(b.full(out, init, data.dtype), segment_ids, data,
                         update_window_dims=list(range(r, len(data.shape))), inserted_window_dims=[0],
                         scatter_dims_to_operand_dims=[0], index_vector_dim=r, combiner=combiner)

    return rule


for _op, _c in (("SegmentSumV2", "add"), ("SegmentProdV2", "multiply"), ("SegmentMaxV2", "maximum"),
                ("SegmentMinV2", "minimum")):
    register(_op, ("data", "segment_ids", "num_segments"), _segment_v2(_op, _c), const_inputs=("num_segments",),
             typed=("data",))


# -- bits ------------------------------------------------------------------------------------------------

def population_count(b, x):
    """The number of set bits of each element (as uint8), SWAR on the unsigned bit pattern."""
    dt = np.dtype(x.dtype)
    if dt.kind not in "iu":
        raise op_error("PopulationCount", f"Value for attr 'T' of {dt.name} is not in the list of allowed values")
    u = np.dtype(f"uint{dt.itemsize * 8}")
    v = b.bitcast_convert(x, u) if dt != u else x

    def k(c):
        return b.full(x.shape, c, u)

    m1, m2, m4 = (int(f"0x{p * dt.itemsize}", 16) for p in ("55", "33", "0f"))
    v = b.subtract(v, b.and_(b.shift_right_logical(v, k(1)), k(m1)))
    v = b.add(b.and_(v, k(m2)), b.and_(b.shift_right_logical(v, k(2)), k(m2)))
    v = b.and_(b.add(v, b.shift_right_logical(v, k(4))), k(m4))
    total = v
    for shift in range(8, dt.itemsize * 8, 8):
        total = b.add(total, b.shift_right_logical(v, k(shift)))
    return b.convert(b.and_(total, k(0xFF)), np.uint8)


register("PopulationCount", ("x",), population_count)


# -- updates, creation, counting ---------------------------------------------------------------------

def tensor_strided_slice_update(b, input, begin, end, strides, value, begin_mask=0, end_mask=0, ellipsis_mask=0,
                                new_axis_mask=0, shrink_axis_mask=0):
    """`value` written where StridedSlice reads: placed by StridedSliceGrad, selected by a placed mask."""
    args = (np.array(input.shape, np.int64), begin, end, strides)
    masks = (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
    plan = plan_strided_slice(list(input.shape), _ints(begin), _ints(end), _ints(strides), *masks)
    value = b.broadcast_to(value, plan.final_shape)
    placed = strided_slice_grad(b, *args, value, *masks)
    ones = b.full(plan.final_shape, 1, np.int8)
    hit = b.compare(strided_slice_grad(b, *args, ones, *masks), b.full(input.shape, 0, np.int8), "NE")
    return b.select(hit, placed, input)


def empty(b, shape, dtype=np.float32, init=False):
    """XLA's Empty: zeros (init or not)."""
    return b.full(_ints(shape), 0, getattr(dtype, "as_numpy_dtype", dtype))


def to_bool(b, input):
    """A scalar: != 0; otherwise: whether the tensor has any elements."""
    if not input.shape:
        return b.compare(input, b.full((), 0, input.dtype), "NE")
    return b.constant(np.array(int(np.prod(input.shape)) > 0))


def broadcast_args(b, s0, s1):
    from minixla.frontend.ops.registry import broadcast_shape

    out = broadcast_shape("BroadcastArgs", _ints(s0), _ints(s1))
    return b.constant(np.array(out, np.asarray(s0).dtype))


def _bincount(op, b, arr, size, weights, binary_output=False):
    n = int(np.asarray(size))
    if n < 0:
        raise op_error(op, f"size ({n}) must be non-negative")
    rank = len(arr.shape)
    if rank not in (1, 2):
        raise op_error(op, f"input must be 1-D or 2-D, got {shape_text(arr.shape)}")
    dt = np.dtype(weights.dtype) if int(np.prod(weights.shape)) else np.dtype(np.float32 if op == "Bincount"
                                                                               else weights.dtype)
    vals = b.broadcast_to(weights, arr.shape) if int(np.prod(weights.shape)) else b.full(arr.shape, 1, dt)
    if binary_output:
        vals = b.full(arr.shape, 1, dt)
    out = [n] if rank == 1 else [arr.shape[0], n]
    full = [*arr.shape, n]
    hot = b.compare(b.broadcast_in_dim(b.convert(arr, np.int64), full, list(range(rank))),
                    b.iota(full, rank, np.int64), "EQ")
    spread = b.select(hot, b.broadcast_in_dim(vals, full, list(range(rank))), b.full(full, 0, dt))
    counts = b.reduce(spread, b.scalar(0, dt), [rank - 1], "add")
    if binary_output:
        counts = b.select(b.compare(counts, b.full(out, 0, dt), "GT"), b.full(out, 1, dt), b.full(out, 0, dt))
    return counts


def bincount(b, arr, size, weights):
    return _bincount("Bincount", b, arr, size, weights)


def dense_bincount(b, input, size, weights, binary_output=False):
    return _bincount("DenseBincount", b, input, size, weights, binary_output)


def sparse_to_dense(b, sparse_indices, output_shape, sparse_values, default_value, validate_indices=True):
    shape = _ints(output_shape)
    idx = sparse_indices
    if len(idx.shape) < 2:  # a scalar index or a vector of indices into a 1-D output
        idx = b.reshape(idx, [int(np.prod(idx.shape)) if len(shape) == 1 else 1, len(shape)])
    k = idx.shape[0]
    vals = b.broadcast_to(sparse_values, [k])
    base = b.broadcast_in_dim(default_value, shape, [])
    return b.scatter(base, idx, vals, update_window_dims=[], inserted_window_dims=list(range(len(shape))),
                     scatter_dims_to_operand_dims=list(range(len(shape))), index_vector_dim=1, combiner="replace")


def tridiagonal_mat_mul(b, superdiag, maindiag, subdiag, rhs):
    """super_i rhs_(i+1) + main_i rhs_i + sub_i rhs_(i-1) for rows i of rhs [..., m, n]; diagonals [..., 1, m]."""
    m, n = rhs.shape[-2:]
    rank = len(rhs.shape)
    zero = b.scalar(0, rhs.dtype)
    lo, hi = [0] * rank, [0] * rank

    def column(d):  # [..., 1, m] -> [..., m, n]
        return b.broadcast_in_dim(b.reshape(d, list(d.shape[:-2]) + [m]), rhs.shape,
                                  list(range(rank - 2)) + [rank - 2])

    def shifted(k):  # rows i + k of rhs (zeros outside)
        start, limit = [0] * rank, list(rhs.shape)
        start[-2], limit[-2] = max(k, 0), m + min(k, 0)
        low, high = list(lo), list(hi)
        low[-2], high[-2] = max(-k, 0), max(k, 0)
        return b.pad(b.slice(rhs, start, limit), zero, low, high)

    out = b.multiply(column(maindiag), rhs)
    out = b.add(out, b.multiply(column(superdiag), shifted(1)))
    return b.add(out, b.multiply(column(subdiag), shifted(-1)))


register("TensorStridedSliceUpdate", ("input", "begin", "end", "strides", "value"), tensor_strided_slice_update,
         attrs={"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0},
         const_inputs=("begin", "end", "strides"), typed=("input", "value"))
register("Empty", ("shape",), empty, attrs={"dtype": np.float32, "init": False}, const_inputs=("shape",))
register("ToBool", ("input",), to_bool)
register("BroadcastArgs", ("s0", "s1"), broadcast_args, const_inputs=("s0", "s1"))
register("Bincount", ("arr", "size", "weights"), bincount, const_inputs=("size",), typed=("weights",))
register("DenseBincount", ("input", "size", "weights"), dense_bincount, attrs={"binary_output": False},
         const_inputs=("size",), typed=("weights",))
register("SparseToDense", ("sparse_indices", "output_shape", "sparse_values", "default_value"), sparse_to_dense,
         attrs={"validate_indices": True}, const_inputs=("output_shape",), typed=("sparse_values", "default_value"))
register("TridiagonalMatMul", ("superdiag", "maindiag", "subdiag", "rhs"), tridiagonal_mat_mul)
