"""`fast-reconcile-unrealized-casts`: xDSL's `reconcile-unrealized-casts` (same pattern), sweeping the casts only.

The llvm lowering leaves hundreds of `builtin.unrealized_conversion_cast` chains (index <-> i64,
memref <-> ptr); xDSL's pass pushes every op of the module through its worklist driver, twice,
to find them. Here each sweep visits only the casts (passes/rewrite_driver.py), until one
removes nothing: the same chains are removed, by the same pattern. The CPU pipeline ends with it;
xDSL's pass keeps its name and stays available.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.passes import ModulePass
from xdsl.transforms.reconcile_unrealized_casts import ReconcileUnrealizedCastsPattern

from minixla.passes.rewrite_driver import rewrite_to_fixpoint


@dataclass(frozen=True)
class FastReconcileUnrealizedCasts(ModulePass):
    """Remove the unrealized casts whose chains cancel out."""

    name = "fast-reconcile-unrealized-casts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_to_fixpoint(op, ReconcileUnrealizedCastsPattern(warn_on_failure=True), UnrealizedConversionCastOp)
