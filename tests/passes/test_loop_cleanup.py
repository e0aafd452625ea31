"""`loop-cleanup` (passes/loop_cleanup.py) against its oracle, xDSL's `canonicalize,cse`: the same
printed module on hand-written loop-level IR that exercises each rule (folds, patterns that need no
constant, dead code, scoped and read-only CSE, isolated ops, multi-block fallback) and on the
loop-level IR of whole programs; the slow case does it for every cpu conformance case."""

from __future__ import annotations

from pathlib import Path

import pytest

from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes.loop_cleanup import LoopCleanup
from minixla.passes.pipeline import build_pipeline, run_pipeline

ROOT = Path(__file__).resolve().parents[2]

CASES = {
    "folds": """
func.func @f(%m: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %f2 = arith.constant 2.0 : f32
  %f1 = arith.constant 1.0 : f32
  %dead = arith.subf %f2, %f1 : f32
  "scf.parallel"(%c0, %c8, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %x = memref.load %m[%i] : memref<8xi32>
    %s = arith.addi %two, %three : i32
    %z = arith.constant 0 : i32
    %y = arith.addi %x, %z : i32
    %p = arith.muli %y, %s : i32
    %j = arith.addi %i, %c0 : index
    memref.store %p, %m[%j] : memref<8xi32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}""",
    "patterns_without_constants": """
func.func @f(%m: memref<4xf32>, %c: i1, %a: f32, %b: i32) -> (f32, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = arith.select %c, %a, %a : f32
  %e = arith.cmpi eq, %b, %b : i32
  %buf = memref.alloc() : memref<4xf32>
  memref.dealloc %buf : memref<4xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %s) -> (f32) {
    %k = arith.constant 3.0 : f32
    %x = memref.load %m[%i] : memref<4xf32>
    %y = arith.mulf %x, %k : f32
    %z = arith.addf %acc, %y : f32
    scf.yield %z : f32
  }
  %one = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %r) -> (f32) {
    %x = memref.load %m[%i] : memref<4xf32>
    %z = arith.addf %acc, %x : f32
    scf.yield %z : f32
  }
  func.return %one, %e : f32, i1
}""",
    "cse_scopes_and_reads": """
func.func @f(%m: memref<4x4xf32>, %o: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c0, %c4, %c4, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %c4b = arith.constant 4 : index
    %a = memref.load %m[%i, %j] : memref<4x4xf32>
    %b = memref.load %m[%i, %j] : memref<4x4xf32>
    %s = arith.addf %a, %b : f32
    %s2 = arith.addf %a, %b : f32
    memref.store %s, %m[%i, %j] : memref<4x4xf32>
    %d = memref.load %m[%i, %j] : memref<4x4xf32>
    %t = arith.mulf %s2, %d : f32
    %k = arith.muli %i, %c4b : index
    %l = arith.muli %i, %c4 : index
    %n = arith.addi %k, %l : index
    %q = arith.index_cast %n : index to i64
    %qf = arith.sitofp %q : i64 to f32
    %u = arith.addf %t, %qf : f32
    memref.store %u, %o[%i, %j] : memref<4x4xf32>
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  %p1 = "memref.extract_aligned_pointer_as_index"(%m) : (memref<4x4xf32>) -> index
  %p2 = "memref.extract_aligned_pointer_as_index"(%m) : (memref<4x4xf32>) -> index
  %sum = arith.addi %p1, %p2 : index
  %v = arith.index_cast %sum : index to i64
  %vf = arith.sitofp %v : i64 to f32
  memref.store %vf, %o[%c0, %c0] : memref<4x4xf32>
  func.return
}
func.func @g(%o: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  memref.store %z, %o[%c0, %c0] : memref<4x4xf32>
  func.return
}""",
    "multi_block_fallback": """
func.func @f(%c: i1, %a: i32) -> i32 {
  %z = arith.constant 0 : i32
  %d = arith.addi %a, %a : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %a, %z : i32
  func.return %x : i32
^bb2:
  %y = arith.addi %a, %z : i32
  func.return %y : i32
}""",
}


def _both(module_text: str, name: str = "case.mlir") -> tuple[str, str]:
    ctx = load_all()
    expected = parse_and_verify(module_text, name, ctx)
    build_pipeline("canonicalize,cse").apply(ctx, expected)
    got = parse_and_verify(module_text, name, ctx)
    LoopCleanup().apply(ctx, got)
    got.verify()
    return str(got), str(expected)


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_as_canonicalize_cse(case):
    got, expected = _both(CASES[case])
    assert got == expected
    assert got != str(parse_and_verify(CASES[case], "case.mlir", load_all()))  # it did something


#: hlo programs lowered to loops (the CPU pipeline up to, not including, loop-cleanup)
PROGRAMS = ["filecheck/passes/hlo-fusion/running-example.mlir", "filecheck/passes/hlo-fusion/fusion.mlir",
            "filecheck/passes/lower-linalg-to-loops/loops.mlir"]
TO_LOOPS = ("hlo-optimize,hlo-legalize-structural,hlo-legalize-quant,inline,hlo-complex-to-real,"
            "convert-hlo-to-linalg,bufferize,lower-linalg-to-loops")


@pytest.mark.parametrize("path", PROGRAMS)
def test_programs_same_as_canonicalize_cse(path):
    chunks = (ROOT / path).read_text().split("// -----")
    for k, chunk in enumerate(chunks):
        module = run_pipeline(parse_and_verify(chunk, f"{path}:{k}", load_all()), TO_LOOPS)
        got, expected = _both(str(module), f"{path}:{k}")
        assert got == expected, f"{path} chunk {k}"


@pytest.mark.slow
def test_conformance_loop_ir_same_as_canonicalize_cse():
    """Every in-scope cpu conformance case: the IR after lower-linalg-to-loops, cleaned both ways."""
    from minixla.backends.cpu.hooks import AFTER_PASS
    from minixla.tools.conformance import run_conformance

    seen: list[str] = []

    def after(name, module):
        if name == "lower-linalg-to-loops":
            seen.append(str(module))

    token = AFTER_PASS.set(after)
    try:
        run_conformance("cpu")
    finally:
        AFTER_PASS.reset(token)
    assert len(seen) > 400
    for k, text in enumerate(seen):
        got, expected = _both(text, f"conformance-{k}")
        assert got == expected, f"module {k}:\n{text}"
