"""Lowering of scf/cf/memref/arith/math/func (static shapes, after
bufferization and loop lowering) to the llvm dialect, one pass per source
dialect as in MLIR. See docs/cpu-pipeline.md for the contract.

`PASSES` maps pass names to classes (the global registry wires them in);
`LOWER_TO_LLVM_PIPELINE` is the whole lowering as one pipeline spec.
"""

from __future__ import annotations

from xdsl.passes import ModulePass

from .arith_to_llvm import ConvertArithToLLVM
from .cf_to_llvm import ConvertCfToLLVM
from .emulate_bf16 import ArithEmulateBf16
from .func_to_llvm import ConvertFuncToLLVM
from .index_to_llvm import ConvertIndexToLLVM
from .math_to_llvm import ConvertMathToLLVM
from .memref_to_llvm import ConvertMemRefToLLVM
from .scf_to_cf import ConvertScfToCf

PASSES: dict[str, type[ModulePass]] = {
    p.name: p
    for p in (
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

LOWER_TO_LLVM_PIPELINE = ",".join([*PASSES, "reconcile-unrealized-casts"])

__all__ = [
    "LOWER_TO_LLVM_PIPELINE", "PASSES", "ArithEmulateBf16", "ConvertArithToLLVM", "ConvertCfToLLVM", "ConvertFuncToLLVM",
    "ConvertIndexToLLVM", "ConvertMathToLLVM", "ConvertMemRefToLLVM", "ConvertScfToCf",
]
