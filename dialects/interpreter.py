"""The `interpreter` dialect of StableHLO's reference interpreter:
`interpreter.run_parallel` runs programs on a simulated process grid and
`interpreter.print` prints a tensor. Only the reference interpreter runs them
(backends/interpreter/ops_collective.py); compiled backends reject them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, SymbolRefAttr, TensorType
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, var_operand_def, var_result_def

from minixla.dialects.hlo_ops.base import require


@irdl_op_definition
class RunParallelOp(IRDLOperation):
    """`"interpreter.run_parallel"(%inputs...) {programs = [[@f00, @f01], [@f10, @f11]], infeed = [@q]}`:
    programs[replica][partition]; each process takes its function's arity of the inputs, in process
    order, and the results are concatenated in the same order."""

    name = "interpreter.run_parallel"
    inputs = var_operand_def()
    results_ = var_result_def()
    programs = prop_def(ArrayAttr)
    infeed = opt_prop_def(ArrayAttr)

    def grid(self) -> list[list[str]]:
        """Function names by [replica][partition]."""
        return [[ref.root_reference.data for ref in row.data] for row in self.programs.data]  # type: ignore[union-attr]

    def verify_(self) -> None:
        rows = self.programs.data
        require(len(rows) > 0, "programs must name at least one process")
        for row in rows:
            require(isinstance(row, ArrayAttr) and all(isinstance(r, SymbolRefAttr) for r in row.data),
                    "programs must be an array of arrays of function symbols")
        widths = {len(row.data) for row in rows}  # type: ignore[union-attr]
        require(len(widths) == 1 and 0 not in widths, f"every replica needs the same number of partitions, got {sorted(widths)}")
        if self.infeed is not None:
            require(all(isinstance(r, SymbolRefAttr) for r in self.infeed.data), "infeed must be function symbols")


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`interpreter.print %x : tensor<...>`: prints the value (atomically w.r.t. other processes)."""

    name = "interpreter.print"
    operand = var_operand_def(TensorType)

    assembly_format = "$operand attr-dict `:` type($operand)"


INTERPRETER = Dialect("interpreter", [RunParallelOp, PrintOp], [])
