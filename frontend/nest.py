"""Nested argument/result structures of `tf.function`, as a structure plus leaves.

Leaves are tensors (Tensor, ndarray, tf.Variable) and Python scalars; lists,
tuples, namedtuples, dicts (in sorted key order) and the composites (IndexedSlices, SparseTensor,
RaggedTensor) are walked; anything else
stays in the structure as a Python value. The trace key, the placeholders of a
trace and the call plans (call_plan.py) all use this leaf order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minixla.frontend.indexed_slices import IndexedSlices
from minixla.frontend.ragged_tensor import RaggedTensor
from minixla.frontend.sparse_tensor import SparseTensor
from minixla.frontend.tensor import Tensor


def is_tensor(v) -> bool:
    return isinstance(v, (Tensor, np.ndarray)) or hasattr(v, "_variable_value")


def flatten(value, leaves: list) -> Any:
    """Structure of `value` with tensors and Python scalars replaced by leaf indices."""
    if is_tensor(value) or isinstance(value, (int, float, bool, str, type(None))):
        leaves.append(value)
        return ("leaf", len(leaves) - 1)
    if isinstance(value, IndexedSlices):  # a composite: its three tensors are leaves
        return ("indexed_slices", tuple(flatten(v, leaves) for v in (value.values, value.indices,
                                                                       value.dense_shape)))
    if isinstance(value, SparseTensor):  # its static dense shape stays in the structure (the trace key)
        return ("sparse_tensor", (value.shape.as_list(), tuple(flatten(v, leaves) for v in (
            value.indices, value.values, value.dense_shape))))
    if isinstance(value, RaggedTensor):  # values (maybe ragged again), then row_splits
        return ("ragged_tensor", (flatten(value.values, leaves), flatten(value.row_splits, leaves)))
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # namedtuple
        return ("namedtuple", (type(value), tuple(flatten(v, leaves) for v in value)))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(flatten(v, leaves) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, flatten(v, leaves)) for k, v in sorted(value.items())))
    return ("python", value)


def rebuild(struct, leaves: list):
    kind, body = struct
    if kind == "leaf":
        return leaves[body]
    if kind in ("list", "tuple"):
        items = [rebuild(s, leaves) for s in body]
        return items if kind == "list" else tuple(items)
    if kind == "dict":
        return {k: rebuild(s, leaves) for k, s in body}
    if kind == "indexed_slices":
        return IndexedSlices(*[rebuild(s, leaves) for s in body])
    if kind == "sparse_tensor":
        return SparseTensor(*[rebuild(s, leaves) for s in body[1]], _static_shape=body[0])
    if kind == "ragged_tensor":
        return RaggedTensor(rebuild(body[0], leaves), rebuild(body[1], leaves), validate=False)
    if kind == "namedtuple":
        return body[0](*[rebuild(s, leaves) for s in body[1]])
    return body
