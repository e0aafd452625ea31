"""`hlo.fusion`: run the fused region on the operands. Fusion changes how a
computation is executed, never what it computes, so the oracle simply
interprets the ops inside (the region is isolated: no captured values)."""

from __future__ import annotations

from minixla.backends.interpreter.op_table import impl


@impl("hlo.fusion")
def _fusion(op, args, interp):
    return interp.run_region(op.body, args, capture=False)
