"""`tf.distribute`: MirroredStrategy and MultiWorkerMirroredStrategy with one
replica per process (run under `mpiexec -n N`; without it, one replica).

`strategy.run(fn, args)` calls `fn` as this process's replica;
`get_replica_context().all_reduce(...)` and `strategy.reduce(...)` become the
`XlaAllReduce` TF op, so inside `tf.function(jit_compile=True)` the gradient
all-reduce is an `hlo.all_reduce` in the compiled program (run over MPI between
native segments, backends/cpu/collectives.py), and eagerly an MPI Allreduce.
`experimental_distribute_dataset` gives each process its shard of every global
batch. Several logical replicas inside one process are not supported.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable

import numpy as np

from minixla.backends.mpi.runtime import world
from minixla.frontend import nest
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.execute import execute
from minixla.frontend.tensor import Tensor


class ReduceOp:
    """TF's `tf.distribute.ReduceOp`."""

    SUM = "SUM"
    MEAN = "MEAN"


_TF_REDUCE = {ReduceOp.SUM: "Add", ReduceOp.MEAN: "Mean", "sum": "Add", "mean": "Mean"}
_local = threading.local()


def _reduce_op(reduce_op) -> str:
    key = reduce_op if isinstance(reduce_op, str) else getattr(reduce_op, "value", str(reduce_op))
    key = key.upper() if key.lower() in ("sum", "mean") else key
    if key not in _TF_REDUCE:
        raise ValueError(f"reduce_op must be tf.distribute.ReduceOp.SUM or MEAN, got {reduce_op!r}")
    return _TF_REDUCE[key]


def _all_reduce_value(reduce_op: str, value):
    n = world().num_replicas
    groups = np.arange(n, dtype=np.int32).reshape(1, n)
    return execute("XlaAllReduce", [value, groups], {"reduce_op": reduce_op, "mode": "CrossReplica"})


class ReplicaContext:
    """What `fn` sees inside `strategy.run`: its replica id and the cross-replica all-reduce."""

    def __init__(self, strategy: Strategy):
        self.strategy = strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return self.strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self) -> int:
        return world().process[0]

    def all_reduce(self, reduce_op, value, options=None):
        """Sum or mean of `value` (a nest of tensors) over all replicas."""
        op = _reduce_op(reduce_op)
        return nest.rebuild(*_map_leaves(value, lambda v: _all_reduce_value(op, v)))

    def merge_call(self, merge_fn: Callable, args=(), kwargs=None):
        return merge_fn(self.strategy, *args, **(kwargs or {}))


def _map_leaves(value, fn):
    leaves: list = []
    structure = nest.flatten(value, leaves)
    return structure, [fn(v) if v is not None else None for v in leaves]


class Strategy:
    """Data parallelism with one replica per MPI process."""

    def __init__(self, devices: Iterable[str] | None = None, cross_device_ops=None, communication_options=None):
        if devices is not None and len(list(devices)) > 1:
            raise InvalidArgumentError(
                "minixla runs one replica per process: launch N processes with `mpiexec -n N` "
                "instead of listing several devices")
        self._replica_context = ReplicaContext(self)

    @property
    def num_replicas_in_sync(self) -> int:
        return world().num_replicas

    @property
    def cluster_resolver(self):
        return None

    @contextlib.contextmanager
    def scope(self):
        """Variables created here are mirrored: every process creates the same values from the same
        seed, and `broadcast_variables` (minixla.distributed) can make them equal explicitly."""
        previous = getattr(_local, "strategy", None)
        _local.strategy = self
        try:
            yield self
        finally:
            _local.strategy = previous

    def run(self, fn: Callable, args=(), kwargs=None, options=None):
        """Run `fn` as this process's replica (in a replica context)."""
        previous = getattr(_local, "replica", None)
        _local.replica = self._replica_context
        try:
            return fn(*args, **(kwargs or {}))
        finally:
            _local.replica = previous

    def reduce(self, reduce_op, value, axis=None):
        """Reduce per-replica `value` across replicas (and over `axis` first, as TF does)."""
        from minixla.frontend.api import core as api

        op = _reduce_op(reduce_op)
        if axis is None:
            return nest.rebuild(*_map_leaves(value, lambda v: _all_reduce_value(op, v)))

        def over_axis(v):
            total = _all_reduce_value("Add", api.reduce_sum(v, axis=axis))
            if op == "Mean":  # the mean over every replica's elements along `axis`
                count = _all_reduce_value("Add", api.cast(api.shape(v)[axis], total.dtype))
                return total / count
            return total
        return nest.rebuild(*_map_leaves(value, over_axis))

    def experimental_distribute_dataset(self, dataset, options=None):
        """Each process iterates over its contiguous shard of every global batch."""
        return _ShardedBatches(dataset, world().rank, world().num_replicas)

    def distribute_datasets_from_function(self, dataset_fn: Callable, options=None):
        return dataset_fn(InputContext(world().num_replicas, world().rank))

    def experimental_local_results(self, value):
        return (value,)

    def gather(self, value, axis):
        """Concatenate every replica's `value` along `axis` (eager)."""
        w = world()
        local = value.numpy() if isinstance(value, Tensor) else np.asarray(value)
        if w.comm is None:
            return Tensor.make(local)
        return Tensor.make(np.concatenate(w.comm.allgather(local), axis=axis))


class MirroredStrategy(Strategy):
    """`tf.distribute.MirroredStrategy`: synchronous data parallelism."""


class MultiWorkerMirroredStrategy(Strategy):
    """`tf.distribute.MultiWorkerMirroredStrategy`: the same, over processes on several machines
    (an MPI hostfile: `mpiexec -n 8 --hostfile hosts python train.py`)."""


class InputContext:
    def __init__(self, num_input_pipelines: int, input_pipeline_id: int):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_input_pipelines

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"the global batch size {global_batch_size} is not divisible by "
                             f"{self.num_replicas_in_sync} replicas")
        return global_batch_size // self.num_replicas_in_sync


class _ShardedBatches:
    def __init__(self, batches, rank: int, n: int):
        self.batches, self.rank, self.n = batches, rank, n

    def __iter__(self):
        for batch in self.batches:
            leaves: list = []
            structure = nest.flatten(batch, leaves)
            shards = []
            for leaf in leaves:
                arr = leaf.numpy() if isinstance(leaf, Tensor) else np.asarray(leaf)
                if len(arr) % self.n:
                    raise InvalidArgumentError(f"a global batch of {len(arr)} does not split "
                                               f"evenly over {self.n} replicas")
                size = len(arr) // self.n
                shards.append(Tensor.make(arr[self.rank * size:(self.rank + 1) * size]))
            yield nest.rebuild(structure, shards)


_DEFAULT = Strategy()


def get_strategy() -> Strategy:
    return getattr(_local, "strategy", None) or _DEFAULT


def has_strategy() -> bool:
    return getattr(_local, "strategy", None) is not None


def get_replica_context() -> ReplicaContext | None:
    """The replica context inside `strategy.run`; outside a strategy scope, the default one; inside a
    scope but outside `run` (cross-replica context), None, as in TF."""
    replica = getattr(_local, "replica", None)
    if replica is not None:
        return replica
    return None if has_strategy() else _DEFAULT._replica_context


def in_cross_replica_context() -> bool:
    return has_strategy() and getattr(_local, "replica", None) is None


__all__ = ["InputContext", "MirroredStrategy", "MultiWorkerMirroredStrategy", "ReduceOp", "ReplicaContext",
           "Strategy", "get_replica_context", "get_strategy", "has_strategy", "in_cross_replica_context"]
