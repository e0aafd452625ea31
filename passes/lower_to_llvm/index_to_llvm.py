"""`convert-index-to-llvm`: the `index` type to i64.

xDSL has no `index` dialect; index values live in arith ops (loop bounds,
subscripts, `arith.index_cast`). This pass lowers exactly the arith ops that
produce or consume `index`, leaving the rest to `convert-arith-to-llvm` (which
shares these patterns and would also accept index-typed ops on its own).
Block arguments of type index are retyped by `convert-cf-to-llvm`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass

from minixla.passes.lower_to_llvm.arith_to_llvm import HANDLERS, ArithToLLVMPattern
from minixla.passes.rewrite_driver import rewrite_once


@dataclass(frozen=True)
class ConvertIndexToLLVM(ModulePass):
    """arith ops on `index` -> llvm ops on i64."""

    name = "convert-index-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        rewrite_once(op, ArithToLLVMPattern(only_index=True), tuple(HANDLERS))
