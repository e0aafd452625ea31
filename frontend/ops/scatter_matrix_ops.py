"""P1 TF raw ops for shapes, scatters and matrix structure (Roll, Bitcast,
UnsortedSegmentSum, ScatterNd, TensorScatterUpdate/Add, MatrixBandPart,
MatrixDiagV3, MatrixDiagPartV3), each decomposed into core hlo ops as
tf2xla does (priority_ops.md). Constant inputs arrive as numpy arrays.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import op_error, register, shape_text


# -- Roll: slice + concatenate per rolled axis ----------------------------------------

def roll(b, input, shift, axis):
    shifts = np.asarray(shift).reshape(-1)
    axes_ = np.asarray(axis).reshape(-1)
    rank = len(input.shape)
    if np.asarray(shift).ndim > 1:
        raise op_error("Roll", f"shift must be a scalar or a 1-D vector. Found: {shape_text(np.shape(shift))}")
    if np.asarray(axis).ndim > 1:
        raise op_error("Roll", f"axis must be a scalar or a 1-D vector. Found: {shape_text(np.shape(axis))}")
    if shifts.size != axes_.size:
        raise op_error("Roll", "shift and axis must have the same size")
    if rank == 0:
        raise op_error("Roll", "input must be 1-D or higher")
    total = [0] * rank
    for s, a in zip(shifts, axes_):
        a = int(a)
        if not -rank <= a < rank:
            raise op_error("Roll", f"axis {a} is out of range")
        total[a % rank] += int(s)
    x = input
    for d, s in enumerate(total):
        n = x.shape[d]
        if n == 0:
            continue
        s %= n
        if s == 0:
            continue
        lo = [0] * rank
        hi = list(x.shape)
        head_lo = list(lo)
        head_lo[d] = n - s
        tail_hi = list(hi)
        tail_hi[d] = n - s
        x = b.concatenate([b.slice(x, head_lo, hi), b.slice(x, lo, tail_hi)], d)
    return x


register("Roll", ("input", "shift", "axis"), roll, const_inputs=("shift", "axis"))


# -- Bitcast: bitcast-convert (+ split/join of the last dimension when widths differ) ------

def _uint(nbytes: int):
    return np.dtype(f"uint{8 * nbytes}")


def bitcast(b, input, type):
    src, dst = np.dtype(input.dtype), np.dtype(type)
    if src.itemsize == dst.itemsize:
        return b.bitcast_convert(input, dst)
    if src.itemsize > dst.itemsize:  # one element -> ratio elements on a new last dimension
        ratio = src.itemsize // dst.itemsize
        wide = input if src == _uint(src.itemsize) else b.bitcast_convert(input, _uint(src.itemsize))
        parts = []
        for i in range(ratio):  # little-endian: the low bits come first
            sh = b.full(wide.shape, 8 * dst.itemsize * i, wide.dtype)
            piece = b.convert(b.shift_right_logical(wide, sh) if i else wide, _uint(dst.itemsize))
            parts.append(b.reshape(piece, list(wide.shape) + [1]))
        joined = b.concatenate(parts, len(wide.shape))
        return joined if dst == _uint(dst.itemsize) else b.bitcast_convert(joined, dst)
    ratio = dst.itemsize // src.itemsize
    if not input.shape or input.shape[-1] != ratio:
        raise op_error("Bitcast", f"Cannot bitcast from {src.name} to {dst.name}: shape "
                                  f"{shape_text(input.shape)}")
    narrow = input if src == _uint(src.itemsize) else b.bitcast_convert(input, _uint(src.itemsize))
    out_shape = list(input.shape[:-1])
    acc = None
    rank = len(input.shape)
    for i in range(ratio):
        start = [0] * rank
        start[-1] = i
        limit = list(input.shape)
        limit[-1] = i + 1
        piece = b.convert(b.reshape(b.slice(narrow, start, limit), out_shape), _uint(dst.itemsize))
        if i:
            piece = b.shift_left(piece, b.full(out_shape, 8 * src.itemsize * i, _uint(dst.itemsize)))
        acc = piece if acc is None else b.or_(acc, piece)
    return acc if dst == _uint(dst.itemsize) else b.bitcast_convert(acc, dst)


register("Bitcast", ("input",), bitcast, attrs={"type": None})


# -- scatters --------------------------------------------------------------------------

def _scatter_nd(b, op: str, base, indices, updates, combiner: str):
    shape = tuple(base.shape)
    r = len(indices.shape)
    if r == 0:
        raise op_error(op, f"Indices shape must have rank at least one. Found:{shape_text(indices.shape)}")
    k = indices.shape[-1]
    want = tuple(indices.shape[:-1]) + shape[k:]
    if k > len(shape) or tuple(updates.shape) != want:
        raise op_error(op, f"Dimensions [0,{r - 1}) of indices[shape={shape_text(indices.shape)}] "
                           f"must match dimensions [0,{r - 1}) of "
                           f"updates[shape={shape_text(updates.shape)}]" if tuple(updates.shape[:r - 1]) !=
                           tuple(indices.shape[:-1]) else
                       f"Dimensions [{k},{len(shape)}) of input[shape={shape_text(shape)}] = "
                       f"{shape_text(shape[k:])} must match dimensions [{r - 1},{len(updates.shape)}) of "
                       f"updates[shape={shape_text(updates.shape)}]")
    return b.scatter(base, indices, updates, update_window_dims=list(range(r - 1, r - 1 + len(shape) - k)),
                     inserted_window_dims=list(range(k)), scatter_dims_to_operand_dims=list(range(k)),
                     index_vector_dim=r - 1, combiner=combiner)


def scatter_nd(b, indices, updates, shape):
    dims = [int(d) for d in np.asarray(shape).reshape(-1)]
    return _scatter_nd(b, "ScatterNd", b.full(dims, 0, updates.dtype), indices, updates, "add")


def _outer(op: str, indices, updates) -> None:
    r = len(indices.shape)
    if r and tuple(updates.shape[:r - 1]) != tuple(indices.shape[:-1]):
        raise op_error(op, f"Outer dimensions of indices and update must match. Indices shape: "
                           f"{shape_text(indices.shape)}, updates shape:{shape_text(updates.shape)}")


def tensor_scatter_update(b, tensor, indices, updates):
    _outer("TensorScatterUpdate", indices, updates)
    return _scatter_nd(b, "TensorScatterUpdate", tensor, indices, updates, "replace")


def tensor_scatter_add(b, tensor, indices, updates):
    _outer("TensorScatterAdd", indices, updates)
    return _scatter_nd(b, "TensorScatterAdd", tensor, indices, updates, "add")


def unsorted_segment_sum(b, data, segment_ids, num_segments):
    n = int(np.asarray(num_segments))
    ids = tuple(segment_ids.shape)
    if tuple(data.shape[:len(ids)]) != ids:
        raise op_error("UnsortedSegmentSum", f"data.shape = {shape_text(data.shape)} does not start with "
                                             f"segment_ids.shape = {shape_text(ids)}")
    out = [n] + list(data.shape[len(ids):])
    r = len(ids)
    return b.scatter(b.full(out, 0, data.dtype), segment_ids, data,
                     update_window_dims=list(range(r, len(data.shape))), inserted_window_dims=[0],
                     scatter_dims_to_operand_dims=[0], index_vector_dim=r, combiner="add")


register("ScatterNd", ("indices", "updates", "shape"), scatter_nd, const_inputs=("shape",), typed=("updates",))
register("TensorScatterUpdate", ("tensor", "indices", "updates"), tensor_scatter_update,
         typed=("tensor", "updates"))
register("TensorScatterAdd", ("tensor", "indices", "updates"), tensor_scatter_add, typed=("tensor", "updates"))
register("UnsortedSegmentSum", ("data", "segment_ids", "num_segments"), unsorted_segment_sum,
         const_inputs=("num_segments",), typed=("data",))


# -- matrix structure -------------------------------------------------------------------

def _matrix(op: str, x):
    if len(x.shape) < 2:
        raise op_error(op, f"input must be at least 2-dim, received shape: {shape_text(x.shape)}")


def band_part(b, input, num_lower, num_upper):
    _matrix("MatrixBandPart", input)
    m, n = input.shape[-2:]
    lo, up = int(np.asarray(num_lower)), int(np.asarray(num_upper))
    if lo > m:
        raise op_error("MatrixBandPart", f"num_lower must be negative or less or equal to number of rows ({m}) "
                                         f"got: {lo}")
    if up > n:
        raise op_error("MatrixBandPart", f"num_upper must be negative or less or equal to number of columns "
                                         f"({n}) got: {up}")
    rank = len(input.shape)
    i = b.iota([m, n], 0, np.int32)
    j = b.iota([m, n], 1, np.int32)
    diff = b.subtract(i, j)
    keep = None
    if lo >= 0:
        keep = b.compare(diff, b.full([m, n], lo, np.int32), "LE")
    if up >= 0:
        c = b.compare(b.negate(diff), b.full([m, n], up, np.int32), "LE")
        keep = c if keep is None else b.and_(keep, c)
    if keep is None:
        return input
    keep = b.broadcast_in_dim(keep, input.shape, [rank - 2, rank - 1])
    return b.select(keep, input, b.full(input.shape, 0, input.dtype))


def _k0(op: str, k) -> None:
    if np.asarray(k).size != 1 or int(np.asarray(k).reshape(-1)[0]) != 0:
        raise op_error(op, "k != 0 is not supported by minixla yet")


def matrix_diag(b, diagonal, k, num_rows, num_cols, padding_value, align="RIGHT_LEFT"):
    _k0("MatrixDiagV3", k)
    if not diagonal.shape:
        raise op_error("MatrixDiagV3", "diagonal must be at least 1-dim, received shape: []")
    n = diagonal.shape[-1]
    rows, cols = int(np.asarray(num_rows)), int(np.asarray(num_cols))
    if (rows, cols) not in ((-1, -1), (n, n), (-1, n), (n, -1)):
        raise op_error("MatrixDiagV3", "num_rows/num_cols other than the diagonal's length are not supported "
                                       "by minixla yet")
    rank = len(diagonal.shape)
    shape = list(diagonal.shape) + [n]
    eye = b.compare(b.iota([n, n], 0, np.int32), b.iota([n, n], 1, np.int32), "EQ")
    eye = b.broadcast_in_dim(eye, shape, [rank - 1, rank])
    spread = b.broadcast_in_dim(diagonal, shape, list(range(rank)))
    pad = b.broadcast_in_dim(padding_value, shape, [])
    return b.select(eye, spread, pad)


def matrix_diag_part(b, input, k, padding_value, align="RIGHT_LEFT"):
    _k0("MatrixDiagPartV3", k)
    _matrix("MatrixDiagPartV3", input)
    rank = len(input.shape)
    n = min(input.shape[-2:])
    idx = np.stack([np.arange(n), np.arange(n)], 1).astype(np.int32)
    return b.gather(input, b.constant(idx), offset_dims=list(range(rank - 2)),
                    collapsed_slice_dims=[rank - 2, rank - 1], start_index_map=[rank - 2, rank - 1],
                    index_vector_dim=1, slice_sizes=list(input.shape[:-2]) + [1, 1])


register("MatrixBandPart", ("input", "num_lower", "num_upper"), band_part,
         const_inputs=("num_lower", "num_upper"), typed=("input",))
register("MatrixDiagV3", ("diagonal", "k", "num_rows", "num_cols", "padding_value"), matrix_diag,
         attrs={"align": "RIGHT_LEFT"}, const_inputs=("k", "num_rows", "num_cols"),
         typed=("diagonal", "padding_value"))
register("MatrixDiagPartV3", ("input", "k", "padding_value"), matrix_diag_part, attrs={"align": "RIGHT_LEFT"},
         const_inputs=("k",), typed=("input", "padding_value"))
