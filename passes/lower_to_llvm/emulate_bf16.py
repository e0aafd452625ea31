"""`arith-emulate-bf16`: bf16 arithmetic in f32, rounded to bf16 with integer code.

LLVM (22, through llvmlite) lowers `bfloat` arithmetic and `fptrunc float to
bfloat` on x86 without AVX512-BF16 with subnormal results flushed to zero,
which StableHLO does not allow. As MLIR's `arith-emulate-unsupported-floats`
plus `arith-expand{include-bf16}` do, this pass (run before
`convert-arith-to-llvm`) computes each bf16 op in f32 and rounds once to
nearest-even in integer arithmetic, keeping subnormals and quieting NaNs;
`math` ops on bf16 likewise (their f32 result is rounded once more).
One f32 rounding followed by one bf16 rounding is exact for +, -, *, / of bf16
operands (f32 has more than 2 * 8 + 2 significand bits), so results equal a
single correctly rounded bf16 operation.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import BFloat16Type, IntegerAttr, f32, i16, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from minixla.passes.rewrite_driver import has_value_of_type

_BINARY = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.MaximumfOp, arith.MaxnumfOp, arith.MinnumfOp,
           arith.MinimumfOp)


def _is_bf16(value: SSAValue) -> bool:
    return isinstance(value.type, BFloat16Type)


def round_f32_to_bf16(rewriter: PatternRewriter, x: SSAValue) -> SSAValue:
    """Round-to-nearest-even f32 -> bf16 on the bits; NaNs stay NaN (quiet)."""
    ops: list[Operation] = []

    def emit(new: Operation) -> SSAValue:
        ops.append(new)
        return new.results[0]

    def const(v: int) -> SSAValue:
        return emit(arith.ConstantOp(IntegerAttr(v, i32)))

    bits = emit(arith.BitcastOp(x, i32))
    sixteen = const(16)
    lsb = emit(arith.AndIOp(emit(arith.ShRUIOp(bits, sixteen)), const(1)))
    rounded = emit(arith.ShRUIOp(emit(arith.AddiOp(bits, emit(arith.AddiOp(lsb, const(0x7FFF))))), sixteen))
    quiet_nan = emit(arith.OrIOp(emit(arith.ShRUIOp(bits, sixteen)), const(0x40)))
    is_nan = emit(arith.CmpfOp(x, x, "uno"))
    chosen = emit(arith.SelectOp(is_nan, quiet_nan, rounded))
    result = emit(arith.BitcastOp(emit(arith.TruncIOp(chosen, i16)), BFloat16Type()))
    rewriter.insert(ops)
    return result


class EmulateBf16Arith(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        is_math = op.name.startswith("math.") and len(op.results) == 1
        if (isinstance(op, (*_BINARY, arith.NegfOp)) or is_math) and _is_bf16(op.results[0]):
            rewriter.insert(wide := type(op).create(
                operands=[self._widen(rewriter, v) if _is_bf16(v) else v for v in op.operands], result_types=[f32],
                properties=dict(op.properties), attributes=dict(op.attributes)))
            rewriter.replace(op, [], [round_f32_to_bf16(rewriter, wide.results[0])])
        elif isinstance(op, arith.CmpfOp) and _is_bf16(op.lhs):
            rewriter.replace(op, arith.CmpfOp.create(
                operands=[self._widen(rewriter, v) for v in op.operands], result_types=[op.result.type],
                properties=dict(op.properties), attributes=dict(op.attributes)))
        elif isinstance(op, arith.TruncFOp) and _is_bf16(op.result) and op.input.type == f32:
            rewriter.replace(op, [], [round_f32_to_bf16(rewriter, op.input)])
        elif isinstance(op, arith.ExtFOp) and _is_bf16(op.input):
            wide = self._widen(rewriter, op.input)
            if op.result.type != f32:  # f32 -> f64 is exact
                rewriter.insert(ext := arith.ExtFOp(wide, op.result.type))
                wide = ext.result
            rewriter.replace(op, [], [wide])

    @staticmethod
    def _widen(rewriter: PatternRewriter, value: SSAValue) -> SSAValue:
        """bf16 -> f32 exactly: the bf16 bits are the high half of the f32 (LLVM's
        fpext flushes subnormals here too)."""
        bits = arith.BitcastOp(value, i16)
        wide = arith.ExtUIOp(bits.result, i32)
        shift = arith.ConstantOp(IntegerAttr(16, i32))
        high = arith.ShLIOp(wide.result, shift.result)
        as_float = arith.BitcastOp(high.result, f32)
        rewriter.insert([bits, wide, shift, high, as_float])
        return as_float.result


@dataclass(frozen=True)
class ArithEmulateBf16(ModulePass):
    name = "arith-emulate-bf16"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if not has_value_of_type(op, BFloat16Type):  # every rewrite is of a bf16 result or operand
            return
        PatternRewriteWalker(EmulateBf16Arith(), apply_recursively=False).rewrite_module(op)
