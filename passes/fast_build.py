"""Building the ops of hot lowering paths without xDSL's generic IRDL builder.

An IRDL op's `__init__` goes through `irdl_op_init`: it normalises every operand, result, region and
successor argument against the op definition, rebuilds segment-size properties and verifies each
new attribute (15-40 us per op; the MLP training step's CPU passes build ~4k ops). `Operation.create`
takes the final operands, result types, properties and attributes as they are (~5 us). `like`
builds the first op of each *shape* (op class and everything but the operands and successors: the
caller's key) with the op's own constructor, remembers its class, result types, properties and
attributes, and builds the later ones with `create` from those: the same op, printed and verified
the same (xDSL attributes are immutable values, so sharing them is safe). A key must determine the
result types and properties completely, including the counts behind any segment sizes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

_Shape = tuple[type[Operation], tuple[Attribute, ...], dict[str, Attribute], dict[str, Attribute]]
_SHAPES: dict[Hashable, _Shape] = {}
_MAX_SHAPES = 4096  # keys hold only types and small attributes; the bound keeps a long-lived process flat


def like(key: Hashable, slow: Callable[[], Operation], operands: Sequence[SSAValue],
         successors: Sequence[Block] = (), regions: Sequence[Region] = ()) -> Operation:
    """`slow()` the first time `key` is seen, then an op of the same shape on `operands` (and
    `successors`, `regions`: `slow` must use the same ones), built by `Operation.create`."""
    shape = _SHAPES.get(key)
    if shape is None:
        op = slow()
        if len(_SHAPES) >= _MAX_SHAPES:
            _SHAPES.clear()
        _SHAPES[key] = (type(op), tuple(r.type for r in op.results), dict(op.properties), dict(op.attributes))
        return op
    cls, result_types, properties, attributes = shape
    return cls.create(operands=operands, result_types=result_types, properties=properties,
                      attributes=attributes, successors=successors, regions=regions)


def clear() -> None:
    """Forget every shape (tests)."""
    _SHAPES.clear()


def split_before(block: Block, first: Operation) -> Block:
    """`block.split_before(first)` (ops from `first` on move to a new block right after `block`),
    linking the new block in place: xDSL's looks `block` up by index in its region and then walks
    to that index again, linear in the region's blocks, so lowering a function's loops one after
    another was quadratic in them."""
    if first.parent is not block:
        raise ValueError("Cannot split block on operation outside of the block.")
    region = block.parent
    if region is None:
        raise ValueError("Cannot split block with no parent.")
    a_last, b_last = first.prev_op, block.last_op
    # the same relinking as Block.split_before, on the same (private) fields
    block._first_op = None if a_last is None else block.first_op  # noqa: SLF001
    block._last_op = a_last  # noqa: SLF001
    new = Block()
    region.insert_block_after(new, block)
    new._first_op, new._last_op = first, b_last  # noqa: SLF001
    op: Operation | None = first
    while op is not None:
        op.parent = new
        op = op.next_op
    if a_last is not None:
        a_last._next_op = None  # noqa: SLF001
    first._prev_op = None  # noqa: SLF001
    return new
