"""All-reduce bus bandwidth and training-step scaling over MPI, side by side in one run.

    mpiexec -n 2 python -m benchmarks.bench_distributed     # writes benchmarks/results_distributed.md
    (as root: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)

Rows: sizes 1 KiB .. 256 MiB of f32; for each, the median time of one call (the runners take turns
call by call, in every order, so a change of the machine's load falls on all of them alike) of
  * mpi4py: `comm.Allreduce(src, dst)` on preallocated numpy buffers (the floor),
  * jit, per call: a `tf.function(jit_compile=True)` whose body is one replica-context all_reduce (SUM),
    called on the numpy array (all runners read the same buffer: `tf.constant(x)` would be a copy in
    other memory, colder in the cache by the time its turn comes: +15-30 µs at 512 KiB): the call's
    own cost (the tf.function's cached-call path, ~2 µs) counts,
  * jit, in-graph: one compiled program of k chained all_reduce ops (k = 16 .. 2, `in_graph_count`; each reads
    the one before, so none folds away), the call's time / k: what the compiled all_reduce op costs,
  * minixla.distributed: the Horovod-style eager `allreduce`,
and the bus bandwidth 2 (n-1)/n * bytes / time (NCCL's definition). Then the MLP training
step (examples/train_mnist_distributed.py's, global batch 1024) per step on 1 and n processes.
Blocking MPI calls spin 50 µs and then yield (backends/mpi/waiting.py); `MINIXLA_MPI_SPIN_US=-1`
measures Open MPI's own waiting (pure polling) for an A/B.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from minixla import tf
from minixla.backends.mpi import world

SIZES = [1 << k for k in range(10, 29, 3)]  # bytes: 1 KiB .. 256 MiB


def _median_times(fns, repeats: int) -> list[float]:
    """Median time of one call of each of `fns` (max over ranks): the runners take turns call by call,
    each after a barrier, so a change of the machine's load falls on all of them alike, and each round
    takes the next permutation of them, so each follows every other equally often (which runner a call
    follows moves its time: at 64 KiB the one right after mpi4py's call was ~2 µs faster than the rest,
    at 512 KiB ~10-20 µs slower)."""
    from itertools import permutations

    from mpi4py import MPI

    comm = world().comm
    orders = list(permutations(range(len(fns))))
    times = [[] for _ in fns]
    for k in range(repeats):
        for j in orders[k % len(orders)]:
            fn, ts = fns[j], times[j]
            comm.Barrier()
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
    medians = np.array([np.median(ts) for ts in times])
    comm.Allreduce(MPI.IN_PLACE, medians, op=MPI.MAX)
    return [float(m) for m in medians]


def in_graph_count(nbytes: int) -> int:
    """All-reduces per call of the in-graph runner: enough to amortize the call (~3 µs) at small sizes,
    few at large ones (a median over calls of k all-reduces is a median of sums: the more in one call,
    the more of the machine's hiccups it takes in)."""
    return 16 if nbytes <= 1 << 16 else 4 if nbytes <= 1 << 22 else 2


def allreduce_rows(n: int) -> list[str]:
    import minixla.distributed as hvd

    comm = world().comm
    rows = []
    for nbytes in SIZES:
        x = np.full(nbytes // 4, 1.0, np.float32)
        dst = np.empty_like(x)
        repeats = 480 if nbytes <= 1 << 17 else 48 if nbytes <= 1 << 22 else 6  # µs medians need many
        k = in_graph_count(nbytes)

        @tf.function(jit_compile=True)
        def reduce(v):
            return tf.distribute.get_replica_context().all_reduce("sum", v)

        @tf.function(jit_compile=True)
        def reduce_k(v):  # k chained all-reduces in one compiled program (each reads the one before)
            for _ in range(k):
                v = tf.distribute.get_replica_context().all_reduce("sum", v)
            return v

        for _ in range(3):  # compiles; the fast path learns the (shape, dtype) of every runner
            reduce(x)
            reduce_k(x)
            hvd.allreduce(x, op=hvd.Sum)
        t_mpi, t_jit, t_graph, t_hvd = _median_times(
            [lambda: comm.Allreduce(x, dst), lambda: reduce(x), lambda: reduce_k(x),
             lambda: hvd.allreduce(x, op=hvd.Sum)], repeats)
        t_graph /= k
        bus = lambda t: 2 * (n - 1) / n * nbytes / t / 1e9  # noqa: E731
        cells = [f"{bus(t):.2f} ({t_mpi / t:.0%})" for t in (t_jit, t_graph, t_hvd)]
        rows.append(f"| {nbytes / 1024:,.0f} KiB | {t_mpi * 1e6:,.1f} | {t_jit * 1e6:,.1f} | {t_graph * 1e6:,.1f} | "
                    f"{t_hvd * 1e6:,.1f} | {bus(t_mpi):.2f} | {' | '.join(cells)} |")
    return rows


def training_step_time(steps: int = 200, batch: int = 1024, chunks: int = 5) -> float:
    """Seconds per step of examples/train_mnist_distributed.py's compiled step (on this MPI world),
    after a warm-up that compiles it: the median over `chunks` runs of steps / chunks steps."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
    from train_mnist import load_digits, split
    from train_mnist_distributed import global_batches, train_distributed

    (x, y), test = split(*load_digits()[:2])
    reps = int(np.ceil(batch * 2 / len(y)))
    x, y = np.concatenate([x] * reps), np.concatenate([y] * reps)
    _, _, step, strategy = train_distributed(((x, y), test), 3, batch, 0.01)  # compiles the step
    shards = list(strategy.experimental_distribute_dataset(global_batches(x, y, steps, batch, 1)))
    comm = world().comm
    per = steps // chunks
    times = []
    for k in range(chunks):
        if comm is not None:
            comm.Barrier()
        t0 = time.perf_counter()
        for images, labels in shards[k * per:(k + 1) * per]:
            float(step(images, labels))
        if comm is not None:
            comm.Barrier()
        times.append((time.perf_counter() - t0) / per)
    return float(np.median(times))


def single_process_step_time() -> float:
    """The same step in a fresh single process (MPI's launcher variables removed)."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "PMI_", "PRTE_"))}
    code = "from benchmarks.bench_distributed import training_step_time; print(training_step_time())"
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                         timeout=600)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    w = world()
    if w.comm is None:
        print("run under mpiexec: mpiexec -n 2 python -m benchmarks.bench_distributed", file=sys.stderr)
        return 2
    n = w.size
    load_before = os.getloadavg()[0]
    rows = allreduce_rows(n)
    load_after = os.getloadavg()[0]
    step = training_step_time()
    if w.rank == 0:
        one = single_process_step_time()
        lines = [f"# Distributed benchmarks ({n} processes, one machine, {os.cpu_count()} cores)", "",
                 "`mpiexec -n 2 python -m benchmarks.bench_distributed` (times: median µs, max over ranks; "
                 "bus bandwidth GB/s = 2(n-1)/n x bytes / time; % = of mpi4py's bandwidth; 1-minute load "
                 f"average {load_before:.1f} before the all-reduce rows, {load_after:.1f} after).", "",
                 "| f32 buffer | mpi4py Allreduce µs | jit, per call µs | jit, in-graph µs per all-reduce | "
                 "minixla.distributed µs | mpi4py GB/s | jit, per call GB/s | jit, in-graph GB/s | "
                 "minixla.distributed GB/s |", "|---|---|---|---|---|---|---|---|---|", *rows, "",
                 f"MLP training step (Dense(10) on 8x8 digits, global batch 1024, Adam, jit, gradient all-reduce "
                 f"in the compiled step): {one * 1e3:.2f} ms/step on 1 process, {step * 1e3:.2f} ms/step on {n} "
                 f"processes (speedup {one / step:.2f}x; the {os.cpu_count()} cores are shared).", ""]
        out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results_distributed.md")
        with open(out, "w") as fh:
            fh.write("\n".join(lines))
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
