"""The tutorial plugin end to end: syntax and verifier (chapter 1), the fold (2), the lowering
run on minixla's interpreter and CPU against numpy (3), discovery through entry points (4), and
the toy-trace backend (5)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from minixla.backends import get_backend
from minixla.dialects import load_all
from minixla.passes import get_all_passes, run_pipeline

PROGRAM = """func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %a = toy.scale %x by 2.0 : tensor<5xf32>
  %b = toy.scale %a by 0.25 : tensor<5xf32>
  %c = toy.clamp %b between -1.0 and 1.0 : tensor<5xf32>
  func.return %c : tensor<5xf32>
}"""


def parse(text: str):
    module = Parser(load_all(), text).parse_module()
    module.verify()
    return module


def test_syntax_round_trips():
    module = parse(PROGRAM)
    assert str(parse(str(module))) == str(module)
    assert "toy.clamp %b between -1.0 and 1.0 : tensor<5xf32>" in str(module)


def test_verifier_rejects_bad_ops():
    with pytest.raises(VerifyException, match="lo <= hi"):
        parse("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
              "  %c = toy.clamp %x between 2.0 and 1.0 : tensor<2xf32>\n  func.return %c : tensor<2xf32>\n}")
    with pytest.raises(VerifyException, match="tensor of floats"):
        parse("func.func @f(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
              "  %c = toy.scale %x by 2.0 : tensor<2xi32>\n  func.return %c : tensor<2xi32>\n}")


def test_fold_scales():
    module = parse(PROGRAM)
    run_pipeline(module, "toy-fold-scales")
    assert str(module).count("toy.scale") == 1 and "by 0.5" in str(module)


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_lowered_program_runs_on_minixla_backends(backend):
    module = parse(PROGRAM)
    run_pipeline(module, "toy-fold-scales,convert-toy-to-hlo")
    x = np.array([-9.0, -1.0, 0.5, 3.0, 100.0], np.float32)
    (out,) = get_backend(backend).compile(module, "main")(x)
    np.testing.assert_allclose(out, np.clip(x * 0.5, -1.0, 1.0))


def test_entry_points_make_minixla_find_the_plugin():
    assert {"toy-fold-scales", "convert-toy-to-hlo"} <= set(get_all_passes())
    assert "toy" in load_all().registered_dialect_names


def test_toy_trace_backend_profiles_ops():
    module = parse(PROGRAM)
    run_pipeline(module, "convert-toy-to-hlo")
    backend = get_backend("toy-trace")
    x = np.linspace(-3, 3, 5).astype(np.float32)
    (out,) = backend.compile(module, "main")(x)
    np.testing.assert_allclose(out, np.clip(x * 0.5, -1, 1))
    assert backend.profile["hlo.multiply"] == 2 and backend.profile["hlo.clamp"] == 1
