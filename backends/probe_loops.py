"""The value an `interpreter.probe` records, for compiled backends (check outlining).

A top-level probe runs once: its operand is the value of iteration 0. A probe directly in
the body of a top-level `hlo.while` runs once per iteration; to check iteration n without
host callbacks, the loop is given two more carried values: a counter and a slot that
takes the probed value when the counter equals n (a select). After the loop the slot is
the recorded value and the counter says how many were recorded.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType, i1, i64
from xdsl.ir import Operation, SSAValue

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.attrs import ComparisonDirection, attributes_for
from minixla.dialects.numpy_types import numpy_dtype, numpy_to_dense_attr

SCALAR = TensorType(i64, [])


class ProbeOutliningError(NotImplementedError):
    """A probe whose iterations a compiled backend cannot record."""


def _const(anchor: Operation, arr: np.ndarray, t: TensorType) -> SSAValue:
    op = hlo.ConstantOp(numpy_to_dense_attr(arr, t))
    anchor.parent_block().insert_op_before(op, anchor)
    return op.output


def _emit(anchor: Operation, cls, operands, result_type, **props) -> SSAValue:
    op = cls.create(operands=list(operands), result_types=[result_type], properties=props)
    anchor.parent_block().insert_op_before(op, anchor)
    return op.results[0]


def recorded(probe: Operation, iteration: int, fn: func.FuncOp,
             forward: dict[SSAValue, SSAValue]) -> tuple[SSAValue, SSAValue]:
    """(the value `probe` records at `iteration`, how many values it records), as values of fn;
    a rewritten loop's old results map to the new ones in `forward`."""
    parent = probe.parent_op()
    if parent is fn:
        return probe.operands[0], _const(probe, np.asarray(1, np.int64), SCALAR)
    if not (isinstance(parent, hlo.WhileOp) and probe.parent_block() is parent.body.block and parent.parent_op() is fn):
        raise ProbeOutliningError(f"probe '{probe.properties['probe_id'].data}' is recorded by the interpreter only: "
                                  "compiled backends record probes at the top level or directly in a top-level "
                                  "while body")
    return _capture(parent, probe, iteration, forward)


def _capture(loop: hlo.WhileOp, probe: Operation, iteration: int,
             forward: dict[SSAValue, SSAValue]) -> tuple[SSAValue, SSAValue]:
    value = probe.operands[0]
    t = value.type
    zero = _const(loop, np.asarray(0, np.int64), SCALAR)
    empty = _const(loop, np.zeros(t.get_shape(), numpy_dtype(t.element_type)), t)
    body, cond = loop.body.block, loop.cond.block
    for block in (body, cond):
        block.insert_arg(SCALAR, len(block.args))
        block.insert_arg(t, len(block.args))
    count, slot = body.args[-2], body.args[-1]
    ret = body.last_op
    one = _const(ret, np.asarray(1, np.int64), SCALAR)
    n = _const(ret, np.asarray(iteration, np.int64), SCALAR)
    direction = attributes_for("hlo.compare").comparison_direction(ComparisonDirection.EQ)
    hit = _emit(ret, hlo.CompareOp, [count, n], TensorType(i1, []), comparison_direction=direction)
    new_slot = _emit(ret, hlo.SelectOp, [hit, value, slot], t)
    new_count = _emit(ret, hlo.AddOp, [count, one], SCALAR)
    ret.operands = [*ret.operands, new_count, new_slot]
    regions = [loop.cond, loop.body]
    new = hlo.WhileOp.create(operands=[*loop.operands, zero, empty],
                             result_types=[*(r.type for r in loop.results), SCALAR, t],
                             properties=dict(loop.properties), attributes=dict(loop.attributes),
                             regions=[loop.detach_region(r) for r in regions])
    new.location = loop.location
    loop.parent_block().insert_op_before(new, loop)
    for old, res in zip(loop.results, new.results):
        old.replace_all_uses_with(res)
        forward[old] = res
    loop.detach()
    loop.erase()
    return new.results[-1], new.results[-2]
