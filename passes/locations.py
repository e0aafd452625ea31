"""Source locations carried through lowerings, as MLIR's rewriters do.

xDSL's rewriters leave new ops at `UnknownLoc`. The passes that replace one
op by many (hlo -> linalg, bufferize, linalg -> loops) hand the replaced op's
location to what they built with `inherit`, so an error found late (a bounds
check in generated code) can still name the hlo op and its source line.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import UnknownLoc
from xdsl.ir import Block, Operation


def inherit(ops: Iterable[Operation], source: Operation) -> None:
    """Give `ops` (and the ops nested in them) `source`'s location where they have none."""
    loc = source.location
    if isinstance(loc, UnknownLoc):
        return
    for top in ops:
        for op in top.walk():
            if isinstance(op.location, UnknownLoc):
                op.location = loc


def ops_after(block: Block, marker: Operation | None) -> list[Operation]:
    """The ops of `block` after `marker` (all of them when `marker` is None)."""
    out: list[Operation] = []
    op = block.first_op if marker is None else marker.next_op
    while op is not None:
        out.append(op)
        op = op.next_op
    return out
