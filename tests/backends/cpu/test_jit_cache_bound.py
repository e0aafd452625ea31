"""The in-memory JIT cache (backends/cpu/jit.py) keeps only the MINIXLA_JIT_CACHE_ENTRIES most
recently used modules, so a process compiling many distinct programs does not keep every engine;
functions compiled from an evicted module keep working (they own their module)."""

import numpy as np

from minixla.backends import get_backend
from minixla.backends.cpu import jit
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify

PROGRAM = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = hlo.constant dense<{value}> : tensor<4xf32>
  %y = hlo.add %x, %c : tensor<4xf32>
  func.return %y : tensor<4xf32>
}
"""


def test_cache_keeps_the_most_recent_modules_and_evicted_functions_still_run(monkeypatch):
    monkeypatch.setenv("MINIXLA_JIT_CACHE_ENTRIES", "3")
    monkeypatch.setenv("MINIXLA_DISABLE_CACHE", "1")
    jit.clear_cache()
    cpu = get_backend("cpu")
    x = np.arange(4, dtype=np.float32)
    compiled = []
    for i in range(7):
        text = PROGRAM.replace("{value}", f"{i}.5")
        compiled.append(cpu.compile(parse_and_verify(text, "prog.mlir", load_all()), "main"))
        assert len(jit._CACHE) <= 3
    for i, fn in enumerate(compiled):  # the first four were evicted from the cache
        np.testing.assert_array_equal(fn(x)[0], x + i + 0.5)
    jit.clear_cache()
