"""Inline an hlo region over 0-d tensors (reduce/sort/scatter bodies) as
scalar arith/math ops, reusing the elementwise scalar table so that a
reduction body means exactly what the same op means elementwise."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.ir import Operation, Region, SSAValue

from minixla.passes.hlo_to_linalg import scalar
from minixla.passes.hlo_to_linalg.common import Emitter, elem, signless, unsupported
from minixla.passes.hlo_to_linalg.translate import mnemonic


def _constant(b: Emitter, op: Operation) -> SSAValue:
    value: DenseIntOrFPElementsAttr = op.value
    v = list(value.get_values())[0]
    t = elem(value.type)
    return b.const(v if not isinstance(v, (IntegerAttr, FloatAttr)) else v.value.data, signless(t))


def _one(b: Emitter, op: Operation, args: list[SSAValue]) -> SSAValue:
    m = mnemonic(op)
    t = elem(op.operands[0].type) if op.operands else None
    if m == "constant":
        return _constant(b, op)
    if m == "compare":
        ct = op.compare_type.data.value if op.compare_type is not None else None
        return scalar.compare(b, args[0], args[1], op.comparison_direction.data.value, ct, t)
    if m == "select":
        return b(arith.SelectOp(*args))
    if m == "convert":
        return scalar.convert(b, args[0], t, elem(op.results[0].type))
    if m == "is_finite":
        return scalar.is_finite(b, args[0], t)
    if m == "clamp":
        t = elem(op.operand.type)
        mx, mn = scalar.scalar_op("maximum", t), scalar.scalar_op("minimum", t)
        return mn(b, [mx(b, [args[1], args[0]], t), args[2]], t)
    fn = scalar.scalar_op(m, t) if m is not None and t is not None else None
    if fn is None:
        raise unsupported(op, "only elementwise ops on 0-d tensors are supported inside reduction bodies")
    return fn(b, args, t)


def inline_scalar_region(b: Emitter, region: Region, args: Sequence[SSAValue],
                         outer: dict[SSAValue, SSAValue] | None = None) -> list[SSAValue]:
    """Emit `region`'s ops on scalars; returns the scalars its return yields.
    `outer` maps values captured from the enclosing scope (0-d tensors) to scalars."""
    block = region.block
    env: dict[SSAValue, SSAValue] = dict(outer or {})
    env.update(zip(block.args, args))
    for op in block.ops:
        if op is block.last_op:
            return [env[v] for v in op.operands]
        for o in op.operands:
            if o not in env:
                raise unsupported(op, "reduction bodies may not use values defined outside them")
        env[op.results[0]] = _one(b, op, [env[o] for o in op.operands])
    return []
