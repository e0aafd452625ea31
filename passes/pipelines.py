"""Named pipelines and the passes of the tensor->loops half of `hlo-to-cpu`.

`hlo_to_cpu()` is the full pipeline string (ours + `LOWER_TO_LLVM_PIPELINE`
from `passes.lower_to_llvm` when that exists); `PASSES` lists our passes for
the global registry.
"""

from __future__ import annotations

from xdsl.passes import ModulePass

from minixla.passes.bufferize import Bufferize
from minixla.passes.complex_to_real import HloComplexToReal
from minixla.passes.hlo_to_linalg import ConvertHloToLinalg
from minixla.passes.linalg_to_blas import ConvertLinalgToBlas
from minixla.passes.linalg_to_loops import ConvertLinalgToLoops
from minixla.passes.lower_to_llvm.threads import ConvertParallelLoopsToThreads, LowerThreadDispatch

PASSES: dict[str, type[ModulePass]] = {
    HloComplexToReal.name: HloComplexToReal,
    ConvertHloToLinalg.name: ConvertHloToLinalg,
    Bufferize.name: Bufferize,
    ConvertLinalgToBlas.name: ConvertLinalgToBlas,
    ConvertLinalgToLoops.name: ConvertLinalgToLoops,
    ConvertParallelLoopsToThreads.name: ConvertParallelLoopsToThreads,
    LowerThreadDispatch.name: LowerThreadDispatch,
}

#: hlo on tensors -> scf/memref/arith/math loops over static memrefs
#: (tuples, map, composite, dynamic and quantized ops first become ops the lowering knows; complex values
#: then become pairs of float tensors)
HLO_LEGALIZE = "hlo-legalize-structural,hlo-legalize-quant"
HLO_TO_LOOPS = ",".join([HLO_LEGALIZE, "inline", HloComplexToReal.name, ConvertHloToLinalg.name, Bufferize.name,
                         ConvertLinalgToLoops.name, "canonicalize", "cse"])


#: XLA-style hlo optimizations (docs/fusion.md): exact simplifications, folding,
#: cse/dce, then fusion into `hlo.fusion` regions that lower to one loop nest each
HLO_OPTIMIZE = "hlo-algebraic-simplifier,hlo-constant-fold,cse,dce,hlo-fusion"


def hlo_optimize() -> str:
    """The `hlo-optimize` named pipeline."""
    return HLO_OPTIMIZE


def hlo_to_loops(blas: bool = False) -> str:
    """`HLO_TO_LOOPS`, with gemm-shaped contractions sent to BLAS when `blas`."""
    if not blas:
        return HLO_TO_LOOPS
    return HLO_TO_LOOPS.replace(f"{Bufferize.name},", f"{Bufferize.name},{ConvertLinalgToBlas.name},")


def hlo_to_cpu(optimize: bool = False, blas: bool = False, check_bounds: bool = False) -> str:
    """The full `hlo-to-cpu` pipeline as a comma-separated pass list;
    `optimize=True` runs `HLO_OPTIMIZE` (fusion) first (opt-in for now);
    `blas=True` adds `convert-linalg-to-blas` (the CPU backend decides: backends/cpu/blas.py);
    `check_bounds=True` adds `insert-bounds-checks` on the loops (MINIXLA_CHECK_BOUNDS=1)."""
    loops = hlo_to_loops(blas) + (",insert-bounds-checks" if check_bounds else "")
    try:
        from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE
    except ImportError:
        lowered = loops
    else:
        # threads: outline big parallel loops before scf->cf, call the pool after llvm lowering
        lowered = (f"{loops},{ConvertParallelLoopsToThreads.name},{LOWER_TO_LLVM_PIPELINE},"
                   f"{LowerThreadDispatch.name}")
    # complex values split into float pairs before fusion, so fusion sees only float math
    return f"{HLO_LEGALIZE},inline,{HloComplexToReal.name},{HLO_OPTIMIZE},{lowered}" if optimize else lowered


def hlo_to_cpu_blas() -> str:
    """The `hlo-to-cpu-blas` named pipeline: `hlo-to-cpu` with gemms sent to BLAS."""
    return hlo_to_cpu(blas=True)
