"""A tiny IR builder for the kernel bodies the GPU mapping writes: appends ops
to a block and hands back results, with helpers for constants and the
structured control flow (`scf.for`, `scf.if`) that the kernels are made of."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

INDEX = IndexType()


class B:
    """Appends ops to `block`; `b(op)` returns the op's single result."""

    def __init__(self, block: Block):
        self.block = block

    def __call__(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def index(self, v: int) -> SSAValue:
        return self(arith.ConstantOp(IntegerAttr(v, INDEX)))

    def const(self, t: Attribute, v: float | int) -> SSAValue:
        if isinstance(t, IndexType):
            return self.index(int(v))
        if isinstance(t, IntegerType):
            w = t.width.data
            iv = int(v) & ((1 << w) - 1)
            if w > 1 and iv >> (w - 1):
                iv -= 1 << w
            if w == 1:
                iv = -iv if iv else 0
            return self(arith.ConstantOp(IntegerAttr(iv, t)))
        if isinstance(t, AnyFloat):
            return self(arith.ConstantOp(FloatAttr(float(v), t)))
        raise NotImplementedError(f"no constant of type {t}")

    def i32(self, v: int) -> SSAValue:
        return self.const(IntegerType(32), v)

    def true(self) -> SSAValue:
        return self(arith.ConstantOp(IntegerAttr(-1, i1)))

    def false(self) -> SSAValue:
        return self(arith.ConstantOp(IntegerAttr(0, i1)))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.AddiOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.MuliOp(a, b))

    def cmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.CmpiOp(a, b, pred))

    def for_(self, lb: SSAValue, ub: SSAValue, step: SSAValue, inits: Sequence[SSAValue],
             body: Callable[[B, SSAValue, list[SSAValue]], Sequence[SSAValue]]) -> list[SSAValue]:
        """scf.for; `body(b, iv, carried)` returns the yielded values."""
        block = Block(arg_types=[INDEX, *[v.type for v in inits]])
        inner = B(block)
        yielded = body(inner, block.args[0], list(block.args[1:]))
        inner(scf.YieldOp(*yielded))
        op = scf.ForOp(lb, ub, step, list(inits), Region(block))
        self(op)
        return list(op.results)

    def if_(self, cond: SSAValue, types: Sequence[Attribute],
            then: Callable[[B], Sequence[SSAValue]],
            other: Callable[[B], Sequence[SSAValue]] | None = None) -> list[SSAValue]:
        """scf.if; each branch returns its yielded values (none when `types` is empty)."""
        tb = Block()
        tv = then(B(tb))
        B(tb)(scf.YieldOp(*tv))
        fb = None
        if other is not None or types:
            fb = Block()
            fv = other(B(fb)) if other is not None else []
            B(fb)(scf.YieldOp(*fv))
        op = scf.IfOp(cond, list(types), Region(tb), Region(fb) if fb is not None else None)
        self(op)
        return list(op.results)

    def clone(self, ops: Sequence[Operation], mapper: dict[SSAValue, SSAValue]) -> None:
        """Clone `ops` in order, recording result mappings in `mapper`."""
        for op in ops:
            new = op.clone(value_mapper=mapper)
            self.block.add_op(new)
            for a, b in zip(op.results, new.results):
                mapper[a] = b


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def constant_int(v: SSAValue) -> int | None:
    """The value of an `arith.constant` of index/integer type, else None."""
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def delinearize(b: B, linear: SSAValue, trips: Sequence[int], lbs: Sequence[int], steps: Sequence[int]
                ) -> list[SSAValue]:
    """Row-major multi-index (lb + k*step per dimension) of a flat index."""
    ivs: list[SSAValue] = []
    rest = linear
    for k in reversed(range(len(trips))):
        if k == 0:
            digit = rest
        else:
            size = b.index(trips[k])
            digit = b(arith.RemUIOp(rest, size))
            rest = b(arith.DivUIOp(rest, size))
        if steps[k] != 1:
            digit = b.mul(digit, b.index(steps[k]))
        if lbs[k] != 0:
            digit = b.add(digit, b.index(lbs[k]))
        ivs.append(digit)
    return list(reversed(ivs))
