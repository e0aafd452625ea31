"""Small all-reduces in one MPI round trip, with the shape agreement folded into the message.

The checked path (runtime.py) agrees on shapes and dtypes with a separate all-reduce before every
collective: ~1-2 us, as much as a whole 1 KiB MPI_Allreduce. Here each communicator remembers the
last (shape, dtype, reduction) its processes agreed on. A process whose operand matches it sends
[data, header] at the agreed size; one whose operand differs sends [zeros, changed-header] at the
*agreed* size, so the messages still match. The header reduces to a known value only if nobody
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


class _Agreement:
    """One communicator's last agreed all-reduce: its key, staging buffer [data, header] (`body`: its
    data part in the operand's shape), MPI op and headers."""

    __slots__ = ("comm", "key", "stage", "body", "n", "rotate", "mpi_op", "header", "expect", "where", "spare")

    def __init__(self, comm):
        self.comm, self.key, self.where, self.spare = comm, None, (comm, "all_reduce"), []

    def record(self, key, x: np.ndarray, reduction: str | None, mpi_op) -> None:
        """After the checked path agreed on `key` (every process does this at the same call)."""
        if reduction not in HEADERS or x.nbytes > MAX_BYTES or x.dtype.kind not in "iuf" or x.size == 0 \
                or x.dtype.name == "float16":
            self.key = None
            return
        if self.spare and (self.spare[0].size != x.size + 1 or self.spare[0].dtype != x.dtype):
            self.spare = []
        self.n, self.rotate = x.size, x.nbytes > ROTATE_BYTES
        self.new_stage(x.shape, x.dtype)
        self.key, self.mpi_op = key, mpi_op
        unchanged, changed, expect = HEADERS[reduction]
        self.header = (x.dtype.type(unchanged), x.dtype.type(changed))
        self.expect = x.dtype.type(expect)

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


_AGREEMENTS: dict[int, _Agreement] = {}


def agreement(comm) -> _Agreement:
    hit = _AGREEMENTS.get(id(comm))
    if hit is None or hit.comm is not comm:
        hit = _AGREEMENTS[id(comm)] = _Agreement(comm)
    return hit


def try_allreduce(state: _Agreement, x: np.ndarray, key) -> np.ndarray | None:
    """The all-reduce of `x` in one round trip if every process matches the agreement,
    else None after the round trip that tells everyone to take the checked path."""
    if state.key == key:
        stage, body, n = state.stage, state.body, state.n
        body[...] = x
        stage[n] = state.header[0]
        WATCHDOG.where = state.where
        WATCHDOG.since = _monotonic()
        state.comm.Allreduce(_IN_PLACE, stage, state.mpi_op)
        WATCHDOG.since = 0.0
        if stage[n] == state.expect:
            if not state.rotate:
                return body.copy()
            state.new_stage(x.shape, x.dtype)  # the reduced buffer becomes the result
            return body
        state.key = None  # somebody differs: every process saw it and takes the checked path
        return None
    invalidate(state.comm)
    return None


def invalidate(comm) -> None:
    """Before any other collective on `comm`: if it has an agreement, tell the others (at the agreed
    size) that this process is not doing that all-reduce, and forget it; they do the same."""
    state = _AGREEMENTS.get(id(comm))
    if state is not None and state.key is not None and state.comm is comm:
        state.key = None
        state.body[...] = 0
        state.stage[-1] = state.header[1]
        blocking_allreduce(comm, state.stage, state.mpi_op)


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
