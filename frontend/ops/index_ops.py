"""Indexing, sorting and contraction ops: GatherV2, GatherNd, TopKV2, Einsum, Where.

Gathers become one `hlo.gather` (tf2xla's XlaGather); eagerly, out-of-range
indices raise TF's CPU-kernel error (compiled code clamps, as XLA does).
GatherV2 with `batch_dims` prepends iota coordinates of the batch dims to each index
(tf2xla's form). TopKV2 is a stable two-operand `hlo.sort` (values, iota) + slice, so ties keep
the lowest index first; `tf.sort`/`tf.argsort` are built on it in the API, as
in TF. Einsum handles the two-operand forms through `dot_general` + transposes
(and a reduce for labels summed out of one operand); '...' becomes fresh labels,
size-1 dims broadcast. The one-argument `Where`
has a data-dependent shape: it runs on the host only.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import axes, op_error, register


def _check_range(op: str, indices, limit: int, what: str = "") -> None:
    if isinstance(indices, np.ndarray) and indices.size:
        flat = indices.reshape(-1)
        bad = np.nonzero((flat < 0) | (flat >= limit))[0]
        if bad.size:
            i = int(bad[0])
            pos = np.unravel_index(i, indices.shape)
            raise op_error(op, f"indices[{','.join(map(str, pos))}] = {int(flat[i])} is not in [0, {limit}){what}")


def gather_v2(b, params, indices, axis, batch_dims=0):
    rank, irank = len(params.shape), len(indices.shape)
    (ax,) = axes("GatherV2", axis, rank)
    bd = int(batch_dims) + (irank if batch_dims < 0 else 0)
    if not 0 <= bd <= irank:
        raise op_error("GatherV2", f"Expected batch_dims in the range [{-irank}, {irank}], but got {batch_dims}")
    if bd > ax:
        raise op_error("GatherV2", f"batch_dims ({bd}) must be less than or equal to axis ({ax}).")
    for d in range(bd):
        if params.shape[d] != indices.shape[d]:
            raise op_error("GatherV2", f"params.shape[{d}]: {params.shape[d]} should be equal to "
                                       f"indices.shape[{d}]: {indices.shape[d]}")
    _check_range("GatherV2", indices, params.shape[ax])
    if bd:
        return _batched_gather(b, params, indices, ax, bd)
    r = irank
    sizes = list(params.shape)
    sizes[ax] = 1
    offset = [d if d < ax else d - 1 + r for d in range(len(params.shape)) if d != ax]
    return b.gather(params, indices, offset_dims=offset, collapsed_slice_dims=[ax], start_index_map=[ax],
                    index_vector_dim=r, slice_sizes=sizes)


def _batched_gather(b, params, indices, ax: int, bd: int):
    """Gather with leading batch dims as tf2xla does: the index vector of each element is
    (its position in batch dims 0..bd-1, its index into `ax`), so every batch row reads its own params row.
    Result: params[:ax] + indices[bd:] + params[ax+1:]."""
    ishape, r, rank = list(indices.shape), len(indices.shape), len(params.shape)
    cols = [b.reshape(b.iota(ishape, d, indices.dtype), ishape + [1]) for d in range(bd)]
    full = b.concatenate(cols + [b.reshape(indices, ishape + [1])], r)
    sizes = [1 if d < bd or d == ax else n for d, n in enumerate(params.shape)]
    tail = ax + r - bd  # where params[ax+1:] start in the result
    offset = list(range(bd, ax)) + list(range(tail, tail + rank - ax - 1))
    dims = list(range(bd)) + [ax]
    return b.gather(params, full, offset_dims=offset, collapsed_slice_dims=dims, start_index_map=dims,
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


def _parse_einsum(equation: str, inputs):
    """Operand and output labels, with each '...' replaced by fresh labels (aligned from the right,
    as numpy and TF broadcast them); the implicit output is TF's: the once-used labels, sorted,
    after '...' when exactly one operand has an ellipsis."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(inputs):
        raise op_error("Einsum", f"Expecting {len(ins)} inputs, got: {len(inputs)}")
    fresh = [chr(0x100 + k) for k in range(max([len(x.shape) for x in inputs] + [0]))]
    width = 0
    for k, (labels, x) in enumerate(zip(ins, inputs)):
        if "..." in labels:
            n = len(x.shape) - (len(labels) - 3)
            if n < 0:
                raise op_error("Einsum", f"Expected input {k} to have rank at least {len(labels) - 3} but got: "
                                         f"{len(x.shape)}")
            ins[k] = labels.replace("...", "".join(fresh[len(fresh) - n:]) if n else "")
            width = max(width, n)
    ell = "".join(fresh[len(fresh) - width:]) if width else ""
    if not arrow:
        # TF (special_math_ops._einsum_v2_parse_and_resolve_equation) counts '...' like a label: the
        # implicit output is the labels used once, sorted, '...' first only if ONE operand has it
        # (numpy keeps it always); "...ij,...jk" has no '...' in its output, so non-empty ellipsis
        # dimensions are refused below, as TF does.
        counts = {c: sum(s.count(c) for s in ins) for c in "".join(ins) if c not in ell}
        out = ("..." if lhs.count("...") == 1 else "") + "".join(sorted(c for c, m in counts.items() if m == 1))
    if "..." not in out and ell:
        raise op_error("Einsum", f"Output contains {width} broadcasting dimension(s) but no ellipsis (...) was "
                                 f"found in the output subscripts.")
    return ins, out.replace("...", ell)


def _broadcast_ellipsis(b, inputs, ins):
    """Size-1 dims broadcast against the same label's size elsewhere (ellipsis broadcasting)."""
    size = {}
    for x, labels in zip(inputs, ins):
        for c, n in zip(labels, x.shape):
            size[c] = n if size.get(c, 1) == 1 else size[c]
    out = []
    for x, labels in zip(inputs, ins):
        want = [size[c] if n == 1 else n for c, n in zip(labels, x.shape)]
        out.append(b.broadcast_in_dim(x, want, list(range(len(want)))) if want != list(x.shape) else x)
    return out


def _sum_out(b, x, labels: str, keep: set):
    """Sum over the labels of `x` not in `keep` (labels used by one operand only)."""
    if any(labels.count(c) > 1 for c in labels):
        raise op_error("Einsum", f"repeated labels (diagonals) in {labels!r} are not supported by minixla yet")
    dims = [i for i, c in enumerate(labels) if c not in keep]
    if not dims:
        return x, labels
    return b.reduce(x, b.scalar(0, x.dtype), dims, "add"), "".join(c for c in labels if c in keep)


def einsum(b, inputs, equation):
    ins, out = _parse_einsum(equation, inputs)
    for x, labels in zip(inputs, ins):
        if len(labels) != len(x.shape):
            raise op_error("Einsum", f"Expected input to have rank {len(labels)} but got: {len(x.shape)}")
    inputs = _broadcast_ellipsis(b, inputs, ins)
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
    from minixla.frontend.builder import Spec

    return Spec(None, np.dtype(np.int64))  # [num_true, rank]: num_true is only known at run time


register("Where", ("input",), None, host=_where_host, infer=_where_infer)
