"""Host collectives over MPI: the runtime that compiled programs (backends/cpu/collectives.py)
and the frontend's distribution APIs call between compiled segments."""

from minixla.backends.mpi.runtime import CollectiveError, World, run_collective, world

__all__ = ["CollectiveError", "World", "run_collective", "world"]
