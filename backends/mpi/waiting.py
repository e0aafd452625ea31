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
once the current wait is older than the spin time (a wait starts when the polls pause for more than
10 us). Yielding can feed itself: a process that yielded comes back late, so its peer waits past the
spin and yields too (back-to-back collectives then took ~100 us each at load 5). So the spin adapts:
a wait that outlasted it by less than 4x doubles it (up to 8x the minimum), one that ended while
spinning shrinks it by 1/16 towards the minimum; waits far longer (a peer without a core) keep it
(MINIXLA_MPI_SPIN_GROWTH=1: a fixed spin). Both are Open MPI internals found in its library: elsewhere, or when the user chose
(OMPI_MCA_mpi_yield_when_idle set, MINIXLA_MPI_SPIN_US=-1), MPI's own waiting stays as it is.
"""

from __future__ import annotations

import ctypes
import os

_IR = """
declare i32 @clock_gettime(i32, ptr)

@minixla_mpi_spin_ns = global i64 50000
@minixla_mpi_spin_min_ns = global i64 50000
@minixla_mpi_spin_max_ns = global i64 50000
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
  %fresh = icmp ugt i64 %gap, 10000
  br i1 %fresh, label %new_wait, label %waiting
new_wait:
  ; adapt the spin to the wait that just ended (it lasted %prev): one that outlasted the spin by
  ; less than 4x was probably made longer by the yield itself, so spin twice as long; one that
  ; ended while spinning lets the spin shrink by 1/16 towards the minimum
  %start0 = load i64, ptr @start
  store i64 %now, ptr @start
  %prev = sub i64 %last, %start0
  %cur = load i64, ptr @minixla_mpi_spin_ns
  %overran = icmp ugt i64 %prev, %cur
  br i1 %overran, label %overrun, label %shrink
overrun:
  %cur4 = shl i64 %cur, 2
  %near = icmp ult i64 %prev, %cur4
  br i1 %near, label %grow, label %adapted
grow:
  %cur2 = shl i64 %cur, 1
  %max = load i64, ptr @minixla_mpi_spin_max_ns
  %toobig = icmp ugt i64 %cur2, %max
  %grown = select i1 %toobig, i64 %max, i64 %cur2
  store i64 %grown, ptr @minixla_mpi_spin_ns
  br label %adapted
shrink:
  %cur16 = lshr i64 %cur, 4
  %less = sub i64 %cur, %cur16
  %min = load i64, ptr @minixla_mpi_spin_min_ns
  %toosmall = icmp ult i64 %less, %min
  %shrunk = select i1 %toosmall, i64 %min, i64 %less
  store i64 %shrunk, ptr @minixla_mpi_spin_ns
  br label %adapted
adapted:
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
    code, spins = compile_yield(ctypes.cast(libc.sched_yield, ctypes.c_void_p).value)
    set_spin(spins, int(spin * 1000), int(os.environ.get("MINIXLA_MPI_SPIN_GROWTH", "8")))
    _KEEP.update(code=code, spin_ns=spins)
    yield_fn.value = code.address("minixla_mpi_yield")
    set_yield.argtypes, set_yield.restype = [ctypes.c_bool], ctypes.c_bool
    set_yield(True)
    return True


def compile_yield(yield_address: int):
    """(compiled module with `minixla_mpi_yield`, its spin times in ns: {"now", "min", "max"} as ctypes
    int64s) calling the function at `yield_address` to yield (sched_yield; tests pass a counter)."""
    import llvmlite.binding as llvm

    from minixla.backends.cpu.jit import jit_compile

    llvm.add_symbol("clock_gettime", ctypes.cast(ctypes.CDLL(None).clock_gettime, ctypes.c_void_p).value)
    code = jit_compile(_IR)
    ctypes.c_void_p.from_address(code.engine.get_global_value_address("minixla_mpi_yield_fn")).value = yield_address
    spins = {k: ctypes.c_int64.from_address(code.engine.get_global_value_address(f"minixla_mpi_spin{s}_ns"))
             for k, s in (("now", ""), ("min", "_min"), ("max", "_max"))}
    return code, spins


def set_spin(spins: dict, ns: int, growth: int = 8) -> None:
    """Spin `ns` at least, and up to `growth` times that when yielding seems to make the waits longer."""
    spins["now"].value = spins["min"].value = ns
    spins["max"].value = ns * growth


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
