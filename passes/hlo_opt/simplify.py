"""`hlo-algebraic-simplifier`: XLA's AlgebraicSimplifier, the rewrites that are exact.
Why: the frontend emits `pow(x, 2)`, identity reshapes and chains of layout ops;
simplifying them first makes fusion cheaper and the code faster.

The rules are the hlo ops' canonicalization patterns (dialects/hlo_ops/canonicalization.py,
one typed pattern per rule), so xDSL's `canonicalize` applies them as well; this pass
applies just them, to a fixed point.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

from minixla.dialects.hlo_ops.canonicalization import all_patterns


@dataclass(frozen=True)
class HloAlgebraicSimplifier(ModulePass):
    """Exact algebraic rewrites of hlo ops (the hlo canonicalization patterns)."""

    name = "hlo-algebraic-simplifier"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(all_patterns()), apply_recursively=True).rewrite_module(op)


__all__ = ["HloAlgebraicSimplifier"]
