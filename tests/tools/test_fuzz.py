"""The differential fuzzer (minixla.tools.fuzz): a fixed-seed run finds no mismatch between
the interpreter and the CPU backend, and a deliberately broken CPU lowering is found and
shrunk to a small program that still shows it."""

from __future__ import annotations

import numpy as np
import pytest

from xdsl.parser import Parser

from minixla.dialects import load_all
from minixla.passes.hlo_to_linalg import scalar
from minixla.backends import get_backend
from minixla.tools import fuzz


# CI's share (the suite's 20-minute budget); the recorded 10,000-program runs are in docs/fuzzing.md
@pytest.mark.parametrize("count, check_bounds", [(100, False), (20, True)])
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
    report = fuzz.run(60, seed=11, n_ops=8, out=tmp_path, check_bounds=False, max_failures=1)
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


def test_structured_ops_are_generated():
    names = set()
    for k in range(60):
        names.update(fuzz.Generator(np.random.default_rng(k), 10).program(k).ops)
    assert {"while", "if", "case", "gather", "scatter", "dynamic_slice", "dynamic_update_slice", "convolution",
            "reduce_window", "sort"} <= names


def test_numeric_edges_and_every_dtype_are_generated():
    names, types = set(), set()
    for k in range(200):
        program = fuzz.Generator(np.random.default_rng(k), 10).program(k)
        program.module.verify()
        names.update(program.ops)
        types.update(str(a.type) for a in program.module.walk() for a in a.results)
    assert {"divide", "remainder", "shift_left", "shift_right_logical", "shift_right_arithmetic",
            "bitcast_convert"} <= names
    for element in ("xbf16>", "xi16>", "xui16>", "xui64>", "xf16>", "xi1>"):
        assert any(t.endswith(element) for t in types), element


def test_integer_edges_agree_with_the_interpreter():
    """x / 0, x % 0, INT_MIN / -1 and shifts past the bit width, each with XLA's defined result,
    through fuzz.mismatch (interpreter vs checked CPU code), and the interpreter against the spec."""
    text = """
    func.func @main(%x: tensor<5xi8>, %s: tensor<5xui32>) -> (tensor<5xi8>, tensor<5xi8>, tensor<5xui32>, tensor<5xi8>) {
      %z = hlo.constant dense<[0, 0, -1, -1, 3]> : tensor<5xi8>
      %m = hlo.constant dense<[-128, 7, -128, 5, -128]> : tensor<5xi8>
      %d = hlo.divide %x, %z : tensor<5xi8>
      %r = hlo.remainder %m, %z : tensor<5xi8>
      %w = hlo.constant dense<[0, 31, 32, 33, 100]> : tensor<5xui32>
      %l = hlo.shift_right_logical %s, %w : tensor<5xui32>
      %b = hlo.constant dense<[0, 7, 8, 9, 100]> : tensor<5xi8>
      %a = hlo.shift_right_arithmetic %m, %b : tensor<5xi8>
      func.return %d, %r, %l, %a : tensor<5xi8>, tensor<5xi8>, tensor<5xui32>, tensor<5xi8>
    }
    """
    module = Parser(load_all(), text).parse_module()
    assert fuzz.mismatch(module, seed=3) is None  # the CPU agrees with the interpreter ...
    x, s = fuzz.inputs_for([a.type for a in module.body.block.first_op.body.block.args], 3)
    d, r, lsr, asr = get_backend("interpreter").compile(module, "main")(x, s)
    z, m = np.array([0, 0, -1, -1, 3], np.int8), np.array([-128, 7, -128, 5, -128], np.int8)
    with np.errstate(all="ignore"):  # ... and both follow the spec (numpy's C semantics, made total)
        want_d = np.where(z == 0, -1, np.where((x == -128) & (z == -1), -128, np.trunc(x / np.where(z == 0, 1, z))))
        want_r = np.where(z == 0, m, np.where(z == -1, 0, np.fmod(m, np.where(z == 0, 1, z))))
    w, b = np.array([0, 31, 32, 33, 100], np.uint64), np.array([0, 7, 8, 9, 100])
    np.testing.assert_array_equal(d, want_d.astype(np.int8))
    np.testing.assert_array_equal(r, want_r.astype(np.int8))
    np.testing.assert_array_equal(lsr, np.where(w >= 32, 0, s.astype(np.uint64) >> np.minimum(w, 31)).astype(np.uint32))
    np.testing.assert_array_equal(asr, (m.astype(np.int64) >> np.minimum(b, 63)).astype(np.int8))


def test_tf_failures_are_shrunk_to_the_broken_op(monkeypatch):
    from minixla.tools import fuzz_tf

    monkeypatch.setitem(fuzz_tf.UNARY, "square", (lambda tf, x: tf.abs(x), fuzz_tf.UNARY["square"][1]))
    integer_plans = 0
    for k in range(40):
        plan = fuzz_tf.Plan(np.random.default_rng(k * 1_000_003), 6)  # run(1, seed=k)'s program
        integer_plans += plan.dtype == np.int32
        if any(s[0] == "square" for s in plan.steps) and fuzz_tf.mismatch(plan) is not None:
            small = fuzz_tf.shrink(plan)
            real = [s[0] for s in small.steps if s[0] != "const"]
            assert "square" in real and len(real) <= 2, real  # the broken op (and at most the output step)
            assert fuzz_tf.mismatch(small) is not None
            break
    else:
        pytest.fail("no failing plan among 40")
    assert integer_plans  # int32 programs are drawn too
    report = fuzz_tf.run(1, seed=k)  # and run() reports it, shrunk
    assert report.failures and "square" in [name for name, _ in report.failures[0][2]]
