"""The StableHLO process grid on the reference interpreter: `interpreter.run_parallel`
runs one thread per process (replica x partition), and the collective,
point-to-point and feed ops meet through a shared `ProcessGrid`.

Processes rendezvous per (process group, channel, n-th use), so repeated
collectives on one channel pair up in program order, as StableHLO's interpreter
does. Nothing hangs: a process that fails aborts the grid, and a rendezvous
that waits longer than `RENDEZVOUS_TIMEOUT_S` fails naming the missing processes.
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections import defaultdict, deque
from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation

from minixla.backends.interpreter.errors import InterpreterError
from minixla.backends.interpreter.evaluator import Interpreter
from minixla.backends.interpreter.op_table import impl
from minixla.dialects.hlo_ops.collective import channel_id, group_strategy, groups_of, process_groups

RENDEZVOUS_TIMEOUT_S = 60.0

Process = tuple[int, int]  # (replica_id, partition_id)


class Token:
    """The runtime value of `!hlo.token`: no data, only ordering."""

    def __repr__(self) -> str:
        return "token"


def token() -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = Token()
    return out


@dataclass
class _Slot:
    size: int
    values: dict[Process, list[np.ndarray]] = field(default_factory=dict)
    readers: int = 0


class ProcessGrid:
    """num_replicas x num_partitions processes sharing rendezvous slots, channels and feeds."""

    def __init__(self, num_replicas: int, num_partitions: int, infeed: list[np.ndarray] | None = None):
        self.num_replicas, self.num_partitions = num_replicas, num_partitions
        self.cond = threading.Condition()
        self.slots: dict[tuple, _Slot] = {}
        self.channels: dict[int, deque] = defaultdict(deque)
        self.infeed: deque = deque(infeed or [])
        self.outfeed: list[list[np.ndarray]] = []
        self.failed: str | None = None
        self.print_lock = threading.Lock()

    def group_of(self, op: Operation, process: Process, strategy: str, ids: np.ndarray) -> list[Process] | None:
        for group in process_groups(strategy, ids, self.num_replicas, self.num_partitions):
            if process in group:
                for member in group:
                    if not (0 <= member[0] < self.num_replicas and 0 <= member[1] < self.num_partitions):
                        raise InterpreterError(f"{op.name}: process {member} is outside the "
                                               f"{self.num_replicas}x{self.num_partitions} process grid")
                return group
        return None

    # -- synchronization ----------------------------------------------------------

    def fail(self, message: str) -> None:
        with self.cond:
            if self.failed is None:
                self.failed = message
            self.cond.notify_all()

    def _wait(self, ready, what: str, missing) -> None:
        if not self.cond.wait_for(lambda: ready() or self.failed is not None, timeout=RENDEZVOUS_TIMEOUT_S):
            raise InterpreterError(f"{what}: timed out after {RENDEZVOUS_TIMEOUT_S:.0f} s waiting for {missing()}")
        if self.failed is not None and not ready():
            raise InterpreterError(f"{what}: aborted because another process failed: {self.failed}")

    def exchange(self, key: tuple, group: list[Process], process: Process,
                 values: list[np.ndarray], what: str) -> dict[Process, list[np.ndarray]]:
        """Contribute `values` for `process` and return every member's contribution."""
        with self.cond:
            slot = self.slots.setdefault(key, _Slot(len(group)))
            slot.values[process] = values
            self.cond.notify_all()
            self._wait(lambda: len(slot.values) == slot.size, what,
                       lambda: f"processes {sorted(set(group) - set(slot.values))}")
            slot.readers += 1
            if slot.readers == slot.size:
                del self.slots[key]
            return dict(slot.values)

    def send(self, channel: int, values: list[np.ndarray]) -> None:
        with self.cond:
            self.channels[channel].append(values)
            self.cond.notify_all()

    def recv(self, channel: int, what: str) -> list[np.ndarray]:
        with self.cond:
            queue = self.channels[channel]
            self._wait(lambda: bool(queue), what, lambda: f"a send on channel {channel}")
            return queue.popleft()


@dataclass
class ProcessContext:
    grid: ProcessGrid
    process: Process
    uses: dict[tuple, int] = field(default_factory=lambda: defaultdict(int))

    def next_key(self, op: Operation, group: list[Process]) -> tuple:
        """Rendezvous key: group, channel and how many times this process used that pair."""
        base = (tuple(group), channel_id(op))
        n = self.uses[base]
        self.uses[base] += 1
        return (*base, n)


def _context(interp: Interpreter) -> ProcessContext:
    ctx = getattr(interp, "process_context", None)
    if ctx is None:  # outside run_parallel: a 1x1 grid
        ctx = interp.process_context = ProcessContext(ProcessGrid(1, 1), (0, 0))
    return ctx


def _gather(op: Operation, interp: Interpreter, values: list[np.ndarray], strategy: str, ids: np.ndarray):
    """(group, index of this process, contributions in group order); group None if not a member."""
    ctx = _context(interp)
    group = ctx.grid.group_of(op, ctx.process, strategy, ids)
    if group is None:
        return None, -1, []
    got = ctx.grid.exchange(ctx.next_key(op, group), group, ctx.process, values,
                            f"{op.name} in process {ctx.process}")
    return group, group.index(ctx.process), [got[p] for p in group]


def _reduce(interp: Interpreter, op: Operation, parts: list[np.ndarray]) -> np.ndarray:
    combine = interp.combiner(op.regions[0])
    acc = parts[0]
    for part in parts[1:]:
        acc = combine([acc], [part])[0]
    return np.asarray(acc, dtype=np.asarray(parts[0]).dtype)


@impl("hlo.replica_id")
def _replica_id(op, args, interp):
    return np.array(_context(interp).process[0], dtype=np.uint32)


@impl("hlo.partition_id")
def _partition_id(op, args, interp):
    return np.array(_context(interp).process[1], dtype=np.uint32)


@impl("hlo.all_reduce")
def _all_reduce(op, args, interp):
    group, _, parts = _gather(op, interp, list(args), group_strategy(op),
                              groups_of(op.properties["replica_groups"], "replica_groups"))
    return [_reduce(interp, op, [p[i] for p in parts]) for i in range(len(args))]


@impl("hlo.all_gather")
def _all_gather(op, args, interp):
    dim = op.properties["all_gather_dim"].value.data
    _, _, parts = _gather(op, interp, list(args), group_strategy(op),
                          groups_of(op.properties["replica_groups"], "replica_groups"))
    return [np.concatenate([p[i] for p in parts], axis=dim) for i in range(len(args))]


@impl("hlo.reduce_scatter")
def _reduce_scatter(op, args, interp):
    dim = op.properties["scatter_dimension"].value.data
    group, index, parts = _gather(op, interp, list(args), group_strategy(op),
                                  groups_of(op.properties["replica_groups"], "replica_groups"))
    reduced = _reduce(interp, op, [p[0] for p in parts])
    return np.split(reduced, len(group), axis=dim)[index]


@impl("hlo.all_to_all")
def _all_to_all(op, args, interp):
    split = op.properties["split_dimension"].value.data
    concat = op.properties["concat_dimension"].value.data
    count = op.properties["split_count"].value.data
    _, index, parts = _gather(op, interp, list(args), group_strategy(op),
                              groups_of(op.properties["replica_groups"], "replica_groups"))
    return [np.concatenate([np.split(p[i], count, axis=split)[index] for p in parts], axis=concat)
            for i in range(len(args))]


def _send_to_targets(op, interp, pairs: list[tuple[int, int]], values: list[np.ndarray], strategy: str):
    """collective_permute/broadcast as one rendezvous over the whole grid axis: every process
    contributes, then each picks its source's values (zeros if it has none)."""
    ctx = _context(interp)
    replica, partition = ctx.process
    if strategy == "cross_replica":
        group = [(r, partition) for r in range(ctx.grid.num_replicas)]
        me = replica
    else:
        group = [(replica, p) for p in range(ctx.grid.num_partitions)]
        me = partition
    got = ctx.grid.exchange(ctx.next_key(op, group), group, ctx.process, values, f"{op.name} in process {ctx.process}")
    source = next((s for s, t in pairs if t == me), None)
    if source is None:
        return [np.zeros_like(v) for v in values]
    if not 0 <= source < len(group):
        raise InterpreterError(f"{op.name}: source {source} is outside the process grid")
    return [np.array(v, copy=True) for v in got[group[source]]]


@impl("hlo.collective_permute")
def _collective_permute(op, args, interp):
    pairs = [tuple(p) for p in groups_of(op.properties["source_target_pairs"], "source_target_pairs").tolist()]
    return _send_to_targets(op, interp, pairs, list(args), group_strategy(op))[0]


def _roots(op, args) -> tuple[list[np.ndarray], list[int] | None]:
    if "has_dynamic_root" in op.properties:
        return list(args[:-1]), [int(r) for r in np.asarray(args[-1]).reshape(-1)]
    return list(args), None


@impl("hlo.collective_broadcast")
def _collective_broadcast(op, args, interp):
    data, roots = _roots(op, args)
    ids = groups_of(op.properties["replica_groups"], "replica_groups")
    _, _, parts = _gather(op, interp, data, group_strategy(op), ids)
    if not parts:  # not in any group
        return [np.zeros_like(x) for x in data]
    return [np.array(parts[roots[j] if roots else 0][j], copy=True) for j in range(len(data))]


@impl("hlo.collective_reduce")
def _collective_reduce(op, args, interp):
    data, roots = _roots(op, args)
    ids = groups_of(op.properties["replica_groups"], "replica_groups")
    group, index, parts = _gather(op, interp, data, group_strategy(op), ids)
    out = []
    for j, x in enumerate(data):
        root = roots[j] if roots else 0
        out.append(_reduce(interp, op, [p[j] for p in parts]) if group and index == root else np.zeros_like(x))
    return out


@impl("hlo.after_all")
def _after_all(op, args, interp):
    return token()


@impl("hlo.send")
def _send(op, args, interp):
    _context(interp).grid.send(channel_id(op), [np.array(a, copy=True) for a in args[:-1]])
    return token()


def _expect_payloads(op, values: list[np.ndarray], what: str) -> list[np.ndarray]:
    types = [r.type for r in op.results[:-1]]
    if len(values) != len(types):
        raise InterpreterError(f"{op.name}: {what} holds {len(values)} values, the op expects {len(types)}")
    for v, t in zip(values, types):
        if tuple(np.shape(v)) != tuple(t.get_shape()):
            raise InterpreterError(f"{op.name}: {what} has shape {list(np.shape(v))}, the op expects {t}")
    return values


@impl("hlo.recv")
def _recv(op, args, interp):
    ctx = _context(interp)
    values = ctx.grid.recv(channel_id(op), f"{op.name} in process {ctx.process}")
    return [*_expect_payloads(op, values, f"channel {channel_id(op)}"), token()]


@impl("hlo.infeed")
def _infeed(op, args, interp):
    grid = _context(interp).grid
    n = len(op.results) - 1
    with grid.cond:
        if len(grid.infeed) < n:
            raise InterpreterError(f"{op.name}: the infeed is empty (run_parallel's `infeed` gives its values)")
        values = [grid.infeed.popleft() for _ in range(n)]
    return [*_expect_payloads(op, values, "the infeed"), token()]


@impl("hlo.outfeed")
def _outfeed(op, args, interp):
    grid = _context(interp).grid
    with grid.cond:
        grid.outfeed.append([np.array(a, copy=True) for a in args[:-1]])
    return token()


@impl("interpreter.print")
def _print(op, args, interp):
    from minixla.backends.interpreter.printing import format_tensor

    grid = _context(interp).grid
    with grid.print_lock:
        sys.stdout.write(format_tensor(args[0], str(op.operands[0].type)) + "\n")
        sys.stdout.flush()


@impl("interpreter.run_parallel")
def _run_parallel(op, args, interp):
    programs = op.grid()
    n_replicas, n_partitions = len(programs), len(programs[0])
    infeed = [np.asarray(v) for ref in (op.properties["infeed"].data if "infeed" in op.properties else ())
              for v in interp.call_function(ref.root_reference.data, [])]
    grid = ProcessGrid(n_replicas, n_partitions, infeed)
    processes = list(itertools.product(range(n_replicas), range(n_partitions)))
    inputs, at = {}, 0
    for r, p in processes:
        name = programs[r][p]
        fn = interp.functions.get(name)
        if fn is None:
            raise InterpreterError(f"{op.name}: no function @{name}")
        arity = len(fn.function_type.inputs.data)
        inputs[(r, p)] = list(args[at:at + arity])
        at += arity
    if at != len(args):
        raise InterpreterError(f"{op.name}: the programs take {at} inputs in all, {len(args)} were given")
    results: dict[Process, list[np.ndarray]] = {}
    errors: dict[Process, BaseException] = {}

    def run(process: Process) -> None:
        worker = Interpreter(interp.module, interp.impls)
        worker.process_context = ProcessContext(grid, process)
        try:
            with np.errstate(all="ignore"):
                results[process] = worker.call_function(programs[process[0]][process[1]], inputs[process])
        except BaseException as err:  # noqa: BLE001 -- reported below, with the process that raised it
            errors[process] = err
            grid.fail(f"process {process}: {err}")

    threads = [threading.Thread(target=run, args=(p,), name=f"process{p}", daemon=True) for p in processes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:  # name the process that failed first, not those it aborted
        first = min(errors, key=lambda p: "aborted because another process failed" in str(errors[p]))
        raise InterpreterError(f"{op.name}: process (replica {first[0]}, partition {first[1]}) failed: "
                               f"{errors[first]}") from errors[first]
    return [value for p in processes for value in results[p]]
