"""The sorted segment reductions (SegmentSum/Mean/Max/Min/Prod). Their output has ids[-1] + 1 rows,
so the ids are a compile-time constant here (a tf.function argument specializes the trace on its
value); TF 2.21 has no XLA kernel for them, so jit_compile=True raises TF's "Detected unsupported
operations" error. Each is a masked reduce over a [segments, rows] one-hot mask built from the ids."""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import op_error, register

_COMBINER = {"SegmentSum": "add", "SegmentMean": "add", "SegmentProd": "multiply", "SegmentMax": "maximum",
             "SegmentMin": "minimum"}


def _init(op: str, dtype):
    dtype = np.dtype(dtype)
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return {"SegmentProd": 1, "SegmentMax": info.min, "SegmentMin": info.max}.get(op, 0)


def _segment(op: str):
    def rule(b, data, segment_ids):
        ids = np.asarray(segment_ids).astype(np.int64)
        if ids.ndim != 1:
            raise op_error(op, "segment_ids should be a vector.")
        if ids.shape[0] != data.shape[0]:
            raise op_error(op, "segment_ids should be the same size as dimension 0 of input.")
        bad = np.flatnonzero((ids < 0) | (np.diff(ids, prepend=0) < 0))
        if bad.size:  # TF's kernel reports the first id out of [0, number of segments so far)
            k = int(bad[0])
            raise op_error(op, f"Segment id {ids[k]} out of range [0, {int(ids[k - 1]) + 1 if k else 1}), possibly "
                               "because 'segment_ids' input is not sorted.")
        n = int(ids[-1]) + 1 if ids.size else 0
        rows = list(data.shape[1:])
        full = [n, ids.shape[0]] + rows
        mask = ids[None, :] == np.arange(n)[:, None]
        pick = b.broadcast_in_dim(b.constant(mask), full, [0, 1])
        spread = b.broadcast_in_dim(data, full, list(range(1, len(full))))
        init = _init(op, data.dtype)
        masked = b.select(pick, spread, b.full(full, init, data.dtype))
        out = b.reduce(masked, b.scalar(init, data.dtype), [1], _COMBINER[op])
        count = mask.sum(axis=1)
        if op == "SegmentMean":
            out = b.divide(out, b.broadcast_in_dim(b.constant(np.maximum(count, 1).astype(data.dtype)), [n] + rows,
                                                   [0]))
        elif op in ("SegmentMax", "SegmentMin"):  # empty segments are 0 (not the reduction's identity)
            empty = b.broadcast_in_dim(b.constant(count == 0), [n] + rows, [0])
            out = b.select(empty, b.full([n] + rows, 0, data.dtype), out)
        return out

    return rule


for _op in _COMBINER:
    register(_op, ("data", "segment_ids"), _segment(_op), const_inputs=("segment_ids",), typed=("data",),
             xla_kernel=False)
