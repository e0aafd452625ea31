"""Public indexing/sorting/contraction functions: `tf.gather`, `tf.gather_nd`,
`tf.nn.embedding_lookup`, `tf.sort`, `tf.argsort`, `tf.math.top_k`, `tf.einsum`
(the one-argument `tf.where` is in api.py).

Thin layers over registry ops (frontend/ops/index_ops.py), as TF's Python API:
`tf.sort`/`tf.argsort` move the axis last and call TopKV2 with k = n (negating
the values for ascending order, as TF does).
"""

from __future__ import annotations

import builtins
from collections import namedtuple

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend import eager_fast_ops as _fast_ops
from minixla.frontend.api.core import _t, negative, transpose
from minixla.frontend.execute import execute

TopKV2 = namedtuple("TopKV2", ["values", "indices"])


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    ax = batch_dims if axis is None else axis  # TF: axis defaults to batch_dims
    return execute("GatherV2", [params, indices, np.asarray(ax, np.int32) if not hasattr(ax, "_spec") else ax],
                   {"batch_dims": batch_dims})


gather = _fast_ops.gather_api(gather)


def gather_nd(params, indices, batch_dims=0, name=None):
    return execute("GatherNd", [params, indices], {"batch_dims": batch_dims})


def embedding_lookup(params, ids, max_norm=None, name=None):
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise NotImplementedError("embedding_lookup over a list of partitioned params is not supported")
        params = params[0]
    return gather(params, ids)


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    values, indices = execute("TopKV2", [input, np.asarray(k, np.int32)],
                              {"sorted": sorted, "index_type": dtypes.np_dtype(index_type)})
    return TopKV2(values, indices)


def _along_last(values, axis):
    x = _t(values)
    rank = x.ndim
    ax = axis % rank if rank else 0
    perm = list(builtins.range(rank))
    perm[ax], perm[-1] = perm[-1], perm[ax]
    return x, perm, ax == rank - 1


def _sorted(values, axis, direction, want_indices):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f'"{direction}" is not a valid direction. Valid directions: ASCENDING, DESCENDING')
    x, perm, last = _along_last(values, axis)
    if not last:
        x = transpose(x, perm)
    key = x if direction == "DESCENDING" else negative(x)
    vals, idx = top_k(key, x.shape[-1] if x.ndim else 1)
    out = idx if want_indices else (vals if direction == "DESCENDING" else negative(vals))
    return out if last else transpose(out, perm)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    return _sorted(values, axis, direction, False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    return _sorted(values, axis, direction, True)


def einsum(equation, *inputs, **kwargs):
    return execute("Einsum", [list(inputs)], {"equation": equation})

