"""Bad literals and shapes become located diagnostics, never Python exceptions."""

import re

import pytest

import minixla.backends  # noqa: F401  (registers the dialects the tools see)
from minixla.dialects.diagnostics import DiagnosticError, parse
from minixla.dialects.input_limits import MAX_DENSE_NESTING
from minixla.tools.opt import MinixlaOptMain

PY_EXCEPTION = re.compile(r"\b\w*(Error|Exception)\b:|Traceback")


def _constant(literal: str, type_: str) -> str:
    return (f"func.func @f() -> {type_} {{\n"
            f"  %0 = hlo.constant dense<{literal}> : {type_}\n"
            f"  return %0 : {type_}\n}}\n")


def _diagnose(text: str) -> DiagnosticError:
    ctx = MinixlaOptMain(args=[]).ctx
    with pytest.raises(DiagnosticError) as info:
        parse(text, "in.mlir", ctx)
    assert not PY_EXCEPTION.search(str(info.value)), str(info.value)
    return info.value


@pytest.mark.parametrize("literal, type_, line, message", [
    ("1.0e39", "tensor<2xf32>", 2, "float literal is out of range for element type f32"),
    ("-1.0e39", "tensor<2xf32>", 2, "float literal is out of range for element type f32"),
    ("70000.0", "tensor<2xf16>", 2, "float literal is out of range for element type f16"),
    ("300", "tensor<2xi8>", 2, "integer value 300 is out of range for element type i8 (valid range [-128, 255])"),
    ("-129", "tensor<2xi8>", 2, "integer value -129 is out of range for element type i8"),
    ("1.0", "tensor<100000x100000x100xf32>", 2, "bytes of memory available"),
    ("1.0", "tensor<99999999999999999999xf32>", 1, "is larger than the int64 maximum 9223372036854775807"),
    ("[" * (MAX_DENSE_NESTING + 1) + "1.0" + "]" * (MAX_DENSE_NESTING + 1), "tensor<1xf32>", 2,
     f"dense literal nested deeper than {MAX_DENSE_NESTING} levels"),
])
def test_bad_literal_is_located_on_its_line(literal, type_, line, message):
    err = _diagnose(_constant(literal, type_))
    assert err.line == line, str(err)
    assert message in err.message


def test_dimension_above_int64_in_a_signature():
    err = _diagnose("func.func @f(%a: tensor<9223372036854775808xf32>) -> tensor<1xf32> {\n}\n")
    assert (err.line, err.col) == (1, 25)
    assert "larger than the int64 maximum" in err.message


def test_value_in_range_still_parses():
    ctx = MinixlaOptMain(args=[]).ctx
    module = parse(_constant("255", "tensor<2xi8>") , "in.mlir", ctx)
    assert "hlo.constant" in str(module)


def test_run_reports_a_huge_result_on_its_op(tmp_path, capsys):
    from minixla.tools.run import main as run_main

    path = tmp_path / "huge.mlir"
    path.write_text("func.func @main() -> tensor<100000x100000x100xf32> {\n"
                    "  %0 = hlo.iota dim = 0 : tensor<100000x100000x100xf32>\n"
                    "  return %0 : tensor<100000x100000x100xf32>\n}\n")
    assert run_main([str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:8: error: 'hlo.iota' op tensor of shape 100000x100000x100 needs 4000000000000 bytes" in err
    assert not PY_EXCEPTION.search(err), err
