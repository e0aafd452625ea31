"""MINIXLA_CHECK_BOUNDS=1: generated code checks every memref load and store.

A test-only pass that shifts loop loads by one element (a deliberately broken
lowering) is caught, and the report names the hlo op and its source line;
correct programs (including clamped gathers and dynamic slices, which stay in
bounds by construction) run unchanged, with the interpreter as the oracle.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.passes import ModulePass

from minixla.backends import get_backend
from minixla.backends.cpu import backend as cpu_backend
from minixla.backends.cpu.bounds import BoundsError, checking_bounds
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes import pipeline

PROGRAM = """\
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.multiply %a, %b : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""

GATHER = """\
func.func @main(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %s: tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}>
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %z = hlo.constant dense<0> : tensor<i32>
  %1 = hlo.dynamic_slice %x, %s, %z, sizes = [2, 3] : (tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
"""


@dataclass(frozen=True)
class ShiftLoadIndex(ModulePass):
    """Broken on purpose: every memref.load reads one element further along its last dimension."""

    name = "test-shift-load-index"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for load in [o for o in op.walk() if isinstance(o, memref.LoadOp) and o.indices]:
            one = arith.ConstantOp(IntegerAttr(1, IndexType()))
            shifted = arith.AddiOp(load.indices[-1], one)
            load.parent_block().insert_ops_before([one, shifted], load)
            load.operands = (*load.operands[:-1], shifted.result)


@pytest.fixture
def broken_lowering(monkeypatch):
    monkeypatch.setitem(pipeline._PASSES, ShiftLoadIndex.name, lambda: ShiftLoadIndex)
    upper = cpu_backend._hlo_to_cpu_pipeline()
    assert "lower-linalg-to-loops" in upper
    monkeypatch.setattr(cpu_backend, "_hlo_to_cpu_pipeline", lambda: upper.replace(
        "lower-linalg-to-loops", f"lower-linalg-to-loops,{ShiftLoadIndex.name}"))


def _parse(text: str, filename: str = "prog.mlir") -> ModuleOp:
    return parse_and_verify(text, filename, load_all())


def test_a_shifted_index_is_caught_and_located(broken_lowering, monkeypatch):
    monkeypatch.setenv("MINIXLA_CHECK_BOUNDS", "1")
    a, b = np.arange(4, dtype=np.float32), np.full(4, 2, np.float32)
    fn = get_backend("cpu").compile(_parse(PROGRAM), "main")
    with pytest.raises(BoundsError) as err:
        fn(a, b)
    msg = str(err.value)
    assert msg.startswith("prog.mlir:2:8: 'hlo.multiply' op #0 of @main: out-of-bounds load from memref<4xf32>")
    assert msg.endswith("index 4 of dimension 0 is outside [0, 4) (indices [4])")


def test_without_checks_the_broken_lowering_goes_unnoticed(broken_lowering):
    with checking_bounds(False):
        fn = get_backend("cpu").compile(_parse(PROGRAM), "main")
    a = np.arange(4, dtype=np.float32)
    fn(a, a)  # reads past the end silently: no error, which is why the mode exists


def test_in_memory_modules_are_named_by_position(broken_lowering):
    from xdsl.dialects import func
    from xdsl.dialects.builtin import FunctionType
    from xdsl.ir import Block, Region

    from minixla.frontend.builder import Spec
    from minixla.frontend.builder_trace import TracingBuilder

    block = Block()
    bld = TracingBuilder(block)
    x = bld.argument(Spec((3,), np.dtype(np.float32)))
    y = bld.unary("negate", bld.unary("abs", x))
    block.add_op(func.ReturnOp(y.ssa))
    module = ModuleOp([func.FuncOp("main", FunctionType.from_lists([x.ssa.type], [y.ssa.type]), Region(block))])
    with checking_bounds():
        fn = get_backend("cpu").compile(module, "main")
    with pytest.raises(BoundsError, match=r"^'hlo\.(abs|negate)' op #[01] of @main: out-of-bounds load"):
        fn(np.ones(3, np.float32))


def test_correct_programs_pass_the_checks():
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    i = np.array([[7], [-2]], np.int32)  # out of range: gather clamps the starts
    s = np.array(9, np.int32)  # so does dynamic_slice
    module = _parse(GATHER)
    want = get_backend("interpreter").compile(module, "main")(x, i, s)
    with checking_bounds():
        got = get_backend("cpu").compile(module, "main")(x, i, s)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)
