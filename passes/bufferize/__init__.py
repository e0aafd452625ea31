"""`bufferize`: linalg/tensor/scf on tensors -> the same on memrefs, with
results as trailing out-parameters (destination-passing style, see
docs/cpu-pipeline.md). The strategy is described in `core.py`."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from minixla.passes.bufferize.core import bufferize_module


@dataclass(frozen=True)
class Bufferize(ModulePass):
    """Tensors -> memrefs: in place where legal, allocations freed after last use."""

    name = "bufferize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        bufferize_module(op)


__all__ = ["Bufferize"]
