"""Tensor creation, identity and metadata ops (category 1).

Shapes of created tensors are compile-time constants, so `Fill`, `Range`,
`OneHot` and the metadata ops (`Shape`, `Size`, `Rank`, static under XLA)
become constants, iotas and broadcasts.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import REQUIRED, op_error, register


def const(b, value, dtype=None):
    return b.constant(value, dtype)


register("Const", (), const, attrs={"value": REQUIRED, "dtype": None})


def identity(b, input):
    return input


register("Identity", ("input",), identity)
register("StopGradient", ("input",), identity)
register("Snapshot", ("input",), identity)


def fill(b, dims, value):
    shape = [int(d) for d in np.asarray(dims).reshape(-1)]
    if any(d < 0 for d in shape):
        raise op_error("Fill", f"dims must be non-negative, got {shape}")
    if tuple(value.shape) != ():
        raise op_error("Fill", f"value must be a scalar, got shape [{','.join(map(str, value.shape))}]")
    return b.broadcast_in_dim(value, shape, []) if shape else value


register("Fill", ("dims", "value"), fill, const_inputs=("dims",))


def zeros_like(b, x):
    return b.full(x.shape, 0, x.dtype)


def ones_like(b, x):
    return b.full(x.shape, 1, x.dtype)


register("ZerosLike", ("x",), zeros_like)
register("OnesLike", ("x",), ones_like)


def range_(b, start, limit, delta):
    """iota * delta + start, with the length computed statically."""
    s, l, d = (np.asarray(v).reshape(()) for v in (start, limit, delta))
    dt = np.result_type(s, l, d)
    if d == 0:
        raise op_error("Range", "Requires delta != 0: 0")
    if (d > 0 and s > l) or (d < 0 and s < l):
        raise op_error("Range", f"Requires start <= limit when delta > 0: {s}/{l}" if d > 0
                       else f"Requires start >= limit when delta < 0: {s}/{l}")
    n = int(np.ceil(np.abs((l.astype(np.float64) - s) / d)))
    ramp = b.iota([n], 0, dt)
    return b.add(b.multiply(ramp, b.full([n], d, dt)), b.full([n], s, dt))


register("Range", ("start", "limit", "delta"), range_, const_inputs=("start", "limit", "delta"))


def shape_op(b, input, out_type=np.int32):
    return b.constant(np.array(input.shape, dtype=out_type).reshape(len(input.shape)))


def size_op(b, input, out_type=np.int32):
    return b.constant(np.array(int(np.prod(input.shape, dtype=np.int64)), dtype=out_type))


def rank_op(b, input):
    return b.constant(np.array(len(input.shape), dtype=np.int32))


register("Shape", ("input",), shape_op, attrs={"out_type": np.int32})
register("Size", ("input",), size_op, attrs={"out_type": np.int32})
register("Rank", ("input",), rank_op)


def one_hot(b, indices, depth, on_value, off_value, axis=-1):
    """iota == broadcast(indices) selects on/off values (tf2xla's OneHot)."""
    n = int(np.asarray(depth).reshape(()))
    rank = len(indices.shape) + 1
    ax = axis % rank
    out_shape = list(indices.shape)
    out_shape.insert(ax, n)
    idx = b.broadcast_in_dim(indices, out_shape, [d for d in range(rank) if d != ax])
    ramp = b.iota(out_shape, ax, indices.dtype)
    hit = b.compare(idx, ramp, "EQ")
    on = b.broadcast_in_dim(b.reshape(on_value, []), out_shape, [])
    off = b.broadcast_in_dim(b.reshape(off_value, []), out_shape, [])
    return b.select(hit, on, off)


register("OneHot", ("indices", "depth", "on_value", "off_value"), one_hot, attrs={"axis": -1},
         const_inputs=("depth",), typed=("on_value", "off_value"))
