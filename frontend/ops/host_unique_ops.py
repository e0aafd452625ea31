"""Unique, UniqueWithCounts, DynamicPartition, Timestamp and Fingerprint: host ops (their results'
shapes depend on the data, they read the clock, or TF has no XLA kernel for them), so they run
eagerly and in tf.function without jit, and under jit_compile=True compilation fails naming them,
as TF-XLA's does on CPU."""

from __future__ import annotations

import time

import numpy as np

from minixla.frontend.builder import Spec
from minixla.frontend.ops.index_ops import gather_v2
from minixla.frontend.ops.registry import op_error, register, register_gradient


def _unique(x, out_idx=np.int32):
    if x.ndim != 1:
        raise op_error("Unique", "unique expects a 1D vector.")
    _, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # TF keeps the order of first appearance
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    return x[np.sort(first)], position[inverse.reshape(-1)].astype(out_idx)


def _unique_with_counts(x, out_idx=np.int32):
    y, idx = _unique(x, out_idx)
    return y, idx, np.bincount(idx, minlength=y.shape[0]).astype(out_idx)


def _timestamp():
    return np.array(time.time(), np.float64)


register("Unique", ("x",), None, host=_unique, attrs={"out_idx": np.int32},
         infer=lambda x, out_idx=np.int32: (Spec(None, x.dtype), Spec(None, np.dtype(out_idx))))
register("UniqueWithCounts", ("x",), None, host=_unique_with_counts, attrs={"out_idx": np.int32},
         infer=lambda x, out_idx=np.int32: (Spec(None, x.dtype), Spec(None, np.dtype(out_idx)),
                                            Spec(None, np.dtype(out_idx))))
register("Timestamp", (), None, host=_timestamp, infer=lambda: Spec((), np.dtype(np.float64)), stateful=True)


def _dynamic_partition(data, partitions, num_partitions=1):
    if data.shape[:partitions.ndim] != partitions.shape:
        raise op_error("DynamicPartition", f"data.shape must start with partitions.shape, got data.shape = "
                                           f"{list(data.shape)}, partitions.shape = {list(partitions.shape)}")
    flat = partitions.reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= num_partitions))
    if bad.size:
        raise op_error("DynamicPartition", f"partitions[{int(bad[0])}] = {int(flat[bad[0]])} is not in [0, "
                                           f"{num_partitions})")
    rows = data.reshape((flat.size,) + data.shape[partitions.ndim:])
    return tuple(rows[flat == i] for i in range(num_partitions))


def _partition_specs(data, partitions, num_partitions=1):
    return tuple(Spec(None, data.dtype) for _ in range(num_partitions))


register("DynamicPartition", ("data", "partitions"), None, host=_dynamic_partition, attrs={"num_partitions": 1},
         infer=_partition_specs, typed=("data",))


@register_gradient("DynamicPartition")
def _dynamic_partition_grad(b, op, *grads):
    """TF's gradient: the partitions' gradients stitched back to the data's positions (eagerly, where
    the partition values are known)."""
    parts = getattr(op.inputs[1], "v", op.inputs[1])  # a recorded value: its array when eager
    values = parts if isinstance(parts, np.ndarray) else None
    if values is None:
        raise NotImplementedError("the gradient of tf.dynamic_partition inside tf.function is not implemented in "
                                  "minixla (its positions are only known when the graph runs); take it eagerly")
    flat = np.asarray(values).reshape(-1)
    order = np.concatenate([np.flatnonzero(flat == i) for i in range(len(grads))]).astype(np.int32)
    data = op.inputs[0]
    rest = list(data.shape[np.asarray(values).ndim:])
    sizes = [int(np.sum(flat == i)) for i in range(len(grads))]
    table = b.concatenate([b.reshape(g, [n] + rest) for g, n in zip(grads, sizes)], 0)
    rows = gather_v2(b, table, b.constant(np.argsort(order).astype(np.int32)), 0)
    return [b.reshape(rows, list(data.shape)), None]


def _fingerprint(data, method):
    """TF's Fingerprint: per row (first dimension), FarmHash Fingerprint64 of the row's bytes, or for
    strings of each string (a row of several strings: of their little-endian fingerprints), as uint8[8]."""
    from minixla.frontend.api.farmhash import fingerprint64

    name = method.reshape(()).item()
    name = name.decode() if isinstance(name, bytes) else str(name)
    if name != "farmhash64":
        raise op_error("Fingerprint", f"Unsupported fingerprint method: {name}")
    if data.ndim == 0:
        raise op_error("Fingerprint", "`data` should have at least one dimension: []")
    rows = data.reshape(data.shape[0], -1)
    out = []
    for row in rows:
        if data.dtype == object:
            parts = [v if isinstance(v, bytes) else str(v).encode() for v in row]
            value = fingerprint64(parts[0]) if len(parts) == 1 else fingerprint64(
                np.array([fingerprint64(p) for p in parts], "<u8").tobytes())
        else:
            value = fingerprint64(np.ascontiguousarray(row).astype(row.dtype.newbyteorder("<")).tobytes())
        out.append(np.frombuffer(np.array(value, "<u8").tobytes(), np.uint8))
    return np.stack(out) if out else np.zeros((0, 8), np.uint8)


register("Fingerprint", ("data", "method"), None, host=_fingerprint, typed=("data",),
         infer=lambda data, method: Spec(None if data.shape is None else (data.shape[0], 8), np.dtype(np.uint8)))
