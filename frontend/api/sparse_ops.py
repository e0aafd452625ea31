"""`tf.sparse`: SparseTensor ops as decompositions into dense ops on its three tensors.

Ops whose output has a static size (to_dense, sparse_dense_matmul, reduce_sum/max with dense output,
reorder, transpose, reshape, concat, softmax, to_indicator, ...) are gathers, scatters and segment
reductions of `values`, so they run eagerly, in tf.function and under jit_compile=True, and their
gradients w.r.t. values come from the decomposition. Ops whose output size depends on data
(from_dense, retain, slice, fill_empty_rows, sparse + sparse, ...) pick their entries on the host:
from the index values when they are known (eagerly, or constants in a trace), the entries are then
gathered from `values` (differentiable); from a traced dense tensor (from_dense) they use `tf.where`,
which jit_compile=True refuses with TF's unsupported-op error, as TF refuses these ops.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend import sparse_tensor as _sparse_tensor
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.sparse_tensor import SparseTensor, SparseTensorSpec

tf = None  # the public `tf` module, set by install()


def _known(t):
    """The value of an integer tensor when known now (eager, or a constant in a trace), else None."""
    if isinstance(t, np.ndarray):
        return t
    v = getattr(t, "_const", None)
    return None if v is None else np.asarray(v)


def _host_indices(sp: SparseTensor, op: str) -> np.ndarray:
    idx = _known(sp.indices)
    if idx is None:
        raise InvalidArgumentError(None, None, f"tf.sparse.{op}: the output size depends on the indices, which must "
                                               "be known when tracing (minixla compiles static shapes)")
    return idx.reshape(-1, sp.rank)


def _sp(x, op: str) -> SparseTensor:
    if not isinstance(x, SparseTensor):
        raise TypeError(f"tf.sparse.{op}: Input must be a SparseTensor, got {type(x).__name__}")
    return x


def _strides(shape) -> np.ndarray:
    return np.cumprod([1] + list(shape[::-1][:-1]), dtype=np.int64)[::-1].copy()


def _linear(indices, shape):
    """Row-major position of each index row (int64 [N])."""
    return tf.reduce_sum(indices * tf.constant(_strides(shape)), axis=1)


def _unravel(linear, shape):
    return (linear[:, None] // tf.constant(_strides(shape))) % tf.constant(np.asarray(shape, np.int64))


def _new(indices, values, shape) -> SparseTensor:
    return SparseTensor(tf.constant(np.asarray(indices, np.int64).reshape(-1, len(shape)))
                        if isinstance(indices, np.ndarray) else indices, values, tf.constant(np.asarray(shape, np.int64)))


def _check_indices(idx: np.ndarray, shape: list) -> None:
    """TF's SparseToDense checks (validate_indices): in bounds, sorted, unique."""
    lin = None
    for i, row in enumerate(idx):
        if np.any(row < 0) or np.any(row >= np.asarray(shape)):
            raise InvalidArgumentError(None, None, f"indices[{i}] = [{','.join(map(str, row))}] is out of bounds: "
                                                   f"need 0 <= index < [{','.join(map(str, shape))}]")
        cur = int(np.dot(row, _strides(shape)))
        if lin is not None and cur == lin:
            raise InvalidArgumentError(None, None, f"indices[{i}] = [{','.join(map(str, row))}] is repeated")
        if lin is not None and cur < lin:
            raise InvalidArgumentError(None, None, f"indices[{i}] = [{','.join(map(str, row))}] is out of order. "
                                                   "Many sparse ops require sorted indices.\n    Use "
                                                   "`tf.sparse.reorder` to create a correctly ordered copy.\n\n")
        lin = cur


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    sp = _sp(sp_input, "to_dense")
    shape = sp.static_shape("to_dense")
    idx = _known(sp.indices)
    if validate_indices and idx is not None:
        _check_indices(idx.reshape(-1, len(shape)), shape)
    return tf.tensor_scatter_nd_update(_filled(shape, sp.dtype, default_value), sp.indices, sp.values)


def _filled(shape, dtype, default_value):
    """A tensor of `shape` filled with default_value (the dtype's zero: 0, False or b"" when None)."""
    if default_value is None:
        zero = np.array(b"", dtype=object) if dtype.np == np.dtype(object) else np.zeros((), dtype.np)
        return tf.fill(shape, tf.constant(zero))
    if dtype.np == np.dtype(object):
        text = default_value.encode() if isinstance(default_value, str) else default_value
        return tf.fill(shape, tf.constant(np.array(text, dtype=object)) if isinstance(text, bytes) else text)
    return tf.fill(shape, tf.cast(default_value, dtype))


def from_dense(tensor, name=None):
    x = tf.convert_to_tensor(tensor)
    shape = x.shape.as_list()
    known = _known(x)
    if known is not None:
        idx = np.argwhere(known != (b"" if known.dtype == object else 0)).astype(np.int64)
        return _new(idx, tf.gather_nd(x, tf.constant(idx)), shape)
    idx = tf.where(tf.not_equal(x, tf.zeros_like(x)))
    return SparseTensor(idx, tf.gather_nd(x, idx), tf.constant(np.asarray(shape, np.int64)))


def reorder(sp_input, name=None):
    sp = _sp(sp_input, "reorder")
    perm = tf.argsort(_linear(sp.indices, sp.static_shape("reorder")), stable=True)
    return SparseTensor(tf.gather(sp.indices, perm), tf.gather(sp.values, perm), sp.dense_shape, sp.shape)


def _combine(a: SparseTensor, b: SparseTensor, op: str):
    """Union of two index sets (sorted): (indices, positions of a's and b's entries in it, shape)."""
    shape = a.static_shape(op)
    if b.static_shape(op) != shape:
        raise InvalidArgumentError(None, None, f"Operands' shapes do not match: got {shape} and {b.static_shape(op)}")
    ia, ib = _host_indices(a, op), _host_indices(b, op)
    lin = np.concatenate([ia, ib]) @ _strides(shape) if len(ia) + len(ib) else np.zeros(0, np.int64)
    uniq, inverse = np.unique(lin, return_inverse=True)
    indices = np.stack(np.unravel_index(uniq, shape), axis=1).astype(np.int64) if len(uniq) else \
        np.zeros((0, len(shape)), np.int64)
    return indices, inverse[:len(ia)], inverse[len(ia):], shape


def add(a, b, threshold=0, name=None):
    """sparse + dense -> dense; sparse + sparse -> sparse (sums of coinciding entries, |sum| >= threshold kept)."""
    if not isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        raise TypeError("tf.sparse.add: at least one of a and b must be a SparseTensor")
    if not isinstance(a, SparseTensor):
        a, b = b, a
    if not isinstance(b, SparseTensor):
        return to_dense(a, validate_indices=False) + tf.convert_to_tensor(b, dtype=a.dtype)
    indices, pa, pb, shape = _combine(a, b, "add")
    values = (tf.math.unsorted_segment_sum(a.values, tf.constant(pa), len(indices))
              + tf.math.unsorted_segment_sum(b.values, tf.constant(pb), len(indices)))
    if threshold:
        keep = tf.abs(values) >= tf.cast(threshold, values.dtype)
        return SparseTensor(tf.boolean_mask(tf.constant(indices), keep), tf.boolean_mask(values, keep),
                            tf.constant(np.asarray(shape, np.int64)))
    return _new(indices, values, shape)


def _elementwise(op: str, fn):
    def combine(sp_a, sp_b, name=None):
        a, b = _sp(sp_a, op), _sp(sp_b, op)
        indices, _, _, shape = _combine(a, b, op)
        at = tf.constant(indices)
        va = tf.gather_nd(to_dense(a, validate_indices=False), at)
        vb = tf.gather_nd(to_dense(b, validate_indices=False), at)
        return _new(indices, fn(va, vb), shape)

    combine.__name__ = op
    return combine


maximum = _elementwise("maximum", lambda a, b: tf.maximum(a, b))
minimum = _elementwise("minimum", lambda a, b: tf.minimum(a, b))


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """sp_a @ b as a segment sum of values times gathered rows of b (one side may be the dense one)."""
    if not isinstance(sp_a, SparseTensor):  # dense @ sparse = (sparse^H @ dense^H)^H
        out = sparse_dense_matmul(_sp(b, "sparse_dense_matmul"), sp_a, adjoint_a=not adjoint_b,
                                  adjoint_b=not adjoint_a)
        return tf.linalg.adjoint(out) if out.dtype.is_complex else tf.transpose(out)
    b = tf.convert_to_tensor(b, dtype=sp_a.dtype)
    if sp_a.rank != 2 or b.shape.rank != 2:
        raise ValueError("tf.sparse.sparse_dense_matmul: both operands must be matrices")
    rows, cols = sp_a.indices[:, 0], sp_a.indices[:, 1]
    m = sp_a.static_shape("sparse_dense_matmul")[0]
    values = sp_a.values
    if adjoint_a:
        rows, cols = cols, rows
        m = sp_a.static_shape("sparse_dense_matmul")[1]
        values = tf.math.conj(values) if values.dtype.is_complex else values
    if adjoint_b:
        b = tf.linalg.adjoint(b) if b.dtype.is_complex else tf.transpose(b)
    return tf.math.unsorted_segment_sum(values[:, None] * tf.gather(b, cols), rows, m)


def _reduce(sp, axis, keepdims, op: str, segment):
    shape = sp.static_shape(op)
    axes = range(len(shape)) if axis is None else np.atleast_1d(np.asarray(axis)).tolist()
    axes = sorted({int(a) % len(shape) for a in axes})
    kept = [d for d in range(len(shape)) if d not in axes]
    out_shape = [shape[d] for d in kept]
    lin = _linear(tf.gather(sp.indices, kept, axis=1), out_shape) if kept else tf.zeros_like(sp.indices[:, 0])
    size = int(np.prod(out_shape, dtype=np.int64))
    out = segment(sp.values, lin, size)
    counts = tf.math.unsorted_segment_sum(tf.ones_like(lin), lin, size)
    full = [1 if d in axes else shape[d] for d in range(len(shape))] if keepdims else out_shape
    return tf.reshape(out, full), tf.reshape(counts, full)


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    out, counts = _reduce(_sp(sp_input, "reduce_sum"), axis, bool(keepdims), "reduce_sum",
                          tf.math.unsorted_segment_sum)
    return _dense_to_present(out, counts) if output_is_sparse else out


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The max of the explicit entries (implicit zeros do not count); slices without entries give 0."""
    out, counts = _reduce(_sp(sp_input, "reduce_max"), axis, bool(keepdims), "reduce_max",
                          tf.math.unsorted_segment_max)
    out = tf.where(counts > 0, out, tf.zeros_like(out))
    return _dense_to_present(out, counts) if output_is_sparse else out


def _dense_to_present(out, counts):
    """The entries of `out` where some input entry landed, as a SparseTensor."""
    c = _known(counts)
    shape = out.shape.as_list()
    if c is None:
        idx = tf.where(counts > 0)
        return SparseTensor(idx, tf.gather_nd(out, idx), tf.constant(np.asarray(shape, np.int64)))
    idx = np.argwhere(c > 0).astype(np.int64)
    return _new(idx, tf.gather_nd(out, tf.constant(idx)), shape)


def transpose(sp_input, perm=None, name=None):
    sp = _sp(sp_input, "transpose")
    shape = sp.static_shape("transpose")
    perm = list(range(len(shape)))[::-1] if perm is None else [int(p) for p in np.asarray(perm)]
    out = SparseTensor(tf.gather(sp.indices, perm, axis=1), sp.values,
                       tf.constant(np.asarray([shape[p] for p in perm], np.int64)))
    return reorder(out)


def reshape(sp_input, shape, name=None):
    sp = _sp(sp_input, "reshape")
    old = sp.static_shape("reshape")
    new = [int(d) for d in np.asarray(shape)]
    total = int(np.prod(old, dtype=np.int64))
    if new.count(-1) == 1:
        rest = int(np.prod([d for d in new if d != -1], dtype=np.int64))
        if rest == 0 or total % rest:
            raise InvalidArgumentError(None, None, f"Input to reshape is a SparseTensor with {total} dense values, "
                                                   f"but the requested shape requires a multiple of {rest}.")
        new[new.index(-1)] = total // rest
    if int(np.prod(new, dtype=np.int64)) != total:
        raise InvalidArgumentError(None, None, f"Input to reshape is a tensor with {total} dense values, but the "
                                               f"requested shape has {int(np.prod(new, dtype=np.int64))}")
    return SparseTensor(_unravel(_linear(sp.indices, old), new), sp.values, tf.constant(np.asarray(new, np.int64)))


def concat(axis, sp_inputs, name=None, expand_nonconcat_dims=False, concat_dim=None):
    axis = concat_dim if concat_dim is not None else axis
    sps = [_sp(s, "concat") for s in sp_inputs]
    shapes = [s.static_shape("concat") for s in sps]
    rank = len(shapes[0])
    axis = int(axis) % rank
    out_shape = list(shapes[0])
    for s in shapes[1:]:
        for d in range(rank):
            if d != axis and s[d] != out_shape[d]:
                if not expand_nonconcat_dims:
                    raise InvalidArgumentError(None, None, f"Input shapes must match: got {shapes[0]} and {s} on "
                                                           f"a non-concat dimension {d}")
                out_shape[d] = max(out_shape[d], s[d])
    offsets = np.cumsum([0] + [s[axis] for s in shapes[:-1]])
    out_shape[axis] = int(sum(s[axis] for s in shapes))
    shift = [tf.constant(np.eye(rank, dtype=np.int64)[axis] * off) for off in offsets]
    indices = tf.concat([s.indices + k for s, k in zip(sps, shift)], axis=0)
    out = SparseTensor(indices, tf.concat([s.values for s in sps], axis=0),
                       tf.constant(np.asarray(out_shape, np.int64)))
    return reorder(out)


def _select(sp: SparseTensor, keep: np.ndarray, indices: np.ndarray, shape) -> SparseTensor:
    pos = np.flatnonzero(keep)
    return _new(indices[pos], tf.gather(sp.values, tf.constant(pos)), shape)


def retain(sp_input, to_retain):
    """The entries where to_retain is True: a static selection when to_retain is known (the indices need not be)."""
    sp = _sp(sp_input, "retain")
    keep_t = tf.convert_to_tensor(to_retain)
    keep = _known(keep_t)
    if keep is None:
        return SparseTensor(tf.boolean_mask(sp.indices, keep_t), tf.boolean_mask(sp.values, keep_t), sp.dense_shape)
    n = sp.values.shape.as_list()[0]
    if keep.shape != (n,):
        raise ValueError(f"Shapes {keep.shape} and ({n},) are incompatible (to_retain)")
    pos = tf.constant(np.flatnonzero(keep).astype(np.int64))
    return SparseTensor(tf.gather(sp.indices, pos), tf.gather(sp.values, pos), sp.dense_shape, sp.shape)


def slice(sp_input, start, size, name=None):  # noqa: A001 -- TF's name
    sp = _sp(sp_input, "slice")
    shape = np.asarray(sp.static_shape("slice"))
    idx = _host_indices(sp, "slice")
    start, size = np.asarray(start, np.int64), np.asarray(size, np.int64)
    end = np.minimum(start + size, shape)
    keep = np.all((idx >= start) & (idx < end), axis=1)
    return _select(sp, keep, idx - start, np.maximum(end - start, 0))


def fill_empty_rows(sp_input, default_value, name=None):
    """(sp with default_value at [r, 0, ...] of each row r that has no entry, bool [rows]: that row was empty)."""
    sp = _sp(sp_input, "fill_empty_rows")
    shape = sp.static_shape("fill_empty_rows")
    idx = _host_indices(sp, "fill_empty_rows")
    empty = np.ones(shape[0], bool)
    empty[idx[:, 0]] = False
    extra = np.zeros((int(empty.sum()), len(shape)), np.int64)
    extra[:, 0] = np.flatnonzero(empty)
    both = np.concatenate([idx, extra])
    order = np.lexsort(both.T[::-1], axis=0) if len(both) else np.zeros(0, np.int64)
    fill = tf.fill([len(extra)], tf.cast(default_value, sp.dtype))
    values = tf.gather(tf.concat([sp.values, fill], 0), tf.constant(order.astype(np.int64)))
    return _new(both[order], values, shape), tf.constant(empty)


def to_indicator(sp_input, vocab_size, name=None):
    """bool [..., vocab_size]: True at [..., id] for each id among the values of that row."""
    sp = _sp(sp_input, "to_indicator")
    shape = sp.static_shape("to_indicator")[:-1] + [int(vocab_size)]
    ids = tf.cast(sp.values, "int64")
    indices = tf.concat([sp.indices[:, :-1], ids[:, None]], axis=1)
    return tf.scatter_nd(indices, tf.ones_like(ids, dtype="int32"), shape) > 0


def softmax(sp_input, name=None):
    """Softmax over the explicit entries of each innermost row (implicit zeros do not take part)."""
    sp = _sp(sp_input, "softmax")
    shape = sp.static_shape("softmax")
    rows = _linear(sp.indices[:, :-1], shape[:-1]) if len(shape) > 1 else tf.zeros_like(sp.indices[:, 0])
    n = int(np.prod(shape[:-1], dtype=np.int64))
    e = tf.exp(sp.values - tf.gather(tf.math.unsorted_segment_max(sp.values, rows, n), rows))
    return sp.with_values(e / tf.gather(tf.math.unsorted_segment_sum(e, rows, n), rows))


def expand_dims(sp_input, axis=None, name=None):
    sp = _sp(sp_input, "expand_dims")
    shape = sp.static_shape("expand_dims")
    axis = int(-1 if axis is None else axis)
    axis = axis + len(shape) + 1 if axis < 0 else axis
    zeros = tf.zeros_like(sp.indices[:, :1])
    indices = tf.concat([sp.indices[:, :axis], zeros, sp.indices[:, axis:]], axis=1)
    return SparseTensor(indices, sp.values, tf.constant(np.asarray(shape[:axis] + [1] + shape[axis:], np.int64)))


def eye(num_rows, num_columns=None, dtype="float32", name=None):
    n = int(num_rows)
    m = n if num_columns is None else int(num_columns)
    k = min(n, m)
    idx = np.stack([np.arange(k), np.arange(k)], axis=1).astype(np.int64)
    return _new(idx, tf.ones([k], dtype), [n, m])


def _segment(kind: str):
    def segment(data, indices, segment_ids, num_segments=None, name=None):
        rows = tf.gather(tf.convert_to_tensor(data), indices)
        ids = tf.convert_to_tensor(segment_ids)
        if num_segments is None:
            known = _known(ids)
            if known is None:
                raise InvalidArgumentError(None, None, f"tf.sparse.{segment.__name__}: segment_ids must be known "
                                                       "when tracing, or num_segments given")
            num_segments = int(known.max()) + 1 if known.size else 0
        total = tf.math.unsorted_segment_sum(rows, ids, num_segments)
        if kind == "sum":
            return total
        count = tf.math.unsorted_segment_sum(tf.ones_like(ids, dtype=rows.dtype), ids, num_segments)
        count = tf.reshape(count, [-1] + [1] * (rows.shape.rank - 1))
        scale = tf.maximum(count, 1) if kind == "mean" else tf.sqrt(tf.maximum(count, 1))
        return total / scale

    segment.__name__ = f"segment_{kind}"
    return segment


segment_sum, segment_mean, segment_sqrt_n = _segment("sum"), _segment("mean"), _segment("sqrt_n")


def map_values(op, *args, **kwargs):
    """op applied to the values of the SparseTensor arguments (all with the same indices)."""
    sps = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not sps:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = sps[0]

    def values(a):
        return a.values if isinstance(a, SparseTensor) else a

    out = op(*[values(a) for a in args], **{k: values(v) for k, v in kwargs.items()})
    return first.with_values(out)


def reset_shape(sp_input, new_shape=None):
    sp = _sp(sp_input, "reset_shape")
    if new_shape is None:
        idx = _host_indices(sp, "reset_shape")
        shape = idx.max(axis=0) + 1 if len(idx) else np.zeros(sp.rank, np.int64)
    else:
        shape = np.asarray(new_shape, np.int64)
        if np.any(shape < np.asarray(sp.static_shape("reset_shape"))):
            raise InvalidArgumentError(None, None, "tf.sparse.reset_shape: new_shape must be at least the old shape")
    return SparseTensor(sp.indices, sp.values, tf.constant(shape.astype(np.int64)))


def split(sp_input=None, num_split=None, axis=None, name=None, keyword_required=None):
    sp = _sp(sp_input, "split")
    shape = sp.static_shape("split")
    axis = int(axis) % len(shape)
    base, extra = divmod(shape[axis], int(num_split))
    out, begin = [], 0
    for i in range(int(num_split)):
        size = list(shape)
        size[axis] = base + (1 if i < extra else 0)
        start = [0] * len(shape)
        start[axis] = begin
        out.append(slice(sp, start, size))
        begin += size[axis]
    return out


def sparse_mask(a, mask_indices, name=None):
    """tf.sparse.mask: the IndexedSlices `a` without the rows whose index is in mask_indices."""
    idx = _known(a.indices)
    drop = _known(tf.convert_to_tensor(mask_indices))
    keep = ~np.isin(idx, drop)
    pos = tf.constant(np.flatnonzero(keep).astype(np.int64))
    return type(a)(tf.gather(a.values, pos), tf.gather(a.indices, pos), a.dense_shape)


def cross(inputs, name=None, separator=None):
    """The feature crosses of each row (SparseTensor or dense string/int inputs) as a sparse string tensor."""
    from minixla.frontend.api.ragged_ops import cross_rows

    sep = "_X_" if separator is None else separator
    rows = cross_rows(list(inputs), sep.encode() if isinstance(sep, str) else bytes(sep))
    idx = np.array([[i, k] for i, row in enumerate(rows) for k in range(len(row))], np.int64).reshape(-1, 2)
    flat = np.array([v for row in rows for v in row], dtype=object).reshape(len(idx))
    return _new(idx, tf.constant(flat), [len(rows), max((len(r) for r in rows), default=0)])


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The hashed feature crosses of each row (int64, FarmHash Fingerprint64 as TF), as a SparseTensor."""
    from minixla.frontend.api.ragged_ops import cross_rows

    rows = cross_rows(list(inputs), None, num_buckets, hash_key)
    idx = np.array([[i, k] for i, row in enumerate(rows) for k in range(len(row))], np.int64).reshape(-1, 2)
    flat = np.array([v for row in rows for v in row], np.int64)
    return _new(idx, tf.constant(flat), [len(rows), max((len(r) for r in rows), default=0)])


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None):
    """Counts (or weight sums) of each value, per row with axis=-1, as a SparseTensor of the bins present."""
    rows, vals, wts = _bincount_inputs(values, weights)
    if axis not in (0, -1):
        raise ValueError(f"Unsupported axis value {axis}. Only 0 and -1 are currently supported.")
    top = int(vals.max()) + 1 if vals.size else 0
    size = max(top, int(minlength or 0))
    size = min(size, int(maxlength)) if maxlength is not None else size
    keep = np.flatnonzero(vals < size)
    per_row = axis == -1
    keys = np.stack([rows[keep], vals[keep]], axis=1) if per_row else vals[keep][:, None]
    uniq, inverse = np.unique(keys, axis=0, return_inverse=True) if len(keys) else (keys, np.zeros(0, np.int64))
    inverse = np.asarray(inverse).reshape(-1)
    shape = [int(rows.max()) + 1 if rows.size else 0, size] if per_row else [size]
    if binary_output:
        out = tf.ones([len(uniq)], "int64" if wts is None else wts.dtype)
    elif wts is None:
        out = tf.constant(np.bincount(inverse, minlength=len(uniq)).astype(np.int64))
    else:
        out = tf.math.unsorted_segment_sum(tf.gather(wts, tf.constant(keep.astype(np.int64))),
                                           tf.constant(inverse.astype(np.int64)), len(uniq))
    if wts is None:  # counts have the values' dtype, as TF's
        out = tf.cast(out, _values_dtype(values))
    return _new(uniq.astype(np.int64), out, shape)


def _values_dtype(values):
    if isinstance(values, SparseTensor):
        return values.dtype
    return values.dtype if hasattr(values, "dtype") and not isinstance(values, np.ndarray) else \
        tf.convert_to_tensor(values).dtype


def _bincount_inputs(values, weights):
    """(row of each value, the values, the weights as a flat tensor or None), all from known values."""
    wts = None
    if isinstance(values, SparseTensor):
        rows = _host_indices(values, "bincount")[:, 0]
        vals = _known(values.values)
        if weights is not None:
            wts = weights.values if isinstance(weights, SparseTensor) else tf.convert_to_tensor(weights)
    elif hasattr(values, "row_splits"):  # a RaggedTensor
        splits = _known(values.row_splits)
        vals = _known(values.flat_values)
        rows = np.repeat(np.arange(len(splits) - 1), np.diff(splits))
        if weights is not None:
            wts = weights.flat_values if hasattr(weights, "flat_values") else tf.convert_to_tensor(weights)
    else:
        x = tf.convert_to_tensor(values)
        vals = _known(x)
        rows = np.repeat(np.arange(vals.shape[0]), vals.size // max(vals.shape[0], 1)) if vals is not None and \
            vals.ndim == 2 else np.zeros(0 if vals is None else vals.size, np.int64)
        if weights is not None:
            wts = tf.reshape(tf.convert_to_tensor(weights), [-1])
    if vals is None:
        raise InvalidArgumentError(None, None, "tf.sparse.bincount: the values decide the output size and must be "
                                               "known when tracing (minixla compiles static shapes)")
    vals = np.asarray(vals).reshape(-1).astype(np.int64)
    if vals.size and vals.min() < 0:
        raise InvalidArgumentError(None, None, f"Input arr must be non-negative, got {vals.min()}")
    return rows.astype(np.int64), vals, wts


def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0, output_type="float32"):
    """(indices, beta * values + alpha * (mat1 @ mat2) at indices, dense_shape): the product only where sampled."""
    m1, m2 = tf.cast(tf.convert_to_tensor(mat1), output_type), tf.cast(tf.convert_to_tensor(mat2), output_type)
    idx = tf.convert_to_tensor(indices)
    product = tf.matmul(m1, m2)
    shape = product.shape.as_list()
    batch = int(np.prod(shape[:-2], dtype=np.int64))
    m, n = shape[-2:]
    pairs = tf.reshape(tf.cast(idx, "int64"), [batch, -1, 2])
    offsets = tf.constant((np.arange(batch, dtype=np.int64) * m * n)[:, None])
    lin = tf.reshape(offsets + pairs[..., 0] * n + pairs[..., 1], [-1])
    picked = tf.reshape(tf.gather(tf.reshape(product, [-1]), lin), tf.convert_to_tensor(values).shape.as_list())
    out = tf.cast(beta, output_type) * tf.cast(values, output_type) + tf.cast(alpha, output_type) * picked
    return idx, out, tf.convert_to_tensor(dense_shape)


def install(tf_module) -> None:
    global tf
    tf = tf_module
    _sparse_tensor.API["tf"] = tf_module
    tf_module.SparseTensor = SparseTensor
    tf_module.SparseTensorSpec = SparseTensorSpec
    ns = tf_module.sparse if hasattr(tf_module, "sparse") else None
    if ns is None:
        from types import SimpleNamespace

        ns = tf_module.sparse = SimpleNamespace()
    ns.SparseTensor = SparseTensor
    for fn in (to_dense, from_dense, reorder, add, maximum, minimum, sparse_dense_matmul, reduce_sum, reduce_max,
               transpose, reshape, concat, retain, slice, fill_empty_rows, to_indicator, softmax, expand_dims, eye,
               segment_sum, segment_mean, segment_sqrt_n, map_values, reset_shape, split, cross, cross_hashed, bincount, sampled_addmm):
        setattr(ns, fn.__name__, fn)
    ns.mask = sparse_mask
