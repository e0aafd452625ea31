"""A first compile imports what it uses and no more (docs/compile-time.md, "Session 9: imports"):
fresh processes, checked through `sys.modules` after the compile ran and gave numpy's answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: never imported by a CPU compile: other backends and pipelines, other frameworks, the plugin
#: metadata machinery (dialects/plugins.py reads entry points itself), dialects only tools parse
NEVER = ("minixla.backends.gpu", "minixla.passes.gpu", "minixla.backends.cpu.aot", "mpi4py", "jax", "tensorflow",
         "importlib.metadata", "minixla.dialects.stablehlo", "minixla.dialects.nvvm", "minixla.dialects.check",
         "minixla.tools", "xdsl.dialects.gpu", "xdsl.interpreter")

BACKEND_COMPILE = """
import numpy as np
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.backends import get_backend
text = '''func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %a, %b : tensor<4xf32>
  %1 = hlo.multiply %0, %a : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}'''
a, b = np.arange(4, dtype=np.float32), np.full(4, 0.5, np.float32)
(out,) = get_backend("cpu").compile(parse_and_verify(text, "f.mlir", load_all()), "main")(a, b)
RESULT = [out.tolist(), ((a + b) * a).tolist()]
"""

TF_FUNCTION = """
import numpy as np
from minixla import tf
f = tf.function(lambda x, y: tf.reduce_sum(x * y + 1.0), jit_compile=True)
x, y = np.arange(8, dtype=np.float32), np.full(8, 2.0, np.float32)
RESULT = [float(f(tf.constant(x), tf.constant(y))), float((x * y + 1.0).sum())]
"""

FOLD = """
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
import minixla.backends
from minixla.passes import run_pipeline
text = '''func.func @main() -> tensor<2xf32> {
  %a = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = hlo.add %a, %a : tensor<2xf32>
  func.return %b : tensor<2xf32>
}'''
m = parse_and_verify(text, "f.mlir", load_all())
before = "minixla.backends.interpreter" in sys.modules
run_pipeline(m, "hlo-constant-fold")
RESULT = [before, [op.name for op in m.walk() if op.name.startswith("hlo.")]]
"""


def _run(body: str) -> tuple[object, set[str]]:
    code = ("import json, sys\n" + body +
            "\nprint(json.dumps([RESULT, sorted(sys.modules)]))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT), MINIXLA_CACHE_DIR="off")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    result, modules = json.loads(out.stdout.strip().splitlines()[-1])
    return result, set(modules)


def _imported(modules: set[str], names) -> list[str]:
    return [n for n in names if n in modules or any(m.startswith(n + ".") for m in modules)]


def test_a_backend_compile_imports_neither_interpreter_nor_frontend_nor_other_backends():
    (got, want), modules = _run(BACKEND_COMPILE)
    assert got == want
    assert "minixla.backends.cpu.compiler" in modules  # (the probe sees what was imported)
    assert _imported(modules, NEVER + ("minixla.backends.interpreter", "minixla.frontend")) == []


def test_a_tf_function_first_call_imports_no_keras_and_nothing_it_never_needs():
    (got, want), modules = _run(TF_FUNCTION)
    assert got == want
    assert _imported(modules, NEVER + ("minixla.frontend.keras",)) == []


#: loaded only by programs that use them (docs/compile-time.md, "Session 10: imports of a first compile"):
#: hlo -> linalg families other than the fused elementwise path, the collectives' segmenting, the narrow
#: float codec
LAZY = tuple(f"minixla.passes.hlo_to_linalg.{family}" for family in (
    "contraction", "control", "fft", "indexing", "reduce_precision", "rng", "sort", "triangular", "im2col")) + (
    "minixla.backends.cpu.collectives", "minixla.passes.lower_to_llvm.narrow_float_codec")

RUNNING_EXAMPLE = """
import numpy as np
from minixla import tf
f = tf.function(lambda x, y: tf.reduce_mean(tf.multiply(x ** 2, 3) + y), jit_compile=True)
x, y = np.linspace(0, 1, 64, dtype=np.float32).reshape(8, 8), np.full((8, 8), 0.5, np.float32)
RESULT = [float(f(tf.constant(x), tf.constant(y))), float(np.mean(x.astype(np.float64) ** 2 * 3 + y))]
"""


def test_the_running_example_imports_only_the_lowerings_it_uses():
    (got, want), modules = _run(RUNNING_EXAMPLE)
    assert abs(got - want) <= 1e-6 * abs(want)
    assert "minixla.passes.hlo_to_linalg.fusion" in modules  # (the probe sees the lowering ran)
    assert _imported(modules, NEVER + LAZY) == []


def test_the_constant_folder_loads_the_interpreter_when_it_first_folds():
    (before, ops), modules = _run(FOLD)
    assert before is False and "minixla.backends.interpreter" in modules
    assert "hlo.add" not in ops and "hlo.constant" in ops  # the add of constants folded


def test_tf_keras_and_its_aliases_load_on_first_use():
    code = ("import sys\nfrom minixla import tf\nbefore = 'minixla.frontend.keras' in sys.modules\n"
            "listed = {'keras', 'losses', 'metrics', 'optimizers', 'initializers'} <= set(dir(tf))\n"
            "from minixla.frontend import keras\n"
            "RESULT = [before, listed, tf.keras is keras, tf.losses is keras.losses, tf.metrics is keras.metrics,"
            " tf.optimizers is keras.optimizers, tf.initializers is keras.initializers]\n")
    result, _ = _run(code)
    assert result == [False, True, True, True, True, True, True]


def test_minixla_opt_imports_the_frontend_only_for_tf_input():
    hlo = ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = hlo.add %a, %a : tensor<2xf32>\n"
           "  func.return %0 : tensor<2xf32>\n}\n")
    tf = ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
          '  %0 = "tf.AddV2"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n'
          "  func.return %0 : tensor<2xf32>\n}\n")
    results = []
    for text, spec in ((hlo, "canonicalize"), (tf, "tf-legalize-to-hlo")):
        code = ("import atexit, sys\n"
                "atexit.register(lambda: print('FRONTEND', 'minixla.frontend' in sys.modules, file=sys.stderr))\n"
                "from minixla.tools.opt import main\n"
                f"sys.argv = ['minixla-opt', '-p', {spec!r}]\nsys.exit(main())\n")
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, input=text, capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True)
        results.append((proc.stdout, "FRONTEND True" in proc.stderr))
    (hlo_out, hlo_frontend), (tf_out, tf_frontend) = results
    assert "hlo.add" in hlo_out and not hlo_frontend
    assert "hlo.add" in tf_out and "tf.AddV2" not in tf_out and tf_frontend


def test_a_backend_compile_from_the_disk_cache_imports_no_emitter(tmp_path):
    """The cache key says whether the direct emitter is on (hooks.direct_llvm_enabled) without importing
    it: a compile served from the disk cache emits nothing."""
    code = ("import json, sys\n" + BACKEND_COMPILE + "\nprint(json.dumps([RESULT, sorted(sys.modules)]))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT), MINIXLA_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                           check=True) for _ in range(2)]
    (first, first_modules), (second, second_modules) = (json.loads(r.stdout.strip().splitlines()[-1]) for r in runs)
    assert first[0] == first[1] and second[0] == second[1]
    emitter = ("minixla.backends.cpu.emit_llvm_module", "minixla.backends.cpu.emit_llvm")
    assert _imported(set(first_modules), emitter) == list(emitter)  # (the probe sees a real compile)
    assert _imported(set(second_modules), emitter) == []
