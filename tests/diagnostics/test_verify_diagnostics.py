"""`minixla-opt --verify-diagnostics` with MLIR's expected-* annotations."""

from minixla.tools.opt import main as opt_main

BAD_ADD = """func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {{
  {annotation}
  %0 = hlo.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}}
"""


def _run(tmp_path, text, capsys):
    path = tmp_path / "in.mlir"
    path.write_text(text)
    code = opt_main([str(path), "--split-input-file", "--verify-diagnostics"])
    return code, capsys.readouterr().err


def test_matching_annotation_passes(tmp_path, capsys):
    code, err = _run(tmp_path, BAD_ADD.format(annotation="// expected-error @+1 {{must be equal}}"), capsys)
    assert (code, err) == (0, "")


def test_annotation_on_wrong_line_fails(tmp_path, capsys):
    code, err = _run(tmp_path, BAD_ADD.format(annotation="// expected-error @+2 {{must be equal}}"), capsys)
    assert code == 1
    assert "unexpected error" in err and "was not produced on line 4" in err


def test_wrong_text_fails(tmp_path, capsys):
    code, err = _run(tmp_path, BAD_ADD.format(annotation="// expected-error @below {{no such words}}"), capsys)
    assert code == 1 and 'expected error "no such words"' in err


def test_expected_error_that_never_comes_fails(tmp_path, capsys):
    text = "// expected-error @+1 {{boom}}\nfunc.func @f() {\n  return\n}\n"
    code, err = _run(tmp_path, text, capsys)
    assert code == 1 and "was not produced on line 2" in err


def test_split_chunks_keep_their_lines(tmp_path, capsys):
    good = BAD_ADD.format(annotation="// expected-error @+1 {{must be equal}}")
    code, err = _run(tmp_path, good + "// -----\n" + good, capsys)
    assert (code, err) == (0, "")
