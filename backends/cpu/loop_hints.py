"""Loop metadata for LLVM: tiny loop nests are not vectorized, small ones not interleaved.

LLVM's loop vectorizer costs ~1 ms of compile time per loop it looks at, and a
whole training step has dozens of loop nests like 128 x 10 (the logits of a
10-class MLP): vectorizing their inner 10-iteration loops (masked AVX-512 code)
took ~35 ms of the MLP step's ~190 ms of LLVM and no measurable time per call.
So the back edge of an innermost loop whose trip count is a known
constant below `TINY_TRIP` (LLVM's own "tiny trip count" threshold), in a nest
of at most `TINY_WORK` iterations in all, gets
`!llvm.loop !{!self, !{"llvm.loop.vectorize.enable", i1 false}}`. Larger nests
(a [1M, 10] softmax) keep vectorizing: their vector code pays for itself.
The innermost loops of other nests of at most `SMALL_WORK` iterations (the
step's 128 x 128 ones) get `!{"llvm.loop.interleave.count", i32 1}`: LLVM would
otherwise run 4 vector bodies per iteration (up to 32 elements), 4x the code for
its later passes (~10 ms of the step's LLVM) for a loop of a few microseconds.
Every loop of such a nest (at most `SMALL_WORK` iterations, outer loops too) is
also marked `llvm.loop.unroll.disable` by the direct emitter (`verdict`,
emit_llvm.py): fully unrolling dozens of 128 x 10 nests is what made a module
just under jit.UNROLL_LIMIT cost LLVM 3x one just over it (the MLP step:
~125 -> ~400 ms CPU); marked, unrolling on costs it ~5%.

Loops are recognised in the shape `lower-scf-to-cf` gives an `scf.for`: a
header block whose `llvm.cond_br` tests `icmp slt/ult %iv, C` (with `%iv` a
block argument), entered with a constant start and re-entered from a later
block (the latch) with `%iv + step`. Nesting is read from the block order
(a loop's blocks lie between its header and its latch). Anything else (a
dynamic bound, a `while` loop) is left to LLVM's own judgement. The hint only
changes speed, never results.

`MINIXLA_LOOP_HINTS=0` turns the hints off (to compare).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from minixla.passes import lazy_llvm as llvm  # the llvm-dialect path only

if TYPE_CHECKING:
    import llvmlite.ir as ir  # the llvm-dialect path only (emit_llvm.py reads the thresholds)

#: inner trip counts below this are not vectorized (LLVM's TinyTripCountVectorThreshold)
TINY_TRIP = 16
#: ... when the whole nest runs at most this many iterations
TINY_WORK = 4096
#: innermost loops of nests up to this many iterations are vectorized but not interleaved
SMALL_WORK = 1 << 14

NO_VECTORIZE = "llvm.loop.vectorize.enable=0"
NO_INTERLEAVE = "llvm.loop.interleave.count=1"
NO_UNROLL = "llvm.loop.unroll.disable="


def verdict(trip: int, work: int, innermost: bool) -> str | None:
    """The hints (joined by ',') of a loop of `trip` iterations in a nest of `work` iterations in all."""
    hints = []
    if innermost and trip < TINY_TRIP and work <= TINY_WORK:
        hints.append(NO_VECTORIZE)
    elif innermost and work <= SMALL_WORK:
        hints.append(NO_INTERLEAVE)
    if work <= SMALL_WORK:
        hints.append(NO_UNROLL)
    return ",".join(hints) or None


def enabled() -> bool:
    return os.environ.get("MINIXLA_LOOP_HINTS", "1") not in ("0", "off", "false")


def _constant(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, llvm.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def trip_count(header: Block, latch: llvm.BrOp) -> int | None:
    """Iterations of the loop `latch` -> `header`, when its shape is a counted one with constant bounds."""
    test = header.last_op
    if not isinstance(test, llvm.CondBrOp) or test.then_block is header:
        return None
    cmp = test.cond.owner
    if not isinstance(cmp, llvm.ICmpOp) or not isinstance(cmp.lhs, BlockArgument) or cmp.lhs.block is not header:
        return None
    if llvm.ICmpPredicateFlag.from_int(cmp.predicate.value.data).value not in ("slt", "ult"):
        return None
    bound = _constant(cmp.rhs)
    k = cmp.lhs.index
    step_op = latch.arguments[k].owner if k < len(latch.arguments) else None
    if bound is None or not isinstance(step_op, llvm.AddOp):
        return None
    lhs, rhs = step_op.lhs, step_op.rhs
    step = _constant(rhs) if lhs is cmp.lhs else _constant(lhs) if rhs is cmp.lhs else None
    if step is None or step <= 0:
        return None
    starts = []
    for pred in header.predecessors():
        term = pred.last_op
        if term is latch:
            continue
        if not isinstance(term, llvm.BrOp):  # a conditional entry: leave it alone
            return None
        starts.append(_constant(term.arguments[k]))
    if not starts or any(s is None for s in starts):
        return None
    return max(0, -(-(bound - min(starts)) // step))


def loop_hints(fn: llvm.FuncOp) -> dict[Operation, str]:
    """{back-edge branch: NO_VECTORIZE or NO_INTERLEAVE} for the innermost loops of `fn` whose nests are
    small (see the module docstring)."""
    blocks = list(fn.body.blocks)
    index = {block: i for i, block in enumerate(blocks)}
    loops: list[tuple[int, int, int | None, Operation]] = []
    for i, block in enumerate(blocks):
        term = block.last_op
        if isinstance(term, llvm.BrOp) and index.get(term.successor, i + 1) <= i:
            loops.append((index[term.successor], i, trip_count(term.successor, term), term))
    hints: dict[Operation, str] = {}
    for head, tail, trip, latch in loops:
        if trip is None:
            continue
        if any(head < head2 and tail2 < tail for head2, tail2, _, _ in loops):
            continue  # not innermost (LLVM vectorizes innermost loops only)
        work: int | None = trip
        for head2, tail2, trip2, _ in loops:
            if head2 < head and tail2 > tail:  # an enclosing loop
                work = None if trip2 is None or work is None else work * trip2
        if work is None:
            continue
        if trip < TINY_TRIP and work <= TINY_WORK:
            hints[latch] = NO_VECTORIZE
        elif work <= SMALL_WORK:
            hints[latch] = NO_INTERLEAVE
    return hints


def loop_id(module: ir.Module, hint: str) -> ir.values.MDValue:
    """A new loop ID carrying `hint` (distinct: its first operand is itself, as LLVM requires)."""
    import llvmlite.ir as ir

    name, value = hint.split("=")
    width = 1 if name.endswith(".enable") else 32
    option = module.add_metadata([ir.MetaDataString(module, name), ir.Constant(ir.IntType(width), int(value))])
    # llvmlite uniques nodes by operands and cannot build a cycle: make a unique node, then point it at itself
    node = module.add_metadata([ir.MetaDataString(module, f"minixla.loop.{len(module.metadata)}")])
    node.operands = (node, option)
    return node
