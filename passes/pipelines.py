"""Named pipelines and the passes of the tensor->loops half of `hlo-to-cpu`.

`hlo_to_cpu()` is the full pipeline string (ours + `LOWER_TO_LLVM_PIPELINE`
from `passes.lower_to_llvm` when that exists); `PASSES` lists our passes for
the global registry.
"""

from __future__ import annotations

from xdsl.passes import ModulePass

from .bufferize import Bufferize
from .hlo_to_linalg import ConvertHloToLinalg
from .linalg_to_loops import ConvertLinalgToLoops

PASSES: dict[str, type[ModulePass]] = {
    ConvertHloToLinalg.name: ConvertHloToLinalg,
    Bufferize.name: Bufferize,
    ConvertLinalgToLoops.name: ConvertLinalgToLoops,
}

#: hlo on tensors -> scf/memref/arith/math loops over static memrefs
HLO_TO_LOOPS = ",".join([ConvertHloToLinalg.name, Bufferize.name, ConvertLinalgToLoops.name, "canonicalize", "cse"])


def hlo_to_cpu() -> str:
    """The full `hlo-to-cpu` pipeline as a comma-separated pass list."""
    try:
        from .lower_to_llvm import LOWER_TO_LLVM_PIPELINE
    except ImportError:
        return HLO_TO_LOOPS
    return f"{HLO_TO_LOOPS},{LOWER_TO_LLVM_PIPELINE}"
