"""The GPU mapping checked numerically without a GPU: programs compiled by
the `gpu` backend run on the SIMT simulator (tests/backends/gpu/gpu_simt.py: real
barriers, warp shuffles and shared memory over Python threads) and must
match the interpreter. A small launch configuration (64-thread blocks, at
most 2 blocks, 3 partials) makes the grid-stride loops, the two-warp block
reductions and the partials/combine kernels all do real work on tiny inputs."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends.gpu import GpuBackend
from minixla.backends.gpu.plan import np_dtype
from minixla.backends.interpreter import InterpreterBackend
from minixla.dialects import load_all
from minixla.passes.gpu import mapping
from tests.backends.gpu.gpu_cases import CASES
from tests.backends.gpu.gpu_simt import simulate

SIMULATED = ["running_example", "reduce_full_multiblock", "reduce_rows_and_columns", "reduce_argmax_rows",
             "reduce_all_i32", "reduce_max_f64_full", "reduce_and_i1", "dot_general", "elementwise_multiblock",
             "transpose", "concatenate", "pad", "slice", "broadcast_in_dim", "iota", "select_clamp",
             "convert_f32_i32", "convert_i1_f32", "compare_LT_f32_FLOAT", "f32_exponential", "f32_remainder",
             "f64_power", "f16_add", "i8_divide", "dynamic_slice_update", "while", "if", "case", "sort_pairs",
             "gather", "scatter_add", "reduce_window_maxpool", "convolution"]


@pytest.fixture
def small_launches(monkeypatch):
    monkeypatch.setattr(mapping, "BLOCK", 64)
    monkeypatch.setattr(mapping, "MAX_GRID", 2)
    monkeypatch.setattr(mapping, "MAX_PARTIALS", 3)


def run_both(text: str, makers, seed: int = 0):
    rng = np.random.default_rng(seed)
    module = Parser(load_all(), text).parse_module()
    fn = next(op for op in module.ops if op.name == "func.func")
    args = [np.asarray(mk(rng)).astype(np_dtype(t.element_type)) for mk, t in zip(makers, fn.function_type.inputs)]
    exe = GpuBackend(arch="sm_80").compile(module)
    got, dev = simulate(exe, *[np.array(a, copy=True) for a in args])
    want = InterpreterBackend().compile(Parser(load_all(), text).parse_module())(*args)
    return got, want, exe, dev


def assert_match(got, want, rtol):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape
        if w.dtype.kind == "f" or str(w.dtype) == "bfloat16":
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=1e-5,
                                       equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w.astype(g.dtype))


@pytest.mark.parametrize("case", SIMULATED)
def test_simulated_matches_interpreter(case, small_launches):
    text, makers = CASES[case]
    got, want, _, _ = run_both(text, makers)
    assert_match(got, want, rtol=2e-3 if "f16" in case else 1e-4)


def test_running_example_default_launches():
    """The real configuration: 256-thread blocks; the 1536-element reduction
    takes 6 partial blocks and one combine kernel."""
    text, makers = CASES["running_example"]
    got, want, exe, dev = run_both(text, makers)
    assert_match(got, want, rtol=1e-5)
    tags = [exe.kernels_mapping[k.kernel] for k in dev.launches]
    assert tags.count("reduction-partials") == 1 and tags.count("reduction-final") == 1
    part = next(k for k in dev.launches if exe.kernels_mapping[k.kernel] == "reduction-partials")
    assert part.grid == (6, 1, 1) and part.block == (256, 1, 1)


def test_row_reduction_uses_a_block_per_output(small_launches):
    text, makers = CASES["reduce_rows_and_columns"]
    got, want, exe, dev = run_both(text, makers)
    assert_match(got, want, rtol=1e-4)
    tags = sorted(exe.kernels_mapping[k.kernel] for k in dev.launches)
    assert "row-reduction" in tags and "parallel" in tags  # rows cooperative, columns a thread per output


def test_fused_running_example(small_launches):
    from minixla.passes import pipelines

    if not hasattr(pipelines, "HLO_OPTIMIZE"):
        pytest.skip("hlo fusion (passes/pipelines.HLO_OPTIMIZE) is not available")
    text, makers = CASES["running_example"]
    rng = np.random.default_rng(1)
    x, y = (np.asarray(mk(rng), np.float32) for mk in makers)
    exe = GpuBackend(arch="sm_80", optimize=True).compile(Parser(load_all(), text).parse_module())
    (got,), dev = simulate(exe, x, y)
    want = np.mean(x.astype(np.float64) ** 2 * 3 + y)
    assert abs(float(got) - want) <= 1e-5 * abs(want)
    assert [exe.kernels_mapping[k.kernel] for k in dev.launches].count("reduction-partials") == 1
