"""Canonicalization patterns of the hlo ops: XLA's AlgebraicSimplifier rewrites that are exact.

One typed pattern per rule, keyed by op class (`@op_type_rewrite_pattern` reads the
annotation), registered on the ops' `HloCanonicalization` trait: xDSL's `canonicalize`
applies them, and so does `hlo-algebraic-simplifier` (passes/hlo_opt/simplify.py).

- `power(x, 2) -> x * x`, `power(x, 1) -> x` (x*x is the correctly rounded x^2)
- `x * 1`, `1 * x -> x`; integer `x + 0`, `x - 0 -> x`; float `x + (-0.0)`,
  `x - (+0.0) -> x` only (`-0.0 + 0.0` is `+0.0`, so `x + 0.0` is not `x`)
- `x / c -> x * (1/c)` only where exact: float c = +-2^k with 1/c a normal number
- `negate(negate(x))`, identity `convert`/`reshape`/`transpose`/`broadcast_in_dim`/`slice` -> x
- `reshape(reshape(x))`, `transpose(transpose(x))`, `broadcast_in_dim(broadcast_in_dim(x))` -> one op
- `transpose(dot_general(a, b))` that swaps the two free blocks -> `dot_general(b, a)`, when the
  transpose is the product's only use: the same products and sums (the gemm's summation order is
  its own either way), and a fused elementwise consumer then reads the product in its own layout
  (the MLP's weight gradient `x^T dY` read transposed by Adam's update took a strided gather)
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import ArrayAttr, BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from minixla.dialects.hlo_ops.base import CANONICALIZATION_PATTERNS, ints, is_float, is_integer, shape
from minixla.dialects.hlo_ops.contraction import DotGeneralOp
from minixla.dialects.hlo_ops.elementwise import (AddOp, ConvertOp, DivideOp, MultiplyOp, NegateOp, PowerOp,
                                                  SubtractOp)
from minixla.dialects.hlo_ops.shape import BroadcastInDimOp, ReshapeOp, SliceOp, TransposeOp
from minixla.dialects.hlo_ops.splats import broadcast, splat_like, splat_value
from minixla.dialects.hlo_ops.syntax import i64_array

#: smallest and largest normal binary exponent per float type
_EXP_RANGE = {Float16Type: (-14, 15), BFloat16Type: (-126, 127), Float32Type: (-126, 127), Float64Type: (-1022, 1023)}


def _is(value, target: float) -> bool:
    return value is not None and value == target


def _exact_reciprocal(c: float, t) -> float | None:
    """1/c when c = +-2^k and 2^-k is a normal number of type t, else None."""
    if c == 0 or not math.isfinite(c):
        return None
    m, e = math.frexp(c)  # c = m * 2^e, 0.5 <= |m| < 1
    if abs(m) != 0.5:
        return None
    lo, hi = _EXP_RANGE.get(type(t), (0, -1))
    k = e - 1
    return 1.0 / c if lo <= -k <= hi and lo <= k <= hi else None


def _zero_identity(v: SSAValue, t, negative: bool) -> bool:
    """`v` is the additive identity for type t: integer 0, or the float zero of the given sign."""
    c = splat_value(v)
    if c is None or c != 0:
        return False
    if is_integer(t):
        return True
    return is_float(t) and (math.copysign(1.0, c) < 0) == negative


class PowerByTwoOrOne(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PowerOp, rewriter: PatternRewriter) -> None:
        t = op.result.type.element_type
        e = splat_value(op.rhs)
        if not (is_float(t) or is_integer(t)):
            return
        if _is(e, 2):
            rewriter.replace(op, MultiplyOp(op.lhs, op.lhs, op.result.type))
        elif _is(e, 1):
            rewriter.replace(op, [], [op.lhs])


class MultiplyByOne(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MultiplyOp, rewriter: PatternRewriter) -> None:
        t = op.result.type.element_type
        if not (is_float(t) or is_integer(t)):
            return
        if _is(splat_value(op.rhs), 1):
            rewriter.replace(op, [], [op.lhs])
        elif _is(splat_value(op.lhs), 1):
            rewriter.replace(op, [], [op.rhs])


class AddZero(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddOp, rewriter: PatternRewriter) -> None:
        t = op.result.type.element_type
        if _zero_identity(op.rhs, t, True):
            rewriter.replace(op, [], [op.lhs])
        elif _zero_identity(op.lhs, t, True):
            rewriter.replace(op, [], [op.rhs])


class SubtractZero(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubtractOp, rewriter: PatternRewriter) -> None:
        if _zero_identity(op.rhs, op.result.type.element_type, False):
            rewriter.replace(op, [], [op.lhs])


class DivideByPowerOfTwo(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DivideOp, rewriter: PatternRewriter) -> None:
        t = op.result.type.element_type
        c = splat_value(op.rhs)
        if not is_float(t) or c is None:
            return
        inv = _exact_reciprocal(float(c), t)
        if inv is not None:
            ops = splat_like(inv, op.result.type)
            rewriter.replace(op, [*ops, MultiplyOp(op.lhs, ops[-1].results[0], op.result.type)])


class DoubleNegation(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: NegateOp, rewriter: PatternRewriter) -> None:
        inner = op.operand.owner
        if isinstance(inner, NegateOp):
            rewriter.replace(op, [], [inner.operand])


class IdentityConvert(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        if op.operand.type == op.result.type:
            rewriter.replace(op, [], [op.operand])


class ReshapeChain(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReshapeOp, rewriter: PatternRewriter) -> None:
        x = op.operand
        if x.type == op.result.type:
            rewriter.replace(op, [], [x])
            return
        inner = x.owner
        if isinstance(inner, ReshapeOp):
            y = inner.operand
            if y.type == op.result.type:
                rewriter.replace(op, [], [y])
            else:
                rewriter.replace(op, ReshapeOp.create(operands=[y], result_types=[op.result.type]))


class TransposeChain(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter) -> None:
        perm = ints(op.permutation)
        if perm == tuple(range(len(perm))):
            rewriter.replace(op, [], [op.operand])
            return
        inner = op.operand.owner
        if isinstance(inner, TransposeOp):
            p1 = ints(inner.permutation)
            composed = [p1[k] for k in perm]
            if composed == list(range(len(composed))):
                rewriter.replace(op, [], [inner.operand])
            else:
                rewriter.replace(op, TransposeOp.create(operands=[inner.operand], result_types=[op.result.type],
                                                        properties={"permutation": i64_array(composed)}))


class TransposeOfDot(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter) -> None:
        dot = op.operand.owner
        if not isinstance(dot, DotGeneralOp) or dot.algorithm is not None or not dot.result.has_one_use():
            return
        dn = dot.dot_dimension_numbers
        nb = len(dn.lhs_batching_dimensions)
        nl = len(shape(dot.lhs.type)) - nb - len(dn.lhs_contracting_dimensions)
        nr = len(shape(dot.rhs.type)) - nb - len(dn.rhs_contracting_dimensions)
        swapped = [*range(nb), *range(nb + nl, nb + nl + nr), *range(nb, nb + nl)]
        if not nl or not nr or list(ints(op.permutation)) != swapped:
            return
        numbers = type(dn).get(lhs_batching_dimensions=dn.rhs_batching_dimensions,
                               rhs_batching_dimensions=dn.lhs_batching_dimensions,
                               lhs_contracting_dimensions=dn.rhs_contracting_dimensions,
                               rhs_contracting_dimensions=dn.lhs_contracting_dimensions)
        props = {"dot_dimension_numbers": numbers}
        if dot.precision_config is not None:
            props["precision_config"] = ArrayAttr(tuple(reversed(dot.precision_config.data)))
        rewriter.replace(op, type(dot).create(operands=[dot.rhs, dot.lhs], result_types=[op.result.type],
                                              properties=props))


class BroadcastChain(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter) -> None:
        dims = ints(op.broadcast_dimensions)
        x = op.operand
        if x.type == op.result.type and dims == tuple(range(len(dims))):
            rewriter.replace(op, [], [x])
            return
        inner = x.owner
        if isinstance(inner, BroadcastInDimOp):
            d1 = ints(inner.broadcast_dimensions)
            rewriter.replace(op, broadcast(inner.operand, op.result.type, [dims[i] for i in d1]))


class IdentitySlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SliceOp, rewriter: PatternRewriter) -> None:
        x = op.operand
        shape = x.type.get_shape()
        if (x.type == op.result.type and all(s == 0 for s in ints(op.start_indices))
                and all(s == 1 for s in ints(op.strides)) and tuple(ints(op.limit_indices)) == tuple(shape)):
            rewriter.replace(op, [], [x])


#: op class -> its patterns (the ops' HloCanonicalization trait reads this table)
PATTERNS: dict[type, tuple[RewritePattern, ...]] = {
    PowerOp: (PowerByTwoOrOne(),), MultiplyOp: (MultiplyByOne(),), AddOp: (AddZero(),),
    SubtractOp: (SubtractZero(),), DivideOp: (DivideByPowerOfTwo(),), NegateOp: (DoubleNegation(),),
    ConvertOp: (IdentityConvert(),), ReshapeOp: (ReshapeChain(),), TransposeOp: (TransposeChain(), TransposeOfDot()),
    BroadcastInDimOp: (BroadcastChain(),), SliceOp: (IdentitySlice(),),
}
CANONICALIZATION_PATTERNS.update(PATTERNS)


def all_patterns() -> list[RewritePattern]:
    return [p for patterns in PATTERNS.values() for p in patterns]
