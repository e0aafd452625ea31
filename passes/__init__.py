"""minixla's passes, by name. One `register(...)` line per pass; the class is
imported only when the pass is used, so the CLI starts fast.

`get_all_passes()` gives our passes; `available_passes()` adds xDSL's upstream
ones; `run_pipeline(module, "a,b{opt=1}")` runs a pipeline spec exactly as
`minixla-opt -p` does.
"""


from __future__ import annotations

if __name__ != "minixla.passes":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's passes as `minixla.passes` (pip install -e . from the repository root)")

from minixla.passes.pipeline import (available_passes, build_pipeline, get_all_passes, register, register_pipeline,
                                     run_pipeline)

# StableHLO interchange
register("stablehlo-legalize-to-hlo", ".legalize_stablehlo:StablehloLegalizeToHlo")
register("hlo-legalize-to-stablehlo", ".legalize_stablehlo:HloLegalizeToStablehlo")
# hlo on tensors -> loops (passes/pipelines.py)
register("inline", ".inline:InlinePass")
register("hlo-complex-to-real", ".complex_to_real:HloComplexToReal")
register("convert-hlo-to-linalg", ".hlo_to_linalg:ConvertHloToLinalg")
register("bufferize", ".bufferize:Bufferize")
register("convert-linalg-to-blas", ".linalg_to_blas:ConvertLinalgToBlas")
register("lower-linalg-to-loops", ".linalg_to_loops:ConvertLinalgToLoops")
register("loop-cleanup", ".loop_cleanup:LoopCleanup")
register("expand-math-polynomials", ".math_polynomials:ExpandMathPolynomials")
register("insert-bounds-checks", ".bounds_checks:InsertBoundsChecks")
# loops -> llvm dialect (passes/lower_to_llvm)
register("arith-emulate-bf16", ".lower_to_llvm:ArithEmulateBf16")
register("arith-emulate-narrow-floats", ".lower_to_llvm:ArithEmulateNarrowFloats")
register("lower-scf-to-cf", ".lower_to_llvm:ConvertScfToCf")
register("convert-memref-to-llvm", ".lower_to_llvm:ConvertMemRefToLLVM")
register("convert-math-to-llvm", ".lower_to_llvm:ConvertMathToLLVM")
register("convert-index-to-llvm", ".lower_to_llvm:ConvertIndexToLLVM")
register("convert-arith-to-llvm", ".lower_to_llvm:ConvertArithToLLVM")
register("convert-func-to-llvm", ".lower_to_llvm:ConvertFuncToLLVM")
register("convert-cf-to-llvm", ".lower_to_llvm:ConvertCfToLLVM")
register("fast-reconcile-unrealized-casts", ".lower_to_llvm.reconcile:FastReconcileUnrealizedCasts")
register("convert-parallel-loops-to-threads", ".lower_to_llvm.threads:ConvertParallelLoopsToThreads")
register("lower-thread-dispatch", ".lower_to_llvm.thread_dispatch:LowerThreadDispatch")

# hlo optimizations (passes/hlo_opt, docs/fusion.md)
register("hlo-algebraic-simplifier", ".hlo_opt.simplify:HloAlgebraicSimplifier")
register("hlo-constant-fold", ".hlo_opt.constant_fold:HloConstantFold")
register("hlo-fusion", ".hlo_opt.fusion:HloFusion")
register("hlo-legalize-structural", ".hlo_opt.legalize_structural:HloLegalizeStructural")
register("hlo-legalize-quant", ".hlo_opt.legalize_quant:HloLegalizeQuant")
register("hlo-reads-before-updates", ".hlo_opt.reads_before_updates:HloReadsBeforeUpdates")

# named pipelines, usable wherever a pass name is (`-p hlo-to-cpu`)
register_pipeline("hlo-to-cpu", ".pipelines:hlo_to_cpu")
register_pipeline("hlo-to-cpu-blas", ".pipelines:hlo_to_cpu_blas")
register_pipeline("hlo-optimize", ".pipelines:hlo_optimize")


# the tf dialect (rules registered by the frontend: passes/tf_legalize_to_hlo.py)
register("tf-legalize-to-hlo", ".tf_legalize_to_hlo:TfLegalizeToHlo")
# the GPU pipeline (passes/gpu, docs/gpu.md)
register("map-parallel-loops-to-gpu", ".gpu.mapping:GpuMapParallelLoops")
register("gpu-kernel-outlining", ".gpu.outline:GpuKernelOutlining")
register("convert-gpu-to-nvvm", ".gpu.to_nvvm:ConvertGpuToNVVM")
register("convert-nvvm-to-llvm", ".gpu.to_nvvm:ConvertNVVMToLLVM")
register_pipeline("hlo-to-gpu", ".gpu.pipelines:hlo_to_gpu")

__all__ = ["available_passes", "build_pipeline", "get_all_passes", "register", "register_pipeline",
           "run_pipeline"]
