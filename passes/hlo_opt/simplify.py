"""`hlo-algebraic-simplifier`: XLA's AlgebraicSimplifier, the rewrites that are
exact. Why: the frontend emits `pow(x, 2)`, identity reshapes and chains of
layout ops; simplifying them first makes fusion cheaper and the code faster.

- `power(x, 2) -> x * x`, `power(x, 1) -> x` (x*x is the correctly rounded x^2)
- `x * 1`, `1 * x -> x`; integer `x + 0`, `x - 0 -> x`; float `x + (-0.0)`,
  `x - (+0.0) -> x` only (`-0.0 + 0.0` is `+0.0`, so `x + 0.0` is not `x`)
- `x / c -> x * (1/c)` only where exact: float c = +-2^k with 1/c a normal number
- `negate(negate(x))`, identity `convert`/`reshape`/`transpose`/`broadcast_in_dim`/`slice` -> x
- `reshape(reshape(x))`, `transpose(transpose(x))`, `broadcast_in_dim(broadcast_in_dim(x))` -> one op
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.base import ints, is_float, is_integer
from minixla.dialects.hlo_ops.syntax import i64_array

from minixla.passes.hlo_opt.common import broadcast, hlo_name, splat_like, splat_value

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


class Simplify(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        m = hlo_name(op)
        if m is None or len(op.results) != 1:
            return
        fn = getattr(self, "_" + m, None)
        if fn is not None:
            fn(op, rewriter)

    # -- elementwise ------------------------------------------------------
    @staticmethod
    def _power(op, rw):
        t = op.result.type.element_type
        e = splat_value(op.rhs)
        if not (is_float(t) or is_integer(t)):
            return
        if _is(e, 2):
            rw.replace(op, hlo.MultiplyOp(op.lhs, op.lhs, op.result.type))
        elif _is(e, 1):
            rw.replace(op, [], [op.lhs])

    @staticmethod
    def _multiply(op, rw):
        t = op.result.type.element_type
        if not (is_float(t) or is_integer(t)):
            return
        if _is(splat_value(op.rhs), 1):
            rw.replace(op, [], [op.lhs])
        elif _is(splat_value(op.lhs), 1):
            rw.replace(op, [], [op.rhs])

    @staticmethod
    def _zero_identity(v: SSAValue, t, negative: bool) -> bool:
        c = splat_value(v)
        if c is None or c != 0:
            return False
        if is_integer(t):
            return True
        return is_float(t) and (math.copysign(1.0, c) < 0) == negative

    def _add(self, op, rw):
        t = op.result.type.element_type
        if self._zero_identity(op.rhs, t, True):
            rw.replace(op, [], [op.lhs])
        elif self._zero_identity(op.lhs, t, True):
            rw.replace(op, [], [op.rhs])

    def _subtract(self, op, rw):
        if self._zero_identity(op.rhs, op.result.type.element_type, False):
            rw.replace(op, [], [op.lhs])

    @staticmethod
    def _divide(op, rw):
        t = op.result.type.element_type
        c = splat_value(op.rhs)
        if not is_float(t) or c is None:
            return
        inv = _exact_reciprocal(float(c), t)
        if inv is not None:
            ops = splat_like(inv, op.result.type)
            rw.replace(op, [*ops, hlo.MultiplyOp(op.lhs, ops[-1].results[0], op.result.type)])

    @staticmethod
    def _negate(op, rw):
        inner = op.operand.owner
        if isinstance(inner, Operation) and hlo_name(inner) == "negate":
            rw.replace(op, [], [inner.operand])

    @staticmethod
    def _convert(op, rw):
        if op.operand.type == op.result.type:
            rw.replace(op, [], [op.operand])

    # -- data movement ----------------------------------------------------------
    @staticmethod
    def _reshape(op, rw):
        x = op.operand
        if x.type == op.result.type:
            rw.replace(op, [], [x])
            return
        inner = x.owner
        if isinstance(inner, Operation) and hlo_name(inner) == "reshape":
            y = inner.operand
            if y.type == op.result.type:
                rw.replace(op, [], [y])
            else:
                rw.replace(op, hlo.ReshapeOp.create(operands=[y], result_types=[op.result.type]))

    @staticmethod
    def _transpose(op, rw):
        perm = ints(op.permutation)
        if perm == tuple(range(len(perm))):
            rw.replace(op, [], [op.operand])
            return
        inner = op.operand.owner
        if isinstance(inner, Operation) and hlo_name(inner) == "transpose":
            p1 = ints(inner.permutation)
            composed = [p1[k] for k in perm]
            if composed == list(range(len(composed))):
                rw.replace(op, [], [inner.operand])
            else:
                rw.replace(op, hlo.TransposeOp.create(operands=[inner.operand], result_types=[op.result.type],
                                                         properties={"permutation": i64_array(composed)}))

    @staticmethod
    def _broadcast_in_dim(op, rw):
        dims = ints(op.broadcast_dimensions)
        x = op.operand
        if x.type == op.result.type and dims == tuple(range(len(dims))):
            rw.replace(op, [], [x])
            return
        inner = x.owner
        if isinstance(inner, Operation) and hlo_name(inner) == "broadcast_in_dim":
            d1 = ints(inner.broadcast_dimensions)
            rw.replace(op, broadcast(inner.operand, op.result.type, [dims[i] for i in d1]))

    @staticmethod
    def _slice(op, rw):
        x = op.operand
        shape = x.type.get_shape()
        if (x.type == op.result.type and all(s == 0 for s in ints(op.start_indices))
                and all(s == 1 for s in ints(op.strides)) and tuple(ints(op.limit_indices)) == tuple(shape)):
            rw.replace(op, [], [x])


@dataclass(frozen=True)
class HloAlgebraicSimplifier(ModulePass):
    """Exact algebraic rewrites of hlo ops (see the module docstring)."""

    name = "hlo-algebraic-simplifier"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(Simplify(), apply_recursively=True).rewrite_module(op)


__all__ = ["HloAlgebraicSimplifier", "TensorType"]
