"""The `gpu` backend end to end. Without a GPU: it is registered, compiles
to PTX, builds a host plan, and calling raises GpuUnavailableError naming
what is missing. With a GPU (probe: the CUDA driver through cuda-python)
the op suite runs on the device and matches the interpreter; otherwise
those tests skip with the probe's reason."""

from __future__ import annotations
from tests.paths import REPO_ROOT

import subprocess
import sys

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends.gpu import GpuBackend, GpuUnavailableError, gpu_available
from minixla.backends.gpu.plan import Launch, np_dtype
from minixla.backends.interpreter import InterpreterBackend
from minixla.backends.registry import available_backends, get_backend
from minixla.dialects import load_all
from tests.backends.gpu.gpu_cases import CASES

ROOT = REPO_ROOT
HAVE_GPU, WHY = gpu_available()
needs_gpu = pytest.mark.skipif(not HAVE_GPU, reason=f"no CUDA GPU: {WHY}")


def parse(text: str):
    return Parser(load_all(), text).parse_module()


def test_registered_and_compiles_without_a_gpu():
    assert "gpu" in available_backends()
    backend = get_backend("gpu")
    assert isinstance(backend, GpuBackend)
    exe = backend.compile(parse(CASES["running_example"][0]))
    assert ".entry main_kernel_0" in exe.ptx and ".target sm_" in exe.ptx
    assert all(isinstance(step, Launch) for step in exe.plan.launches)
    assert [t.get_shape() for t in exe.plan.inputs] == [(32, 48), (32, 48)]
    assert [t.get_shape() for t in exe.plan.outputs] == [()]


@pytest.mark.skipif(HAVE_GPU, reason="a GPU is present")
def test_calling_without_a_gpu_raises_a_clear_error():
    exe = GpuBackend().compile(parse(CASES["f32_add"][0]))
    with pytest.raises(GpuUnavailableError, match="cuda-python|driver|device"):
        exe(np.ones(6, np.float32), np.ones(6, np.float32))


def test_ptx_for_another_arch():
    exe = GpuBackend(arch="sm_80").compile(parse(CASES["f32_add"][0]))
    assert ".target sm_90" in exe.ptx_for("sm_90") and exe.ptx_for("sm_80") is exe.ptx


def test_mlir_to_ptx_cli(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(CASES["reduce_full_multiblock"][0])
    env_py = [sys.executable, "-m"]
    lowered = subprocess.run([*env_py, "minixla.tools.opt", str(src), "-p", "hlo-to-gpu"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    out = subprocess.run([*env_py, "minixla.tools.translate", "--mlir-to-ptx", "--gpu-arch", "sm_90", "-"], cwd=ROOT,
                         input=lowered, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert ".target sm_90" in out.stdout and "shfl.sync.down" in out.stdout
    ir = subprocess.run([*env_py, "minixla.tools.translate", "--mlir-to-nvptx-llvmir", "-"], cwd=ROOT, input=lowered,
                        capture_output=True, text=True, check=True).stdout
    assert 'target triple = "nvptx64-nvidia-cuda"' in ir and "define ptx_kernel void" in ir
    assert "addrspace(3) global" in ir and "llvm.nvvm.barrier0" in ir
    bad = subprocess.run([*env_py, "minixla.tools.translate", "--mlir-to-ptx", str(src)], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 1 and "hlo-to-gpu" in bad.stderr


# --- on a GPU ----------------------------------------------------------------------------


def _inputs(text, makers, seed=0):
    rng = np.random.default_rng(seed)
    fn = next(op for op in parse(text).ops if op.name == "func.func")
    return [np.asarray(mk(rng)).astype(np_dtype(t.element_type)) for mk, t in zip(makers, fn.function_type.inputs)]


@needs_gpu
@pytest.mark.parametrize("case", sorted(CASES))
def test_op_suite_on_gpu_matches_interpreter(case):
    text, makers = CASES[case]
    args = _inputs(text, makers)
    got = get_backend("gpu").compile(parse(text))(*[a.copy() for a in args])
    want = InterpreterBackend().compile(parse(text))(*args)
    for g, w in zip(got, want):
        w = np.asarray(w)
        if w.dtype.kind == "f" or str(w.dtype) == "bfloat16":
            tol = 2e-3 if w.dtype.itemsize <= 2 else 1e-4
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol, atol=1e-5,
                                       equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w.astype(g.dtype))


@needs_gpu
def test_running_example_large_on_gpu():
    n = 2048
    text = CASES["running_example"][0].replace("32x48", f"{n}x{n}").replace("1536.0", f"{float(n * n)}")
    rng = np.random.default_rng(0)
    x, y = (rng.random((n, n), dtype=np.float32) for _ in range(2))
    exe = get_backend("gpu").compile(parse(text))
    got = float(exe(x, y)[0])
    want = float(np.mean(x.astype(np.float64) ** 2 * 3 + y))
    assert abs(got - want) / abs(want) < 1e-5
