"""Reading op properties as plain Python values, tolerant of the spellings
(DenseArrayBase, ArrayAttr of IntegerAttr, dense elements) an op may use."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
)


def prop(op, name: str):
    """Property or attribute `name` of `op` (None when absent)."""
    value = op.properties.get(name)
    return op.attributes.get(name) if value is None else value


def ints(attr) -> tuple[int, ...]:
    if attr is None:
        return ()
    if isinstance(attr, DenseArrayBase):
        return tuple(int(v) for v in attr.get_values())
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return tuple(int(v) for v in attr.get_values())
    if isinstance(attr, ArrayAttr):
        return tuple(int(a.value.data) for a in attr.data)
    raise TypeError(f"expected a list of integers, got {attr}")


def bools(attr) -> tuple[bool, ...]:
    if attr is None:
        return ()
    if isinstance(attr, DenseArrayBase):
        return tuple(bool(v) for v in attr.get_values())
    if isinstance(attr, ArrayAttr):
        return tuple(bool(a.value.data) for a in attr.data)
    raise TypeError(f"expected a list of booleans, got {attr}")


def int_value(attr, default: int = 0) -> int:
    if attr is None:
        return default
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)
    raise TypeError(f"expected an integer, got {attr}")


def padding_pairs(attr, rank: int) -> list[tuple[int, int]]:
    """An Nx2 padding attribute as [(low, high), ...] (zeros when absent)."""
    flat = ints(attr)
    if not flat:
        return [(0, 0)] * rank
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(len(flat) // 2)]


def enum_value(attr) -> str | None:
    """"LT" for `#hlo<comparison_direction LT>` and similar enum attributes."""
    if attr is None:
        return None
    data = getattr(attr, "data", attr)
    return str(getattr(data, "value", data))
