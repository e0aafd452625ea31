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

from minixla.backends.mpi import native

_monotonic = time.monotonic

#: reduction -> (header when my operand matches the agreement, when it does not, reduced header if all match)
HEADERS = {"SUM": (0, 1, 0), "PROD": (1, 2, 1), "MAX": (0, 1, 0), "MIN": (1, 0, 1)}

#: above this the staging copy costs more than the separate agreement saves (2 processes on a 2-core
#: machine: equal to mpi4py up to 256 KiB; at 512 KiB-1 MiB no better than the checked path): larger
#: all-reduces send the header in its own message, overlapped with the data's (`_Overlapped`)
MAX_BYTES = 1 << 18

#: the largest predicted all-reduce: a process whose operand differs from the prediction still sends a
#: message of the predicted size (zeros), so this bounds what a broken prediction costs
MAX_OVERLAPPED_BYTES = 1 << 24


class _BufferPool:
    """Output buffers reused once their users let go of them (only the pool still refers to one).

    A fresh buffer costs page faults and, for large messages, MPI's memory registration again;
    reusing them keeps large all-reduces at the speed of MPI on preallocated buffers."""

    def __init__(self, per_key: int = 4, max_bytes: int = 1 << 30):
        self.free: dict[tuple, list[np.ndarray]] = {}
        self.per_key, self.max_bytes, self.bytes = per_key, max_bytes, 0

    def empty(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        key = (tuple(shape), np.dtype(dtype).str)
        bufs = self.free.setdefault(key, [])
        for buf in bufs:
            if sys.getrefcount(buf) <= 3:  # the list, the loop variable, getrefcount's argument
                return buf
        buf = np.empty(shape, dtype)
        if len(bufs) < self.per_key and self.bytes + buf.nbytes <= self.max_bytes and buf.nbytes >= 1 << 16:
            bufs.append(buf)
            self.bytes += buf.nbytes
        return buf


POOL = _BufferPool()  # (the checked path's outputs, and the overlapped fast path's)


_rc = sys.getrefcount


def _slot(n: int, shape, dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(buffer, stage [data, header], body: the data part in the operand's shape), with room for an
    8-byte load at the header (the native call reads and writes the header that way)."""
    buf = np.empty(n + 8 // np.dtype(dtype).itemsize, dtype)
    return buf, buf[:n + 1], buf[:n].reshape(shape)


#: getrefcount of a slot's buffer and body (as `_rc(slot[0])`, `_rc(slot[2])`) while only the slot holds
#: them: more means a result handed out earlier (the body, or any view of the buffer) is still alive
_probe = _slot(1, (1,), np.float32)
FREE = (_rc(_probe[0]), _rc(_probe[2]))
del _probe


class _Entry:
    """One agreed all-reduce: its key, staging slot (`_slot`: the result is the slot's body, handed out
    as it is; the next call reuses the slot, hot in the cache, once nobody holds that result any more,
    else takes a free spare), MPI op and header values, `then`: the entry predicted after it; `desc`:
    its descriptor for the native call (native.py), None where that is not available."""

    __slots__ = ("key", "shape", "dtype", "name", "slot", "n", "mpi_op", "header", "expect", "spare", "desc",
                 "comm", "then")
    overlapped = False

    def __init__(self, key, x: np.ndarray, reduction: str, mpi_op, comm):
        self.key, self.mpi_op, self.n, self.spare, self.then = key, mpi_op, x.size, [], None
        self.shape, self.dtype, self.name, self.comm, self.desc = key[0], key[1], key[2], comm, None
        unchanged, changed, expect = HEADERS[reduction]
        self.header = (x.dtype.type(unchanged), x.dtype.type(changed))
        self.expect = x.dtype.type(expect)
        self.slot = self.spare_slot()
        found = native.available() if x.dtype.isnative else None
        if found is not None:
            from mpi4py import MPI

            mpi_type = MPI._typedict.get(x.dtype.char)
            if mpi_type is not None:
                handles = (MPI._handleof(mpi_type), MPI._handleof(mpi_op), MPI._handleof(comm))
                self.desc = native.descriptor(x.nbytes, self.n + 1, handles, self.header[0], self.expect,
                                              found[1], found[2])
                WATCHDOG.comms[handles[2]] = comm

    def free_slot(self) -> tuple:
        """The current slot if no result in it is alive any more, else another that is free."""
        slot = self.slot
        if _rc(slot[0]) > FREE[0] or _rc(slot[2]) > FREE[1]:
            slot = self.slot = self.spare_slot()
        return slot

    def spare_slot(self) -> tuple:
        """A free spare slot, or a new one (kept as a spare, up to 4: a fresh large buffer costs a page
        fault per 4 KiB when first written)."""
        for slot in self.spare:
            if _rc(slot[0]) <= FREE[0] and _rc(slot[2]) <= FREE[1]:
                return slot
        slot = _slot(self.n, self.shape, self.dtype)
        if len(self.spare) < 4:
            self.spare.append(slot)
        return slot


class _Overlapped:
    """One agreed all-reduce above MAX_BYTES: the header goes in its own small message, started without
    waiting (Iallreduce) just before the data's all-reduce into a pooled buffer, so its round trip
    overlaps the data's instead of preceding it as the checked path's agreement does (at 512 KiB the
    agreement and the checked path's bookkeeping were ~10% of the time, more under load). `in_place`:
    recorded by a compiled program whose operand is a buffer nobody else reads, so MPI reduces in place
    (at 4 MiB that saves MPI's copy of the operand, a third of the time); every process of the group
    shares the history, so all of them are in place or none (as MPI wants)."""

    __slots__ = ("key", "shape", "dtype", "name", "n", "mpi_op", "header", "expect", "hdr", "comm", "in_place",
                 "then")
    overlapped, desc = True, None

    def __init__(self, key, x: np.ndarray, reduction: str, mpi_op, comm, in_place: bool = False):
        self.key, self.shape, self.dtype, self.name, self.n, self.mpi_op, self.comm, self.in_place = \
            key, key[0], key[1], key[2], x.size, mpi_op, comm, in_place
        unchanged, changed, expect = HEADERS[reduction]
        self.header = (x.dtype.type(unchanged), x.dtype.type(changed))
        self.expect = x.dtype.type(expect)
        self.hdr, self.then = np.empty(1, x.dtype), None

    def run(self, data: np.ndarray, owned: bool = False, changed: bool = False) -> np.ndarray | None:
        """Header and data messages: the result, or None if some process did not bring the key
        (`owned`: `data` may be overwritten)."""
        if self.in_place:
            if not (owned and data.flags.writeable and data.flags.c_contiguous):
                copy = POOL.empty(self.shape, self.dtype)
                np.copyto(copy, data)
                data = copy
            out = data
        else:
            if not data.flags.c_contiguous:
                data = np.ascontiguousarray(data)
            out = POOL.empty(self.shape, self.dtype)
        hdr, comm = self.hdr, self.comm
        hdr[0] = self.header[changed]
        WATCHDOG.where = (comm, "all_reduce")
        WATCHDOG.since = _monotonic()
        request = comm.Iallreduce(_IN_PLACE, hdr, self.mpi_op)
        comm.Allreduce(_IN_PLACE if out is data else data, out, self.mpi_op)
        request.Wait()
        WATCHDOG.since = 0.0
        return out if hdr[0] == self.expect else None


def _eligible(x: np.ndarray, reduction: str | None) -> bool:
    return (reduction in HEADERS and 0 < x.nbytes <= MAX_OVERLAPPED_BYTES and x.dtype.kind in "iuf"
            and x.dtype.name != "float16")


class _Agreement:
    """A communicator's all-reduce history, the same in every process of its group: the key of the
    last all-reduce (None after any other collective), and for each key the one that followed it
    (a training step all-reduces gradients of several shapes in a fixed order, so the successor of
    the last key predicts the next one). `next`: that prediction (None while disarmed), and each
    entry's `then` the one after it, kept up to date by `record`, so a hit looks nothing up."""

    __slots__ = ("comm", "last", "succ", "armed", "where", "hits", "next")

    def __init__(self, comm):
        self.comm, self.last, self.succ, self.armed, self.where, self.hits, self.next = comm, None, {}, True, \
            (comm, "all_reduce"), 0, None

    def record(self, key, x: np.ndarray, reduction: str | None, mpi_op, in_place: bool = False) -> None:
        """After an all-reduce's checked path (every process of the group, at the same call; `in_place`:
        the caller's operands are buffers nobody else reads, in every process)."""
        old = self.succ.get(self.last)
        if not _eligible(x, reduction):
            entry = None
        elif old is not None and old.key == key:
            entry = old
        else:
            entry = _Entry(key, x, reduction, mpi_op, self.comm) if x.nbytes <= MAX_BYTES else \
                _Overlapped(key, x, reduction, mpi_op, self.comm, in_place)
        if len(self.succ) >= 64 and self.last not in self.succ:
            self.succ.clear()  # (a program whose shapes keep changing: bound the staging memory)
        self.succ[self.last] = entry
        for e in self.succ.values():
            if e is not None:
                e.then = self.succ.get(e.key)
        self.last, self.armed, self.next = key, True, self.succ.get(key)

    def disarm(self) -> None:
        """Every process takes the checked path now (its agreement sends nothing more)."""
        self.armed, self.next = False, None


_AGREEMENTS: dict[int, _Agreement] = {}


def agreement(comm) -> _Agreement:
    hit = _AGREEMENTS.get(id(comm))
    if hit is None or hit.comm is not comm:
        hit = _AGREEMENTS[id(comm)] = _Agreement(comm)
    return hit


def try_allreduce(state: _Agreement, x: np.ndarray, name: str | None, owned: bool = False) -> np.ndarray | None:
    """The all-reduce (reduction `name`) of `x` in one round trip if every process brings the predicted
    key; else None (after the round trip that tells everyone, if there was a prediction): the caller then
    runs the checked path and `record`s the key (x.shape, x.dtype, name). `owned`: x may be overwritten.
    A result up to MAX_BYTES lives in the entry's staging slot (no copy out), until its holders let go."""
    entry = state.next
    if entry is not None and x.shape == entry.shape and (x.dtype is entry.dtype or x.dtype == entry.dtype) \
            and name == entry.name:
        desc = entry.desc
        if desc is not None:  # one native call (native.py)
            slot = entry.slot
            if _rc(slot[0]) > FREE[0] or _rc(slot[2]) > FREE[1]:  # a result in it is still alive
                slot = entry.slot = entry.spare_slot()
            rc = _NATIVE(x, slot[1], desc)
            if rc == 0:  # native.OK
                state.last, state.next = entry.key, entry.then
                state.hits += 1
                return slot[2]
            if rc == native.DIFFERS:
                state.disarm()
                return None
            if rc == native.MPI_FAILED:
                raise RuntimeError("MPI_Allreduce failed in the fast all-reduce")
            # (native.NOT_CONTIGUOUS: nothing was sent; the steps below copy any layout)
        elif entry.overlapped:
            out = entry.run(x, owned)
            if out is not None:
                state.last, state.next = entry.key, entry.then
                state.hits += 1
                return out
            state.disarm()
            return None
        _, stage, body = slot = entry.free_slot()
        n = entry.n
        body[...] = x
        stage[n] = entry.header[0]
        WATCHDOG.where = state.where
        WATCHDOG.since = _monotonic()
        state.comm.Allreduce(_IN_PLACE, stage, entry.mpi_op)
        WATCHDOG.since = 0.0
        if stage[n] == entry.expect:
            state.last, state.next = entry.key, entry.then
            state.hits += 1
            return body
    elif entry is not None:
        _differ(state.comm, entry)
    state.disarm()  # (also when not armed: this all-reduce is already on its checked path)
    return None


def _differ(comm, entry: _Entry | _Overlapped) -> None:
    """Tell the others, with a message of the predicted all-reduce's size, that this process differs."""
    if entry.overlapped:
        entry.run(np.zeros(entry.shape, entry.dtype), owned=True, changed=True)
        return
    _, stage, body = entry.free_slot()
    body[...] = 0
    stage[entry.n] = entry.header[1]
    blocking_allreduce(comm, stage, entry.mpi_op)


def invalidate(comm) -> None:
    """Before any checked collective on `comm`: one that is not part of an all-reduce's checked path
    first sends the 'differs' message if an all-reduce was predicted (a process still on the fast
    path learns that its peers are elsewhere), and the history notes that something else ran."""
    state = _AGREEMENTS.get(id(comm))
    if state is None or state.comm is not comm or not state.armed:
        return
    if state.next is not None:
        _differ(comm, state.next)
    state.last, state.next = None, state.succ.get(None)


def blocking_allreduce(comm, buf: np.ndarray, mpi_op, what: str = "all_reduce") -> None:
    """MPI_Allreduce in place, under the watchdog."""
    WATCHDOG.where = (comm, what)
    WATCHDOG.since = _monotonic()
    comm.Allreduce(_IN_PLACE, buf, op=mpi_op)
    WATCHDOG.since = 0.0


_IN_PLACE = None  # mpi4py.MPI.IN_PLACE, set by start() (importing mpi4py.MPI at import time would start MPI)
_NATIVE = None  # native.available()'s call, set by start()


def start(timeout_s: float, message) -> None:
    """Once MPI runs with several processes: the in-place marker, the native call, and the watchdog."""
    global _IN_PLACE, _NATIVE
    from mpi4py.MPI import IN_PLACE as _IN_PLACE

    found = native.available()
    _NATIVE = found[0] if found is not None else None
    WATCHDOG.start(timeout_s, message)


class _Watchdog:
    """Ends every process when this one has waited inside a blocking collective for too long."""

    def __init__(self):
        self.since, self.where = 0.0, (None, "")
        self.thread: threading.Thread | None = None
        self.comms: dict[int, object] = {}  # MPI handle -> communicator, for the native call's COUNTER

    def start(self, timeout_s: float, message) -> None:
        """`message(comm, what)` -> (communicator to abort, text naming the waiting replica)."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, args=(timeout_s, message), daemon=True,
                                           name="minixla-collective-watchdog")
            self.thread.start()

    def _run(self, timeout_s: float, message) -> None:
        inside, entered = 0, 0.0  # the native call's COUNTER when first seen odd (inside MPI), and when
        while True:
            time.sleep(min(1.0, timeout_s / 4))
            now = time.monotonic()
            since, where = self.since, self.where
            count = int(native.COUNTER[0])
            if not count & 1:
                inside = 0
            elif count != inside:
                inside, entered = count, now
            elif now - entered > timeout_s:
                since, where = entered, (self.comms.get(int(native.COUNTER[1])), "all_reduce")
            if since and now - since > timeout_s:
                comm, text = message(*where)
                sys.stderr.write(text)
                sys.stderr.flush()
                comm.Abort(3)


WATCHDOG = _Watchdog()
