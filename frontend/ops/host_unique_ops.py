"""Unique, UniqueWithCounts and Timestamp: host ops (their results' shapes depend on the data, or
they read the clock), so they run eagerly and in tf.function without jit, and under
jit_compile=True compilation fails naming them, as TF-XLA's does on CPU."""

from __future__ import annotations

import time

import numpy as np

from minixla.frontend.builder import Spec
from minixla.frontend.ops.registry import op_error, register


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
