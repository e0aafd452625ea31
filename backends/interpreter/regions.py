"""Recognizing common region bodies so they run as one numpy call instead of
being interpreted: `hlo.add(%a, %b)`-style reducers and single-compare sort
comparators."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Region

from minixla.backends.interpreter.attrs import enum_value, prop
from minixla.dialects.numpy_types import is_bool, is_complex, is_float
from minixla.backends.interpreter.op_table import TERMINATORS, canonical_name

_COMMUTATIVE = {"hlo.add", "hlo.multiply", "hlo.maximum", "hlo.minimum", "hlo.and", "hlo.or", "hlo.xor"}


def _body_ops(region: Region):
    if len(region.blocks) != 1:
        return None
    ops = list(region.block.ops)
    if len(ops) != 2 or canonical_name(ops[1].name) not in TERMINATORS:
        return None
    return ops


def binary_body(region: Region) -> str | None:
    """`hlo.add` etc. when the region is `return op(arg0, arg1)` (either order)."""
    ops = _body_ops(region)
    if ops is None:
        return None
    op, ret = ops
    name = canonical_name(op.name)
    args = list(region.block.args)
    if name not in _COMMUTATIVE or len(args) != 2 or len(op.operands) != 2:
        return None
    if set(op.operands) != set(args) or list(ret.operands) != [op.results[0]]:
        return None
    return name


def ufunc_for(name: str | None, dtype: np.dtype) -> np.ufunc | None:
    """The numpy ufunc with exactly the op's semantics on `dtype`, if any
    (float maximum/minimum are excluded: numpy ignores the sign of zero)."""
    if name is None:
        return None
    if name == "hlo.add":
        return np.logical_or if is_bool(dtype) else np.add
    if name == "hlo.multiply":
        return np.logical_and if is_bool(dtype) else np.multiply
    if name in ("hlo.maximum", "hlo.minimum"):
        if is_float(dtype) or is_complex(dtype):
            return None
        return np.maximum if name == "hlo.maximum" else np.minimum
    return {"hlo.and": np.bitwise_and, "hlo.or": np.bitwise_or, "hlo.xor": np.bitwise_xor}.get(name)


def simple_comparator(region: Region) -> tuple[int, bool, str | None] | None:
    """(operand index, descending, compare_type) when the comparator is a
    single `compare LT|GT` of one operand's (lhs, rhs) block-argument pair."""
    ops = _body_ops(region)
    if ops is None:
        return None
    op, ret = ops
    if canonical_name(op.name) != "hlo.compare" or list(ret.operands) != [op.results[0]]:
        return None
    direction = enum_value(prop(op, "comparison_direction"))
    if direction not in ("LT", "GT"):
        return None
    args = list(region.block.args)
    try:
        i, j = args.index(op.operands[0]), args.index(op.operands[1])
    except ValueError:
        return None
    if i // 2 != j // 2 or i == j:
        return None
    descending = (direction == "GT") == (i < j)
    return i // 2, descending, enum_value(prop(op, "compare_type"))
