"""Lowering of scf/cf/memref/arith/math/func (static shapes, after
bufferization and loop lowering) to the llvm dialect, one pass per source
dialect as in MLIR. See docs/cpu-pipeline.md for the contract.

`PASSES` maps pass names to classes (the global registry wires them in);
`LOWER_TO_LLVM_PIPELINE` is the whole lowering as one pipeline spec. The pass
modules load on first use: the CPU JIT emits LLVM IR straight from the loop
level (backends/cpu/emit_llvm*.py) and runs these passes only as its fallback,
for AOT output and for `minixla-opt`, so a first compile imports just the two
narrow-float emulations it runs.
"""

from __future__ import annotations

import importlib

#: pass name -> (module, class), in pipeline order
_WHERE = {
    "arith-emulate-narrow-floats": ("emulate_narrow_floats", "ArithEmulateNarrowFloats"),
    "arith-emulate-bf16": ("emulate_bf16", "ArithEmulateBf16"),
    "lower-scf-to-cf": ("scf_to_cf", "ConvertScfToCf"),
    "convert-memref-to-llvm": ("memref_to_llvm", "ConvertMemRefToLLVM"),
    "convert-math-to-llvm": ("math_to_llvm", "ConvertMathToLLVM"),
    "convert-index-to-llvm": ("index_to_llvm", "ConvertIndexToLLVM"),
    "convert-arith-to-llvm": ("arith_to_llvm", "ConvertArithToLLVM"),
    "convert-func-to-llvm": ("func_to_llvm", "ConvertFuncToLLVM"),
    "convert-cf-to-llvm": ("cf_to_llvm", "ConvertCfToLLVM"),
}
_CLASSES = {cls: (module, name) for name, (module, cls) in _WHERE.items()}

#: ends with our faster twin of xDSL's reconcile-unrealized-casts (lower_to_llvm/reconcile.py)
LOWER_TO_LLVM_PIPELINE = ",".join([*_WHERE, "fast-reconcile-unrealized-casts"])


def _load(module: str, cls: str):
    return getattr(importlib.import_module(f"{__name__}.{module}"), cls)


def __getattr__(name: str):
    """`PASSES` and the pass classes, imported on first use."""
    if name == "PASSES":
        passes = {pass_name: _load(*where) for pass_name, where in _WHERE.items()}
        globals()["PASSES"] = passes
        return passes
    if name in _CLASSES:
        cls = _load(_CLASSES[name][0], name)
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "LOWER_TO_LLVM_PIPELINE", "PASSES", "ArithEmulateBf16", "ArithEmulateNarrowFloats", "ConvertArithToLLVM", "ConvertCfToLLVM", "ConvertFuncToLLVM",
    "ConvertIndexToLLVM", "ConvertMathToLLVM", "ConvertMemRefToLLVM", "ConvertScfToCf",
]
