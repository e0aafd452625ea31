"""Malformed input gives one MLIR-style diagnostic, `FILE:LINE:COL: error: ...`
on the right line and naming the op, exit code 1, and never a traceback."""

from __future__ import annotations
from tests.paths import REPO_ROOT

import os
import subprocess
import sys
from pathlib import Path

import pytest

from minixla.tools.opt import main as opt_main

ROOT = REPO_ROOT

_F = "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {\n"
_E = "  func.return %a : tensor<2x3xf32>\n}\n"
def _body(line):
    return _F + "  " + line + "\n" + _E
CASES = [  # (id, text, expected line, text the message must contain)
 ("unknown_op", _body("%0 = hlo.frobnicate %a : tensor<2x3xf32>"), 2, "hlo.frobnicate"),
 ("unknown_generic_op", _body('%0 = "hlo.frobnicate"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>'), 2, "hlo.frobnicate"),
 ("unknown_dialect", _body('%0 = "nope.op"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>'), 2, "nope.op"),
 ("add_shape_mismatch", _body('%0 = "hlo.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>'), 2, "hlo.add"),
 ("add_type_mismatch", _body('%0 = "hlo.add"(%a, %i) : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>'), 2, "hlo.add"),
 ("add_wrong_operand_count", _body('%0 = "hlo.add"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>'), 2, "hlo.add"),
 ("add_pretty_wrong_type", _body('%0 = hlo.add %a, %a : tensor<2x3xi32>'), 2, "hlo.add"),
 ("add_missing_type", _body("%0 = hlo.add %a, %a"), 2, "hlo.add"),
 ("undefined_value", _body('%0 = hlo.add %a, %zz : tensor<2x3xf32>'), 2, "%zz"),
 ("bad_syntax_missing_comma", _body('%0 = hlo.add %a %a : tensor<2x3xf32>'), 2, "hlo.add"),
 ("sqrt_of_integers", _body('%0 = "hlo.sqrt"(%i) : (tensor<2x3xi32>) -> tensor<2x3xi32>'), 2, "hlo.sqrt"),
 ("transpose_bad_perm", _body('%0 = "hlo.transpose"(%a) <{permutation = array<i64: 0, 2>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>'), 2, "hlo.transpose"),
 ("transpose_wrong_result", _body('%0 = "hlo.transpose"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>'), 2, "hlo.transpose"),
 ("reshape_count", _body('%0 = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<5xf32>'), 2, "hlo.reshape"),
 ("broadcast_out_of_range", _body('%0 = hlo.broadcast_in_dim %b, dims = [5] : (tensor<3xf32>) -> tensor<2x3xf32>'), 2, "hlo.broadcast_in_dim"),
 ("slice_out_of_range", _body('%0 = "hlo.slice"(%a) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 9>, strides = array<i64: 1, 1>}> : (tensor<2x3xf32>) -> tensor<2x9xf32>'), 2, "hlo.slice"),
 ("concatenate_bad_dim", _body('%0 = hlo.concatenate %a, %a, dim = 7 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>'), 2, "hlo.concatenate"),
 ("iota_dim_out_of_range", _body('%0 = hlo.iota dim = 3 : tensor<2x3xf32>'), 2, "hlo.iota"),
 ("compare_bad_direction", _body('%0 = hlo.compare XX, %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>'), 2, "hlo.compare"),
 ("compare_result_not_bool", _body('%0 = "hlo.compare"(%a, %a) <{comparison_direction = #hlo<comparison_direction LT>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>'), 2, "hlo.compare"),
 ("constant_bad_dense", _body('%0 = hlo.constant dense<[1.0, 2.0]> : tensor<2x3xf32>'), 2, "hlo.constant"),
 ("constant_type_mismatch", _body('%0 = "hlo.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>'), 2, "hlo.constant"),
 ("select_pred_not_bool", _body('%0 = "hlo.select"(%a, %a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>'), 2, "hlo.select"),
 ("convert_bad_shape", _body('%0 = hlo.convert %a : (tensor<2x3xf32>) -> tensor<3x2xi32>'), 2, "hlo.convert"),
 ("dot_general_bad_contracting", _body('%0 = "hlo.dot_general"(%a, %a) <{dot_dimension_numbers = #hlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>'.replace("[1]>", "[5]>")), 2, "hlo.dot_general"),
 ("reduce_missing_region", _body('%0 = "hlo.reduce"(%a, %b) <{dimensions = array<i64: 1>}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>'), 2, "hlo.reduce"),
 ("reduce_dim_out_of_range", _body('%c = hlo.constant dense<0.0> : tensor<f32>\n  %0 = hlo.reduce(%a init: %c) applies hlo.add across dimensions = [4] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>'), 3, "hlo.reduce"),
 ("while_missing_regions", _body('%0 = "hlo.while"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>'), 2, "hlo.while"),
 ("if_pred_not_scalar", _body('%0 = "hlo.if"(%i) ({\n    hlo.return %a : tensor<2x3xf32>\n  }, {\n    hlo.return %a : tensor<2x3xf32>\n  }) : (tensor<2x3xi32>) -> tensor<2x3xf32>'), 2, "hlo.if"),
 ("return_type_mismatch", _F + "  func.return %b : tensor<3xf32>\n}\n", 2, "func.return"),
 ("missing_terminator", _F + "  %0 = hlo.add %a, %a : tensor<2x3xf32>\n}\n", 2, "hlo.add"),
 ("unsupported_element_type", _body('%0 = "hlo.abs"(%x) : (tensor<2xi3>) -> tensor<2xi3>').replace("%a: tensor<2x3xf32>,", "%a: tensor<2x3xf32>, %x: tensor<2xi3>,"), 2, "hlo.abs"),
 ("dynamic_shape", _body('%0 = "hlo.abs"(%x) : (tensor<?xf32>) -> tensor<?xf32>').replace("%a: tensor<2x3xf32>,", "%a: tensor<2x3xf32>, %x: tensor<?xf32>,"), 2, "hlo.abs"),
 ("unterminated_dense", _body('%0 = hlo.constant dense<[1.0, 2.0 : tensor<2xf32>'), 2, "hlo.constant"),
 ("bad_attribute_value", _body('%0 = "hlo.iota"() <{iota_dimension = "zero"}> : () -> tensor<2x3xf32>'), 2, "hlo.iota"),
 ("unknown_attribute_mnemonic", _body('%0 = "hlo.compare"(%a, %a) <{comparison_direction = #hlo<comparison_direction XYZ>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>'), 2, "comparison_direction"),
 ("pad_negative_interior", _body('%c = hlo.constant dense<0.0> : tensor<f32>\n  %0 = hlo.pad %a, %c, low = [0, 0], high = [0, 0], interior = [-1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>'), 3, "hlo.pad"),
 ("gather_bad_dims", _body('%0 = "hlo.gather"(%a, %i) <{dimension_numbers = #hlo.gather<offset_dims = [9], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3x3xf32>'), 2, "hlo.gather"),
]


def _check(out: str, path: Path, line: int, fragment: str) -> None:
    first = out.splitlines()[0] if out else ""
    assert first.startswith(f"{path}:{line}:"), out
    assert ": error: " in first, out
    assert fragment in out, out
    assert "Traceback" not in out


@pytest.mark.parametrize("name,text,line,fragment", CASES, ids=[c[0] for c in CASES])
def test_diagnostic(name, text, line, fragment, tmp_path, capsys):
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    assert opt_main([str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    _check(captured.err, path, line, fragment)


def test_enough_cases():
    assert len(CASES) >= 30


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "minixla.tools.opt", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120, check=False)


@pytest.mark.parametrize("name", ["unknown_op", "add_shape_mismatch", "reduce_dim_out_of_range", "undefined_value"])
def test_diagnostic_subprocess(name, tmp_path):
    _, text, line, fragment = next(c for c in CASES if c[0] == name)
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    proc = _run(str(path))
    assert proc.returncode == 1
    _check(proc.stderr, path, line, fragment)


SPLIT = """func.func @ok(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
// -----
func.func @bad(%a: tensor<2xf32>) -> tensor<2xf32> {
  // a comment
  %0 = hlo.transpose %a, dims = [3] : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// -----
func.func @bad2(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = hlo.add %a, %a tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""


def test_split_input_file_keeps_file_lines(tmp_path, capsys):
    path = tmp_path / "split.mlir"
    path.write_text(SPLIT)
    assert opt_main([str(path), "--split-input-file"]) == 1
    captured = capsys.readouterr()
    errors = [ln for ln in captured.err.splitlines() if ": error: " in ln]
    assert errors[0].startswith(f"{path}:7:8: error: 'hlo.transpose' op"), captured.err
    assert errors[1].startswith(f"{path}:12:23: error:"), captured.err
    assert "func.func @ok" in captured.out  # the good chunk is still printed


def test_verify_diagnostics_prints_to_stdout_and_succeeds(tmp_path, capsys):
    path = tmp_path / "split.mlir"
    path.write_text(SPLIT)
    assert opt_main([str(path), "--split-input-file", "--verify-diagnostics"]) == 0
    captured = capsys.readouterr()
    assert f"{path}:7:8: error: 'hlo.transpose' op" in captured.out
    assert captured.err == ""


def test_bad_pass_pipeline_is_an_error_not_a_traceback(tmp_path):
    path = tmp_path / "ok.mlir"
    path.write_text(SPLIT.split("// -----")[0])
    proc = _run(str(path), "-p", "no-such-pass")
    assert proc.returncode == 1
    assert "no-such-pass" in proc.stderr and "Traceback" not in proc.stderr
    proc = _run(str(path), "-p", "canonicalize{oops")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


def test_missing_file(tmp_path, capsys):
    assert opt_main([str(tmp_path / "absent.mlir")]) == 1
    assert "absent.mlir" in capsys.readouterr().err


def test_stdin_name(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"%0 = hlo.nope : tensor<f32>\n")))
    assert opt_main([]) == 1
    assert capsys.readouterr().err.startswith("stdin:1:6: error: custom op 'hlo.nope'")
