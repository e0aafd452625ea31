"""Multi-process runs under `mpiexec` (the `mpi` extra: mpi4py + Open MPI wheels):
compiled CPU collectives against numpy, data-parallel training equal to one
process on the global batch, and faults that end every process with an error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.paths import REPO_ROOT


def _mpiexec() -> str | None:
    exe = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return None
    return exe


pytestmark = pytest.mark.skipif(_mpiexec() is None, reason="no MPI: pip install -e '.[mpi]' (mpi4py and Open MPI)")


def mpirun(n: int, *args: str, timeout: int = 240, env: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1", **(env or {}))
    return subprocess.run([_mpiexec(), "-n", str(n), "--oversubscribe", sys.executable, *args], cwd=REPO_ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout)


def test_compiled_cpu_collectives_on_3_processes():
    proc = mpirun(3, "-m", "tests.distributed.mpi_programs", "cpu_collectives")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("cpu collectives ok") == 3


@pytest.mark.parametrize("n", [2, 4])
def test_data_parallel_training_equals_one_process(n):
    proc = mpirun(n, "examples/train_mnist_distributed.py", "--check", "--steps", "20")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{n} process(es)" in proc.stdout and "max relative difference" in proc.stdout


def test_keras_fit_under_a_strategy_equals_one_process():
    proc = mpirun(2, "-m", "tests.distributed.mpi_programs", "keras_fit")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.count("keras fit ok") == 2


def test_mismatched_shapes_name_the_replica():
    proc = mpirun(2, "-m", "tests.distributed.mpi_programs", "mismatched_shapes", timeout=60)
    assert proc.returncode != 0
    assert "operands differ across processes: replica 0 has shape [3] <f4, replica 1 has [4] <f4" in proc.stderr


def test_a_dead_worker_ends_the_run():
    proc = mpirun(2, "-m", "tests.distributed.mpi_programs", "dead_worker", timeout=60)  # no hang: ends well before
    assert proc.returncode != 0
    assert "exited with non-zero status" in proc.stderr or "Exit code" in proc.stderr


@pytest.mark.parametrize("size", [3, 300000])  # one message / header overlapped with the data (> 256 KiB)
def test_mismatch_after_agreed_calls_names_the_replica(size):
    """The one-round-trip all-reduce (backends/mpi/fastpath.py) still catches a shape change on one process."""
    proc = mpirun(2, "-m", "tests.distributed.mpi_programs", "mismatch_after_agreement", str(size), timeout=60)
    assert proc.returncode != 0
    assert (f"operands differ across processes: replica 0 has shape [{size}] <f4, replica 1 has [{size + 1}] <f4"
            in proc.stderr)


@pytest.mark.parametrize("native", ["1", "0"])  # the compiled call (Open MPI here) / the numpy + mpi4py steps
def test_fast_path_all_reduces_equal_numpy(native):
    proc = mpirun(2, "-m", "tests.distributed.mpi_programs", "fast_path", env={"MINIXLA_MPI_NATIVE": native})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    want = f"fast path ok (native {native == '1'}, spin-then-yield True)"
    assert proc.stdout.count(want) == 2, proc.stdout[-3000:]


@pytest.mark.parametrize("when", ["first", "agreed"])  # checked path (Iallreduce + Test) / fast path (watchdog)
def test_a_stuck_worker_times_out_naming_the_waiting_replica(when):
    import time

    start = time.monotonic()
    proc = mpirun(2, "-m", "tests.distributed.mpi_programs", "stuck_worker", when, timeout=90,
                  env={"MINIXLA_COLLECTIVE_TIMEOUT_S": "3"})
    assert proc.returncode != 0
    assert "replica 0 (rank 0) waited 3 s for the other 1 process(es)" in proc.stderr
    assert time.monotonic() - start < 60


def _collective_cases():
    """(file, chunk index, grid) of StableHLO's run_parallel cases whose ops run on the CPU over MPI."""
    import re

    from minixla.dialects.diagnostics import split_input
    from tests.paths import SHARED

    ref = SHARED / "reference" / "stablehlo-interpret"
    names = ["all_reduce", "all_gather", "all_to_all", "collective_broadcast", "collective_permute",
             "collective_reduce", "reduce_scatter", "replica_id", "partition_id"]
    for name in names:
        path = ref / f"{name}.mlir"
        if not path.is_file():
            continue
        first = True  # the first case of each op runs by default; the rest (3-7 s of mpiexec each) with -m slow
        for chunk in split_input(path.read_text()):
            m = re.search(r"programs\s*=\s*(\[.*?\]\])", chunk.text, re.S)
            if m:
                rows = re.findall(r"\[([^\[\]]*)\]", m.group(1))
                grid = (len(rows), rows[0].count("@"))
                yield pytest.param(str(path), chunk.index, grid, id=f"{name}-{chunk.index}-{grid[0]}x{grid[1]}",
                                   marks=() if first else pytest.mark.slow)
                first = False


CASES = list(_collective_cases())


@pytest.mark.skipif(not CASES, reason="needs ../shared/reference/stablehlo-interpret (absent in a plain clone)")
@pytest.mark.parametrize("path,index,grid", CASES)
def test_stablehlo_collective_case_on_cpu_processes(path, index, grid):
    """Each process of the case's grid is an MPI process running its program compiled for the CPU."""
    replicas, partitions = grid
    env_partitions = {"MINIXLA_NUM_PARTITIONS": str(partitions)}
    proc = mpirun(replicas * partitions, "-m", "tests.distributed.mpi_programs", "conformance", path, str(index),
                  env=env_partitions, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.count("case(s) pass") == replicas * partitions
