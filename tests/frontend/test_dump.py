"""XLA_FLAGS=--xla_dump_to=DIR: the stages and the IR after every pass of
every compile (XLA's per-pass file names), and nothing printed without it."""

from __future__ import annotations

import re

import numpy as np
import pytest

from minixla.frontend import compiler, tf

PER_PASS = re.compile(r"module_(\d{4})\.(.+)\.(\d{4})\.(hlo-optimize|cpu)\.after_(.+)\.txt")


def _compile_two(tmp_path, monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", f"--xla_dump_to={tmp_path}")
    monkeypatch.delenv("MINIXLA_TF_BACKEND", raising=False)
    f = tf.function(lambda x: tf.reduce_sum(x * 2.0 + 1.0), jit_compile=True)
    np.testing.assert_allclose(f(tf.ones([3])).numpy(), 9.0)
    g = tf.function(lambda x: tf.nn.relu(x) - 1.0, jit_compile=True)
    np.testing.assert_array_equal(g(tf.constant([-1.0, 2.0])).numpy(), [-1.0, 1.0])
    return sorted(p.name for p in tmp_path.iterdir())


def test_dump_after_every_pass(tmp_path, monkeypatch):
    from minixla.backends.registry import available_backends

    if "cpu" not in available_backends():
        pytest.skip("the CPU backend is not available")
    from minixla.backends.cpu.compiler import build_pipeline
    from minixla.backends.cpu.blas import cpu_pipeline

    names = _compile_two(tmp_path, monkeypatch)
    per_pass = [PER_PASS.fullmatch(n) for n in names]
    by_module: dict[str, list] = {}
    for m in filter(None, per_pass):
        by_module.setdefault(m.group(1), []).append(m)
    assert len(by_module) == 2  # one numbered set per compile
    n_cpu = len(build_pipeline(cpu_pipeline()).passes)  # hlo all the way to the llvm dialect
    for module_id, ms in by_module.items():
        steps = sorted(int(m.group(3)) for m in ms)
        assert steps == list(range(1, len(steps) + 1))  # consecutive, in pass order
        cpu = sorted((m for m in ms if m.group(4) == "cpu"), key=lambda m: int(m.group(3)))
        assert len(cpu) == n_cpu
        assert any(n.startswith(f"module_{module_id}.") and n.endswith(".tf.txt") for n in names)
        last = (tmp_path / cpu[-1].group(0)).read_text()
        assert "llvm." in last and "hlo." not in last
        first = (tmp_path / cpu[0].group(0)).read_text()
        assert first != last


def test_no_flag_prints_nothing(tmp_path, monkeypatch):
    """Without the flag (and the disk cache, whose key is the printed module) no IR is printed."""
    monkeypatch.delenv("XLA_FLAGS", raising=False)
    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")

    def no_print(module):
        raise AssertionError("IR printed without --xla_dump_to")

    monkeypatch.setattr(compiler, "print_module", no_print)
    f = tf.function(lambda x: x * 3.0 - 1.0, jit_compile=True)
    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0])).numpy(), [2.0, 5.0])
    assert list(tmp_path.iterdir()) == []
