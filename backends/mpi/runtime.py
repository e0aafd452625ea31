"""Collectives over MPI (mpi4py): one OS process per StableHLO process.

The MPI world is the process grid: rank = replica_id * num_partitions +
partition_id (`MINIXLA_NUM_PARTITIONS`, default 1). Each collective op runs on
numpy buffers with the matching MPI call on a communicator per process group
(made once with `Split` and cached), in place where MPI allows. Before the data
moves, the group checks that every member brings the same shapes and dtypes,
so a mismatch is an error naming the replicas instead of a hang or a
truncated message. Without mpi4py, or outside `mpiexec`, the world is one
process and every collective is the single-process case.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from functools import cache

import numpy as np
from xdsl.ir import Operation

from minixla.backends.mpi import fastpath, waiting
from minixla.dialects.hlo_ops.collective import channel_id, group_strategy, groups_of, process_groups


def contiguous(a) -> np.ndarray:
    """A C-contiguous array with the same shape (np.ascontiguousarray turns 0-d into 1-d)."""
    a = np.asarray(a)
    return a if a.flags.c_contiguous else np.array(a, order="C")


_POOL = fastpath.POOL


class CollectiveError(RuntimeError):
    """A collective could not run: mismatched operands across processes, or no MPI."""


@dataclass(frozen=True)
class World:
    comm: object | None  # mpi4py.MPI.Comm, None for a single process without mpi4py
    rank: int
    size: int
    num_partitions: int

    @property
    def num_replicas(self) -> int:
        return self.size // self.num_partitions

    @property
    def process(self) -> tuple[int, int]:
        return divmod(self.rank, self.num_partitions)


def mpi():
    """The mpi4py.MPI module, or a CollectiveError saying how to install it."""
    try:
        from mpi4py import MPI
    except ImportError as err:
        raise CollectiveError("multi-process collectives need mpi4py and an MPI: pip install 'minixla[mpi]'") from err
    return MPI


def _launched_by_mpi() -> bool:
    return any(k in os.environ for k in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"))


@cache
def world() -> World:
    """This process's place in the grid (MPI is initialized on first use)."""
    partitions = int(os.environ.get("MINIXLA_NUM_PARTITIONS", "1"))
    if not _launched_by_mpi():
        return World(None, 0, 1, 1)
    comm = mpi().COMM_WORLD
    if comm.size % partitions:
        raise CollectiveError(f"MINIXLA_NUM_PARTITIONS={partitions} does not divide the {comm.size} MPI processes")
    _abort_on_uncaught_exception(comm)
    fastpath.start(collective_timeout_s(), _timeout_message)
    waiting.install()  # blocking calls spin a while, then give the core away (shared cores)
    return World(comm, comm.rank, comm.size, partitions)


def _abort_on_uncaught_exception(comm) -> None:
    """A process that dies of an exception takes the others down with it (no peer waits forever)."""
    previous = sys.excepthook

    def hook(kind, value, tb):
        previous(kind, value, tb)
        sys.stderr.write(f"minixla: process {comm.rank} of {comm.size} failed; aborting every process\n")
        sys.stderr.flush()
        comm.Abort(1)

    sys.excepthook = hook


@cache
def _group_comm(groups: tuple[tuple[tuple[int, int], ...], ...]):
    """(communicator of my group, index of my group) for one grouping; collective over the world."""
    w = world()
    me = w.process
    color = next((i for i, g in enumerate(groups) if me in g), None)
    key = groups[color].index(me) if color is not None else 0
    MPI = mpi()
    sub = w.comm.Split(MPI.UNDEFINED if color is None else color, key)
    return (None if sub == MPI.COMM_NULL else sub), color


_GROUPS: dict[int, tuple[Operation, object, list | None]] = {}


def _group(op: Operation, ids: np.ndarray | None = None):
    """My group's communicator (None if I am in no group) and its member list, cached per op
    (`ids` defaults to the op's replica_groups)."""
    hit = _GROUPS.get(id(op))
    if hit is not None and hit[0] is op:
        return hit[1], hit[2]
    if ids is None:
        ids = groups_of(op.properties["replica_groups"], "replica_groups")
    comm, members = _make_group(op, ids)
    _GROUPS[id(op)] = (op, comm, members)
    return comm, members


def _make_group(op: Operation, ids: np.ndarray):
    w = world()
    groups = process_groups(group_strategy(op), ids, w.num_replicas, w.num_partitions)
    for g in groups:
        for r, p in g:
            if not (0 <= r < w.num_replicas and 0 <= p < w.num_partitions):
                raise CollectiveError(f"{op.name}: process ({r}, {p}) is outside the "
                                      f"{w.num_replicas}x{w.num_partitions} process grid of this run")
    frozen = tuple(tuple(g) for g in groups)
    if w.comm is None:  # one process: its group (if any) is itself
        mine = next((list(g) for g in frozen if w.process in g), None)
        return None, mine
    comm, color = _group_comm(frozen)
    return comm, (list(frozen[color]) if color is not None else None)


_SIGNATURES: dict = {}


def _signature(items) -> np.ndarray:
    """Two 63-bit fingerprints of shapes and dtypes; an Allreduce MAX of (h, -h) agrees in ~1 µs,
    where gathering the shapes as Python objects costs tens of µs per collective."""
    sig = _SIGNATURES.get(items)
    if sig is None:
        sig = _SIGNATURES[items] = _fingerprint(items)
    return sig


def _fingerprint(items) -> np.ndarray:
    import hashlib

    digest = hashlib.blake2b(repr(items).encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "little") & ((1 << 62) - 1)
    return np.array([value, -value], np.int64)


def collective_timeout_s() -> float:
    """How long a process waits for its group at a collective (`MINIXLA_COLLECTIVE_TIMEOUT_S`)."""
    return float(os.environ.get("MINIXLA_COLLECTIVE_TIMEOUT_S", "600"))


def _timeout_message(comm, what: str) -> tuple[object, str]:
    """What the watchdog (fastpath.WATCHDOG) prints before it ends every process: a peer that is alive
    but never arrives is something MPI itself cannot tell."""
    comm = comm if comm is not None else world().comm  # (a communicator the watchdog could not name)
    return world().comm, (f"minixla: {what}: replica {world().process[0]} (rank {world().rank}) waited "
                          f"{collective_timeout_s():.0f} s for the other {comm.size - 1} process(es) of its "
                          "group, which never arrived; aborting every process "
                          "(MINIXLA_COLLECTIVE_TIMEOUT_S sets the limit)\n")


def _same_everywhere(comm, items, what: str = "collective") -> bool:
    """Everyone's shapes/dtypes agree; doubles as the arrival check with a timeout."""
    fastpath.invalidate(comm)  # a process still on the all-reduce fast path learns that this is not it
    sig = _signature(items)
    out = sig.copy()
    fastpath.blocking_allreduce(comm, out, mpi().MAX, what)  # past the timeout the watchdog ends the run
    return bool(out[0] == sig[0] and out[1] == sig[1])


def _agree(comm, members, op: Operation, arrays: list[np.ndarray]) -> None:
    """Every member brings the same shapes and dtypes (else: an error naming who differs)."""
    mine = tuple((a.shape, a.dtype.str) for a in arrays)
    if _same_everywhere(comm, mine, op.name):
        return
    everyone = comm.allgather(mine)
    for member, theirs in zip(members, everyone):
        if theirs != everyone[0]:
            raise CollectiveError(
                f"{op.name}: operands differ across the group: replica {members[0][0]} partition {members[0][1]} "
                f"has {everyone[0]}, replica {member[0]} partition {member[1]} has {theirs}")


_MPI_OPS = {"hlo.add": "SUM", "hlo.multiply": "PROD", "hlo.maximum": "MAX", "hlo.minimum": "MIN",
            "hlo.and": "BAND", "hlo.or": "BOR", "hlo.xor": "BXOR"}


_REDUCTIONS: dict[int, tuple[Operation, str | None, object]] = {}


def _mpi_op(op: Operation) -> tuple[str | None, object]:
    """(name, MPI reduction op) equal to the computation region if it is one plain binary op, else
    (None, None); cached."""
    hit = _REDUCTIONS.get(id(op))
    if hit is not None and hit[0] is op:
        return hit[1], hit[2]
    name = _find_mpi_op(op)
    found = getattr(mpi(), name) if name is not None else None
    _REDUCTIONS[id(op)] = (op, name, found)
    return name, found


def _find_mpi_op(op: Operation) -> str | None:
    ops = list(op.regions[0].block.ops)
    if len(ops) == 2 and len(ops[0].operands) == 2:
        name = ops[0].name.replace("stablehlo.", "hlo.")
        args = list(op.regions[0].block.args)
        if name in _MPI_OPS and set(ops[0].operands) == set(args) and ops[1].operands[0] is ops[0].results[0]:
            return _MPI_OPS[name]
    return None


def _reduce_in_order(parts: list[np.ndarray], op: Operation, combine) -> np.ndarray:
    acc = parts[0]
    for part in parts[1:]:
        acc = combine(op, acc, part)
    return acc


def all_reduce(op: Operation, arrays: list[np.ndarray], combine, owned: bool = False) -> list[np.ndarray]:
    """`combine(op, a, b)` evaluates the region when it is not a plain MPI op; `owned`: the
    caller gives the buffers up, so MPI reduces in place (no output allocation)."""
    comm, members = _group(op)
    if comm is None:  # a group of one (or none): the operands themselves
        return [np.array(a, copy=True) for a in arrays]
    name, reduction = _mpi_op(op)
    state = fastpath.agreement(comm)
    if len(arrays) == 1:  # one round trip while every process brings what they last agreed on
        buf = contiguous(arrays[0])
        key = (buf.shape, buf.dtype, name)
        done = fastpath.try_allreduce(state, buf, name, owned and buf is arrays[0])
        if done is not None:
            return [done]
    _agree(comm, members, op, arrays)
    out = []
    for a in arrays:
        buf = contiguous(a)
        if reduction is not None and buf.dtype.kind in "biuf" and buf.dtype.name not in ("bfloat16", "float16"):
            if owned and buf is a and buf.flags.writeable:
                comm.Allreduce(mpi().IN_PLACE, buf, op=reduction)
                out.append(buf)
                continue
            result = _POOL.empty(buf.shape, buf.dtype)  # MPI writes the result straight into it
            comm.Allreduce(buf, result, op=reduction)
            out.append(result)
        else:  # general computation (or a dtype MPI lacks): gather, then reduce in group order
            out.append(_reduce_in_order(comm.allgather(buf), op, combine))
    if len(arrays) == 1:
        state.record(key, buf, name, reduction, owned)
    return out


def all_gather(op: Operation, arrays: list[np.ndarray]) -> list[np.ndarray]:
    comm, members = _group(op)
    dim = op.properties["all_gather_dim"].value.data
    if comm is None:
        return [np.array(a, copy=True) for a in arrays]
    _agree(comm, members, op, arrays)
    out = []
    for a in arrays:
        buf = contiguous(a)
        recv = np.empty((comm.size, *buf.shape), buf.dtype)
        comm.Allgather(buf, recv)
        out.append(np.concatenate(list(recv), axis=dim))
    return out


def reduce_scatter(op: Operation, arrays: list[np.ndarray], combine) -> list[np.ndarray]:
    dim = op.properties["scatter_dimension"].value.data
    (reduced,) = all_reduce(op, arrays[:1], combine)
    comm, members = _group(op)
    if comm is None:
        return [reduced]
    return [contiguous(np.split(reduced, comm.size, axis=dim)[comm.rank])]


def all_to_all(op: Operation, arrays: list[np.ndarray]) -> list[np.ndarray]:
    comm, members = _group(op)
    split = op.properties["split_dimension"].value.data
    concat = op.properties["concat_dimension"].value.data
    if comm is None:
        return [np.array(a, copy=True) for a in arrays]
    _agree(comm, members, op, arrays)
    out = []
    for a in arrays:
        send = contiguous(np.stack(np.split(a, comm.size, axis=split)))
        recv = np.empty_like(send)
        comm.Alltoall(send, recv)
        out.append(np.concatenate(list(recv), axis=concat))
    return out


def _axis_comm(op: Operation):
    """Everyone along the op's axis (replicas, or partitions with a channel), with my index on it."""
    w = world()
    replica, partition = w.process
    if group_strategy(op) == "cross_replica":
        ids = np.arange(w.num_replicas).reshape(1, -1)
    else:
        ids = np.arange(w.num_partitions).reshape(1, -1)
    comm, members = _group(op, ids)
    return comm, members


def collective_permute(op: Operation, arrays: list[np.ndarray]) -> list[np.ndarray]:
    (x,) = arrays
    comm, members = _axis_comm(op)
    pairs = [tuple(p) for p in groups_of(op.properties["source_target_pairs"], "source_target_pairs").tolist()]
    me = comm.rank if comm is not None else 0
    target = next((t for s, t in pairs if s == me), None)
    source = next((s for s, t in pairs if t == me), None)
    if comm is None or comm.size == 1:
        return [np.array(x, copy=True) if source == me else np.zeros_like(x)]
    out = np.zeros_like(contiguous(x))
    MPI = mpi()
    requests = []
    if target is not None:
        requests.append(comm.Isend(contiguous(x), dest=target, tag=channel_id(op)))
    if source is not None:
        requests.append(comm.Irecv(out, source=source, tag=channel_id(op)))
    MPI.Request.Waitall(requests)
    return [out]


def collective_broadcast(op: Operation, arrays: list[np.ndarray]) -> list[np.ndarray]:
    dynamic = "has_dynamic_root" in op.properties
    data = arrays[:-1] if dynamic else arrays
    roots = [int(r) for r in np.asarray(arrays[-1]).reshape(-1)] if dynamic else [0] * len(data)
    comm, members = _group(op)
    if comm is None:  # in a group of one I am the root; in none I get zeros
        return [np.array(a, copy=True) if members else np.zeros_like(a) for a in data]
    _agree(comm, members, op, data)
    out = []
    for a, root in zip(data, roots):
        buf = contiguous(a).copy()
        comm.Bcast(buf, root=root)
        out.append(buf)
    return out


def collective_reduce(op: Operation, arrays: list[np.ndarray], combine) -> list[np.ndarray]:
    dynamic = "has_dynamic_root" in op.properties
    data = arrays[:-1] if dynamic else arrays
    roots = [int(r) for r in np.asarray(arrays[-1]).reshape(-1)] if dynamic else [0] * len(data)
    comm, members = _group(op)
    if comm is None:
        return [np.array(a, copy=True) if members else np.zeros_like(a) for a in data]
    _agree(comm, members, op, data)
    out = []
    for a, root in zip(data, roots):
        parts = comm.allgather(contiguous(a))
        out.append(_reduce_in_order(parts, op, combine) if comm.rank == root else np.zeros_like(a))
    return out


def replica_id(op: Operation, arrays: list[np.ndarray]) -> list[np.ndarray]:
    return [np.array(world().process[0], np.uint32)]


def partition_id(op: Operation, arrays: list[np.ndarray]) -> list[np.ndarray]:
    return [np.array(world().process[1], np.uint32)]


_COMBINER_OPS = {"add": "SUM", "multiply": "PROD", "maximum": "MAX", "minimum": "MIN"}


#: combiner -> (the world's agreement, MPI reduction name), once MPI runs (callers may try the fast path first)
EAGER: dict[str, tuple] = {}


def allreduce_array(x: np.ndarray, combiner: str = "add") -> np.ndarray:
    """Eager all-reduce of one array over every process (what the frontend's eager
    `all_reduce` and the Horovod-style API call); a copy with one process."""
    hit = EAGER.get(combiner)
    if hit is not None and x.__class__ is np.ndarray:
        done = fastpath.try_allreduce(hit[0], x, hit[1])
        if done is not None:
            return done
    x = contiguous(x)
    w = world()
    if w.comm is None or w.size == 1:
        return x.copy()
    if combiner not in _COMBINER_OPS:
        raise CollectiveError(f"all_reduce: no MPI reduction for combiner {combiner!r}")
    name = _COMBINER_OPS[combiner]
    state = fastpath.agreement(w.comm)
    key = (x.shape, x.dtype, name)
    if hit is None or x.__class__ is not np.ndarray:  # (else tried above)
        done = fastpath.try_allreduce(state, x, name)
        if done is not None:
            return done
    EAGER[combiner] = (state, name)
    agree_world(x, "all_reduce")
    if x.dtype.name in ("bfloat16", "float16"):  # MPI has no such types: reduce in f32
        wide = x.astype(np.float32)
        out = np.empty_like(wide)
        w.comm.Allreduce(wide, out, op=getattr(mpi(), name))
        out = out.astype(x.dtype)
    else:
        out = _POOL.empty(x.shape, x.dtype)
        w.comm.Allreduce(x, out, op=getattr(mpi(), name))
    state.record(key, x, name, getattr(mpi(), name))
    return out


def agree_world(x: np.ndarray, what: str) -> None:
    """Every process brings the same shape and dtype (else an error naming the first that differs)."""
    w = world()
    if _same_everywhere(w.comm, (tuple(x.shape), x.dtype.str), what):
        return
    everyone = w.comm.allgather((tuple(x.shape), x.dtype.str))
    for rank, theirs in enumerate(everyone):
        if theirs != everyone[0]:
            raise CollectiveError(f"{what}: operands differ across processes: replica 0 has shape "
                                  f"{list(everyone[0][0])} {everyone[0][1]}, replica {rank} has "
                                  f"{list(theirs[0])} {theirs[1]}")


#: op mnemonic -> (runner, needs the region combiner)
HOST_COLLECTIVES = {
    "all_reduce": (all_reduce, True), "all_gather": (all_gather, False), "reduce_scatter": (reduce_scatter, True),
    "all_to_all": (all_to_all, False), "collective_permute": (collective_permute, False),
    "collective_broadcast": (collective_broadcast, False), "collective_reduce": (collective_reduce, True),
    "replica_id": (replica_id, False), "partition_id": (partition_id, False),
}


class AllReduceRunner:
    """`arrays -> results` for one compiled all_reduce op (and `one(x)` for a single operand): after
    its first call, an agreed operand goes straight to the one-round-trip path, with no per-call
    group or reduction lookups."""

    def __init__(self, op: Operation, combine, owned: bool = False):
        self.op, self.combine, self.owned, self.state, self.name = op, combine, owned, None, None

    def __call__(self, arrays: list) -> list:
        if self.state is not None and len(arrays) == 1:
            buf = arrays[0]
            done = fastpath.try_allreduce(self.state, buf, self.name, self.owned)
            if done is not None:
                return [done]
        out = all_reduce(self.op, arrays, self.combine, self.owned)
        comm, _ = _group(self.op)
        if comm is not None and self.state is None:
            self.state, self.name = fastpath.agreement(comm), _mpi_op(self.op)[0]
        return out

    def one(self, x: np.ndarray) -> np.ndarray:
        if self.state is not None:
            done = fastpath.try_allreduce(self.state, x, self.name, self.owned)
            if done is not None:
                return done
        return self([x])[0]


def run_collective(op: Operation, arrays: list[np.ndarray], combine, owned: bool = False) -> list[np.ndarray]:
    """Run one collective op of this process on numpy arrays (`owned`: the arrays may be overwritten)."""
    mnemonic = op.name.split(".", 1)[1]
    if mnemonic == "all_reduce":
        return all_reduce(op, arrays, combine, owned)
    runner, needs_combine = HOST_COLLECTIVES[mnemonic]
    return runner(op, arrays, combine) if needs_combine else runner(op, arrays)
