"""`lower-scf-to-cf`: structured control flow to blocks and branches.

Replaces xDSL's pass of the same name (which knows only `scf.for`, `scf.if`
and `scf.index_switch`, whose patterns we reuse: `scf.for`'s as a copy that
builds its ops through passes/fast_build.py) and adds `scf.while`,
`scf.parallel` (with `scf.reduce`) and `scf.execute_region`.

`scf.parallel` becomes a sequential `scf.for` nest, outermost dimension
outermost, before the branch lowering. A threading pass therefore has to run
*before* this one, on `scf.parallel` itself, which is where it can outline the
outermost parallel loop into a task body.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.dialects.arith import AddiOp, CmpiOp
from xdsl.dialects.cf import BranchOp, ConditionalBranchOp
from xdsl.dialects.scf import (
    ConditionOp,
    ExecuteRegionOp,
    ForOp,
    IfOp,
    IndexSwitchOp,
    ParallelOp,
    ReduceOp,
    ReduceReturnOp,
    WhileOp,
    YieldOp,
)
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.traits import IsTerminator
from xdsl.transforms.convert_scf_to_cf import IfLowering, SwitchLowering

from minixla.passes.fast_build import like, split_before
from minixla.passes.rewrite_driver import rewrite_to_fixpoint


def _branch(dest: Block, args: list[SSAValue]) -> BranchOp:
    return like(("cf.br", len(args)), lambda: BranchOp(dest, *args), args, (dest,))


def _yield(values: list[SSAValue]) -> YieldOp:
    return like(("scf.yield", len(values)), lambda: YieldOp(*values), values)


class ForLowering(RewritePattern):
    """xDSL's `scf.for` lowering (xdsl.transforms.convert_scf_to_cf.ForLowering, the same blocks and
    ops in the same order), its five ops per loop built from remembered shapes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, for_op: ForOp, rewriter: PatternRewriter, /):
        init_block = for_op.parent_block()
        if init_block is None:
            return
        end_block = split_before(init_block, for_op)
        # the body's first block becomes the condition block (it has the iv and carried values)
        condition_block = for_op.body.first_block
        assert condition_block is not None
        first_op = condition_block.first_op
        assert first_op is not None
        first_body_block = split_before(condition_block, first_op)
        last_body_block = for_op.body.last_block
        assert last_body_block is not None
        rewriter.inline_region(for_op.body, BlockInsertPoint.before(end_block))
        iv = condition_block.args[0]

        terminator = last_body_block.last_op
        assert terminator is not None and terminator.has_trait(IsTerminator)
        step = for_op.step
        stepped = like(("arith.addi", iv.type, step.type), lambda: AddiOp(iv, step), (iv, step))
        rewriter.insert(stepped, InsertPoint.before(terminator))
        rewriter.replace(terminator, _branch(condition_block, [stepped.results[0], *terminator.operands]))
        rewriter.insert(_branch(condition_block, [for_op.lb, *for_op.iter_args]), InsertPoint.at_end(init_block))

        ub = for_op.ub
        comparison = like(("arith.cmpi", "slt", iv.type, ub.type), lambda: CmpiOp(iv, ub, "slt"), (iv, ub))
        rewriter.insert(comparison, InsertPoint.at_end(condition_block))
        cond = comparison.results[0]
        rewriter.insert(like(("cf.cond_br", 0, 0), lambda: ConditionalBranchOp(cond, first_body_block, (), end_block, ()),
                             (cond,), (first_body_block, end_block)), InsertPoint.at_end(condition_block))
        rewriter.replace(for_op, [], condition_block.args[1:])


class WhileLowering(RewritePattern):
    """scf.while -> a header block (the "before" region, ending in a
    conditional branch) and a body (the "after" region, branching back)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WhileOp, rewriter: PatternRewriter, /):
        init_block = op.parent_block()
        assert init_block is not None
        cont = split_before(init_block, op)
        for i, t in enumerate(op.result_types):
            rewriter.insert_block_argument(cont, i, t)

        before_first = op.before_region.first_block
        after_first = op.after_region.first_block
        assert before_first is not None and after_first is not None

        for block in op.before_region.blocks:
            term = block.last_op
            if isinstance(term, ConditionOp):
                rewriter.replace(term, ConditionalBranchOp(
                    term.condition, after_first, term.args, cont, term.args))
        for block in op.after_region.blocks:
            term = block.last_op
            if isinstance(term, YieldOp):
                rewriter.replace(term, BranchOp(before_first, *term.operands))

        rewriter.inline_region(op.before_region, BlockInsertPoint.before(cont))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(cont))
        rewriter.insert(BranchOp(before_first, *op.arguments), InsertPoint.at_end(init_block))
        rewriter.replace(op, [], cont.args)


class ExecuteRegionLowering(RewritePattern):
    """scf.execute_region -> its blocks inlined, yields branch to the continuation."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExecuteRegionOp, rewriter: PatternRewriter, /):
        init_block = op.parent_block()
        assert init_block is not None
        cont = split_before(init_block, op)
        for i, t in enumerate(op.result_types):
            rewriter.insert_block_argument(cont, i, t)
        first = op.region.first_block
        assert first is not None
        for block in op.region.blocks:
            term = block.last_op
            if isinstance(term, YieldOp):
                rewriter.replace(term, BranchOp(cont, *term.operands))
        rewriter.inline_region(op.region, BlockInsertPoint.before(cont))
        rewriter.insert(BranchOp(first), InsertPoint.at_end(init_block))
        rewriter.replace(op, [], cont.args)


class ParallelToForNest(RewritePattern):
    """scf.parallel -> nested scf.for (dimension 0 outermost). Reductions
    become loop-carried values: the innermost body folds each `scf.reduce`
    operand into its accumulator with the reduction region, inlined."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ParallelOp, rewriter: PatternRewriter, /):
        body = op.body.block
        inits = list(op.initVals)
        acc_types = [v.type for v in inits]

        loops: list[ForOp] = []
        carried: list[SSAValue] = inits
        for lb, ub, step in zip(op.lowerBound, op.upperBound, op.step):
            block = Block(arg_types=[lb.type, *acc_types])
            region, iter_args = Region(block), carried
            loop = like(("scf.for", tuple(acc_types)), lambda: ForOp(lb, ub, step, iter_args, region),
                        [lb, ub, step, *carried], regions=[region])
            if loops:
                rewriter.insert(loop, InsertPoint.at_end(loops[-1].body.block))
                rewriter.insert(_yield(list(loop.results)), InsertPoint.at_end(loops[-1].body.block))
            else:
                rewriter.insert(loop, InsertPoint.before(op))
            loops.append(loop)
            carried = list(block.args[1:])

        inner = loops[-1].body.block
        reduce = body.last_op
        assert isinstance(reduce, ReduceOp)
        rewriter.inline_block(body, InsertPoint.at_end(inner), [lp.body.block.args[0] for lp in loops])
        accs = list(inner.args[1:])
        new_accs: list[SSAValue] = []
        for acc, value, region in zip(accs, reduce.args, reduce.reductions, strict=True):
            rblock = region.block
            ret = rblock.last_op
            assert isinstance(ret, ReduceReturnOp)
            result = ret.result
            rewriter.erase(ret)
            rewriter.inline_block(rblock, InsertPoint.before(reduce), [acc, value])
            new_accs.append(result)
        rewriter.replace(reduce, _yield(new_accs))
        rewriter.replace(op, [], loops[0].results)


@dataclass(frozen=True)
class ConvertScfToCf(ModulePass):
    """Lower scf.{for,if,index_switch,while,parallel,execute_region} to cf."""

    name = "lower-scf-to-cf"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        rewrite_to_fixpoint(op, ParallelToForNest(), ParallelOp)
        rewrite_to_fixpoint(op, GreedyRewritePatternApplier([
            SwitchLowering(), IfLowering(), ForLowering(), WhileLowering(), ExecuteRegionLowering(),
        ]), (IndexSwitchOp, IfOp, ForOp, WhileOp, ExecuteRegionOp))
