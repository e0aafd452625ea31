"""Shared pieces of the *-to-llvm conversions: the type mapping, cast
materialisation, constants and static memref layouts.

Every conversion pass is a 1:1 op rewrite that works on its own: operands
whose producer is not converted yet are bridged with
`builtin.unrealized_conversion_cast`, and results whose type changes are cast
back, so the passes can run in any order; `reconcile-unrealized-casts` removes
the pairs at the end (as in MLIR).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    ReducedPrecisionFloatType,
    StridedLayoutAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i8,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import DiagnosticException

from minixla.passes import lazy_llvm as llvm
from minixla.passes.fast_build import like

_F64 = struct.Struct("<d")


class LoweringError(DiagnosticException):
    """An op or type the CPU lowering does not support (with the op named)."""


def llvm_type(t: Attribute) -> Attribute:
    """The LLVM-dialect type a value of builtin type `t` becomes: index -> i64,
    ui8/si8 -> i8 (signedness lives in the ops), fp8/fp6/fp4 -> i8 (their bits;
    `arith-emulate-narrow-floats` computes with them), any memref -> !llvm.ptr."""
    if isinstance(t, IndexType):
        return i64
    if isinstance(t, ReducedPrecisionFloatType):  # fp8/fp6/fp4: the byte ml_dtypes stores
        return i8
    if isinstance(t, IntegerType):
        return t if t.signedness.data.name == "SIGNLESS" else IntegerType(t.width.data)
    if isinstance(t, MemRefType):
        return llvm.LLVMPointerType()
    if isinstance(t, VectorType):
        elem = llvm_type(t.element_type)
        return t if elem == t.element_type else VectorType(elem, t.get_shape())
    return t


def memory_type(elem: Attribute) -> Attribute:
    """How an element is laid out in memory: i1, i2 and i4 take one byte (i8; the
    value in the low bits, zero above, as ml_dtypes stores int4/uint4)."""
    elem = llvm_type(elem)
    return i8 if isinstance(elem, IntegerType) and elem.width.data < 8 else elem


def is_legal(t: Attribute) -> bool:
    return llvm_type(t) == t


def cast_to(rewriter: PatternRewriter, value: SSAValue, target: Attribute,
            ip: InsertPoint | None = None) -> SSAValue:
    """`value` as type `target`, looking through an earlier cast or inserting
    an unrealized cast (before the matched op, or at `ip`)."""
    if value.type == target:
        return value
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp):
        inputs = owner.operands  # a cast's operands are its inputs (without IRDL's accessor)
        if len(inputs) == 1 and inputs[0].type == target:
            return inputs[0]
    # UnrealizedConversionCastOp.cast_one, less the IRDL builder (passes/fast_build.py)
    cast = UnrealizedConversionCastOp.create(operands=(value,), result_types=(target,))
    res = cast.results[0]
    if value.name_hint is not None:
        res.name_hint = value.name_hint
    rewriter.insert(cast, ip)
    return res


def to_llvm(rewriter: PatternRewriter, value: SSAValue, ip: InsertPoint | None = None) -> SSAValue:
    return cast_to(rewriter, value, llvm_type(value.type), ip)


def operands_to_llvm(rewriter: PatternRewriter, values: Sequence[SSAValue]) -> list[SSAValue]:
    """`to_llvm` of each value, one cast per distinct value."""
    done: dict[SSAValue, SSAValue] = {}
    for v in values:
        if v not in done:
            done[v] = to_llvm(rewriter, v)
    return [done[v] for v in values]


def replace_with_values(rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]) -> None:
    """Replace `op`'s results by LLVM values, casting back where the original
    type differs (index, memref, unsigned integers)."""
    results: list[SSAValue] = []
    for old, new in zip(op.results, values, strict=True):
        results.append(cast_to(rewriter, new, old.type))
    rewriter.replace(op, [], results)


class Emit:
    """Inserts ops before the matched op (or at an insertion point) and hands
    back their single result: `e(llvm.AddOp(a, b))` reads like an expression."""

    def __init__(self, rewriter: PatternRewriter, ip: InsertPoint | None = None):
        self.rewriter = rewriter
        self.ip = ip

    def __call__(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.ip)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def const(self, t: Attribute, value: float) -> SSAValue:
        kind = type(value)
        if kind is float:  # by its bits: -0.0 == 0.0, and a NaN's sign and payload count
            key = ("llvm.mlir.constant", t, _F64.pack(value))
        elif kind is int or kind is bool:
            key = ("llvm.mlir.constant", t, kind, value)
        else:
            return self(constant_op(t, value))
        return self(like(key, lambda: constant_op(t, value), ()))

    def icmp(self, pred: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        def slow() -> Operation:
            return llvm.ICmpOp(lhs, rhs, IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), i64))

        return self(like(("llvm.icmp", pred, lhs.type), slow, (lhs, rhs)))

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(llvm.SelectOp(c, a, b))

    def intrinsic(self, name: str, args: Sequence[SSAValue], result: Attribute | None) -> SSAValue:
        return self(llvm.CallIntrinsicOp(name, list(args), [] if result is None else [result]))


def constant_op(t: Attribute, value: float) -> llvm.ConstantOp:
    """`llvm.mlir.constant` of scalar or splat-vector type `t`."""
    t = llvm_type(t)
    if isinstance(t, VectorType):
        attr = DenseIntOrFPElementsAttr.from_list(t, [value] * t.element_count())
        return llvm.ConstantOp(attr, t)
    if isinstance(t, IntegerType):
        return llvm.ConstantOp(IntegerAttr(normalize_int(int(value), t.width.data), t), t)
    if isinstance(t, AnyFloat):
        return llvm.ConstantOp(FloatAttr(float(value), t), t)
    raise LoweringError(f"cannot build a constant of type {t}")


def normalize_int(value: int, width: int) -> int:
    """Two's-complement wrap of `value` into the signed range of iN."""
    value &= (1 << width) - 1
    return value - (1 << width) if width > 1 and value >> (width - 1) else value


def element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


def int_width(t: Attribute) -> int:
    t = llvm_type(element_type(t))
    assert isinstance(t, IntegerType), t
    return t.width.data


def static_layout(t: MemRefType) -> tuple[tuple[int, ...], int]:
    """(strides, offset) in elements of a memref with a static layout; raises
    for dynamic shapes, strides or offsets (the CPU ABI is bare pointers)."""
    shape = t.get_shape()
    if any(d < 0 for d in shape):
        raise LoweringError(f"dynamic shapes are not supported by the CPU lowering: {t}")
    layout = t.layout
    if isinstance(layout, NoneAttr):
        strides, acc = [], 1
        for d in reversed(shape):
            strides.append(acc)
            acc *= d
        return tuple(reversed(strides)), 0
    if isinstance(layout, StridedLayoutAttr):
        strides = t.get_strides()
        offset = layout.get_offset()
        if strides is None or offset is None or any(s is None for s in strides):
            raise LoweringError(f"dynamic strides or offset are not supported: {t}")
        return tuple(int(s) for s in strides), int(offset)
    if isinstance(layout, AffineMapAttr):
        amap = layout.data
        zero = amap.eval([0] * len(shape), [])
        if len(zero) != 1:
            raise LoweringError(f"unsupported memref layout: {t}")
        strides = []
        for i in range(len(shape)):
            unit = [0] * len(shape)
            unit[i] = 1
            strides.append(amap.eval(unit, [])[0] - zero[0])
        return tuple(strides), zero[0]
    raise LoweringError(f"unsupported memref layout: {t}")


def is_contiguous(t: MemRefType) -> bool:
    """Row-major dense (any offset): the elements form one block of memory."""
    strides, _ = static_layout(t)
    expect = 1
    for d, s in zip(reversed(t.get_shape()), reversed(strides)):
        if d != 1 and s != expect:
            return False
        expect *= d
    return True


def byte_size(elem: Attribute) -> int:
    """Size in bytes of one element as stored in memory."""
    elem = memory_type(elem)
    if isinstance(elem, IntegerType):
        return (elem.width.data + 7) // 8
    if isinstance(elem, AnyFloat):
        return elem.bitwidth // 8
    if isinstance(elem, llvm.LLVMPointerType):
        return 8
    if isinstance(elem, VectorType):
        return byte_size(elem.element_type) * elem.element_count()
    if isinstance(elem, ComplexType):  # numpy's layout: (re, im) interleaved
        return 2 * byte_size(elem.element_type)
    raise LoweringError(f"unsupported element type in memory: {elem}")



def __getattr__(name: str):
    """`PTR`, the opaque pointer type, made on first use (the llvm dialect loads then: lazy_llvm.py)."""
    if name == "PTR":
        return llvm.LLVMPointerType()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
