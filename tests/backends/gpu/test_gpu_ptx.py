"""Every GPU lowering is valid PTX: each case of tests/backends/gpu/gpu_cases.py (one per
core-op lowering of the CPU pipeline, plus the running example) goes through
`hlo-to-gpu`, llvmlite's NVPTX target and `ptxas` for sm_80 and sm_90."""

from __future__ import annotations

import re

import pytest
from xdsl.parser import Parser

from minixla.backends.gpu.target import ptxas, ptxas_path
from minixla.backends.gpu.translate import translate_to_ptx
from minixla.dialects import load_all
from minixla.passes import run_pipeline
from tests.backends.gpu.gpu_cases import CASES

ARCHS = ("sm_80", "sm_90")
needs_ptxas = pytest.mark.skipif(ptxas_path() is None, reason="ptxas (CUDA toolkit) is not on PATH")


def lower(text: str):
    m = Parser(load_all(), text).parse_module()
    return run_pipeline(m, "hlo-to-gpu")


@needs_ptxas
@pytest.mark.parametrize("case", sorted(CASES))
def test_ptxas_accepts(case):
    module = lower(CASES[case][0])
    launched = {op.kernel.nested_references.data[-1].data for op in module.walk() if op.name == "gpu.launch_func"}
    for arch in ARCHS:
        ptx = translate_to_ptx(module, arch)
        assert f".target {arch}" in ptx
        entries = set(re.findall(r"\.entry\s+(\w+)\(", ptx))
        assert launched <= entries, f"kernels without .entry: {launched - entries}"
        ptxas(ptx, arch)  # raises GpuToolchainError with ptxas's diagnostics


@needs_ptxas
def test_running_example_uses_block_reductions():
    """Full reduction = partial kernel (shuffles + shared memory + barrier) and a combine kernel."""
    module = lower(CASES["running_example"][0])
    ptx = translate_to_ptx(module, "sm_90")
    for needle in ("shfl.sync.down.b32", "bar.sync", "st.shared", "ld.shared", "%tid.x", "%ctaid.x"):
        assert needle in ptx, needle
    ptxas(ptx, "sm_90")


def test_ptxas_reports_errors():
    if ptxas_path() is None:
        pytest.skip("ptxas (CUDA toolkit) is not on PATH")
    from minixla.backends.gpu.target import GpuToolchainError

    with pytest.raises(GpuToolchainError, match="ptxas -arch=sm_80 rejected"):
        ptxas(".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k() { bogus; }\n", "sm_80")


@needs_ptxas
def test_fused_running_example_is_one_reduction_pass():
    """With hlo fusion (when available) the running example reads x and y
    once: a serial init, one partials kernel, one combine kernel."""
    from minixla.passes import pipelines

    if not hasattr(pipelines, "HLO_OPTIMIZE"):
        pytest.skip("hlo fusion (passes/pipelines.HLO_OPTIMIZE) is not available")
    from minixla.passes.gpu.pipelines import hlo_to_gpu

    module = run_pipeline(Parser(load_all(), CASES["running_example"][0]).parse_module(), hlo_to_gpu(optimize=True))
    kinds = [op.attributes["minixla.gpu_mapping"].data for op in module.walk()
             if op.name == "llvm.func" and "minixla.gpu_mapping" in op.attributes]
    assert kinds.count("parallel") == 0 and kinds.count("reduction-partials") == 1, kinds
    for arch in ARCHS:
        ptxas(translate_to_ptx(module, arch), arch)
