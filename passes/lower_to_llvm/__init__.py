"""Lowering of scf/cf/memref/arith/math/func (static shapes, after
bufferization and loop lowering) to the llvm dialect, one pass per source
dialect as in MLIR. See docs/cpu-pipeline.md for the contract.

`PASSES` maps pass names to classes (the global registry wires them in);
`LOWER_TO_LLVM_PIPELINE` is the whole lowering as one pipeline spec.
"""

from __future__ import annotations

from xdsl.passes import ModulePass

from minixla.passes.lower_to_llvm.arith_to_llvm import ConvertArithToLLVM
from minixla.passes.lower_to_llvm.cf_to_llvm import ConvertCfToLLVM
from minixla.passes.lower_to_llvm.emulate_bf16 import ArithEmulateBf16
from minixla.passes.lower_to_llvm.emulate_narrow_floats import ArithEmulateNarrowFloats
from minixla.passes.lower_to_llvm.func_to_llvm import ConvertFuncToLLVM
from minixla.passes.lower_to_llvm.index_to_llvm import ConvertIndexToLLVM
from minixla.passes.lower_to_llvm.math_to_llvm import ConvertMathToLLVM
from minixla.passes.lower_to_llvm.memref_to_llvm import ConvertMemRefToLLVM
from minixla.passes.lower_to_llvm.scf_to_cf import ConvertScfToCf

PASSES: dict[str, type[ModulePass]] = {
    p.name: p
    for p in (
        ArithEmulateNarrowFloats,
        ArithEmulateBf16,
        ConvertScfToCf,
        ConvertMemRefToLLVM,
        ConvertMathToLLVM,
        ConvertIndexToLLVM,
        ConvertArithToLLVM,
        ConvertFuncToLLVM,
        ConvertCfToLLVM,
    )
}

#: ends with our faster twin of xDSL's reconcile-unrealized-casts (lower_to_llvm/reconcile.py)
LOWER_TO_LLVM_PIPELINE = ",".join([*PASSES, "fast-reconcile-unrealized-casts"])

__all__ = [
    "LOWER_TO_LLVM_PIPELINE", "PASSES", "ArithEmulateBf16", "ArithEmulateNarrowFloats", "ConvertArithToLLVM", "ConvertCfToLLVM", "ConvertFuncToLLVM",
    "ConvertIndexToLLVM", "ConvertMathToLLVM", "ConvertMemRefToLLVM", "ConvertScfToCf",
]
