"""`minixla.distributed`: Horovod-style data parallelism outside the compiled step.

    import minixla.distributed as hvd
    hvd.init()
    opt = hvd.DistributedOptimizer(tf.keras.optimizers.Adam(1e-3))
    hvd.broadcast_variables(model.trainable_variables, root_rank=0)

Collectives run eagerly over MPI on the tensors' numpy buffers (an agreed
all-reduce up to 256 KiB in one native call whose staging buffer becomes the
result, larger ones straight into a pooled buffer: backends/mpi/fastpath.py);
the compiled step stays free of collectives. Run with `mpiexec -n N python train.py`.
"""

from __future__ import annotations

import numpy as np

from minixla.backends.mpi.fastpath import try_allreduce
from minixla.backends.mpi.runtime import EAGER, agree_world, allreduce_array, contiguous, world
from minixla.frontend.indexed_slices import densify
from minixla.frontend.tensor import Tensor

Average, Sum, Max, Min = "average", "sum", "maximum", "minimum"


def init() -> None:
    """Join the MPI world (a no-op without mpiexec: one process)."""
    world()


def rank() -> int:
    return world().rank


def size() -> int:
    return world().size


def local_rank() -> int:
    import os

    return int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK", os.environ.get("MPI_LOCALRANKID", world().rank)))


def _array(tensor) -> np.ndarray:
    """The operand's values, not copied: the collectives only read them (`Tensor.numpy()` copies, which
    cost a 512 KiB all-reduce a third of its time)."""
    if tensor.__class__ is np.ndarray:
        return tensor
    if isinstance(tensor, Tensor):
        return tensor._value if tensor._value is not None else tensor.numpy()  # (symbolic: numpy() raises)
    if hasattr(tensor, "_variable_value"):
        return tensor.numpy()
    return np.asarray(tensor)


_COMBINERS = {Average: "add", Sum: "add", Max: "maximum", Min: "minimum"}
_BY_OP: dict = {}  # op -> (the world's agreement, MPI reduction), once an all-reduce of it ran over MPI


def allreduce(tensor, average: bool | None = None, op: str = Average, name: str | None = None) -> Tensor:
    """Sum (or average, the default as in Horovod) of `tensor` over every process."""
    if average is not None:
        op = Average if average else Sum
    cls = tensor.__class__
    x = tensor if cls is np.ndarray else tensor._value if cls is Tensor else None
    if x is None:
        x = _array(tensor)
    hit = _BY_OP.get(op)  # an agreed small all-reduce: one round trip (backends/mpi/fastpath.py)
    out = try_allreduce(hit[0], x, hit[1]) if hit is not None else None
    if out is None:
        out = allreduce_array(x, _COMBINERS.get(op, op))
        if hit is None and EAGER.get(_COMBINERS.get(op, op)) is not None:
            _BY_OP[op] = EAGER[_COMBINERS.get(op, op)]
    if op == Average:
        out = _average(out, x.dtype)
    t = Tensor()  # (an eager Tensor over the fresh result: its spec follows from the array when read)
    t._value = out
    t._dt = out.dtype
    return t


def _average(out: np.ndarray, dtype) -> np.ndarray:
    """The sum divided by the number of processes (floats in place: every result is the caller's own)."""
    if out.dtype.kind == "f":
        np.true_divide(out, size(), out=out)
        return out
    return (out / size()).astype(dtype, copy=False)



def allgather(tensor, name: str | None = None) -> Tensor:
    """Every process's `tensor` concatenated along axis 0 (dims after the first must agree)."""
    x = _array(tensor)
    w = world()
    if w.comm is None:
        return Tensor.make(x.copy())
    return Tensor.make(np.concatenate(w.comm.allgather(contiguous(x)), axis=0))


def broadcast(tensor, root_rank: int = 0, name: str | None = None) -> Tensor:
    x = contiguous(_array(tensor)).copy()
    w = world()
    if w.comm is not None:
        agree_world(x, "broadcast")
        w.comm.Bcast(x, root=root_rank)
    return Tensor.make(x)


def broadcast_variables(variables, root_rank: int = 0) -> None:
    """Make every process's variables equal to root_rank's (call once after creating them)."""
    for var in variables:
        var.assign(broadcast(var, root_rank).numpy())


class DistributedOptimizer:
    """Wraps a Keras optimizer: `apply_gradients` averages each gradient over the processes first."""

    def __init__(self, optimizer, op: str = Average):
        self._optimizer, self._op = optimizer, op

    def apply_gradients(self, grads_and_vars, **kwargs):
        pairs = [(g if g is None else allreduce(g, op=self._op), v) for g, v in grads_and_vars]
        return self._optimizer.apply_gradients(pairs, **kwargs)

    def __getattr__(self, name):
        return getattr(self._optimizer, name)


class DistributedGradientTape:
    """Wraps a `tf.GradientTape`: `gradient` returns gradients averaged over the processes."""

    def __init__(self, tape, op: str = Average):
        self._tape, self._op = tape, op

    def gradient(self, target, sources, *args, **kwargs):
        grads = self._tape.gradient(target, sources, *args, **kwargs)
        if isinstance(grads, (list, tuple)):
            return type(grads)(g if g is None else allreduce(densify(g), op=self._op) for g in grads)
        return grads if grads is None else allreduce(densify(grads), op=self._op)

    def __getattr__(self, name):
        return getattr(self._tape, name)


__all__ = ["Average", "DistributedGradientTape", "DistributedOptimizer", "Max", "Min", "Sum", "allgather",
           "allreduce", "broadcast", "broadcast_variables", "init", "local_rank", "rank", "size"]
