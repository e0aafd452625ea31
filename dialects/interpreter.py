"""The `interpreter` dialect of StableHLO's reference interpreter:
`interpreter.run_parallel` runs programs on a simulated process grid and
`interpreter.print` prints a tensor and `interpreter.probe` records a value for
`check.expect_serialized_eq`. The reference interpreter runs them (backends/interpreter);
compiled backends run top-level print and probe ops through check outlining
(backends/check_outlining.py) and reject run_parallel.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, StringAttr, SymbolRefAttr, TensorType
from xdsl.ir import Dialect
from xdsl.irdl import (IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def,
                       var_operand_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer

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


@irdl_op_definition
class ProbeOp(IRDLOperation):
    """`%y = interpreter.probe %x, probe_id = "id" : tensor<...>`: returns %x and records each value it
    sees under `probe_id` (one per execution, for `check.expect_serialized_eq ... iter = n`)."""

    name = "interpreter.probe"
    operand = operand_def(TensorType)
    probe_id = prop_def(StringAttr)
    result = result_def(TensorType)

    @classmethod
    def parse(cls, parser: Parser):
        x = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("probe_id")
        parser.parse_punctuation("=")
        probe_id = parser.parse_str_literal()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(x, t)], result_types=[t],
                          properties={"probe_id": StringAttr(probe_id)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(", probe_id = ")
        printer.print_string_literal(self.probe_id.data)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)

    def verify_(self) -> None:
        require(self.operand.type == self.result.type,
                f"result type {self.result.type} must equal operand type {self.operand.type}")


INTERPRETER = Dialect("interpreter", [RunParallelOp, PrintOp, ProbeOp], [])
