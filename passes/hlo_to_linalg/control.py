"""while/if/case -> scf.while/scf.if/scf.index_switch on tensors; the
regions are translated recursively (they may use enclosing values)."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, IndexType, i64
from xdsl.ir import Block, Operation, Region

from minixla.dialects import hlo
from minixla.passes.hlo_to_linalg.common import extract_scalar, signless
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering


@lowering(hlo.WhileOp)
def lower_while(lw: Lowerer, op: Operation):
    types = [signless(r.type) for r in op.results]
    before, after = Block(arg_types=types), Block(arg_types=types)
    cond = lw.child(before)
    c = cond.translate_region_into(op.cond, before.args)[0]
    cond.e.op(scf.ConditionOp(extract_scalar(cond.e, c), *before.args))
    body = lw.child(after)
    body.e.op(scf.YieldOp(*body.translate_region_into(op.body, after.args)))
    loop = lw.e.op(scf.WhileOp(lw.vs(op.operands), types, Region(before), Region(after)))
    return list(loop.results)


def _branch(lw: Lowerer, region: Region) -> Region:
    block = Block()
    inner = lw.child(block)
    inner.e.op(scf.YieldOp(*inner.translate_region_into(region)))
    return Region(block)


@lowering(hlo.IfOp)
def lower_if(lw: Lowerer, op: Operation):
    types = [signless(r.type) for r in op.results]
    pred = extract_scalar(lw.e, lw.v(op.pred))
    new = lw.e.op(scf.IfOp(pred, types, _branch(lw, op.true_branch), _branch(lw, op.false_branch)))
    return list(new.results)


@lowering(hlo.CaseOp)
def lower_case(lw: Lowerer, op: Operation):
    """Branch i for index i in range; any other index runs the last branch (spec)."""
    types = [signless(r.type) for r in op.results]
    branches = list(op.branches)
    idx = lw.e(arith.IndexCastOp(extract_scalar(lw.e, lw.v(op.index)), IndexType()))
    cases = DenseArrayBase.from_list(i64, list(range(len(branches) - 1)))
    new = lw.e.op(scf.IndexSwitchOp(idx, cases, _branch(lw, branches[-1]), [_branch(lw, r) for r in branches[:-1]],
                                    types))
    return list(new.results)
