"""Which LLVM intrinsic or libm function each math op becomes: shared by `convert-math-to-llvm`
(math_to_llvm.py) and the JIT's direct emitter (backends/cpu/emit_llvm_ops.py), which imports these
without the llvm dialect."""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.ir import Operation

# math op -> LLVM intrinsic base name (all operands share the result type)
INTRINSICS: dict[type[Operation], str] = {
    math.AbsFOp: "llvm.fabs",
    math.CeilOp: "llvm.ceil",
    math.FloorOp: "llvm.floor",
    math.CosOp: "llvm.cos",
    math.SinOp: "llvm.sin",
    math.ExpOp: "llvm.exp",
    math.Exp2Op: "llvm.exp2",
    math.LogOp: "llvm.log",
    math.Log10Op: "llvm.log10",
    math.Log2Op: "llvm.log2",
    math.SqrtOp: "llvm.sqrt",
    math.RoundOp: "llvm.round",
    math.RoundEvenOp: "llvm.roundeven",
    math.TruncOp: "llvm.trunc",
    math.CopySignOp: "llvm.copysign",
    math.PowFOp: "llvm.pow",
    math.FmaOp: "llvm.fma",
    math.CtPopOp: "llvm.ctpop",
}

# math op -> libm base name (f64 name; f32 appends "f")
LIBM: dict[type[Operation], str] = {
    math.TanOp: "tan",
    math.TanhOp: "tanh",
    math.Atan2Op: "atan2",
    math.ExpM1Op: "expm1",
    math.Log1pOp: "log1p",
    math.AcosOp: "acos",
    math.AsinOp: "asin",
    math.AtanOp: "atan",
    math.AcoshOp: "acosh",
    math.AsinhOp: "asinh",
    math.AtanhOp: "atanh",
    math.CoshOp: "cosh",
    math.SinhOp: "sinh",
    math.CbrtOp: "cbrt",
    math.ErfOp: "erf",
}

# integer bit intrinsics taking an extra `i1 false` (no poison on 0 / INT_MIN)
INT_WITH_FLAG: dict[type[Operation], str] = {
    math.AbsIOp: "llvm.abs",
    math.CountLeadingZerosOp: "llvm.ctlz",
    math.CountTrailingZerosOp: "llvm.cttz",
}

NARROW_OK = {math.AbsFOp, math.CopySignOp}


__all__ = ["INTRINSICS", "INT_WITH_FLAG", "LIBM", "NARROW_OK"]
