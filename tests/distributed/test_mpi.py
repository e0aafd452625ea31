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


def mpirun(n: int, *args: str, timeout: int = 240) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    return subprocess.run([_mpiexec(), "-n", str(n), "--oversubscribe", sys.executable, *args], cwd=REPO_ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout)


def test_compiled_cpu_collectives_on_3_processes():
    proc = mpirun(3, "-m", "tests.distributed.mpi_programs", "cpu_collectives")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("cpu collectives ok") == 3


@pytest.mark.parametrize("n", [2])
def test_data_parallel_training_equals_one_process(n):
    proc = mpirun(n, "examples/train_mnist_distributed.py", "--check", "--steps", "20")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{n} process(es)" in proc.stdout and "max relative difference" in proc.stdout


def test_mismatched_shapes_name_the_replica():
    proc = mpirun(2, "-m", "tests.distributed.mpi_programs", "mismatched_shapes", timeout=60)
    assert proc.returncode != 0
    assert "operands differ across processes: replica 0 has shape [3] <f4, replica 1 has [4] <f4" in proc.stderr


def test_a_dead_worker_ends_the_run():
    proc = mpirun(2, "-m", "tests.distributed.mpi_programs", "dead_worker", timeout=60)  # no hang: ends well before
    assert proc.returncode != 0
    assert "exited with non-zero status" in proc.stderr or "Exit code" in proc.stderr
