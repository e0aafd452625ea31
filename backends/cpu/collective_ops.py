"""Which ops need the process grid (collectives.py cuts a program at them): the backend asks this of
every compile, so it lives apart from the segmenting machinery, which only programs with collectives
import."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from minixla.backends.mpi.runtime import HOST_COLLECTIVES

#: ops that only the process grid can run (the MPI runtime runs HOST_COLLECTIVES; the rest have no CPU path)
NO_CPU_PATH = {"send", "recv", "infeed", "outfeed", "after_all"}


def mnemonic(op: Operation) -> str | None:
    dialect, _, name = op.name.partition(".")
    return name if dialect in ("hlo", "stablehlo") else None


def is_collective(op: Operation) -> bool:
    name = mnemonic(op)
    if name == "after_all" and _orders_nothing(op):  # hlo-legalize-structural erases it
        return False
    return name in HOST_COLLECTIVES or name in NO_CPU_PATH


def _orders_nothing(op: Operation) -> bool:
    """An after_all whose token feeds only other such after_alls: it orders no effect."""
    return all(mnemonic(use.operation) == "after_all" and _orders_nothing(use.operation)
               for result in op.results for use in result.uses)


def has_collectives(module: ModuleOp) -> bool:
    return any(is_collective(op) for op in module.walk())
