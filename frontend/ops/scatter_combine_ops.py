"""TensorScatterMax/Min/Sub: `tensor` with the rows addressed by `indices` combined with `updates`
(max, min, or minus), one hlo.scatter each, like TensorScatterAdd (scatter_matrix_ops.py)."""

from __future__ import annotations

from minixla.frontend.ops.registry import register
from minixla.frontend.ops.scatter_matrix_ops import _outer, _scatter_nd


def tensor_scatter_max(b, tensor, indices, updates):
    _outer("TensorScatterMax", indices, updates)
    return _scatter_nd(b, "TensorScatterMax", tensor, indices, updates, "maximum")


def tensor_scatter_min(b, tensor, indices, updates):
    _outer("TensorScatterMin", indices, updates)
    return _scatter_nd(b, "TensorScatterMin", tensor, indices, updates, "minimum")


def tensor_scatter_sub(b, tensor, indices, updates):
    _outer("TensorScatterSub", indices, updates)
    return _scatter_nd(b, "TensorScatterSub", tensor, indices, b.negate(updates), "add")


register("TensorScatterMax", ("tensor", "indices", "updates"), tensor_scatter_max, typed=("tensor", "updates"))
register("TensorScatterMin", ("tensor", "indices", "updates"), tensor_scatter_min, typed=("tensor", "updates"))
register("TensorScatterSub", ("tensor", "indices", "updates"), tensor_scatter_sub, typed=("tensor", "updates"))
