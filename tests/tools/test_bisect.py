"""`minixla-opt --bisect` / `minixla-run --check-each-pass` (tools/bisect.py):
deliberately broken passes, registered only here, at the hlo, loop and llvm
levels, must be named as the first failing pass; correct pipelines pass."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.tools.bisect import BisectError, bisect, compare, random_inputs
from minixla.tools.opt import main as opt_main
from minixla.tools.run import main as run_main
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from minixla.passes import pipeline as pass_registry

PROGRAM = """func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, %y : tensor<4x8xf32>
  %1 = hlo.multiply %0, %x : tensor<4x8xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %2 = hlo.reduce(%1 init: %z) applies hlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
"""


def _swap(module: ModuleOp, old: str, new: str) -> None:
    """Replace every `old` op by a `new` op with the same operands/types/attributes."""
    ctx = load_all()
    cls = ctx.get_op(new)
    for op in list(module.walk()):
        if op.name == old:
            Rewriter.replace_op(op, cls.create(operands=list(op.operands),
                                               result_types=[r.type for r in op.results],
                                               properties=dict(op.properties), attributes=dict(op.attributes)))


def _broken_pass(pass_name: str, old: str, new: str) -> type[ModulePass]:
    class Broken(ModulePass):
        name = pass_name

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            _swap(op, old, new)

    return Broken


BROKEN = {
    "test-hlo-add-to-subtract": ("hlo.add", "hlo.subtract"),
    "test-addf-to-subf": ("arith.addf", "arith.subf"),
    "test-llvm-fadd-to-fsub": ("llvm.fadd", "llvm.fsub"),
}


@pytest.fixture(autouse=True)
def broken_passes(monkeypatch):
    table = dict(pass_registry._PASSES)
    for name, (old, new) in BROKEN.items():
        table[name] = lambda n=name, o=old, w=new: _broken_pass(n, o, w)
    monkeypatch.setattr(pass_registry, "_PASSES", table)


@pytest.fixture
def module():
    return parse_and_verify(PROGRAM, "prog.mlir", load_all())


def test_correct_pipeline_matches_at_every_evaluated_stage(module):
    report = bisect(module, "hlo-optimize,hlo-to-cpu")
    assert report.first_failure is None
    kinds = {s.evaluator for s in report.stages if s.status in ("ok", "reference")}
    assert kinds == {"interpreter", "loop-ir", "cpu-jit"}
    assert report.stages[-1].status == "ok"  # the fully lowered module ran on the JIT


@pytest.mark.parametrize("pipeline,broken", [
    ("canonicalize,test-hlo-add-to-subtract,hlo-to-cpu", "test-hlo-add-to-subtract"),
    ("convert-hlo-to-linalg,bufferize,lower-linalg-to-loops,test-addf-to-subf,cse", "test-addf-to-subf"),
    ("convert-hlo-to-linalg,bufferize,lower-linalg-to-loops,lower-scf-to-cf,test-addf-to-subf",
     "test-addf-to-subf"),  # cf blocks
    ("hlo-to-cpu,test-llvm-fadd-to-fsub", "test-llvm-fadd-to-fsub"),
])
def test_names_the_broken_pass(module, pipeline, broken):
    report = bisect(module, pipeline)
    bad = report.first_failure
    assert bad is not None and bad.pass_name == broken and bad.status == "MISMATCH"
    assert bad.max_abs > 0.1
    earlier = report.stages[:report.stages.index(bad)]
    assert all(not s.failed for s in earlier)


def test_failure_after_unevaluated_stages_lists_them(module):
    # the break happens in half-lowered llvm, which no evaluator runs: the first evaluated stage
    # after it (the fully lowered llvm on the JIT) is named, and every unevaluated pass before
    llvm = ("convert-math-to-llvm,convert-index-to-llvm,convert-arith-to-llvm,"
            "convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts")
    spec = ("convert-hlo-to-linalg,bufferize,lower-linalg-to-loops,lower-scf-to-cf,convert-memref-to-llvm,"
            f"test-addf-to-subf,{llvm}")
    report = bisect(module, spec)
    assert report.first_failure.pass_name == "reconcile-unrealized-casts"
    assert report.suspects() == ["convert-memref-to-llvm", "test-addf-to-subf", *llvm.split(",")]
    assert "also suspect: convert-memref-to-llvm, test-addf-to-subf, convert-math-to-llvm" in report.format()


def test_tensor_level_linalg_is_evaluated(module):
    report = bisect(module, "convert-hlo-to-linalg,test-addf-to-subf,bufferize")
    assert [(s.pass_name, s.evaluator) for s in report.stages[1:]] == [
        ("convert-hlo-to-linalg", "loop-ir"), ("test-addf-to-subf", "loop-ir"), ("bufferize", "loop-ir")]
    assert report.first_failure.pass_name == "test-addf-to-subf"


def test_reference_is_the_interpreter_on_the_given_inputs(module):
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    y = np.ones((4, 8), np.float32)
    report = bisect(module, "test-hlo-add-to-subtract", [x, y])
    # oracle: numpy. max((x+y)*x) vs max((x-y)*x) per row differ by max(x) in each row
    expected_abs = float(np.max(np.abs(((x + y) * x).max(1) - ((x - y) * x).max(1))))
    assert report.stages[1].max_abs == pytest.approx(expected_abs)


def test_compare_tolerances():
    a = np.array([1.0, 2.0], np.float32)
    assert compare([a + 1e-6], [a], None, None)[2]
    assert not compare([a + 1e-2], [a], None, None)[2]
    assert compare([a + 1e-2], [a], 0.0, 0.1)[2]
    i = np.array([1, 2], np.int32)
    assert not compare([i + 1], [i], None, None)[2]  # integers: exact by default
    nan = np.array([np.nan], np.float32)
    assert compare([nan], [nan], None, None)[2] and not compare([a[:1]], [nan], None, None)[2]


MATMUL = """func.func @main(%x: tensor<3x8xf32>, %w: tensor<8x5xf32>) -> tensor<3x5xf32> {
  %0 = hlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<3x8xf32>, tensor<8x5xf32>) -> tensor<3x5xf32>
  %1 = hlo.tanh %0 : tensor<3x5xf32>
  func.return %1 : tensor<3x5xf32>
}
"""


class DoubleGemmAlpha(ModulePass):
    """Deliberately wrong: every gemm call computes 2 * a @ b."""

    name = "test-double-gemm-alpha"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.dialects import arith
        from xdsl.dialects.builtin import FloatAttr

        for call in [o for o in op.walk() if o.name == "func.call" and "gemm" in o.callee.string_value()]:
            two = arith.ConstantOp(FloatAttr(2.0, call.operands[6].type))
            call.parent_block().insert_op_before(two, call)
            call.operands[6] = two.result


def test_gemm_calls_are_evaluated_and_a_broken_one_is_named(monkeypatch):
    monkeypatch.setitem(pass_registry._PASSES, DoubleGemmAlpha.name, lambda: DoubleGemmAlpha)
    module = parse_and_verify(MATMUL, "matmul.mlir", load_all())
    spec = "convert-hlo-to-linalg,bufferize,convert-linalg-to-blas,test-double-gemm-alpha,lower-linalg-to-loops"
    report = bisect(module, spec)
    statuses = {s.pass_name: s.status for s in report.stages}
    assert statuses["convert-linalg-to-blas"] == "ok"  # the gemm call ran (numpy), and matched
    assert report.first_failure.pass_name == "test-double-gemm-alpha"
    assert report.suspects() == ["test-double-gemm-alpha"]


def test_integers_compare_exactly_beyond_float64():
    big = np.array([2**62], np.int64)
    assert not compare([big + 1], [big], None, None)[2]
    assert compare([big], [big], None, None)[2]


def test_big_buffers_skip_the_loop_ir_evaluator(monkeypatch, module):
    from minixla.tools import bisect as bisect_module

    monkeypatch.setattr(bisect_module, "LOOP_IR_MAX_ELEMENTS", 16)  # the program's buffers hold 32
    report = bisect(module, "convert-hlo-to-linalg,bufferize,test-addf-to-subf,lower-linalg-to-loops")
    assert all(s.status.startswith("skipped: a 32-element buffer") for s in report.stages[2:])
    assert report.first_failure is None


def test_random_inputs_are_seeded(module):
    fn = next(iter(module.ops))
    a, b = random_inputs(fn, 3), random_inputs(fn, 3)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert [x.shape for x in a] == [(4, 8), (4, 8)] and a[0].dtype == np.float32


def test_bad_inputs_are_clear_errors(module):
    with pytest.raises(BisectError, match="takes 2 argument"):
        bisect(module, "cse", [np.ones((4, 8), np.float32)])
    with pytest.raises(BisectError, match="no function @nope"):
        bisect(module, "cse", entry="nope")


class RaisingPass(ModulePass):
    name = "test-raise"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise RuntimeError("deliberate")


def test_pass_that_raises_is_reported(module, monkeypatch):
    monkeypatch.setitem(pass_registry._PASSES, "test-raise", lambda: RaisingPass)
    report = bisect(module, "cse,test-raise,dce")
    assert [s.pass_name for s in report.stages] == [None, "cse", "test-raise"]
    assert report.first_failure.pass_name == "test-raise"
    assert report.first_failure.status == "error: pass failed: RuntimeError: deliberate"


def _write(tmp_path, text=PROGRAM):
    path = tmp_path / "prog.mlir"
    path.write_text(text)
    return str(path)


def test_opt_bisect_cli(tmp_path, capsys):
    path = _write(tmp_path)
    assert opt_main([path, "-p", "canonicalize,test-hlo-add-to-subtract,cse", "--bisect"]) == 1
    out = capsys.readouterr().out
    assert "bisect: first failing pass: test-hlo-add-to-subtract" in out
    assert opt_main([path, "-p", "canonicalize,cse", "--bisect", "--seed", "7"]) == 0
    assert "all evaluated stages match" in capsys.readouterr().out


def test_opt_bisect_inputs_npz_and_bad_file(tmp_path, capsys):
    path = _write(tmp_path)
    npz = tmp_path / "in.npz"
    np.savez(npz, arg0=np.ones((4, 8), np.float32), arg1=np.zeros((4, 8), np.float32))
    # with y = 0, x + y == x - y: the broken pass goes unnoticed on these inputs
    assert opt_main([path, "-p", "test-hlo-add-to-subtract", "--bisect", "--inputs", str(npz)]) == 0
    capsys.readouterr()
    assert opt_main([path, "-p", "cse", "--bisect", "--inputs", path]) == 1
    err = capsys.readouterr().err
    assert "not an .npz archive" in err and "Traceback" not in err


def test_run_check_each_pass_cli(tmp_path, capsys):
    path = _write(tmp_path)
    x = tmp_path / "x.npy"
    np.save(x, np.full((4, 8), 2.0, np.float32))
    y = tmp_path / "y.npy"
    np.save(y, np.full((4, 8), 3.0, np.float32))
    assert run_main([path, str(x), str(y), "--check-each-pass", "-p", "hlo-to-cpu,test-llvm-fadd-to-fsub"]) == 1
    out = capsys.readouterr().out
    assert "first failing pass: test-llvm-fadd-to-fsub" in out
    assert run_main([path, "--check-each-pass", "-p", "no-such-pass"]) == 1
    assert "no-such-pass" in capsys.readouterr().err
