"""fast-reconcile's CastChainRemoval against xDSL's ReconcileUnrealizedCastsPattern: the same IR
and the same warnings on the same input, through the same driver."""

from __future__ import annotations

import re
import warnings

from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.transforms.reconcile_unrealized_casts import ReconcileUnrealizedCastsPattern

from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes.lower_to_llvm.reconcile import CastChainRemoval
from minixla.passes.rewrite_driver import rewrite_to_fixpoint

PROGRAM = """
func.func @f(%a: index, %b: i64) -> (index, i32, i64) {
  %0 = builtin.unrealized_conversion_cast %a : index to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to index
  %2 = builtin.unrealized_conversion_cast %a : index to i32
  %3 = arith.addi %2, %2 : i32
  %4 = builtin.unrealized_conversion_cast %b : i64 to index
  %5 = builtin.unrealized_conversion_cast %4 : index to i64
  %6 = builtin.unrealized_conversion_cast %5 : i64 to index
  %7 = builtin.unrealized_conversion_cast %6 : index to i64
  %8 = builtin.unrealized_conversion_cast %b : i64 to f64
  %9 = builtin.unrealized_conversion_cast %8 : f64 to i32
  %10 = arith.addi %9, %3 : i32
  %11 = builtin.unrealized_conversion_cast %a : index to i16
  func.return %1, %10, %7 : index, i32, i64
}
"""


def _run(pattern) -> tuple[str, list[str]]:
    module = parse_and_verify(PROGRAM, "casts.mlir", load_all())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rewrite_to_fixpoint(module, pattern, UnrealizedConversionCastOp)
    return str(module), [str(w.message) for w in caught]


def test_same_ir_and_warnings_as_xdsl():
    ours, theirs = _run(CastChainRemoval()), _run(ReconcileUnrealizedCastsPattern(warn_on_failure=True))
    assert ours == theirs
    text, warned = ours
    assert re.search(r"func.return %a, %\d+, %b :", text)  # both cancelling chains are gone
    assert warned and all("not unifiable" in w for w in warned)  # index -> i32 feeding an addi stays
