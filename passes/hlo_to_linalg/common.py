"""Shared helpers for `convert-hlo-to-linalg`: an append-only emitter, signless
type conversion, scalar constants, affine maps and a `linalg.generic` builder.

Lowering is a *translation*: each hlo op is rebuilt into a fresh block while a
value map keeps the original (signed/unsigned) hlo types readable, since
arith works on signless integers only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.dialects.builtin import (AffineMapAttr, BFloat16Type, Float16Type, FloatAttr, IndexType, IntegerAttr,
                                   IntegerType, TensorType)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.utils.exceptions import DiagnosticException

from minixla.passes.fast_build import like
from minixla.dialects.hlo_ops.base import is_bool, is_complex, is_float, is_unsigned

PASS_NAME = "convert-hlo-to-linalg"


class LoweringError(DiagnosticException):
    """A construct the pass cannot lower; the message names the op and the pass."""


def unsupported(op: Operation, why: str) -> LoweringError:
    return LoweringError(f"{PASS_NAME}: cannot lower '{op.name}': {why}")


class Emitter:
    """Appends ops to the end of a block (lowering builds straight-line code)."""

    def __init__(self, block: Block):
        self.block = block

    def op(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def __call__(self, op: Operation) -> SSAValue:
        """Append `op` and return its single result."""
        self.block.add_op(op)
        return op.results[0]

    # -- constants ---------------------------------------------------------
    def const(self, value: int | float, t: Attribute) -> SSAValue:
        if isinstance(t, IntegerType):
            w = t.width.data
            v = int(value) & ((1 << w) - 1)
            if v >= 1 << (w - 1) and w > 1:
                v -= 1 << w
            if w == 1:
                v = -1 if v else 0
            return self(arith.ConstantOp(IntegerAttr(v, t)))
        if isinstance(t, IndexType):
            return self(arith.ConstantOp(IntegerAttr(int(value), t)))
        return self(arith.ConstantOp(FloatAttr(float(value), t)))

    def index(self, value: int) -> SSAValue:
        return self.const(value, IndexType())


# -- types -------------------------------------------------------------------

def signless(t: Attribute) -> Attribute:
    """ui32/si32 -> i32 (arith only takes signless); other types unchanged."""
    if isinstance(t, IntegerType) and t.signedness.data.name != "SIGNLESS":
        return IntegerType(t.width.data)
    if isinstance(t, TensorType):
        return TensorType(signless(t.element_type), t.get_shape())
    return t


def elem(t: Attribute) -> Attribute:
    """Element type of a tensor type (the type itself for scalars)."""
    return t.element_type if isinstance(t, TensorType) else t


def shape_of(v: SSAValue | Attribute) -> tuple[int, ...]:
    t = v.type if isinstance(v, SSAValue) else v
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def kind(t: Attribute) -> str:
    """Element-type class that picks a scalar builder: float/sint/uint/bool."""
    t = elem(t)
    if is_complex(t):
        return "complex"
    if is_float(t):
        return "float"
    if is_bool(t):
        return "bool"
    return "uint" if is_unsigned(t) else "sint"


def is_low_float(t: Attribute) -> bool:
    """f16/bf16: transcendental math is computed in f32 and rounded once."""
    return isinstance(t, (Float16Type, BFloat16Type))


def width(t: Attribute) -> int:
    t = elem(t)
    return t.width.data if isinstance(t, IntegerType) else t.bitwidth  # type: ignore[attr-defined]


# -- maps ---------------------------------------------------------------------

def amap(n_dims: int, results: Sequence[AffineExpr | int]) -> AffineMapAttr:
    exprs = tuple(AffineExpr.dimension(r) if isinstance(r, int) else r for r in results)
    return AffineMapAttr(AffineMap(n_dims, 0, exprs))


def identity(n: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap.identity(n))


def scalar_map(n: int) -> AffineMapAttr:
    """A 0-d operand read at every iteration (broadcast of a scalar)."""
    return AffineMapAttr(AffineMap(n, 0, ()))


def d(i: int) -> AffineExpr:
    return AffineExpr.dimension(i)


PARALLEL = IteratorTypeAttr.parallel()
REDUCTION = IteratorTypeAttr.reduction()


BodyFn = Callable[[Emitter, Sequence[SSAValue]], Sequence[SSAValue]]


def linalg_yield(values: Sequence[SSAValue]) -> Operation:
    """`linalg.yield values`; `create` skips the IRDL builder (passes/fast_build.py: the op has no
    result, property or attribute, so there is nothing else to build)."""
    return YieldOp.create(operands=list(values))


def generic(e: Emitter, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue], maps: Sequence[AffineMapAttr],
            iterators: Sequence[IteratorTypeAttr], body: BodyFn) -> list[SSAValue]:
    """Emit a `linalg.generic` on tensors; `body(emitter, scalar args)` returns the yielded values."""
    arg_types = [elem(v.type) for v in (*inputs, *outputs)]
    block = Block(arg_types=arg_types)
    inner = Emitter(block)
    yielded = body(inner, block.args)
    inner.op(linalg_yield(yielded))
    region, result_types = Region(block), [v.type for v in outputs]
    key = ("linalg.generic", len(inputs), len(outputs), tuple(maps), tuple(iterators), tuple(result_types))
    op = e.op(like(key, lambda: GenericOp(list(inputs), list(outputs), region, list(maps), list(iterators),
                                          result_types), [*inputs, *outputs], regions=[region]))
    return list(op.results)


def empty(e: Emitter, shape: Sequence[int], element_type: Attribute) -> SSAValue:
    return e(like(("tensor.empty", element_type, tuple(shape)),
                  lambda: tensor.EmptyOp([], TensorType(element_type, list(shape))), ()))


def fill(e: Emitter, value: SSAValue, shape: Sequence[int]) -> SSAValue:
    """A tensor of `shape` filled with the 0-d tensor or scalar `value`."""
    et = elem(value.type)
    out = empty(e, shape, et)
    n = len(shape)
    if isinstance(value.type, TensorType):
        return generic(e, [value], [out], [scalar_map(n), identity(n)], [PARALLEL] * n, lambda b, a: [a[0]])[0]
    return generic(e, [], [out], [identity(n)], [PARALLEL] * n, lambda b, a: [value])[0]


def map_elementwise(e: Emitter, operands: Sequence[SSAValue], result_type: Attribute,
                    fn: Callable[[Emitter, Sequence[SSAValue]], SSAValue]) -> SSAValue:
    """Elementwise generic; 0-d operands of a non-0-d result are broadcast."""
    shape = shape_of(result_type)
    n = len(shape)
    maps = [scalar_map(n) if shape_of(v) == () and n else identity(n) for v in operands]
    out = empty(e, shape, elem(result_type))
    return generic(e, operands, [out], [*maps, identity(n)], [PARALLEL] * n, lambda b, a: [fn(b, a[:len(operands)])])[0]


def to_index(e: Emitter, v: SSAValue) -> SSAValue:
    return e(arith.IndexCastOp(v, IndexType()))


def extract_scalar(e: Emitter, v: SSAValue) -> SSAValue:
    """The value of a 0-d tensor."""
    return e(tensor.ExtractOp(v, [], elem(v.type)))
