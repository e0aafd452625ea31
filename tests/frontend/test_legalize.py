"""tf-legalize-to-hlo on parsed `tf` dialect text, run on the interpreter."""

from __future__ import annotations
from tests.paths import REPO_ROOT

import subprocess
import sys

import numpy as np
from xdsl.parser import Parser

from minixla.backends.registry import get_backend
from minixla.dialects import load_all
from minixla.passes.tf_legalize_to_hlo import TfLegalizeToHlo
from minixla.frontend.passes import PASSES

ROOT = REPO_ROOT

TEXT = """
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<f32> {
  %c2 = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
  %p = "tf.Pow"(%x, %c2) {device = ""} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %c3 = "tf.Const"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %m = "tf.Mul"(%p, %c3) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %s = "tf.AddV2"(%m, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %axes = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %r = "tf.Mean"(%s, %axes) {device = "", keep_dims = false} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
"""


def _parse(text):
    ctx = load_all()  # registers the tf dialects lazily
    return ctx, Parser(ctx, text).parse_module()


def test_pass_on_tf_mlir_text_runs_on_interpreter():
    ctx, module = _parse(TEXT)
    module.verify()
    TfLegalizeToHlo().apply(ctx, module)
    module.verify()
    assert '"tf.' not in str(module)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.ones((2, 3), np.float32)
    (got,) = get_backend("interpreter").compile(module)(x, y)
    np.testing.assert_allclose(got, np.mean(x.astype(np.float64) ** 2 * 3 + y), rtol=1e-6)


def test_passes_table_for_the_registry():
    assert PASSES == {"tf-legalize-to-hlo": TfLegalizeToHlo}


def test_minixla_opt_runs_the_pass(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(TEXT)
    proc = subprocess.run([sys.executable, "-m", "minixla.tools.opt", str(src), "-p", "tf-legalize-to-hlo"], cwd=ROOT,
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert "hlo.reduce" in proc.stdout and '"tf.' not in proc.stdout
