"""`arith-emulate-narrow-floats`: fp8/fp6/fp4 values are bytes; arithmetic runs in f32.

The fp8/fp6/fp4 types have no LLVM type: a value is its byte (ml_dtypes' layout,
`common.llvm_type` maps them to i8), so loads, stores, copies and selects move
bytes. Every op that computes with one (arith/math ops, comparisons, extf/truncf,
int <-> float conversions, constants) is rewritten here, before
`convert-arith-to-llvm` and `arith-emulate-bf16`, as MLIR's
`arith-emulate-unsupported-floats` does: operands are converted to f32 at the use
(a 256-entry table per type, made by ml_dtypes), the op runs in f32 and its result
is converted back once with `narrow_float_codec.encode` (round to nearest even and
each format's overflow/NaN rules, bit-exact with ml_dtypes). As for bf16, one f32
rounding followed by one narrow rounding is exact for +, -, *, / (f32 has more
than 2 * 4 + 2 significand bits), which is how ml_dtypes computes them too.
f64 -> narrow goes through f32, as ml_dtypes converts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin, memref
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ReducedPrecisionFloatType,
    StringAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
    f32,
    f64,
    i8,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from minixla.dialects.numpy_types import numpy_to_dense_attr
from minixla.passes.rewrite_driver import has_value_of_type


def is_narrow(t: Attribute) -> bool:
    return isinstance(t, ReducedPrecisionFloatType)


class _ArithOps:
    """`narrow_float_codec`'s ops interface, emitting i32 arith ops before the matched op."""

    def __init__(self, rewriter: PatternRewriter):
        self.rewriter = rewriter

    def _e(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op)
        return op.results[0]

    def c(self, v: int) -> SSAValue:
        v &= 0xFFFFFFFF
        return self._e(arith.ConstantOp(IntegerAttr(v - (1 << 32) if v >> 31 else v, i32)))

    def add(self, a, b): return self._e(arith.AddiOp(a, b))  # noqa: E704
    def sub(self, a, b): return self._e(arith.SubiOp(a, b))  # noqa: E704
    def and_(self, a, b): return self._e(arith.AndIOp(a, b))  # noqa: E704
    def or_(self, a, b): return self._e(arith.OrIOp(a, b))  # noqa: E704
    def xor(self, a, b): return self._e(arith.XOrIOp(a, b))  # noqa: E704
    def shl(self, a, b): return self._e(arith.ShLIOp(a, b))  # noqa: E704
    def shr(self, a, b): return self._e(arith.ShRUIOp(a, b))  # noqa: E704
    def umin(self, a, b): return self._e(arith.MinUIOp(a, b))  # noqa: E704
    def umax(self, a, b): return self._e(arith.MaxUIOp(a, b))  # noqa: E704
    def eq(self, a, b): return self._e(arith.CmpiOp(a, b, "eq"))  # noqa: E704
    def ugt(self, a, b): return self._e(arith.CmpiOp(a, b, "ugt"))  # noqa: E704
    def uge(self, a, b): return self._e(arith.CmpiOp(a, b, "uge"))  # noqa: E704
    def select(self, c, a, b): return self._e(arith.SelectOp(c, a, b))  # noqa: E704


def _cast(rewriter: PatternRewriter, value: SSAValue, t: Attribute) -> SSAValue:
    op = UnrealizedConversionCastOp.get([value], [t])
    rewriter.insert(op)
    return op.results[0]


class EmulateNarrowFloats(RewritePattern):
    def __init__(self, module: builtin.ModuleOp):
        self.module = module
        self.tables: dict[str, memref.GlobalOp] = {}

    # -- conversions ------------------------------------------------------------
    def _table(self, t: ReducedPrecisionFloatType) -> str:
        name = f"__minixla_{t.name}_to_f32"
        if name not in self.tables:
            from minixla.passes.lower_to_llvm.narrow_float_codec import decode_table  # (narrow floats only)

            mt = MemRefType(f32, [256])
            glob = memref.GlobalOp.get(StringAttr(name), mt, numpy_to_dense_attr(decode_table(t)),
                                       StringAttr("private"), UnitAttr(), 64)
            self.module.body.block.insert_op_before(glob, self.module.body.block.first_op)
            self.tables[name] = glob
        return name

    def to_f32(self, rewriter: PatternRewriter, x: SSAValue) -> SSAValue:
        """f32 value of a narrow float (exact), by table lookup."""
        t = x.type
        assert isinstance(t, ReducedPrecisionFloatType)
        bits = _cast(rewriter, x, i8)
        ops: list[Operation] = [wide := arith.ExtUIOp(bits, i32), idx := arith.IndexCastOp(wide.result, IndexType()),
                                table := memref.GetGlobalOp(self._table(t), MemRefType(f32, [256])),
                                load := memref.LoadOp.get(table.memref, [idx.result])]
        rewriter.insert(ops)
        return load.res

    def from_f32(self, rewriter: PatternRewriter, x: SSAValue, t: ReducedPrecisionFloatType) -> SSAValue:
        """f32 -> narrow float, rounded as ml_dtypes rounds."""
        from minixla.passes.lower_to_llvm.narrow_float_codec import Format, encode

        o = _ArithOps(rewriter)
        bits = o._e(arith.BitcastOp(x, i32))
        code = encode(o, bits, Format.of(t))
        return _cast(rewriter, o._e(arith.TruncIOp(code, i8)), t)

    @staticmethod
    def bitcast(rewriter: PatternRewriter, x: SSAValue, dst: Attribute) -> SSAValue:
        """Same bits, through the byte: an i4/i6 side is truncated from it or zero-extended to it."""
        byte = x
        if is_narrow(x.type):
            byte = _cast(rewriter, x, i8)
        elif isinstance(x.type, IntegerType) and x.type.width.data < 8:
            byte = _insert(rewriter, arith.ExtUIOp(x, i8))
        if is_narrow(dst):
            return _cast(rewriter, byte, dst)
        if isinstance(dst, IntegerType) and dst.width.data < 8:
            return _insert(rewriter, arith.TruncIOp(byte, dst))
        return byte

    def widen(self, rewriter: PatternRewriter, x: SSAValue) -> SSAValue:
        return self.to_f32(rewriter, x) if is_narrow(x.type) else x

    def convert_float(self, rewriter: PatternRewriter, x: SSAValue, dst: Attribute) -> SSAValue:
        """Any float (narrow ones included) -> any float type, through f32 where narrow."""
        if is_narrow(x.type):
            x = self.to_f32(rewriter, x)
        if x.type == dst:
            return x
        if is_narrow(dst):
            if x.type == f64:
                x = _insert(rewriter, arith.TruncFOp(x, f32))
            elif isinstance(x.type, (Float16Type, BFloat16Type)):
                x = _insert(rewriter, arith.ExtFOp(x, f32))
            return self.from_f32(rewriter, x, dst)
        return _insert(rewriter, (arith.ExtFOp if dst == f64 else arith.TruncFOp)(x, dst))

    # -- the rewrite -------------------------------------------------------------
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        res = op.results[0].type if len(op.results) == 1 else None
        narrow_in = any(is_narrow(v.type) for v in op.operands)
        if isinstance(op, arith.ConstantOp) and is_narrow(res):
            assert isinstance(op.value, FloatAttr)
            bits = res.encode_bits(op.value.value.data)  # type: ignore[union-attr]
            rewriter.insert(c := arith.ConstantOp(IntegerAttr(bits - 256 if bits > 127 else bits, i8)))
            rewriter.replace(op, [], [_cast(rewriter, c.result, res)])
        elif isinstance(op, arith.BitcastOp) and (narrow_in or is_narrow(res)):
            rewriter.replace(op, [], [self.bitcast(rewriter, op.operands[0], res)])
        elif isinstance(op, (arith.ExtFOp, arith.TruncFOp)) and (narrow_in or is_narrow(res)):
            rewriter.replace(op, [], [self.convert_float(rewriter, op.operands[0], res)])
        elif isinstance(op, (arith.SIToFPOp, arith.UIToFPOp)) and is_narrow(res):
            rewriter.insert(wide := type(op)(op.operands[0], f32))
            rewriter.replace(op, [], [self.from_f32(rewriter, wide.results[0], res)])
        elif isinstance(op, (arith.FPToSIOp, arith.FPToUIOp)) and narrow_in:
            rewriter.replace(op, type(op)(self.to_f32(rewriter, op.operands[0]), res))
        elif isinstance(op, arith.CmpfOp) and narrow_in:
            rewriter.replace(op, arith.CmpfOp.create(
                operands=[self.widen(rewriter, v) for v in op.operands], result_types=[op.result.type],
                properties=dict(op.properties), attributes=dict(op.attributes)))
        elif op.name.startswith(("arith.", "math.")) and is_narrow(res) and not isinstance(op, arith.SelectOp):
            rewriter.insert(wide := type(op).create(
                operands=[self.widen(rewriter, v) for v in op.operands], result_types=[f32],
                properties=dict(op.properties), attributes=dict(op.attributes)))
            rewriter.replace(op, [], [self.from_f32(rewriter, wide.results[0], res)])


def _insert(rewriter: PatternRewriter, op: Operation) -> SSAValue:
    rewriter.insert(op)
    return op.results[0]


@dataclass(frozen=True)
class ArithEmulateNarrowFloats(ModulePass):
    name = "arith-emulate-narrow-floats"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if not has_value_of_type(op, ReducedPrecisionFloatType):  # every rewrite is of a narrow result or operand
            return
        PatternRewriteWalker(EmulateNarrowFloats(op), apply_recursively=False).rewrite_module(op)
