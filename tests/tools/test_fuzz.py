"""The differential fuzzer (minixla.tools.fuzz): a fixed-seed run finds no mismatch between
the interpreter and the CPU backend, and a deliberately broken CPU lowering is found and
shrunk to a small program that still shows it."""

from __future__ import annotations

import numpy as np
import pytest

from xdsl.parser import Parser

from minixla.dialects import load_all
from minixla.passes.hlo_to_linalg import scalar
from minixla.tools import fuzz


@pytest.mark.parametrize("count, check_bounds", [(150, False), (50, True)])
def test_fixed_seed_programs_agree(count, check_bounds):
    report = fuzz.run(count, seed=2026 + check_bounds, n_ops=8, check_bounds=check_bounds)
    assert report.programs == count
    assert not report.failures, "\n".join(f"seed {s}: {r}\n{t}" for s, r, t in report.failures[:3])


def test_programs_are_well_typed_and_varied():
    ops = []
    for k in range(40):
        program = fuzz.Generator(np.random.default_rng(k), 8).program(k)
        program.module.verify()
        ops += program.ops
    assert len(set(ops)) >= 15  # the op table is exercised, not one op over and over


def test_a_broken_lowering_is_found_and_shrunk(monkeypatch, tmp_path):
    # the disk compile cache keys on compiler sources, not on a table patched at run time
    monkeypatch.setenv("MINIXLA_DISABLE_CACHE", "1")
    table = dict(scalar.SCALAR_OPS)
    saved = table["maximum"]
    table["maximum"] = table["minimum"]  # the CPU now computes min for hlo.maximum
    monkeypatch.setattr(scalar, "SCALAR_OPS", table)
    report = fuzz.run(60, seed=11, n_ops=8, out=tmp_path, check_bounds=False)
    assert report.failures, "the broken lowering went unnoticed"
    seed, reason, text = report.failures[0]
    assert text.count(" = hlo.") <= 3  # shrunk to a few ops ...
    assert "hlo.maximum" in text or "hlo.clamp" in text  # ... that use the broken scalar maximum
    module = Parser(load_all(), text).parse_module()
    assert fuzz.mismatch(module, seed, check_bounds=False) is not None  # the written repro still fails
    monkeypatch.setattr(scalar, "SCALAR_OPS", dict(table, maximum=saved))
    assert fuzz.mismatch(module, seed, check_bounds=False) is None  # and passes once the lowering is right again
    assert (tmp_path / f"fuzz-{seed}.mlir").read_text().startswith(f"// minixla fuzz seed {seed}")


def test_random_tf_programs_agree_eager_jit_numpy():
    from minixla.tools import fuzz_tf

    report = fuzz_tf.run(40, seed=2026)
    assert report.programs == 40
    assert not report.failures, report.failures[:3]


def test_a_broken_eager_op_is_found(monkeypatch):
    from minixla.tools import fuzz_tf

    monkeypatch.setitem(fuzz_tf.UNARY, "square", (lambda tf, x: tf.abs(x), fuzz_tf.UNARY["square"][1]))
    report = fuzz_tf.run(60, seed=1)
    assert any("square" in [name for name, _ in steps] for _, _, steps in report.failures)


def test_structured_ops_are_generated():
    names = set()
    for k in range(60):
        names.update(fuzz.Generator(np.random.default_rng(k), 10).program(k).ops)
    assert {"while", "if", "case", "gather", "scatter", "dynamic_slice", "dynamic_update_slice", "convolution",
            "reduce_window", "sort"} <= names
