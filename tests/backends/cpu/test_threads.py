"""Threaded CPU loops (passes/lower_to_llvm/threads.py, backends/cpu/threadpool.py):
results match numpy, use the cpu backend (not the interpreter fallback), and
are bit-identical for any thread count (fixed chunks, combined in order)."""

import ctypes

import llvmlite.binding as llvm
import numpy as np
import pytest

from minixla.backends.cpu import threadpool
from minixla.frontend import tf


@pytest.fixture
def threads():
    old = threadpool.get_num_threads()
    yield threadpool.set_num_threads
    threadpool.set_num_threads(old)


def _jit(fn, *args):
    jf = tf.function(fn, jit_compile=True)
    jf(*args)
    compiled = jf.get_concrete_function(*args).compiled
    assert compiled.backend == "cpu", compiled.fallback_reason
    assert "minixla_parallel_for" in compiled.executable.owner.llvm_ir  # threaded
    return jf


def test_runtime_splits_range_into_shares(threads):
    threadpool.ensure_registered()
    seen = []
    cb_t = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)
    cb = cb_t(lambda lo, hi, ctx: seen.append((lo, hi)))
    run = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)(
        llvm.address_of_symbol("minixla_parallel_for"))
    for t, lo, hi in [(4, 3, 20), (3, 0, 2), (1, 5, 9), (8, 0, 0)]:
        threads(t)
        seen.clear()
        run(ctypes.cast(cb, ctypes.c_void_p), None, lo, hi)
        got = sorted(seen)
        covered = [i for a, b in got for i in range(a, b)]
        assert covered == list(range(lo, hi)) and len(got) <= max(1, min(t, hi - lo))


def test_num_threads_env(monkeypatch):
    monkeypatch.setenv("MINIXLA_NUM_THREADS", "3")
    assert threadpool.default_num_threads() == 3
    monkeypatch.setenv("MINIXLA_NUM_THREADS", "")
    assert threadpool.default_num_threads() >= 1


@pytest.mark.parametrize("name", ["mean", "rows", "cols", "elementwise", "max", "int_sum"])
def test_threaded_matches_numpy_and_thread_count(name, threads):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((512, 768), dtype=np.float32)
    y = rng.standard_normal((512, 768), dtype=np.float32)
    xi = rng.integers(-1000, 1000, (512, 768)).astype(np.int32)
    cases = {
        "mean": (lambda a, b: tf.reduce_mean(tf.multiply(a ** 2, 3) + b), (x, y),
                 np.mean(x.astype(np.float64) ** 2 * 3 + y), 1e-6),
        "rows": (lambda a: tf.reduce_sum(a, axis=1), (x,), x.astype(np.float64).sum(1), 1e-5),
        "cols": (lambda a: tf.reduce_sum(a, axis=0), (x,), x.astype(np.float64).sum(0), 1e-5),
        "elementwise": (lambda a, b: tf.exp(a) * b + 1.0, (x, y), np.exp(x) * y + 1, 1e-6),
        "max": (lambda a: tf.reduce_max(a * 2.0), (x,), np.max(x * 2), 0),
        "int_sum": (lambda a: tf.reduce_sum(a * 3), (xi,), np.sum(xi.astype(np.int64) * 3), 0),
    }
    fn, args, ref, rtol = cases[name]
    jf = _jit(fn, *args)
    outs = []
    for t in (1, 2, 5):
        threads(t)
        outs.append(np.asarray(jf(*args).numpy()))
    np.testing.assert_allclose(outs[0].astype(np.float64), ref, rtol=rtol, atol=1e-4 if rtol else 0)
    for o in outs[1:]:
        assert np.array_equal(o, outs[0])


def test_small_loops_stay_sequential():
    x = np.ones(16, np.float32)
    jf = tf.function(lambda a: a * 2.0 + 1.0, jit_compile=True)
    np.testing.assert_array_equal(jf(x).numpy(), x * 2 + 1)
    compiled = jf.get_concrete_function(x).compiled
    assert compiled.backend == "cpu"
    assert "minixla_parallel_for" not in compiled.executable.owner.llvm_ir


POOL_STRESS = r"""
import ctypes, os, sys, threading
import llvmlite.binding as llvm
import numpy as np
from minixla.backends.cpu import threadpool
from minixla.frontend import tf

threadpool.ensure_registered()
cb_t = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)
run = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)(
    llvm.address_of_symbol("minixla_parallel_for"))

# 1. many loops on the persistent pool, the team size changing between them
for i in range(600):
    t, lo, hi = 2 + i % 4, i % 7, i % 7 + 1 + i % 23
    threadpool.set_num_threads(t)
    seen = []
    cb = cb_t(lambda a, b, ctx: seen.append((a, b)))
    run(ctypes.cast(cb, ctypes.c_void_p), None, lo, hi)
    assert [k for a, b in sorted(seen) for k in range(a, b)] == list(range(lo, hi)), (t, lo, hi, seen)

# 2. a loop nested in a share (the pool is busy: the inner loop starts threads of its own)
threadpool.set_num_threads(3)
inner_seen = []
inner = cb_t(lambda a, b, ctx: inner_seen.append((a, b)))
outer = cb_t(lambda a, b, ctx: run(ctypes.cast(inner, ctypes.c_void_p), None, 0, 9))
run(ctypes.cast(outer, ctypes.c_void_p), None, 0, 3)
assert sorted(k for a, b in inner_seen for k in range(a, b)) == sorted(list(range(9)) * 3)

# 3. compiled threaded code called from four Python threads at once
x = np.random.default_rng(0).standard_normal((512, 768), dtype=np.float32)
f = tf.function(lambda a: tf.reduce_sum(tf.exp(a) * 2.0, axis=1), jit_compile=True)
want = f(x).numpy()
assert "minixla_parallel_for" in f.get_concrete_function(x).compiled.executable.owner.llvm_ir
errors = []
def hammer():
    try:
        for _ in range(40):
            assert np.array_equal(f(x).numpy(), want)
    except BaseException as e:
        errors.append(e)
workers = [threading.Thread(target=hammer) for _ in range(4)]
for w in workers: w.start()
for w in workers: w.join()
assert not errors, errors

# 4. a forked child has no pool workers: it starts its own
pid = os.fork()
if pid == 0:
    ok = np.array_equal(f(x).numpy(), want)
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
print("pool ok")
"""


def test_persistent_pool_under_stress():
    """Team sizes changing, a nested loop, concurrent callers, a fork: in a subprocess with a timeout,
    so a deadlock fails the test instead of hanging the suite."""
    import os
    import subprocess
    import sys

    from tests.paths import REPO_ROOT

    out = subprocess.run([sys.executable, "-c", POOL_STRESS], cwd=REPO_ROOT, capture_output=True, text=True,
                         timeout=240, env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)))
    assert out.returncode == 0 and "pool ok" in out.stdout, out.stderr[-3000:]


UNEVEN_IR = """
declare i64 @llvm.readcyclecounter()
define void @uneven(i64 %lo, i64 %hi, ptr %ctx) {
entry:
  %first = icmp eq i64 %lo, 0
  br i1 %first, label %done, label %start
start:
  %t0 = call i64 @llvm.readcyclecounter()
  br label %spin
spin:
  %t = call i64 @llvm.readcyclecounter()
  %el = sub i64 %t, %t0
  %more = icmp ult i64 %el, 65536
  br i1 %more, label %spin, label %done
done:
  ret void
}
"""

POOL_JOIN_POLLS = r"""
import ctypes, os, sys
import llvmlite.binding as llvm
from minixla.backends.cpu import threadpool
from minixla.backends.cpu.compile_cache import runtime_kernel_engine

def voluntary(tid):
    with open(f"/proc/self/task/{tid}/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("voluntary_ctxt_switches"))

threadpool.ensure_registered()
threadpool.set_num_threads(2)
engine = runtime_kernel_engine(sys.argv[1])  # share 0 returns at once, share 1 busy-waits ~30 us
uneven = engine.get_function_address("uneven")
run = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)(
    llvm.address_of_symbol("minixla_parallel_for"))
run(uneven, None, 0, 2)  # starts the worker
caller = os.getpid()
start = voluntary(caller)
loops = 300
for _ in range(loops):
    run(uneven, None, 0, 2)
slept = voluntary(caller) - start
print("caller slept", slept)
assert slept < loops // 3, slept
print("join ok")
"""


def test_join_polls_while_the_workers_run_their_shares():
    """The caller waiting in the join keeps polling (between sched_yield calls) while every worker has
    picked the loop up, for JOIN_CYCLES: 300 loops whose worker share takes 2^16 TSC cycles (~30 us) must
    not put the caller to sleep each time (it did after a 200-pause spin, ~6 us here; each sleep then
    cost a futex wake-up and the kernel's wake-up latency: the MLP step's joins)."""
    import os
    import subprocess
    import sys

    from tests.paths import REPO_ROOT

    out = subprocess.run([sys.executable, "-c", POOL_JOIN_POLLS, UNEVEN_IR], cwd=REPO_ROOT, capture_output=True,
                         text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)))
    assert out.returncode == 0 and "join ok" in out.stdout, out.stdout[-2000:] + out.stderr[-3000:]


WORKER_PLACEMENT = """
import os
import numpy as np
from minixla.backends.cpu.threadpool import WARM_JOBS
from minixla.frontend import tf


def threads():
    return set(int(t) for t in os.listdir("/proc/self/task"))


def allowed(tid):
    return os.sched_getaffinity(tid)


before = threads()
f = tf.function(lambda x: x * 2.0 + 1.0, jit_compile=True)
x = np.ones((512, 1024), np.float32)
f(x)
workers = sorted(threads() - before)
whole = os.sched_getaffinity(0)
first = [len(allowed(t)) for t in workers]
for _ in range(WARM_JOBS + 8):
    f(x)
later = [len(allowed(t)) for t in workers]
print(len(whole), len(workers), min(first), max(first), min(later))
"""


def test_a_new_worker_starts_off_the_callers_cpu_then_takes_its_affinity_back():
    """The pool's workers leave their creator's vCPU at start (so a kernel that places a woken thread
    beside its waker does not keep them there) and get the whole affinity back after WARM_JOBS jobs."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one CPU: nothing to move to")
    root = Path(__file__).resolve().parents[3]
    env = dict(os.environ, PYTHONPATH=str(root), MINIXLA_NUM_THREADS="2")
    cpus, workers, first_min, first_max, later = map(int, subprocess.run(
        [sys.executable, "-c", WORKER_PLACEMENT], cwd=root, env=env, capture_output=True, text=True,
        check=True).stdout.split())
    assert workers >= 1
    assert first_min == first_max == cpus - 1  # every new thread: all CPUs but the creator's
    assert later == cpus
