"""`convert-math-to-llvm`: math ops to type-mangled LLVM intrinsics
(`llvm.sqrt.f32`, `llvm.ctlz.i32`, ...) or, where LLVM has no intrinsic
that every backend expands, to libm calls (`tanhf`, `atan2`, `expm1f`, ...).

f16/bf16 have no libm entry points and promote poorly through some
intrinsics, so they are computed in f32 and rounded back (as XLA does);
only sign manipulations (`absf`, `copysign`) stay in the narrow type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, llvm, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    VectorType,
    f32,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import SymbolTable

from minixla.passes.lower_to_llvm.arith_to_llvm import mangle
from minixla.passes.lower_to_llvm.common import (
    Emit,
    LoweringError,
    element_type,
    operands_to_llvm,
    replace_with_values,
)
from minixla.passes.lower_to_llvm.math_tables import INT_WITH_FLAG, INTRINSICS, LIBM, NARROW_OK
from minixla.passes.rewrite_driver import rewrite_once



def _fm(op: Operation) -> llvm.FastMathAttr:
    attr = getattr(op, "fastmath", None)
    if attr is None or not attr.data:
        return llvm.FastMathAttr(None)
    return llvm.FastMathAttr(sorted(attr.data, key=lambda f: f.value))


def _with_type(t: Attribute, elem: Attribute) -> Attribute:
    return VectorType(elem, t.get_shape()) if isinstance(t, VectorType) else elem


def declare_function(module: ModuleOp, name: str, inputs: Sequence[Attribute], output: Attribute) -> None:
    """Add `llvm.func @name` (a declaration) to `module` unless present."""
    if SymbolTable.lookup_symbol(module, name) is not None:
        return
    decl = llvm.FuncOp(name, llvm.LLVMFunctionType(list(inputs), output),
                       linkage=llvm.LinkageAttr("external"), sym_visibility="private")
    module.body.block.add_op(decl)


def _module_of(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    assert parent is not None, "math op outside a module"
    return parent


class MathToLLVMPattern(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        kind = type(op)
        if kind not in INTRINSICS and kind not in LIBM and kind not in INT_WITH_FLAG \
                and kind not in (math.RsqrtOp, math.FPowIOp):
            return
        e = Emit(rewriter)
        args = operands_to_llvm(rewriter, op.operands)
        res_type = args[0].type
        if kind in INT_WITH_FLAG:
            flag = e.const(i1, 0)
            name = f"{INT_WITH_FLAG[kind]}.{mangle(res_type)}"
            replace_with_values(rewriter, op, [e.intrinsic(name, [args[0], flag], res_type)])
            return
        if kind is math.CtPopOp:
            replace_with_values(rewriter, op, [e.intrinsic(f"llvm.ctpop.{mangle(res_type)}", args, res_type)])
            return

        elem = element_type(res_type)
        narrow = isinstance(elem, (Float16Type, BFloat16Type)) and kind not in NARROW_OK
        if narrow:
            wide = _with_type(res_type, f32)
            args = [e(llvm.FPExtOp(a, wide)) if element_type(a.type) == elem else a for a in args]
        work_type = args[0].type
        result = self._compute(op, e, args, work_type)
        if narrow:
            result = e(llvm.FPTruncOp(result, res_type))
        replace_with_values(rewriter, op, [result])

    def _compute(self, op: Operation, e: Emit, args: list[SSAValue], t: Attribute) -> SSAValue:
        kind = type(op)
        fm = _fm(op)
        if kind in INTRINSICS:
            call = llvm.CallIntrinsicOp(f"{INTRINSICS[kind]}.{mangle(t)}", args, [t])
            call.fastmathFlags = fm
            return e(call)
        if kind is math.RsqrtOp:
            root = e(llvm.CallIntrinsicOp(f"llvm.sqrt.{mangle(t)}", args, [t]))
            return e(llvm.FDivOp(e.const(t, 1.0), root, fm))
        if kind is math.FPowIOp:
            return e.intrinsic(f"llvm.powi.{mangle(t)}.{mangle(args[1].type)}", args, t)
        if isinstance(t, VectorType):
            raise LoweringError(f"'{op.name}' on vectors has no libm lowering")
        if isinstance(t, Float32Type):
            name = LIBM[kind] + "f"
        elif isinstance(t, Float64Type):
            name = LIBM[kind]
        else:
            raise LoweringError(f"'{op.name}' on {t} has no libm lowering")
        declare_function(_module_of(op), name, [a.type for a in args], t)
        return e(llvm.CallOp(name, *args, return_type=t, fastmath=fm))


@dataclass(frozen=True)
class ConvertMathToLLVM(ModulePass):
    """math ops -> LLVM intrinsics and libm calls."""

    name = "convert-math-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        rewrite_once(op, MathToLLVMPattern(), (*INTRINSICS, *LIBM, *INT_WITH_FLAG, math.RsqrtOp, math.FPowIOp))
