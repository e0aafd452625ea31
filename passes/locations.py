"""Source locations carried through lowerings, as MLIR's rewriters do.

xDSL's rewriters leave new ops at `UnknownLoc`. The passes that replace one
op by many (hlo -> linalg, bufferize, linalg -> loops) hand the replaced op's
location to what they built with `inherit`; hlo -> linalg wraps it in a
`NameLoc` naming the hlo op (`hlo_origin`). So an error found late (a bounds
check in generated code, passes/bounds_checks.py) still names the hlo op and
its source line: `describe(op)`.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import FileLineColLoc, LocationAttr, NameLoc, StringAttr, UnknownLoc
from xdsl.ir import Block, Operation


def hlo_origin(op: Operation) -> LocationAttr:
    """`op`'s location wrapped in a NameLoc naming it ("hlo.gather"), unless it is one already."""
    loc = op.location
    return loc if isinstance(loc, NameLoc) else NameLoc(StringAttr(op.name), loc)


def describe(loc: LocationAttr) -> str:
    """"'hlo.gather' op at prog.mlir:3:8", "'hlo.gather' op" or "" (nothing known)."""
    name = None
    if isinstance(loc, NameLoc):
        name, loc = loc.desc.data, loc.location
    where = f"{loc.filename.data}:{loc.line.data}:{loc.column.data}" if isinstance(loc, FileLineColLoc) else ""
    if name is None:
        return where
    return f"'{name}' op at {where}" if where else f"'{name}' op"


def inherit(ops: Iterable[Operation], source: Operation | LocationAttr) -> None:
    """Give `ops` (and the ops nested in them) `source`'s location where they have none."""
    # (LocationAttr first: the first `isinstance(loc, Operation)` per location class walks all ~400 op classes)
    loc = source if isinstance(source, LocationAttr) else source.location
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
