"""`convert-hlo-to-linalg`: hlo on tensors -> linalg/tensor/arith/math/scf on
tensors (the first stage of `hlo-to-cpu`, see docs/cpu-pipeline.md).

One module per op family registers its lowerings in `translate.LOWERINGS`; the
driver imports a family when it first meets one of its ops (`translate.FAMILIES`),
so a compile imports only the families it uses (an elementwise program: not sort,
fft, rng, ...). Anything without a lowering is reported as a diagnostic naming the
op and the pass, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from minixla.passes.hlo_to_linalg.common import LoweringError
from minixla.passes.hlo_to_linalg.translate import LOWERINGS, convert_module


@dataclass(frozen=True)
class ConvertHloToLinalg(ModulePass):
    """Lower every hlo (or stablehlo) op in every `func.func` to linalg on tensors."""

    name = "convert-hlo-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(op)


__all__ = ["LOWERINGS", "ConvertHloToLinalg", "LoweringError"]
