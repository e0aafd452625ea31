"""How a process waits inside a blocking MPI call: spin first, then give the core away.

Open MPI waits by polling (`opal_progress` in a loop). On a machine with spare cores that is the
fastest way, but when the cores are shared (more processes than cores, or other work running) a
waiting process burns the time slice its peer needs to arrive: the 2-process training step of
benchmarks/results_distributed.md ran 2-10x slower under foreign load. `mpi_yield_when_idle=1`
makes every idle poll call `sched_yield`, which fixes that but costs small all-reduces their latency
under load (1 KiB: 1.7 -> 5-6 us at load ~3).

So by default each wait spins for MINIXLA_MPI_SPIN_US (50 us) and only then yields on every idle
poll: Open MPI's yield is switched on at run time (`opal_progress_set_yield_when_idle`) and its
yield function (`opal_threads_pthreads_yield_fn`) is replaced by a small compiled one that yields only
once the process has polled idly for longer than the spin time: a pause of more than 1 us between
two idle polls (work done, a return from MPI, a preemption) starts a new wait. (With 10 us, the
~1 us between back-to-back collectives did not split them, so a loop of small all-reduces began to
yield after 50 us and, under load, locked into ~0.1 ms a call in ~40% of runs, against 1 in 8 now.)

That lock remains when both processes share one core: each waits out its whole spin before the
yield lets the other run, ~2 spins per collective. So the spin adapts to how the last wait ended:
while spinning (the peer runs elsewhere: grow by 1/8, up to MINIXLA_MPI_SPIN_US), within 20 us
after the spin (the yield is what let the peer run: halve, down to MINIXLA_MPI_SPIN_MIN_US, 10 us),
or later (the peer had no core: keep). A/B at load 3-5 on 2 cores: back-to-back 1 KiB all-reduces
locked at ~25 us a call instead of ~105 us; training steps alike. (A spin that grew after long waits
instead made the lock rarer but dearer, ~800 us.) Both are Open MPI internals found in its library: elsewhere, or when the user chose
(OMPI_MCA_mpi_yield_when_idle set, MINIXLA_MPI_SPIN_US=-1), MPI's own waiting stays as it is.
"""

from __future__ import annotations

import ctypes
import os

_IR = """
declare i32 @clock_gettime(i32, ptr)

@minixla_mpi_spin_ns = global i64 50000
@minixla_mpi_spin_max_ns = global i64 50000
@minixla_mpi_spin_min_ns = global i64 2000
@minixla_mpi_idle_gap_ns = global i64 1000
@minixla_mpi_yield_fn = global ptr null
@last = internal global i64 0
@start = internal global i64 0

define void @minixla_mpi_yield() {
entry:
  %ts = alloca [2 x i64], align 8
  %r = call i32 @clock_gettime(i32 1, ptr %ts)
  %sec = load i64, ptr %ts
  %nsp = getelementptr i64, ptr %ts, i64 1
  %nsec = load i64, ptr %nsp
  %secns = mul i64 %sec, 1000000000
  %now = add i64 %secns, %nsec
  %last = load i64, ptr @last
  store i64 %now, ptr @last
  %gap = sub i64 %now, %last
  %maxgap = load i64, ptr @minixla_mpi_idle_gap_ns
  %fresh = icmp ugt i64 %gap, %maxgap
  br i1 %fresh, label %new_wait, label %waiting
new_wait:
  ; the wait that just ended lasted %prev: if it ended while spinning, the peer runs on another
  ; core (let the spin grow back by 1/8); if it ended within 20 us after the spin, yielding is what
  ; let the peer run (same core: halve the spin); longer, the peer had no core (keep it)
  %start0 = load i64, ptr @start
  store i64 %now, ptr @start
  %prev = sub i64 %last, %start0
  %cur = load i64, ptr @minixla_mpi_spin_ns
  %spun = icmp ule i64 %prev, %cur
  br i1 %spun, label %grow, label %yielded
grow:
  %cur8 = lshr i64 %cur, 3
  %more = add i64 %cur, %cur8
  %max = load i64, ptr @minixla_mpi_spin_max_ns
  %toobig = icmp ugt i64 %more, %max
  %grown = select i1 %toobig, i64 %max, i64 %more
  store i64 %grown, ptr @minixla_mpi_spin_ns
  ret void
yielded:
  %soon = add i64 %cur, 20000
  %handoff = icmp ult i64 %prev, %soon
  br i1 %handoff, label %shrink, label %keep
shrink:
  %half = lshr i64 %cur, 1
  %min = load i64, ptr @minixla_mpi_spin_min_ns
  %toosmall = icmp ult i64 %half, %min
  %shrunk = select i1 %toosmall, i64 %min, i64 %half
  store i64 %shrunk, ptr @minixla_mpi_spin_ns
  ret void
keep:
  ret void
waiting:
  %start = load i64, ptr @start
  %waited = sub i64 %now, %start
  %spin = load i64, ptr @minixla_mpi_spin_ns
  %long = icmp ugt i64 %waited, %spin
  br i1 %long, label %yield, label %done
yield:
  %fn = load ptr, ptr @minixla_mpi_yield_fn
  %y = call i32 %fn()
  br label %done
done:
  ret void
}
"""

_KEEP: dict = {}


def spin_us() -> float:
    """MINIXLA_MPI_SPIN_US: how long a wait polls before it yields (-1: leave MPI's waiting alone)."""
    return float(os.environ.get("MINIXLA_MPI_SPIN_US", "50"))


def install() -> bool:
    """Spin-then-yield for this process's blocking MPI calls (after MPI_Init); True if installed."""
    spin = spin_us()
    if spin < 0 or "OMPI_MCA_mpi_yield_when_idle" in os.environ or "spin_ns" in _KEEP:
        return "spin_ns" in _KEEP
    pal = _open_pal()
    if pal is None:
        return False
    try:
        set_yield = pal.opal_progress_set_yield_when_idle
        yield_fn = ctypes.c_void_p.in_dll(pal, "opal_threads_pthreads_yield_fn")
    except (AttributeError, ValueError):
        return False
    libc = ctypes.CDLL(None)
    code, knobs = compile_yield(ctypes.cast(libc.sched_yield, ctypes.c_void_p).value)
    knobs["spin_ns"].value = knobs["spin_max_ns"].value = int(spin * 1000)
    knobs["spin_min_ns"].value = int(min(spin, float(os.environ.get("MINIXLA_MPI_SPIN_MIN_US", "10"))) * 1000)
    _KEEP.update(code=code, spin_ns=knobs["spin_ns"])
    yield_fn.value = code.address("minixla_mpi_yield")
    set_yield.argtypes, set_yield.restype = [ctypes.c_bool], ctypes.c_bool
    set_yield(True)
    return True


def compile_yield(yield_address: int):
    """(compiled module with `minixla_mpi_yield`, {"spin_ns", "spin_max_ns", "spin_min_ns", "idle_gap_ns"}:
    its settings as ctypes int64s) calling the function at `yield_address` to yield (sched_yield; tests
    pass a counter)."""
    import llvmlite.binding as llvm

    from minixla.backends.cpu.jit import jit_compile

    llvm.add_symbol("clock_gettime", ctypes.cast(ctypes.CDLL(None).clock_gettime, ctypes.c_void_p).value)
    code = jit_compile(_IR)
    ctypes.c_void_p.from_address(code.engine.get_global_value_address("minixla_mpi_yield_fn")).value = yield_address
    return code, {name: ctypes.c_int64.from_address(code.engine.get_global_value_address(f"minixla_mpi_{name}"))
                  for name in ("spin_ns", "spin_max_ns", "spin_min_ns", "idle_gap_ns")}


def _open_pal():
    """Open MPI's libopen-pal as loaded by this process (through mpi4py), or None."""
    try:
        with open("/proc/self/maps") as maps:
            paths = [line.split()[-1] for line in maps if "libopen-pal" in line and ".so" in line]
    except OSError:
        return None
    for path in dict.fromkeys(paths):
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None
