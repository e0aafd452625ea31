"""Indexing, sorting and contraction ops: GatherV2, GatherNd, TopKV2, Einsum, Where.

Gathers become one `hlo.gather` (tf2xla's XlaGather); eagerly, out-of-range
indices raise TF's CPU-kernel error (compiled code clamps, as XLA does).
TopKV2 is a stable two-operand `hlo.sort` (values, iota) + slice, so ties keep
the lowest index first; `tf.sort`/`tf.argsort` are built on it in the API, as
in TF. Einsum handles the two-operand forms through `dot_general` + transposes
(and a reduce for labels summed out of one operand). The one-argument `Where`
has a data-dependent shape: it runs on the host only.
"""

from __future__ import annotations

import numpy as np

from .registry import axes, op_error, register


def _check_range(op: str, indices, limit: int, what: str = "") -> None:
    if isinstance(indices, np.ndarray) and indices.size:
        flat = indices.reshape(-1)
        bad = np.nonzero((flat < 0) | (flat >= limit))[0]
        if bad.size:
            i = int(bad[0])
            pos = np.unravel_index(i, indices.shape)
            raise op_error(op, f"indices[{','.join(map(str, pos))}] = {int(flat[i])} is not in [0, {limit}){what}")


def gather_v2(b, params, indices, axis, batch_dims=0):
    (ax,) = axes("GatherV2", axis, len(params.shape))
    if batch_dims:
        raise op_error("GatherV2", "batch_dims != 0 is not supported by minixla yet")
    _check_range("GatherV2", indices, params.shape[ax])
    r = len(indices.shape)
    sizes = list(params.shape)
    sizes[ax] = 1
    offset = [d if d < ax else d - 1 + r for d in range(len(params.shape)) if d != ax]
    return b.gather(params, indices, offset_dims=offset, collapsed_slice_dims=[ax], start_index_map=[ax],
                    index_vector_dim=r, slice_sizes=sizes)


register("GatherV2", ("params", "indices", "axis"), gather_v2, attrs={"batch_dims": 0},
         const_inputs=("axis",), typed=("params",))


def gather_nd(b, params, indices, batch_dims=0):
    if batch_dims:
        raise op_error("GatherNd", "batch_dims != 0 is not supported by minixla yet")
    r = len(indices.shape)
    k = indices.shape[-1] if r else 0
    if r == 0 or k > len(params.shape):
        raise op_error("GatherNd", f"index innermost dimension length must be <= params rank; saw: {k} vs. "
                                   f"{len(params.shape)}")
    if isinstance(indices, np.ndarray):
        for d in range(k):
            _check_range("GatherNd", indices[..., d], params.shape[d], f" does not index into param shape "
                                                                      f"[{','.join(map(str, params.shape))}]")
    sizes = [1] * k + list(params.shape[k:])
    offset = list(range(r - 1, r - 1 + len(params.shape) - k))
    return b.gather(params, indices, offset_dims=offset, collapsed_slice_dims=list(range(k)),
                    start_index_map=list(range(k)), index_vector_dim=r - 1, slice_sizes=sizes)


register("GatherNd", ("params", "indices"), gather_nd, attrs={"batch_dims": 0}, typed=("params",))


def top_k(b, input, k, sorted=True, index_type=np.int32):
    kk = int(np.asarray(k))
    n = input.shape[-1] if input.shape else 0
    if not input.shape:
        raise op_error("TopKV2", "input must be at least 1-D")
    if not 0 <= kk <= n:
        raise op_error("TopKV2", f"input must have at least k columns. Had {n}, needed {kk}")
    last = len(input.shape) - 1
    idx = b.iota(input.shape, last, np.dtype(index_type))
    vals, order = b.sort([input, idx], last, key=0, descending=True)
    start, limit = [0] * len(input.shape), list(input.shape)
    limit[-1] = kk
    return b.slice(vals, start, limit), b.slice(order, start, limit)


register("TopKV2", ("input", "k"), top_k, attrs={"sorted": True, "index_type": np.int32}, const_inputs=("k",))


def _parse_einsum(equation: str, n: int):
    eq = equation.replace(" ", "")
    if "..." in eq:
        raise op_error("Einsum", "ellipsis ('...') in einsum equations is not supported by minixla yet")
    lhs, _, out = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != n:
        raise op_error("Einsum", f"Expecting {len(ins)} inputs, got: {n}")
    if not _:
        counts = {c: sum(s.count(c) for s in ins) for c in "".join(ins)}
        out = "".join(sorted(c for c, m in counts.items() if m == 1))
    return ins, out


def _sum_out(b, x, labels: str, keep: set):
    """Sum over the labels of `x` not in `keep` (labels used by one operand only)."""
    if any(labels.count(c) > 1 for c in labels):
        raise op_error("Einsum", f"repeated labels (diagonals) in {labels!r} are not supported by minixla yet")
    dims = [i for i, c in enumerate(labels) if c not in keep]
    if not dims:
        return x, labels
    return b.reduce(x, b.scalar(0, x.dtype), dims, "add"), "".join(c for c in labels if c in keep)


def einsum(b, inputs, equation):
    ins, out = _parse_einsum(equation, len(inputs))
    for x, labels in zip(inputs, ins):
        if len(labels) != len(x.shape):
            raise op_error("Einsum", f"Expected input to have rank {len(labels)} but got: {len(x.shape)}")
    if len(inputs) == 1:
        x, labels = _sum_out(b, inputs[0], ins[0], set(out))
        return b.transpose(x, [labels.index(c) for c in out])
    if len(inputs) != 2:
        raise op_error("Einsum", "only one- and two-operand equations are supported by minixla")
    (x, lx), (y, ly) = _sum_out(b, inputs[0], ins[0], set(out) | set(ins[1])), \
        _sum_out(b, inputs[1], ins[1], set(out) | set(ins[0]))
    batch = [c for c in lx if c in ly and c in out]
    contract = [c for c in lx if c in ly and c not in out]
    for c in batch + contract:
        if x.shape[lx.index(c)] != y.shape[ly.index(c)]:
            raise op_error("Einsum", f"Expected dimension {x.shape[lx.index(c)]} at axis {ly.index(c)} of the "
                                     f"input shaped [{','.join(map(str, y.shape))}] but got dimension "
                                     f"{y.shape[ly.index(c)]}")
    r = b.dot_general(x, y, ([lx.index(c) for c in contract], [ly.index(c) for c in contract]),
                      ([lx.index(c) for c in batch], [ly.index(c) for c in batch]))
    got = "".join(batch) + "".join(c for c in lx if c not in batch + contract) + \
        "".join(c for c in ly if c not in batch + contract)
    return b.transpose(r, [got.index(c) for c in out])


register("Einsum", ("*inputs",), einsum, attrs={"equation": ""})


def _where_host(condition):
    return np.argwhere(np.asarray(condition)).astype(np.int64)


def _where_infer(condition):
    from ..builder import Spec

    return Spec(None, np.dtype(np.int64))  # [num_true, rank]: num_true is only known at run time


register("Where", ("input",), None, host=_where_host, infer=_where_infer)
