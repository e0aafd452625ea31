"""`passes/rewrite_driver.py` against xDSL's walker (same result on the same input), the op-class
filter, erased ops, sweeps off one walk and to a fixpoint; `passes/gc_pause.py`'s freeze."""

from __future__ import annotations

import gc

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (PatternRewriter, PatternRewriteWalker, RewritePattern,
                                   op_type_rewrite_pattern)

from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes.gc_pause import frozen_heap
from minixla.passes.rewrite_driver import nested_ops, rewrite_in_order, rewrite_once, rewrite_to_fixpoint

PROGRAM = """
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %a : i32
  %c = arith.constant 0 : index
  %n = arith.constant 4 : index
  %s = arith.constant 1 : index
  %r = scf.for %i = %c to %n step %s iter_args(%acc = %1) -> (i32) {
    %2 = arith.addi %acc, %b : i32
    %3 = arith.subi %2, %a : i32
    scf.yield %3 : i32
  }
  %4 = arith.addi %r, %1 : i32
  func.return %4 : i32
}
"""


def parse() -> ModuleOp:
    return parse_and_verify(PROGRAM, "f.mlir", load_all())


class AddToSub(RewritePattern):
    """addi -> subi; records the ops it was called on."""

    def __init__(self):
        self.seen: list[str] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        self.seen.append(op.name)
        if isinstance(op, arith.AddiOp):
            rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))


class EraseLoopAndUser(RewritePattern):
    """Replaces the scf.for by its init value: its body's ops must not be visited afterwards."""

    def __init__(self):
        self.seen: list[str] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        self.seen.append(op.name)
        if isinstance(op, scf.ForOp):
            rewriter.replace(op, [], [op.iter_args[0]])


def test_same_result_as_xdsl_walker_and_only_wanted_classes_visited():
    ours, theirs = parse(), parse()
    mine, upstream = AddToSub(), AddToSub()
    assert rewrite_once(ours, mine, arith.AddiOp)
    PatternRewriteWalker(upstream, apply_recursively=False).rewrite_module(theirs)
    assert str(ours) == str(theirs)
    assert mine.seen == ["arith.addi"] * 3  # pre-order, the loop body's one included
    assert len(upstream.seen) > len(mine.seen)
    assert not rewrite_once(ours, AddToSub(), arith.AddiOp)  # none left: nothing changes


def test_erased_ops_are_not_visited():
    ours, theirs = parse(), parse()
    mine, upstream = EraseLoopAndUser(), EraseLoopAndUser()
    rewrite_once(ours, mine)
    PatternRewriteWalker(upstream, apply_recursively=False).rewrite_module(theirs)
    assert str(ours) == str(theirs)
    assert mine.seen == upstream.seen
    assert "scf.yield" not in mine.seen


def test_sweeps_in_order_off_one_walk():
    module = parse()

    class Record(RewritePattern):
        def __init__(self, log, tag):
            self.log, self.tag = log, tag

        def match_and_rewrite(self, op, rewriter, /):
            self.log.append((self.tag, op.name))

    log: list = []
    rewrite_in_order(module, [(Record(log, "sub"), arith.SubiOp), (Record(log, "mul"), arith.MuliOp)])
    assert log == [("sub", "arith.subi"), ("mul", "arith.muli")]
    assert [o.name for o in nested_ops(module)] == [o.name for o in module.walk()][1:]


def test_fixpoint_revisits_created_ops():
    class Halve(RewritePattern):
        """constant c (even, > 1) -> constant c / 2: needs several sweeps."""

        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter, /):
            v = op.value
            if isinstance(v, IntegerAttr) and v.type == i32 and v.value.data > 1 and v.value.data % 2 == 0:
                rewriter.replace(op, arith.ConstantOp(IntegerAttr(v.value.data // 2, i32)))

    module = parse_and_verify("func.func @g() -> i32 {\n  %0 = arith.constant 48 : i32\n  func.return %0 : i32\n}",
                              "g.mlir", load_all())
    assert rewrite_to_fixpoint(module, Halve(), arith.ConstantOp)
    assert "arith.constant 3 : i32" in str(module)
    assert not rewrite_to_fixpoint(module, Halve(), arith.ConstantOp)


def test_frozen_heap_nests_and_unfreezes():
    gc.collect()
    assert gc.get_freeze_count() == 0
    with frozen_heap():
        assert gc.get_freeze_count() > 0
        with frozen_heap():
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() > 0  # the inner exit keeps the outer freeze
    assert gc.get_freeze_count() == 0


def test_frozen_heap_raises_the_young_threshold_for_its_duration():
    from minixla.passes.gc_pause import YOUNG_THRESHOLD

    before = gc.get_threshold()
    with frozen_heap():
        assert gc.get_threshold() == (max(before[0], YOUNG_THRESHOLD), *before[1:])
        with frozen_heap():
            assert gc.get_threshold()[0] == max(before[0], YOUNG_THRESHOLD)
    assert gc.get_threshold() == before
    gc.set_threshold(0)  # collection off: left off
    try:
        with frozen_heap():
            assert gc.get_threshold()[0] == 0
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)


def test_has_value_of_type_sees_results_and_block_arguments():
    from xdsl.dialects.builtin import BFloat16Type, Float16Type, IndexType, IntegerType

    from minixla.passes.rewrite_driver import has_value_of_type

    module = parse()
    assert has_value_of_type(module, IntegerType)  # function arguments and results
    assert has_value_of_type(module, IndexType)  # results only
    assert not has_value_of_type(module, (BFloat16Type, Float16Type))
    bf16 = parse_and_verify("func.func @g(%x: bf16) {\n  func.return\n}", "g.mlir", load_all())
    assert has_value_of_type(bf16, BFloat16Type)  # a block argument alone


def test_emulation_passes_skip_modules_without_their_types_only():
    from minixla.passes.pipeline import run_pipeline

    module = parse()
    before = str(module)
    run_pipeline(module, "arith-emulate-bf16,arith-emulate-narrow-floats")
    assert str(module) == before
    text = "func.func @h(%a: bf16, %b: bf16) -> bf16 {\n  %0 = arith.addf %a, %b : bf16\n  func.return %0 : bf16\n}"
    bf16 = run_pipeline(parse_and_verify(text, "h.mlir", load_all()), "arith-emulate-bf16")
    assert "arith.addf" in str(bf16) and ": f32" in str(bf16)
