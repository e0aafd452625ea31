"""minixla-opt, minixla-run, the pass registry and the conformance scan."""

from __future__ import annotations
from tests.paths import REPO_ROOT

import os
import subprocess
import sys

import numpy as np
import pytest
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr

from minixla.dialects import load_all
from minixla.dialects.diagnostics import DiagnosticError, parse_and_verify, split_input
from minixla.dialects.hlo_ops.attrs import define_attributes
from minixla.passes import available_passes, get_all_passes, run_pipeline
from minixla.passes.legalize_stablehlo import convert_attr
from minixla.tools import conformance
from minixla.tools.opt import main as opt_main
from minixla.tools.run import main as run_main
from minixla.tools.testfile import format_result

ROOT = REPO_ROOT

STABLEHLO = """func.func @main(%x: tensor<2x3xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.multiply %x, %x : tensor<2x3xf32>
  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %2 = stablehlo.compare GT, %1, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %3 = stablehlo.select %2, %1, %y : tensor<2xi1>, tensor<2xf32>
  func.return %3 : tensor<2xf32>
}
"""


@pytest.fixture(scope="module")
def ctx():
    return load_all()


def _module(ctx, text=STABLEHLO):
    return parse_and_verify(text, "t.mlir", ctx)


# ----------------------------------------------------------------- passes


def test_pass_registry_lists_our_passes():
    passes = get_all_passes()
    assert {"stablehlo-legalize-to-hlo", "hlo-legalize-to-stablehlo"} <= set(passes)
    for name, factory in passes.items():
        assert factory().name == name


def test_legalize_round_trip(ctx):
    module = _module(ctx)
    before = str(module)
    run_pipeline(module, "stablehlo-legalize-to-hlo", ctx)
    hlo_text = str(module)
    assert "stablehlo." not in hlo_text and "hlo.reduce" in hlo_text
    run_pipeline(module, "hlo-legalize-to-stablehlo", ctx)
    assert str(module) == before


def test_legalize_keeps_locations_and_names(ctx):
    module = _module(ctx)
    run_pipeline(module, "stablehlo-legalize-to-hlo", ctx)
    mul = next(op for op in module.walk() if op.name == "hlo.multiply")
    assert (mul.location.line.data, mul.location.column.data) == (3, 8)


def test_attribute_conversion_recurses():
    src, dst = define_attributes("stablehlo"), define_attributes("hlo")
    attr_map = {type(src.precision("DEFAULT")): dst.precision}
    nested = DictionaryAttr({"p": ArrayAttr([src.precision("DEFAULT"), src.precision("HIGH")])})
    converted = convert_attr(nested, attr_map)
    assert [type(a) for a in converted.data["p"].data] == [dst.precision, dst.precision]
    assert [a.data for a in converted.data["p"].data] == ["DEFAULT", "HIGH"]


def test_run_pipeline_with_upstream_pass_and_options(ctx):
    module = _module(ctx)
    run_pipeline(module, "stablehlo-legalize-to-hlo,canonicalize,cse", ctx)
    assert "hlo.select" in str(module)
    with pytest.raises(ValueError, match="nope"):
        run_pipeline(module, "nope", ctx)


def test_universe_plugin():
    from minixla.tools.universe import MINIXLA_UNIVERSE

    assert MINIXLA_UNIVERSE.all_dialects["hlo"]().name == "hlo"
    assert "stablehlo-legalize-to-hlo" in MINIXLA_UNIVERSE.all_passes


# ----------------------------------------------------------------- minixla-opt


def test_opt_pipeline_and_output_file(tmp_path, capsys):
    src, out = tmp_path / "in.mlir", tmp_path / "out.mlir"
    src.write_text(STABLEHLO)
    assert opt_main([str(src), "-p", "stablehlo-legalize-to-hlo", "-o", str(out)]) == 0
    text = out.read_text()
    assert "hlo.reduce" in text and "stablehlo" not in text


def test_opt_print_ir_after_all_goes_to_stderr(tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(STABLEHLO)
    assert opt_main([str(src), "-p", "stablehlo-legalize-to-hlo,cse", "--mlir-print-ir-after-all"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("// -----// IR Dump After") == 2
    assert "IR Dump" not in captured.out


def test_opt_split_output_separators(tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(STABLEHLO + "// -----\n" + STABLEHLO + "// -----\n")
    assert opt_main([str(src), "--split-input-file"]) == 0  # trailing empty chunk is fine
    assert capsys.readouterr().out.count("// -----") == 2


def test_split_input_line_offsets():
    chunks = split_input("a\n// -----\nb\nc\n// ----- trailing\nd\n")
    assert [(c.text, c.line_offset) for c in chunks] == [("a\n", 0), ("b\nc\n", 2), ("d\n", 5)]


def test_opt_console_script_subprocess(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(STABLEHLO)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "minixla.tools.opt", str(src), "-p", "stablehlo-legalize-to-hlo"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "hlo.compare GT" in proc.stdout


# ----------------------------------------------------------------- minixla-run


def _interpreter_available() -> bool:
    try:
        from minixla.backends import get_backend

        get_backend("interpreter")
        return True
    except Exception:  # noqa: BLE001
        return False


needs_interpreter = pytest.mark.skipif(not _interpreter_available(), reason="interpreter backend not available")


@needs_interpreter
def test_run_program_with_npy_inputs(tmp_path, capsys):
    src = tmp_path / "p.mlir"
    src.write_text(STABLEHLO)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.array([10.0, 10.0], dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    assert run_main([str(src), str(tmp_path / "x.npy"), str(tmp_path / "y.npy")]) == 0
    out = capsys.readouterr().out
    expected = np.where((x * x).sum(1) > y, (x * x).sum(1), y)
    assert out.startswith("tensor<2xf32> {\n")
    assert f"[{expected[0]:.6e}, {expected[1]:.6e}]" in out


@needs_interpreter
def test_run_wrong_input_count_is_an_error(tmp_path, capsys):
    src = tmp_path / "p.mlir"
    src.write_text(STABLEHLO)
    assert run_main([str(src)]) == 1
    assert "takes 2 argument(s)" in capsys.readouterr().err


TESTS = """func.func @good() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>
  func.return
}
// -----
func.func @bad() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[2, 2]> : tensor<2xi32>
  func.return
}
// -----
func.func @unparsable() {
  %0 = stablehlo.frobnicate %x : tensor<2xf32>
  func.return
}
"""


@needs_interpreter
def test_run_test_file(tmp_path, capsys):
    src = tmp_path / "t.mlir"
    src.write_text(TESTS)
    assert run_main([str(src), "--split-input-file"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "PASS good"
    assert lines[1].startswith("FAIL bad: check failed")
    assert lines[2].startswith(f"FAIL unparsable: {src}:14:8: error: custom op 'stablehlo.frobnicate'")
    assert lines[-1] == "1 passed, 2 failed"


@needs_interpreter
def test_run_all_passing_exits_zero(tmp_path, capsys):
    src = tmp_path / "t.mlir"
    src.write_text(TESTS.split("// -----")[0])
    assert run_main([str(src), "--split-input-file"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 0 failed"


def test_run_invalid_input_exits_one(tmp_path, capsys):
    src = tmp_path / "t.mlir"
    src.write_text("func.func @main() {\n  %0 = hlo.constant dense<1> : tensor<2xf32\n}\n")
    assert run_main([str(src)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:2:") and "Traceback" not in err


def test_run_unknown_backend(tmp_path, capsys):
    src = tmp_path / "t.mlir"
    src.write_text("func.func @main() {\n  func.return\n}\n")
    assert run_main([str(src), "--backend", "no-such-backend"]) == 1
    assert "no-such-backend" in capsys.readouterr().err


def test_format_result_matches_stablehlo_translate():
    assert format_result(np.array(1, np.uint8), "tensor<ui8>") == "tensor<ui8> {1}"
    assert format_result(np.array([True, False]), "tensor<2xi1>") == "tensor<2xi1> {\n  [true, false]\n}"
    assert format_result(np.array([[1, 2], [3, 4]], np.int8), "tensor<2x2xi8>") == (
        "tensor<2x2xi8> {\n  [\n    [1, 2],\n    [3, 4]\n  ]\n}")
    assert format_result(np.zeros((2, 0), np.int8), "tensor<2x0xi8>") == "tensor<2x0xi8> {\n  [\n    [],\n    []\n  ]\n}"
    assert format_result(np.zeros((0, 2), np.int8), "tensor<0x2xi8>") == "tensor<0x2xi8> {\n  []\n}"
    assert format_result(np.array([1.0, -3.0], np.float16), "tensor<2xf16>") == (
        "tensor<2xf16> {\n  [1.000000e+00, -3.000000e+00]\n}")


# ----------------------------------------------------------------- conformance scope


def test_scope_ops_and_types():
    text = """func.func @t() {
  %0 = stablehlo.constant dense<1> : tensor<2xi3>   // stablehlo.frobnicate in a comment is ignored
  %1 = "stablehlo.frobnicate"(%0) : (tensor<2xi3>) -> tensor<2xcomplex<f32>>
  %2 = stablehlo.compare LT, %0, %0, #stablehlo<comparison_type SIGNED> : (tensor<2xi3>, tensor<2xi3>) -> tensor<2xi1>
  func.return
}"""
    assert conformance.ops_used(text) == {"func.func", "stablehlo.constant", "stablehlo.frobnicate",
                                          "stablehlo.compare", "func.return"}
    assert conformance.element_types(text) == {"i3", "complex<f32>", "i1"}
    assert conformance.scope_reasons(text) == ["op stablehlo.frobnicate", "element type i3"]  # complex is in scope
    assert conformance.case_names(text) == ["t"]


def test_scope_in_scope_case():
    text = TESTS.split("// -----")[0]
    assert conformance.in_scope(text)
    assert not conformance.in_scope(text.replace("i32", "ui3"))
    token = "\n%t = stablehlo.after_all : !stablehlo.token\n"
    assert conformance.in_scope(text + token) and not conformance.in_scope(text + token, backend="cpu")


def test_diagnostic_error_is_one_line_headline():
    err = DiagnosticError("f.mlir", 3, 7, "'hlo.add' op bad", source_line="  %0 = hlo.add")
    assert err.headline == "f.mlir:3:7: error: 'hlo.add' op bad"
    assert str(err).splitlines() == ["f.mlir:3:7: error: 'hlo.add' op bad", "  %0 = hlo.add", "      ^"]


def test_ci_runs_the_readme_commands():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    install = next(line for line in readme.splitlines() if line.startswith("python3 -m venv .venv && "))
    assert "pip install -e '.[test" in install and install.endswith("&& python examples/demo.py")
    for line in (install, ". .venv/bin/activate && python -m pytest -q"):
        assert f"\n{line}\n" in readme and f"\n{line}\n" in ci


def test_registry_covers_the_pass_groups():
    """Passes that other modules list for the global registry are registered."""
    from minixla.passes import lower_to_llvm, pipelines

    assert set(pipelines.PASSES) | set(lower_to_llvm.PASSES) <= set(get_all_passes())
    assert all(cls.name == name for name, cls in pipelines.PASSES.items())


def test_every_registered_pass_loads_by_name():
    """The registry maps names to lazy loaders ("module:Class"): each one loads the pass of that name."""
    from minixla.passes.pipeline import PIPELINES, PLUGIN_PASSES, _split_top_level, expand_spec

    for name, factory in get_all_passes().items():
        if name not in PLUGIN_PASSES:
            assert factory().name == name
    for name in PIPELINES:
        assert {item.split("{")[0] for item in _split_top_level(expand_spec(name))} <= set(available_passes())


def test_named_pipeline_expands():
    from minixla.passes.pipeline import expand_spec

    spec = expand_spec("stablehlo-legalize-to-hlo,hlo-to-cpu")
    assert spec.startswith("stablehlo-legalize-to-hlo,hlo-legalize-structural,hlo-legalize-quant,inline,"
                           "hlo-complex-to-real,hlo-reads-before-updates,convert-hlo-to-linalg,")
    assert expand_spec("a{x=1,2},b") == "a{x=1,2},b"


def test_universe_has_no_name_clash_with_xdsl():
    from xdsl.transforms import get_all_passes as upstream

    from minixla.tools.universe import MINIXLA_UNIVERSE

    assert not set(MINIXLA_UNIVERSE.all_passes) & set(upstream())
    from minixla.passes import get_all_passes

    clashes = set(get_all_passes()) & set(upstream())
    assert not clashes, f"our passes named like xDSL's own: {sorted(clashes)}"
