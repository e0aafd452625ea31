"""Splat constants of the hlo dialect: reading their value (also through broadcasts and
reshapes of them) and building them; shared by the canonicalization patterns
(dialects/hlo_ops/canonicalization.py) and the hlo optimization passes."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from minixla.dialects.hlo_ops.shape import BroadcastInDimOp, ConstantOp
from minixla.dialects.hlo_ops.syntax import i64_array


def hlo_name(op: Operation) -> str | None:
    """The mnemonic of an `hlo.*` op (these passes leave `stablehlo.*` alone)."""
    return op.name[4:] if op.name.startswith("hlo.") else None


def dense_splat_value(value: DenseIntOrFPElementsAttr) -> int | float | None:
    """The one element value of a splat dense attribute; None if it is not a splat or has no elements
    (xDSL's `is_splat` indexes the first element, so an empty attribute must be ruled out first)."""
    values = value.get_values()
    if not values or not value.is_splat():
        return None
    first = values[0]
    return first.value.data if isinstance(first, (IntegerAttr, FloatAttr)) else first


def splat_value(v: SSAValue) -> int | float | None:
    """The element value if `v` is a splat constant, or a broadcast/reshape of one."""
    op = v.owner
    if not isinstance(op, Operation):
        return None
    m = hlo_name(op)
    if m == "constant":
        return dense_splat_value(op.value)
    if m in ("broadcast_in_dim", "reshape"):
        return splat_value(op.operands[0])
    return None


def scalar_constant(value: int | float, element_type: Attribute) -> Operation:
    t = TensorType(element_type, [])
    return ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [value]))


def broadcast(x: SSAValue, result_type: TensorType, dims: Sequence[int]) -> Operation:
    return BroadcastInDimOp.create(operands=[x], result_types=[result_type],
                                       properties={"broadcast_dimensions": i64_array(list(dims))})


def splat_like(value: int | float, like: TensorType) -> list[Operation]:
    """Ops making a tensor of `like`'s type filled with `value` (constant + broadcast)."""
    c = scalar_constant(value, like.element_type)
    if not like.get_shape():
        return [c]
    return [c, broadcast(c.results[0], like, [])]
