"""Chapter 2: a rewrite pass. `toy-fold-scales` folds `scale(scale(x, a), b)` into
`scale(x, a*b)` and drops `scale(x, 1)`; patterns are keyed by op class
(`@op_type_rewrite_pattern` reads the annotation), as in xDSL's own passes."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker,
                                   RewritePattern, op_type_rewrite_pattern)

from minixla_toy.dialect import ScaleOp


class FoldScaleOfScale(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScaleOp, rewriter: PatternRewriter) -> None:
        inner = op.input.owner
        if isinstance(inner, ScaleOp):
            rewriter.replace(op, ScaleOp(inner.input, inner.factor.value.data * op.factor.value.data))


class DropScaleByOne(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScaleOp, rewriter: PatternRewriter) -> None:
        if op.factor.value.data == 1.0:
            rewriter.replace(op, [], [op.input])


@dataclass(frozen=True)
class ToyFoldScales(ModulePass):
    """Fold chains of toy.scale into one; drop scaling by 1."""

    name = "toy-fold-scales"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier([FoldScaleOfScale(), DropScaleByOne()])).rewrite_module(op)
