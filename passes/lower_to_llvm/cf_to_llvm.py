"""`convert-cf-to-llvm`: branches to llvm.br / llvm.cond_br, and block
signatures to LLVM types (index -> i64, memref -> ptr: loop induction
variables and loop-carried buffers are block arguments after scf-to-cf).

`cf.switch` becomes a chain of compare-and-branch blocks (the llvm dialect
and xDSL's translator have no switch); LLVM's SimplifyCFG turns such chains
back into a `switch` instruction at -O1 and above.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, cf, llvm
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from minixla.passes.fast_build import like
from minixla.passes.lower_to_llvm.common import Emit, constant_op, to_llvm
from minixla.passes.lower_to_llvm.func_to_llvm import convert_entry_args
from minixla.passes.rewrite_driver import rewrite_in_order


def retype_block_arguments(module: builtin.ModuleOp) -> None:
    """Every non-entry block's arguments get LLVM types (casts keep users valid)."""
    rewriter = PatternRewriter(InsertPoint.at_start(module.body.block))
    for op in module.walk():
        for region in op.regions:
            for block in list(region.blocks)[1:]:
                convert_entry_args(rewriter, block)


class BranchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter, /):
        args = [to_llvm(rewriter, a) for a in op.arguments]
        rewriter.replace(op, like(("llvm.br", len(args)), lambda: llvm.BrOp(op.successor, *args), args,
                                  (op.successor,)))


class CondBranchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter, /):
        then_args = [to_llvm(rewriter, a) for a in op.then_arguments]
        else_args = [to_llvm(rewriter, a) for a in op.else_arguments]
        rewriter.replace(op, like(
            ("llvm.cond_br", len(then_args), len(else_args)),
            lambda: llvm.CondBrOp(op.cond, op.then_block, then_args, op.else_block, else_args),
            (op.cond, *then_args, *else_args), (op.then_block, op.else_block)))


class SwitchLowering(RewritePattern):
    """cf.switch -> `flag == case_i` tests chained through fresh blocks."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.SwitchOp, rewriter: PatternRewriter, /):
        flag = to_llvm(rewriter, op.flag)
        default_args = [to_llvm(rewriter, a) for a in op.default_operands]
        sizes = op.case_operand_segments.get_values() if op.case_operand_segments else []
        case_args, start = [], 0
        for n in sizes:
            case_args.append([to_llvm(rewriter, a) for a in op.case_operands[start:start + n]])
            start += n
        values = op.case_values.get_values() if op.case_values else []
        if not case_args:
            case_args = [[] for _ in values]
        block = op.parent_block()
        region = block.parent_region()
        e = Emit(rewriter)
        anchor = block
        for i, (value, dest) in enumerate(zip(values, op.case_blocks)):
            last = i == len(values) - 1
            if last:
                next_block, next_args = op.default_block, default_args
            else:
                next_block, next_args = Block(), []
                region.insert_block_after(next_block, anchor)
            hit = e.icmp("eq", flag, e(constant_op(flag.type, value)))
            e(llvm.CondBrOp(hit, dest, case_args[i], next_block, next_args))
            if not last:
                anchor = next_block
                e = Emit(rewriter, InsertPoint.at_end(next_block))
        if not values:
            e(llvm.BrOp(op.default_block, *default_args))
        rewriter.erase(op)


@dataclass(frozen=True)
class ConvertCfToLLVM(ModulePass):
    """cf.{br,cond_br,switch} -> llvm branches; block arguments to LLVM types."""

    name = "convert-cf-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        retype_block_arguments(op)
        rewrite_in_order(op, [(SwitchLowering(), cf.SwitchOp), (BranchLowering(), cf.BranchOp),
                              (CondBranchLowering(), cf.ConditionalBranchOp)])
