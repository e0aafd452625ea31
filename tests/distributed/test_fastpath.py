"""The fast all-reduce's header (backends/mpi/fastpath.py), checked with numpy's reductions as the
oracle: it reduces to the expected value exactly when no process flags a change, for any group size
and every dtype the fast path takes."""

from __future__ import annotations

import ctypes
import itertools

import numpy as np
import pytest

from minixla.backends.mpi.fastpath import HEADERS

REDUCE = {"SUM": np.add, "PROD": np.multiply, "MAX": np.maximum, "MIN": np.minimum}


@pytest.mark.parametrize("reduction", sorted(HEADERS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.uint64])
def test_header_reduces_to_expect_only_when_nobody_changed(reduction, dtype):
    unchanged, changed, expect = (np.dtype(dtype).type(v) for v in HEADERS[reduction])
    for n in (2, 3, 8, 9):
        for flags in itertools.product([False, True], repeat=n) if n <= 3 else \
                [(False,) * n, (True,) * n, (True,) + (False,) * (n - 1), (False,) * (n - 1) + (True,)]:
            values = np.array([changed if f else unchanged for f in flags], dtype)
            with np.errstate(over="ignore"):
                got = REDUCE[reduction].reduce(values)
            assert (got == expect) == (not any(flags)), (reduction, dtype, flags, got)


# ---- the native call (backends/mpi/native.py), with a stand-in for MPI_Allreduce ------------------

_ALLREDUCE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64,
                              ctypes.c_int64, ctypes.c_int64)


class _Peer:
    """MPI_Allreduce(SUM) of this process's staged [data, header] with one peer's, in place; records
    the arguments it got."""

    def __init__(self, data: np.ndarray, changed: bool, rc: int = 0):
        unchanged, flagged, _ = HEADERS["SUM"]
        self.staged = np.append(data, data.dtype.type(flagged if changed else unchanged))
        self.rc, self.calls = rc, []
        self.fn = _ALLREDUCE(self._call)

    def _call(self, in_place, buf, count, dtype, op, comm):
        self.calls.append((in_place, count, dtype, op, comm))
        mine = np.ctypeslib.as_array(ctypes.cast(buf, ctypes.POINTER(ctypes.c_uint8)),
                                     (count * self.staged.itemsize,)).view(self.staged.dtype)
        with np.errstate(over="ignore"):
            mine += self.staged
        return self.rc

    @property
    def address(self) -> int:
        return ctypes.cast(self.fn, ctypes.c_void_p).value


def _native_allreduce(x: np.ndarray, peer: _Peer):
    """(return code, staging buffer): the native call's result is the buffer's first x.size items."""
    from minixla.backends.mpi import native

    assert native._numpy_layout_ok()  # CPython on a 64-bit machine: the offsets the call reads
    call = native.compile_call()
    unchanged, _, expect = HEADERS["SUM"]
    buf = np.full(x.size + 8 // x.itemsize, 7, x.dtype)  # room for the 8-byte header load
    desc = native.descriptor(x.nbytes, x.size + 1, (11, 12, 13), x.dtype.type(unchanged), x.dtype.type(expect),
                             peer.address, 1)
    return call(x, buf[:x.size + 1], desc), buf


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8])
def test_native_call_reduces_like_numpy(dtype):
    rng = np.random.default_rng(0)
    x = (rng.normal(size=(3, 5)) * 40).astype(dtype)
    y = (rng.normal(size=(3, 5)) * 40).astype(dtype)
    peer = _Peer(y.ravel(), changed=False)
    rc, buf = _native_allreduce(x, peer)
    with np.errstate(over="ignore"):
        want = x + y
    assert rc == 0
    np.testing.assert_array_equal(buf[:x.size].reshape(x.shape), want)
    assert peer.calls == [(1, x.size + 1, 11, 12, 13)]  # in place, data + header, the descriptor's handles
    assert buf[x.size + 1:].tolist() == [7] * (len(buf) - x.size - 1)  # nothing written past the header


def test_native_call_reports_a_peer_that_differs_a_failure_and_a_layout_it_cannot_send():
    from minixla.backends.mpi import native

    x = np.arange(8, dtype=np.int32)
    assert _native_allreduce(x, _Peer(x, changed=True))[0] == native.DIFFERS
    assert _native_allreduce(x, _Peer(x, changed=False, rc=5))[0] == native.MPI_FAILED
    peer = _Peer(x[::2].copy(), changed=False)
    assert _native_allreduce(x[::2], peer)[0] == native.NOT_CONTIGUOUS and peer.calls == []


def test_spin_then_yield_yields_only_once_a_wait_outlasts_the_spin():
    import time

    from minixla.backends.mpi import waiting

    yields = []
    counter = ctypes.CFUNCTYPE(ctypes.c_int)(lambda: yields.append(1) or 0)
    code, knobs = waiting.compile_yield(ctypes.cast(counter, ctypes.c_void_p).value)
    for name in ("spin_ns", "spin_max_ns", "spin_min_ns"):
        knobs[name].value = 1_000_000  # 1 ms, fixed
    knobs["idle_gap_ns"].value = 20_000  # (polls from Python are ~1 us apart, not Open MPI's ~0.1 us)
    poll = ctypes.CFUNCTYPE(None)(code.address("minixla_mpi_yield"))  # what Open MPI calls on each idle poll
    start = time.monotonic()
    while time.monotonic() - start < 0.0005:  # a wait (polls < 20 us apart) younger than the spin
        poll()
    assert yields == []
    while not yields and time.monotonic() - start < 2:  # (a preempted poll loop starts a new wait: retry)
        poll()
    assert yields
    seen = len(yields)
    time.sleep(0.02)  # a pause: the next poll starts a new wait, which spins again
    poll()
    assert len(yields) == seen


def test_spin_halves_after_a_yield_that_let_the_peer_run_and_grows_back_after_short_waits():
    import time

    from minixla.backends.mpi import waiting

    counter = ctypes.CFUNCTYPE(ctypes.c_int)(lambda: 0)
    code, knobs = waiting.compile_yield(ctypes.cast(counter, ctypes.c_void_p).value)
    poll = ctypes.CFUNCTYPE(None)(code.address("minixla_mpi_yield"))
    knobs["idle_gap_ns"].value = 20_000

    def wait(seconds):  # polls for `seconds`, then a pause: the next poll adapts to the ended wait
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            poll()
        time.sleep(0.001)
        poll()

    def reset():
        knobs["spin_ns"].value = knobs["spin_max_ns"].value = 400_000
        knobs["spin_min_ns"].value = 50_000

    halved = False
    for _ in range(20):  # (a preempted poll loop splits a wait: retry)
        reset()
        wait(0.00041)  # ended 10 us after the 400 us spin: the yield let the peer run
        halved = knobs["spin_ns"].value == 200_000
        if halved:
            break
    assert halved
    for _ in range(40):
        wait(0.00001)  # waits that end while spinning: back to the maximum by 1/8 steps
    assert knobs["spin_ns"].value == 400_000
    reset()
    wait(0.002)  # far past the spin: the peer had no core, the spin stays
    assert knobs["spin_ns"].value == 400_000


# ---- the staging slots a result lives in (fastpath._Entry): reused only once nobody holds that result ----

class _DoublingComm:
    """A stand-in communicator: MPI_Allreduce(SUM, in place) with one peer that brings the same data."""

    def __init__(self):
        self.calls = 0

    def Allreduce(self, _in_place, buf, _op):
        self.calls += 1
        buf *= 2


def _entry_and_state(monkeypatch, x: np.ndarray):
    from minixla.backends.mpi import fastpath, native

    monkeypatch.setattr(native, "available", lambda: None)  # the numpy + mpi4py steps (no MPI here)
    state = fastpath._Agreement(_DoublingComm())
    key = (x.shape, x.dtype, "SUM")
    state.record(key, x, "SUM", None)  # the checked path learnt the key once...
    state.record(key, x, "SUM", None)  # ...and that it follows itself
    return state, state.next


def test_a_held_result_is_never_overwritten_and_a_released_slot_is_reused(monkeypatch):
    from minixla.backends.mpi.fastpath import try_allreduce
    from minixla.frontend.tensor import Tensor

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    state, entry = _entry_and_state(monkeypatch, x)
    first = try_allreduce(state, x, "SUM")
    np.testing.assert_array_equal(first, 2 * x)
    kept = [first[1:], Tensor.make(try_allreduce(state, x + 1, "SUM")), first.reshape(-1)[::2]]  # views, a Tensor
    del first
    results = [try_allreduce(state, x + k, "SUM") for k in range(2, 8)]
    np.testing.assert_array_equal(kept[0], 2 * x[1:])
    np.testing.assert_array_equal(kept[1].numpy(), 2 * (x + 1))
    np.testing.assert_array_equal(kept[2], 2 * x.reshape(-1)[::2])
    for k, got in enumerate(results):
        np.testing.assert_array_equal(got, 2 * (x + k + 2))
    assert state.hits == 8 and state.comm.calls == 8
    del results, kept, got
    slot = entry.slot
    for k in range(3):  # nobody holds the last result: the same (cache-hot) slot again
        np.testing.assert_array_equal(try_allreduce(state, x + k, "SUM"), 2 * (x + k))
        assert entry.slot is slot
    assert len(entry.spare) == 4  # (the spares kept; the rest were fresh buffers, let go with their results)


def test_the_operand_may_be_an_earlier_result_of_the_same_slot(monkeypatch):
    from minixla.backends.mpi.fastpath import try_allreduce

    x = np.ones(5, np.float64)
    state, _ = _entry_and_state(monkeypatch, x)
    y = try_allreduce(state, x, "SUM")
    for _ in range(5):
        y = try_allreduce(state, y, "SUM")
    np.testing.assert_array_equal(y, np.full(5, 64.0))
