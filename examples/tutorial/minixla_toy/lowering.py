"""Chapter 3: lowering to hlo. `convert-toy-to-hlo` rewrites each toy op into core hlo ops,
after which the whole minixla pipeline applies: fusion, the interpreter, the CPU backend."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker,
                                   RewritePattern, op_type_rewrite_pattern)

from minixla.dialects import hlo
from minixla.dialects.numpy_types import numpy_dtype, numpy_to_dense_attr
from minixla_toy.dialect import ClampOp, ScaleOp


def splat(value: float, t: TensorType) -> hlo.ConstantOp:
    """`hlo.constant` filled with `value`, of type `t`."""
    array = np.full(tuple(t.get_shape()), value, numpy_dtype(t.element_type))
    return hlo.ConstantOp(numpy_to_dense_attr(array, t))


class LowerScale(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScaleOp, rewriter: PatternRewriter) -> None:
        factor = splat(op.factor.value.data, op.input.type)
        rewriter.replace(op, [factor, hlo.MultiplyOp(op.input, factor.results[0])])


class LowerClamp(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ClampOp, rewriter: PatternRewriter) -> None:
        lo, hi = splat(op.lo.value.data, op.input.type), splat(op.hi.value.data, op.input.type)
        clamp = hlo.ClampOp.create(operands=[lo.results[0], op.input, hi.results[0]], result_types=[op.input.type])
        rewriter.replace(op, [lo, hi, clamp])


@dataclass(frozen=True)
class ConvertToyToHlo(ModulePass):
    """Lower toy.scale and toy.clamp onto hlo.multiply, hlo.clamp and hlo.constant."""

    name = "convert-toy-to-hlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier([LowerScale(), LowerClamp()])).rewrite_module(op)
