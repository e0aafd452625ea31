"""Named pipelines and the passes of the tensor->loops half of `hlo-to-cpu`.

`hlo_to_cpu()` is the full pipeline string (ours + `LOWER_TO_LLVM_PIPELINE`
from `passes.lower_to_llvm` when that exists); `PASSES` maps the names of our
passes in it to their classes (built on first use: spelling a pipeline imports none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.passes import ModulePass

#: our passes of the tensor->loops half, by name: the registry (passes/__init__.py) imports a pass's module
#: when a pipeline uses it; `PASSES`, the table of their classes, is built on first use, so expanding
#: `hlo-optimize` or `hlo-to-cpu` imports no pass
NAMES = ("hlo-complex-to-real", "convert-hlo-to-linalg", "bufferize", "convert-linalg-to-blas", "lower-linalg-to-loops",
         "loop-cleanup", "convert-parallel-loops-to-threads", "expand-math-polynomials", "lower-thread-dispatch")


def __getattr__(name: str):
    """`PASSES` (name -> class) imports the classes when first asked for."""
    if name != "PASSES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from minixla.passes.pipeline import get_all_passes

    registry = get_all_passes()
    table: dict[str, type[ModulePass]] = {pass_name: registry[pass_name]() for pass_name in NAMES}
    globals()["PASSES"] = table
    return table


#: hlo on tensors -> scf/memref/arith/math loops over static memrefs
#: (tuples, map, composite, dynamic and quantized ops first become ops the lowering knows; complex values
#: then become pairs of float tensors)
HLO_LEGALIZE = "hlo-legalize-structural,hlo-legalize-quant"
HLO_TO_LOOPS = ",".join([HLO_LEGALIZE, "inline", "hlo-complex-to-real", "hlo-reads-before-updates",
                         "convert-hlo-to-linalg", "bufferize", "lower-linalg-to-loops", "loop-cleanup"])


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
    return HLO_TO_LOOPS.replace("bufferize,", "bufferize,convert-linalg-to-blas,")


def hlo_to_cpu(optimize: bool = False, blas: bool = False, check_bounds: bool = False,
               math_approx: bool = True) -> str:
    """The full `hlo-to-cpu` pipeline as a comma-separated pass list;
    `optimize=True` runs `HLO_OPTIMIZE` (fusion) first (opt-in for now);
    `blas=True` adds `convert-linalg-to-blas` (the CPU backend decides: backends/cpu/blas.py);
    `check_bounds=True` adds `insert-bounds-checks` on the loops (MINIXLA_CHECK_BOUNDS=1);
    `math_approx=False` leaves f32 exp/tanh/log to libm instead of `expand-math-polynomials`
    (which runs on the final loops, so both LLVM emitters see only arith ops, and after the threading
    decision, which counts a math op as one op: its vectorized expansion costs about that much per
    element, not the ~40 scalar ops it spells)."""
    loops = hlo_to_loops(blas) + (",insert-bounds-checks" if check_bounds else "")
    approx = ",expand-math-polynomials" if math_approx else ""
    try:
        from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE
    except ImportError:
        lowered = loops + approx
    else:
        # threads: outline big parallel loops before scf->cf, call the pool after llvm lowering
        lowered = f"{loops},convert-parallel-loops-to-threads{approx},{LOWER_TO_LLVM_PIPELINE},lower-thread-dispatch"
    # complex values split into float pairs before fusion, so fusion sees only float math
    return f"{HLO_LEGALIZE},inline,hlo-complex-to-real,{HLO_OPTIMIZE},{lowered}" if optimize else lowered


def hlo_to_cpu_blas() -> str:
    """The `hlo-to-cpu-blas` named pipeline: `hlo-to-cpu` with gemms sent to BLAS."""
    return hlo_to_cpu(blas=True)
