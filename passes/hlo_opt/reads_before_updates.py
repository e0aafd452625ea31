"""`hlo-reads-before-updates`: a pure op that reads a tensor after a `dynamic_update_slice` of that same
tensor moves to just before the update, when everything it uses is already defined there.

Why: bufferization (passes/bufferize/core.py) writes an update in place only when the tensor it
updates is dead afterwards. A recurrent loop's gradient reads the old row of a stack it also updates
(`%new = dynamic_update_slice %stack, ...; %old = dynamic_slice %stack, ...`, in the LSTM example's
backward loops): in that order every step copied the whole stack before writing one row. Read first,
the update goes in place. Moving a pure op up to the point where its operands are defined changes
no value (XLA's scheduler orders reads before in-place writes for the same reason).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.traits import Pure

from minixla.dialects import hlo


def _movable(user: Operation, update: Operation, before: dict[Operation, int]) -> bool:
    """Whether `user` may run just before `update`: pure, no regions (whose bodies could read values
    defined later), and every operand defined before the update (in this block or outside it)."""
    if user.regions or not user.has_trait(Pure):
        return False
    at = before[update]
    for v in user.operands:
        owner = v.owner
        if isinstance(owner, Operation) and owner.parent is update.parent and before.get(owner, at) >= at:
            return False
    return True


def schedule_block(block: Block) -> int:
    """Move the readers in `block`; returns how many moved."""
    moved = 0
    updates = [op for op in block.ops if isinstance(op, hlo.DynamicUpdateSliceOp)]
    if not updates:
        return 0
    for update in updates:
        before = {op: i for i, op in enumerate(block.ops)}
        readers = [u.operation for u in update.operand.uses
                   if u.operation is not update and u.operation.parent is block
                   and before[u.operation] > before[update]]
        for user in sorted(set(readers), key=before.__getitem__):
            if _movable(user, update, before):
                user.detach()
                block.insert_op_before(user, update)
                before = {op: i for i, op in enumerate(block.ops)}
                moved += 1
    return moved


@dataclass(frozen=True)
class HloReadsBeforeUpdates(ModulePass):
    name = "hlo-reads-before-updates"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            for region in inner.regions:
                for block in region.blocks:
                    schedule_block(block)
