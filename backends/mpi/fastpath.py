"""Small all-reduces in one MPI round trip, with the shape agreement folded into the message.

The checked path (runtime.py) agrees on shapes and dtypes with a separate all-reduce before every
collective: ~1-2 us, as much as a whole 1 KiB MPI_Allreduce. Here each communicator remembers which
(shape, dtype, reduction) followed which in its agreed all-reduces, identically in every process, so
all of them predict the same next one. A process whose operand matches the prediction sends
[data, header] at its size; one whose operand differs sends [zeros, changed-header] at the
*predicted* size, so the messages still match. The header reduces to a known value only if nobody
changed (SUM 0+0, PROD 1*1, MAX max(0,0), MIN min(1,1): exact for any dtype); otherwise every
process sees it and all of them fall back together to the checked path (agreement, an error naming
the replicas on a mismatch, then the all-reduce), which records the new agreement.

A blocking MPI call cannot time out, so a watchdog thread ends the run when a process has waited
longer than MINIXLA_COLLECTIVE_TIMEOUT_S inside one (same message as the checked path).
"""

from __future__ import annotations

import sys
import threading
import time

import numpy as np

_monotonic = time.monotonic

#: reduction -> (header when my operand matches the agreement, when it does not, reduced header if all match)
HEADERS = {"SUM": (0, 1, 0), "PROD": (1, 2, 1), "MAX": (0, 1, 0), "MIN": (1, 0, 1)}

#: above this the staging copy may cost more than the separate agreement saves (2 processes on a
#: 2-core machine: equal to mpi4py up to 256 KiB; at 512 KiB-1 MiB no better than the checked path)
MAX_BYTES = 1 << 18


#: up to this the result is copied out of one staging buffer; above, the reduced buffer itself becomes
#: the result and a new one is allocated (an allocation and a view cost ~1 us, a 16 KiB copy as much)
ROTATE_BYTES = 1 << 14


class _Entry:
    """One agreed all-reduce: its key, staging buffer [data, header] (`body`: the data part in the
    operand's shape), MPI op and header values."""

    __slots__ = ("key", "stage", "body", "n", "rotate", "mpi_op", "header", "expect", "spare")

    def __init__(self, key, x: np.ndarray, reduction: str, mpi_op):
        self.key, self.mpi_op, self.n, self.rotate, self.spare = key, mpi_op, x.size, x.nbytes > ROTATE_BYTES, []
        unchanged, changed, expect = HEADERS[reduction]
        self.header = (x.dtype.type(unchanged), x.dtype.type(changed))
        self.expect = x.dtype.type(expect)
        self.new_stage(x.shape, x.dtype)

    def new_stage(self, shape, dtype) -> None:
        """A staging buffer that no earlier result lives in any more (reused: a fresh large buffer
        costs a page fault per 4 KiB when first written)."""
        for buf in self.spare:
            if sys.getrefcount(buf) <= 3:  # the list, the loop variable, getrefcount's argument
                break
        else:
            buf = np.empty(self.n + 1, dtype)
            if len(self.spare) < 4:
                self.spare.append(buf)
        self.stage, self.body = buf, buf[:self.n].reshape(shape)


def _eligible(x: np.ndarray, reduction: str | None) -> bool:
    return (reduction in HEADERS and 0 < x.nbytes <= MAX_BYTES and x.dtype.kind in "iuf"
            and x.dtype.name != "float16")


class _Agreement:
    """A communicator's all-reduce history, the same in every process of its group: the key of the
    last all-reduce (None after any other collective), and for each key the one that followed it
    (a training step all-reduces gradients of several shapes in a fixed order, so the successor of
    the last key predicts the next one)."""

    __slots__ = ("comm", "last", "succ", "armed", "where", "hits")

    def __init__(self, comm):
        self.comm, self.last, self.succ, self.armed, self.where, self.hits = comm, None, {}, True, \
            (comm, "all_reduce"), 0

    def record(self, key, x: np.ndarray, reduction: str | None, mpi_op) -> None:
        """After an all-reduce's checked path (every process of the group, at the same call)."""
        old = self.succ.get(self.last)
        if not _eligible(x, reduction):
            entry = None
        elif old is not None and old.key == key:
            entry = old
        else:
            entry = _Entry(key, x, reduction, mpi_op)
        if len(self.succ) >= 64 and self.last not in self.succ:
            self.succ.clear()  # (a program whose shapes keep changing: bound the staging memory)
        self.succ[self.last] = entry
        self.last, self.armed = key, True


_AGREEMENTS: dict[int, _Agreement] = {}


def agreement(comm) -> _Agreement:
    hit = _AGREEMENTS.get(id(comm))
    if hit is None or hit.comm is not comm:
        hit = _AGREEMENTS[id(comm)] = _Agreement(comm)
    return hit


def try_allreduce(state: _Agreement, x: np.ndarray, key) -> np.ndarray | None:
    """The all-reduce of `x` in one round trip if every process brings the predicted key; else None
    (after the round trip that tells everyone, if there was a prediction): the caller then runs the
    checked path and `record`s the key."""
    if not state.armed:  # this all-reduce is already on its checked path (a caller's second try)
        return None
    entry = state.succ.get(state.last)
    if entry is not None:
        if entry.key == key:
            stage, body, n = entry.stage, entry.body, entry.n
            body[...] = x
            stage[n] = entry.header[0]
            WATCHDOG.where = state.where
            WATCHDOG.since = _monotonic()
            state.comm.Allreduce(_IN_PLACE, stage, entry.mpi_op)
            WATCHDOG.since = 0.0
            if stage[n] == entry.expect:
                state.last = key
                state.hits += 1
                if not entry.rotate:
                    return body.copy()
                entry.new_stage(x.shape, x.dtype)  # the reduced buffer becomes the result
                return body
        else:
            _differ(state.comm, entry)
    state.armed = False  # every process takes the checked path now; its agreement sends nothing more
    return None


def _differ(comm, entry: _Entry) -> None:
    """Tell the others, with a message of the predicted all-reduce's size, that this process differs."""
    entry.body[...] = 0
    entry.stage[-1] = entry.header[1]
    blocking_allreduce(comm, entry.stage, entry.mpi_op)


def invalidate(comm) -> None:
    """Before any checked collective on `comm`: one that is not part of an all-reduce's checked path
    first sends the 'differs' message if an all-reduce was predicted (a process still on the fast
    path learns that its peers are elsewhere), and the history notes that something else ran."""
    state = _AGREEMENTS.get(id(comm))
    if state is None or state.comm is not comm or not state.armed:
        return
    entry = state.succ.get(state.last)
    if entry is not None:
        _differ(comm, entry)
    state.last = None


def blocking_allreduce(comm, buf: np.ndarray, mpi_op, what: str = "all_reduce") -> None:
    """MPI_Allreduce in place, under the watchdog."""
    WATCHDOG.where = (comm, what)
    WATCHDOG.since = _monotonic()
    comm.Allreduce(_IN_PLACE, buf, op=mpi_op)
    WATCHDOG.since = 0.0


_IN_PLACE = None  # mpi4py.MPI.IN_PLACE, set by start() (importing mpi4py.MPI at import time would start MPI)


def start(timeout_s: float, message) -> None:
    """Once MPI runs with several processes: the in-place marker, and the watchdog."""
    global _IN_PLACE
    from mpi4py.MPI import IN_PLACE as _IN_PLACE

    WATCHDOG.start(timeout_s, message)


class _Watchdog:
    """Ends every process when this one has waited inside a blocking collective for too long."""

    def __init__(self):
        self.since, self.where = 0.0, (None, "")
        self.thread: threading.Thread | None = None

    def start(self, timeout_s: float, message) -> None:
        """`message(comm, what)` -> (communicator to abort, text naming the waiting replica)."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, args=(timeout_s, message), daemon=True,
                                           name="minixla-collective-watchdog")
            self.thread.start()

    def _run(self, timeout_s: float, message) -> None:
        while True:
            time.sleep(min(1.0, timeout_s / 4))
            since = self.since
            if since and time.monotonic() - since > timeout_s:
                comm, text = message(*self.where)
                sys.stderr.write(text)
                sys.stderr.flush()
                comm.Abort(3)


WATCHDOG = _Watchdog()
