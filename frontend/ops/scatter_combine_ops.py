"""TensorScatterMax/Min/Sub: `tensor` with the rows addressed by `indices` combined with `updates`
(max, min, or minus), one hlo.scatter each, like TensorScatterAdd (scatter_matrix_ops.py); and
DynamicStitch, which interleaves data by constant indices."""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.index_ops import gather_v2
from minixla.frontend.ops.registry import op_error, register, register_gradient, shape_text
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


def dynamic_stitch(b, data, indices=()):
    """out[indices[m][i]] = data[m][i], later (m, i) winning; `indices` are compile-time constants
    (TF-XLA specializes on their values too), so the stitch is one concatenate and one gather."""
    flat_ids = np.concatenate([np.asarray(i, np.int64).reshape(-1) for i in indices]) if indices else \
        np.zeros(0, np.int64)
    if len(indices) != len(data):
        raise op_error("DynamicStitch", f"indices and data must have the same number of tensors, got "
                                        f"{len(indices)} and {len(data)}")
    rest = None
    rows = []
    for m, (ids, d) in enumerate(zip(indices, data)):
        ids = np.asarray(ids)
        if tuple(d.shape[:ids.ndim]) != ids.shape:
            raise op_error("DynamicStitch", f"data[{m}].shape = {shape_text(d.shape)} does not start with "
                                            f"indices[{m}].shape = {shape_text(ids.shape)}")
        tail = tuple(d.shape[ids.ndim:])
        if rest is not None and tail != rest:
            raise op_error("DynamicStitch", f"Need data[0].shape[{indices[0].ndim}:] = {shape_text(rest)} to "
                                            f"match data[{m}].shape[{ids.ndim}:] = {shape_text(tail)}")
        rest = tail
        rows.append(b.reshape(d, [int(ids.size)] + list(tail)))
    if (flat_ids < 0).any():
        raise op_error("DynamicStitch", f"indices[{int(np.argmax(flat_ids < 0))}] is out of range")
    n = int(flat_ids.max()) + 1 if flat_ids.size else 0
    source = np.full(n, flat_ids.size, np.int32)  # never written: the zero row appended below
    source[flat_ids] = np.arange(flat_ids.size, dtype=np.int32)  # numpy keeps the last write
    rows.append(b.full([1] + list(rest or ()), 0, data[0].dtype))
    return gather_v2(b, b.concatenate(rows, 0), b.constant(source), 0)


# not TF's DynamicStitch (that one takes the indices as inputs): tf.dynamic_stitch passes constant indices
register("MinixlaDynamicStitch", ("*data",), dynamic_stitch, attrs={"indices": ()})


@register_gradient("MinixlaDynamicStitch")
def _dynamic_stitch_grad(b, op, grad):
    """TF's gradient: each data row gets the output row at its index, also where a later entry
    overwrote it (TF does not mask overwritten entries; nor do we, to give TF's numbers)."""
    return [[gather_v2(b, grad, b.constant(np.asarray(ids, np.int32)), 0) for ids in op.attrs["indices"]]]
