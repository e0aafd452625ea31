"""reduce -> one reduction `linalg.generic` (any number of inputs; outputs
start as the init values; the body region is inlined as scalar ops);
reduce_window -> pad with the init value (base dilation = interior padding),
then a generic over (output dims, window dims) with strided/dilated maps;
all_reduce -> its operands (one process is one replica)."""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation


from minixla.dialects import hlo
from minixla.dialects.hlo_ops.base import ints

from minixla.passes.hlo_to_linalg.common import PARALLEL, REDUCTION, amap, d, elem, fill, generic, identity, shape_of
from minixla.passes.hlo_to_linalg.scalar_region import inline_scalar_region
from minixla.passes.hlo_to_linalg.shape import pad
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering


@lowering(hlo.ReduceOp)
def lower_reduce(lw: Lowerer, op: Operation):
    xs, inits = lw.vs(op.inputs), lw.vs(op.init_values)
    n = len(xs)
    shape = shape_of(xs[0])
    rank = len(shape)
    dims = set(ints(op.dimensions))
    kept = [k for k in range(rank) if k not in dims]
    outs = [fill(lw.e, init, [shape[k] for k in kept]) for init in inits]
    maps = [identity(rank)] * n + [amap(rank, kept)] * n
    iters = [REDUCTION if k in dims else PARALLEL for k in range(rank)]

    def body(b, a):
        return inline_scalar_region(b, op.body, [*a[n:], *a[:n]])

    return generic(lw.e, xs, outs, maps, iters, body)


@lowering(hlo.ReduceWindowOp)
def lower_reduce_window(lw: Lowerer, op: Operation):
    xs, inits = lw.vs(op.inputs), lw.vs(op.init_values)
    n = len(xs)
    rank = len(shape_of(xs[0]))
    window, strides, base_dil, win_dil, pads = op.window(rank)
    if any(p != (0, 0) for p in pads) or any(v != 1 for v in base_dil):
        xs = [pad(lw.e, x, init, [p[0] for p in pads], [p[1] for p in pads], [v - 1 for v in base_dil],
                  _padded_shape(shape_of(x), pads, base_dil)) for x, init in zip(xs, inits)]
    out_shape = shape_of(op.results[0].type)
    outs = [fill(lw.e, init, out_shape) for init in inits]
    loops = 2 * rank  # output dims, then window dims
    in_map = amap(loops, [d(k) * strides[k] + d(rank + k) * win_dil[k] for k in range(rank)])
    win = lw.e(tensor.EmptyOp([], TensorType(elem(xs[0].type), list(window))))  # carries the window bounds
    maps = [in_map] * n + [amap(loops, [rank + k for k in range(rank)])] + [amap(loops, list(range(rank)))] * n
    iters = [PARALLEL] * rank + [REDUCTION] * rank

    def body(b, a):
        return inline_scalar_region(b, op.body, [*a[n + 1:], *a[:n]])

    return generic(lw.e, [*xs, win], outs, maps, iters, body)


def _padded_shape(shape, pads, base_dil):
    return [(0 if s == 0 else (s - 1) * bd + 1) + lo + hi for s, (lo, hi), bd in zip(shape, pads, base_dil)]





@lowering(hlo.AllReduceOp)
def lower_all_reduce(lw: Lowerer, op: Operation):
    """A compiled program is one process, i.e. one replica (as in the
    interpreter): every replica group holds only this replica, so the
    reduction over it is the operand itself; no computation and no copy
    (bufferization copies if a result is later written in place)."""
    return lw.vs(op.operands)
