"""Test cases run on a compiled backend through check outlining (backends/check_outlining.py)."""

from __future__ import annotations

import pytest

from minixla.backends import get_backend
from minixla.backends.check_outlining import run_case
from minixla.backends.interpreter.errors import CheckFailure
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify

# two cases in one chunk (StableHLO's triangular_solve.mlir has such a chunk): the second one's
# check fails; each case runs alone, the other's checks never reach the backend
TWO_CASES = """
func.func @passes() {
  %a = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = hlo.add %a, %a : tensor<2xf32>
  check.expect_almost_eq_const %b, dense<[2.0, 4.0]> : tensor<2xf32>
  func.return
}
func.func @fails() {
  %a = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = hlo.multiply %a, %a : tensor<2xf32>
  check.expect_almost_eq_const %b, dense<[1.0, 5.0]> : tensor<2xf32>
  func.return
}
"""


def test_each_case_of_a_chunk_runs_alone_on_cpu():
    module = parse_and_verify(TWO_CASES, "two.mlir", load_all())
    cpu = get_backend("cpu")
    run_case(cpu, module, "passes")
    with pytest.raises(CheckFailure):
        run_case(cpu, module, "fails")
    assert [op.sym_name.data for op in module.ops] == ["passes", "fails"]  # the input module is untouched
