"""MINIXLA_CHECK_BOUNDS=1: compiled code checks every memory access. A deliberately broken
lowering (a test pass that shifts every load index by one, an off-by-one) runs silently without
the checks and is caught, with the access named, with them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from minixla.backends import get_backend
from minixla.backends.cpu import backend as cpu_backend
from minixla.backends.cpu.bounds_report import BoundsError
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes import pipeline as pass_registry

PROGRAM = """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = hlo.add %a, %b : tensor<4xf32>
  %d = hlo.reverse %c, dims = [0] : tensor<4xf32>
  func.return %d : tensor<4xf32>
}
"""
A, B = np.arange(4, dtype=np.float32), np.ones(4, np.float32)


@dataclass(frozen=True)
class ShiftLoadIndex(ModulePass):
    """Test only: an off-by-one in 'the lowering' -- every 1-d load reads index i + 1."""

    name = "test-shift-load-index"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for load in [o for o in op.walk() if isinstance(o, memref.LoadOp) and len(o.indices) == 1]:
            one = arith.ConstantOp(IntegerAttr(1, IndexType()))
            shifted = arith.AddiOp(load.indices[0], one)
            Rewriter.insert_op([one, shifted], InsertPoint.before(load))
            load.operands = [load.memref, shifted.result]


@pytest.fixture
def broken_lowering(monkeypatch):
    table = dict(pass_registry._PASSES)
    table[ShiftLoadIndex.name] = lambda: ShiftLoadIndex
    monkeypatch.setattr(pass_registry, "_PASSES", table)
    original = cpu_backend._hlo_to_cpu_pipeline
    monkeypatch.setattr(cpu_backend, "_hlo_to_cpu_pipeline", lambda: original().replace(
        "lower-linalg-to-loops,", f"lower-linalg-to-loops,{ShiftLoadIndex.name},"))
    monkeypatch.setenv("MINIXLA_DISABLE_CACHE", "1")  # the cache keys on sources, not on this test's pass


def _compile():
    return get_backend("cpu").compile(parse_and_verify(PROGRAM, "prog.mlir", load_all()), "main")


def test_checked_code_computes_the_same(monkeypatch):
    monkeypatch.setenv("MINIXLA_CHECK_BOUNDS", "1")
    monkeypatch.setenv("MINIXLA_DISABLE_CACHE", "1")
    np.testing.assert_array_equal(_compile()(A, B)[0], (A + B)[::-1])


def test_the_broken_lowering_goes_unnoticed_without_checks(broken_lowering):
    got = _compile()(A, B)[0]  # reads one element past each buffer: no error, a wrong result
    assert not np.array_equal(got, (A + B)[::-1])


def test_bounds_checks_name_the_bad_access(broken_lowering, monkeypatch):
    monkeypatch.setenv("MINIXLA_CHECK_BOUNDS", "1")
    # the hlo op and its source line too: locations travel hlo -> linalg -> bufferize -> loops (passes/locations.py)
    with pytest.raises(BoundsError, match=r"memref.load \(load from memref<4xf32>\) in @main, from 'hlo.add' op at "
                                          r"prog.mlir:3:8: index 4 in dimension 0"):
        _compile()(A, B)

