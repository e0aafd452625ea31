"""`tf.ragged` and `tf.RaggedTensor`: building ragged tensors and the row-partition helpers.

The row partitions (row_splits) are integer data that decide shapes, so they are computed on the
host with numpy when known (eagerly, or constants in a trace); the values then move by gathers of
those positions, which keeps gradients w.r.t. values and static shapes for tf.function and jit.
"""

from __future__ import annotations

import itertools

import numpy as np

from minixla.frontend import ragged_tensor as _ragged_tensor
from minixla.frontend.api.farmhash import DEFAULT_HASH_KEY, fingerprint64, fingerprint_cat64
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.ragged_tensor import RaggedTensor, RaggedTensorSpec, known
from minixla.frontend.sparse_tensor import SparseTensor

tf = None  # the public `tf` module, set by install()


def _need(t, op: str) -> np.ndarray:
    v = known(t)
    if v is None:
        raise InvalidArgumentError(None, None, f"tf.ragged.{op}: this argument decides the output shape and must be "
                                               "known when tracing (minixla compiles static shapes)")
    return v


def _splits(lengths) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)


def _depth(x) -> int:
    return 1 + max((_depth(v) for v in x), default=0) if isinstance(x, (list, tuple)) else 0


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype="int64"):
    """A RaggedTensor from nested Python lists: ragged dimensions down to ragged_rank, then uniform values."""
    if isinstance(pylist, np.ndarray):
        pylist = pylist.tolist()
    depth = _depth(pylist)
    if ragged_rank is None:
        ragged_rank = max(0, depth - 1 - (0 if inner_shape is None else len(inner_shape)))
    if ragged_rank == 0:
        return tf.constant(pylist, dtype=dtype)
    splits_np = np.dtype("int32") if np.dtype(str(getattr(row_splits_dtype, "name", row_splits_dtype))) == \
        np.int32 else np.dtype("int64")
    nested, level = [], list(pylist)
    for _ in [None] * ragged_rank:
        lengths = [len(row) for row in level]
        nested.append(_splits(lengths).astype(splits_np))
        level = [item for row in level for item in row]
    if level:
        flat = tf.constant(level, dtype=dtype)
    else:  # no values: their shape comes from inner_shape, their dtype defaults to float32
        shape = [0] + list(inner_shape or [])
        flat = tf.zeros(shape, dtype or "float32")
    if inner_shape is not None and level:
        flat = tf.reshape(flat, [len(level)] + list(inner_shape))
    return RaggedTensor.from_nested_row_splits(flat, nested)


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype="int64"):  # noqa: A001
    """Row i is range(starts[i], limits[i], deltas[i]) (one argument: range(0, starts[i]))."""
    if limits is None:
        starts, limits = 0, starts
    s_t, l_t, d_t = (tf.convert_to_tensor(v, dtype=dtype) for v in (starts, limits, deltas))
    out_dtype = dtype or np.result_type(s_t.dtype.np, l_t.dtype.np, d_t.dtype.np)
    s, lim, d = (_need(t, "range") for t in (s_t, l_t, d_t))
    s, lim, d = np.broadcast_arrays(s, lim, d)
    if np.any(d == 0):
        raise InvalidArgumentError(None, None, "Requires delta != 0")
    rows = [np.arange(a, b, c) for a, b, c in zip(s.ravel(), lim.ravel(), d.ravel())]
    flat = np.concatenate(rows) if rows else np.zeros(0)
    return RaggedTensor(tf.constant(flat.astype(np.dtype(getattr(out_dtype, "np", out_dtype)))),
                        _splits([len(r) for r in rows]))


def _rows(x):
    """(values, splits) of a RaggedTensor, or of a dense matrix seen as uniform rows."""
    if isinstance(x, RaggedTensor):
        return x.values, _need(x.row_splits, "stack").astype(np.int64)
    x = tf.convert_to_tensor(x)
    n, m = x.shape.as_list()[:2]
    return tf.reshape(x, [n * m] + x.shape.as_list()[2:]), np.arange(n + 1, dtype=np.int64) * m


def concat_rows(values: list, axis: int):
    """ragged concat along axis 0 (rows one after another) or 1 (row i of each input, joined)."""
    parts = [_rows(v) for v in values]
    if axis == 0:
        splits = np.concatenate([[0]] + [s[1:] - s[0] + off for (_, s), off in
                                         zip(parts, np.cumsum([0] + [s[-1] - s[0] for _, s in parts[:-1]]))])
        vals = [v[int(s[0]):int(s[-1])] if isinstance(v, tf.Tensor) else v for v, s in parts]
        return RaggedTensor(_concat_values(vals), splits.astype(np.int64))
    nrows = {len(s) - 1 for _, s in parts}
    if len(nrows) != 1:
        raise InvalidArgumentError(None, None, "Input tensors at index 0 (=x) and 1 (=y) have incompatible shapes.")
    n = nrows.pop()
    offsets = np.cumsum([0] + [_nvalues(v) for v, _ in parts[:-1]])
    pos, lengths = [], []
    for i in np.arange(n):
        total = 0
        for (_, s), off in zip(parts, offsets):
            pos.extend(np.arange(s[i], s[i + 1]) + off)
            total += s[i + 1] - s[i]
        lengths.append(total)
    allv = _concat_values([v for v, _ in parts])
    return RaggedTensor(tf.gather(allv, tf.constant(np.asarray(pos, np.int64))), _splits(lengths))


def _nvalues(v) -> int:
    return v.nrows_static() if isinstance(v, RaggedTensor) else v.shape.as_list()[0]


def _concat_values(vals):
    if any(isinstance(v, RaggedTensor) for v in vals):
        return concat_rows(vals, 0)
    return tf.concat(vals, axis=0)


def stack(values, axis=0, name=None):
    """Stack along a new axis 0 (one row per input) or 1 (row i: row i of each input)."""
    values = list(values)
    if axis not in (0, 1):
        raise NotImplementedError("tf.ragged.stack with axis > 1 is not implemented in minixla")
    if axis == 0:
        joined = concat_rows(values, 0)
        return RaggedTensor(joined, _splits([_nvalues(v) if isinstance(v, RaggedTensor) else
                                             tf.convert_to_tensor(v).shape[0] for v in values]))
    n = _nvalues(values[0]) if isinstance(values[0], RaggedTensor) else tf.convert_to_tensor(values[0]).shape[0]
    rows = [RaggedTensor(v.values, v.row_splits) if isinstance(v, RaggedTensor) else _as_ragged(v) for v in values]
    # row (i, k) of the result is row i of input k: interleave the rows of the inputs
    order = [(k, i) for i in np.arange(n) for k in np.arange(len(rows))]
    parts = [_rows(r) for r in rows]
    offsets = np.cumsum([0] + [_nvalues(v) for v, _ in parts[:-1]])
    pos, lengths = [], []
    for k, i in order:
        s = parts[k][1]
        pos.extend(np.arange(s[i], s[i + 1]) + offsets[k])
        lengths.append(s[i + 1] - s[i])
    allv = _concat_values([v for v, _ in parts])
    inner = RaggedTensor(tf.gather(allv, tf.constant(np.asarray(pos, np.int64))), _splits(lengths))
    return RaggedTensor(inner, np.arange(n + 1, dtype=np.int64) * len(rows))


def _as_ragged(x):
    x = tf.convert_to_tensor(x)
    n, m = x.shape.as_list()[:2]
    return RaggedTensor(tf.reshape(x, [n * m] + x.shape.as_list()[2:]), np.arange(n + 1, dtype=np.int64) * m)


def boolean_mask(data, mask, name=None):
    """data with the entries where mask is False removed; rows keep their own count (ragged)."""
    if isinstance(mask, RaggedTensor):
        m = _need(mask.flat_values, "boolean_mask").astype(bool)
        if not isinstance(data, RaggedTensor):
            raise ValueError("tf.ragged.boolean_mask: a ragged mask needs ragged data")
        return _mask_rows(data, mask, m)
    m = _need(tf.convert_to_tensor(mask), "boolean_mask").astype(bool)
    if m.ndim == 1:
        if isinstance(data, RaggedTensor):
            pos = np.flatnonzero(m)
            s = _need(data.row_splits, "boolean_mask")
            keep = np.concatenate([np.arange(s[i], s[i + 1]) for i in pos]) if len(pos) else np.zeros(0, np.int64)
            return RaggedTensor(tf.gather(data.values, tf.constant(keep.astype(np.int64))),
                                _splits(np.diff(s)[pos]))
        return tf.gather(tf.convert_to_tensor(data), tf.constant(np.flatnonzero(m).astype(np.int64)))
    if isinstance(data, RaggedTensor):
        raise ValueError("tf.ragged.boolean_mask: mask of rank > 1 for ragged data must be ragged")
    x = tf.convert_to_tensor(data)
    if m.ndim != 2:
        inner = boolean_mask(tf.reshape(x, [-1] + x.shape.as_list()[2:]), m.reshape([-1] + list(m.shape[2:])))
        return RaggedTensor.from_row_lengths(inner, [int(m[i].reshape(m.shape[1], -1).any(1).sum())
                                                     for i in np.arange(m.shape[0])])
    pos = np.argwhere(m).astype(np.int64)
    return RaggedTensor(tf.gather_nd(x, tf.constant(pos)), _splits(m.sum(axis=1)))


def _mask_rows(data: RaggedTensor, mask: RaggedTensor, m: np.ndarray) -> RaggedTensor:
    if isinstance(data.values, RaggedTensor):
        return data.with_values(_mask_rows(data.values, mask.values, m))
    s = _need(data.row_splits, "boolean_mask")
    keep = np.flatnonzero(m)
    counts = [int(m[s[i]:s[i + 1]].sum()) for i in np.arange(len(s) - 1)]
    return RaggedTensor(tf.gather(data.values, tf.constant(keep.astype(np.int64))), _splits(counts))


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    s = tf.convert_to_tensor(splits, dtype_hint="int64")
    v = _need(s, "row_splits_to_segment_ids")
    if v.ndim != 1 or len(v) < 1:
        raise ValueError(f"splits must be a vector with at least one element, got shape {v.shape}")
    out = np.repeat(np.arange(len(v) - 1), np.diff(v))
    return tf.constant(out.astype(np.dtype(str(getattr(out_type, "name", out_type or s.dtype.name)))))


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    ids = _need(tf.convert_to_tensor(segment_ids, dtype_hint="int64"), "segment_ids_to_row_splits")
    n = int(ids.max()) + 1 if num_segments is None and ids.size else int(num_segments or 0)
    counts = np.bincount(ids.astype(np.int64), minlength=n)[:n] if ids.size else np.zeros(n, np.int64)
    return tf.constant(_splits(counts).astype(np.dtype(str(getattr(out_type, "name", out_type or "int64")))))


def map_flat_values(op, *args, **kwargs):
    """op applied to the flat values of the RaggedTensor arguments (which must share row partitions)."""
    rts = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
    if not rts:
        return op(*args, **kwargs)

    def flat(a):
        return a.flat_values if isinstance(a, RaggedTensor) else a

    out = op(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()})
    return rts[0].with_flat_values(out)


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row p holds the entries of data whose partition is p, in their order."""
    x = tf.convert_to_tensor(data)
    p = _need(tf.convert_to_tensor(partitions), "stack_dynamic_partitions").astype(np.int64).ravel()
    n = int(num_partitions)
    if p.size and (p.min() < 0 or p.max() >= n):
        raise InvalidArgumentError(None, None, f"partitions must be in [0, {n}), got {p.tolist()}")
    order = np.argsort(p, kind="stable").astype(np.int64)
    flat = tf.reshape(x, [-1] + x.shape.as_list()[len(np.shape(p)):]) if x.shape.rank > 1 else x
    return RaggedTensor(tf.gather(flat, tf.constant(order)), _splits(np.bincount(p, minlength=n)[:n]))


def _as_bytes(v) -> bytes:
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode()
    return str(int(v)).encode()


def _feature_rows(x) -> list:
    """The features of each row of a SparseTensor, RaggedTensor or dense [batch, k] tensor."""
    if isinstance(x, SparseTensor):
        idx = _need(x.indices, "cross")
        rows: list = [[] for _ in [None] * x.static_shape("cross")[0]]
        for i, v in zip(idx[:, 0], _need(x.values, "cross").tolist()):
            rows[int(i)].append(v)
        return rows
    if isinstance(x, RaggedTensor):
        return x.to_list()
    return np.asarray(_need(tf.convert_to_tensor(x), "cross")).tolist()


def _feature_hash(v) -> int:
    if isinstance(v, (bytes, str)):
        return fingerprint64(_as_bytes(v))
    return int(v) & ((1 << 64) - 1)


def _cross_hash(combo, num_buckets: int, hash_key: int) -> int:
    """TF's HashCrosser: FingerprintCat64 of the features' hashes, from hash_key, then into the buckets."""
    out = hash_key
    for v in combo:
        out = fingerprint_cat64(out, _feature_hash(v))
    return out % num_buckets if num_buckets > 0 else out % ((1 << 63) - 1)


def cross_rows(inputs, separator: bytes | None, num_buckets: int = 0, hash_key=None) -> list:
    """Row i: each combination of row i's features (first input outermost), joined by separator, or
    hashed (separator None)."""
    per_input = [_feature_rows(x) for x in inputs]
    n = {len(r) for r in per_input}
    if len(n) != 1:
        raise InvalidArgumentError(None, None, "cross: all inputs must have the same batch size")
    key = DEFAULT_HASH_KEY if hash_key is None else int(hash_key)

    def one(combo):
        return separator.join(_as_bytes(v) for v in combo) if separator is not None else \
            _cross_hash(combo, int(num_buckets), key)

    return [[one(combo) for combo in itertools.product(*[r[i] for r in per_input])] for i in np.arange(n.pop())]


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """tf.ragged.cross_hashed: the hashed feature crosses of each row (int64), in num_buckets buckets."""
    rows = cross_rows(list(inputs), None, num_buckets, hash_key)
    flat = np.array([v for row in rows for v in row], np.int64)
    return RaggedTensor(tf.constant(flat), _splits([len(r) for r in rows]))


def cross(inputs, name=None):
    """tf.ragged.cross: the feature crosses of each row as a ragged string tensor."""
    rows = cross_rows(list(inputs), b"_X_")
    flat = [v for row in rows for v in row]
    return RaggedTensor(tf.constant(np.array(flat, dtype=object).reshape(len(flat))), _splits([len(r) for r in rows]))


def install(tf_module) -> None:
    global tf
    tf = tf_module
    _ragged_tensor.API["tf"] = tf_module
    tf_module.RaggedTensor = RaggedTensor
    tf_module.RaggedTensorSpec = RaggedTensorSpec
    from types import SimpleNamespace

    ns = getattr(tf_module, "ragged", None)
    if ns is None:
        ns = tf_module.ragged = SimpleNamespace()
    for fn in (constant, range, stack, boolean_mask, row_splits_to_segment_ids, segment_ids_to_row_splits,
               map_flat_values, stack_dynamic_partitions, cross, cross_hashed):
        setattr(ns, fn.__name__, fn)
