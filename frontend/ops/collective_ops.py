"""`XlaAllReduce`: tf2xla's all-reduce, which MirroredStrategy's gradient
all-reduce becomes under XLA; one `hlo.all_reduce` over every replica (a
replica is a process under mpiexec, backends/mpi). Eagerly it runs the MPI
reduction at once; with one process it is the identity (Mean divides by 1).
"""

from __future__ import annotations

import numpy as np

from minixla.backends.mpi.runtime import world
from minixla.frontend.errors import UnimplementedError
from minixla.frontend.ops.registry import register, register_gradient

_COMBINERS = {"Add": "add", "Mul": "multiply", "Min": "minimum", "Max": "maximum", "Mean": "add"}


def num_replicas() -> int:
    w = world()
    return w.num_replicas


def _check_groups(group_assignment: np.ndarray) -> None:
    """Only the group of all replicas (what MirroredStrategy uses) is supported."""
    groups = np.asarray(group_assignment).reshape(-1, np.asarray(group_assignment).shape[-1]) \
        if np.asarray(group_assignment).size else np.zeros((0, 0))
    n = num_replicas()
    if groups.size and sorted(groups.reshape(-1).tolist()) != list(range(n)) or len(groups) > 1:
        raise UnimplementedError(f"XlaAllReduce: only one group of all {n} replicas is supported, "
                                 f"got group_assignment {np.asarray(group_assignment).tolist()}")


def xla_all_reduce(b, input, group_assignment, reduce_op="Add", mode="CrossReplica"):
    if reduce_op not in _COMBINERS:
        raise UnimplementedError(f"XlaAllReduce: reduce_op {reduce_op!r} (expected one of {sorted(_COMBINERS)})")
    if mode != "CrossReplica":
        raise UnimplementedError(f"XlaAllReduce: mode {mode!r} (only CrossReplica: one process per replica)")
    _check_groups(group_assignment)
    out = b.all_reduce(input, _COMBINERS[reduce_op])
    if reduce_op == "Mean":
        out = b.divide(out, b.full(tuple(input.shape), num_replicas(), np.dtype(input.dtype)))
    return out


register("XlaAllReduce", ("input", "group_assignment"), xla_all_reduce, const_inputs=("group_assignment",),
         attrs={"reduce_op": "Add", "mode": "CrossReplica"})


@register_gradient("XlaAllReduce")
def _all_reduce_grad(b, op, dy):
    """d(sum over replicas)/dx_r = the sum of every replica's cotangent (Mean: divided by the count)."""
    reduce_op = op.attrs["reduce_op"]
    if reduce_op not in ("Add", "Mean"):
        raise UnimplementedError(f"no gradient for XlaAllReduce with reduce_op {reduce_op!r}")
    grad = b.all_reduce(dy, "add")
    if reduce_op == "Mean":
        grad = b.divide(grad, b.full(tuple(dy.shape), num_replicas(), np.dtype(dy.dtype)))
    return [grad, None]
