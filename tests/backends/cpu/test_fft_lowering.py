"""hlo.fft compiled for CPU (kernel calls from `bufferize`, passes/bufferize/fft.py) against the
reference interpreter (numpy.fft): views as operands, operands still used afterwards, multi-axis
IRFFT through its scratch, and a large power of two through the whole backend."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.backends.cpu.backend import CpuBackend
from minixla.backends.interpreter import InterpreterBackend
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify

CTX = load_all()


def _both(text: str, *args):
    cpu = CpuBackend().compile(parse_and_verify(text, "<cpu>", CTX))(*[a.copy() for a in args])
    ref = InterpreterBackend().compile(parse_and_verify(text, "<ref>", CTX))(*[a.copy() for a in args])
    return cpu, ref


def _close(got, want, tol):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.abs(got.astype(np.complex128) - want).max() <= tol * np.abs(want).max()


@pytest.mark.parametrize("fty,tol", [("f32", 2e-6), ("f64", 1e-14)])
def test_slice_operand_and_reuse_after(fty, tol):
    """RFFT of a strided slice (copied to a dense buffer first), then FFT of a value that is used
    again afterwards (the kernel must not clobber it), then IRFFT back over two axes (scratch)."""
    c = f"complex<{fty}>"
    text = f"""func.func @main(%x: tensor<6x10x{fty}>) -> (tensor<4x6x{c}>, tensor<4x6x{c}>, tensor<4x10x{fty}>) {{
  %s = hlo.slice %x [1:5, 0:10] : (tensor<6x10x{fty}>) -> tensor<4x10x{fty}>
  %r = hlo.fft %s, type = RFFT, length = [10] : (tensor<4x10x{fty}>) -> tensor<4x6x{c}>
  %f = hlo.fft %r, type = FFT, length = [4, 6] : (tensor<4x6x{c}>) -> tensor<4x6x{c}>
  %b = hlo.fft %r, type = IRFFT, length = [4, 10] : (tensor<4x6x{c}>) -> tensor<4x10x{fty}>
  func.return %f, %r, %b : tensor<4x6x{c}>, tensor<4x6x{c}>, tensor<4x10x{fty}>
}}"""
    x = np.random.default_rng(0).standard_normal((6, 10)).astype(np.float32 if fty == "f32" else np.float64)
    got, want = _both(text, x)
    for g, w in zip(got, want):
        _close(g, w, tol)
    np.testing.assert_allclose(want[1], np.fft.rfft(x[1:5].astype(np.float64)), rtol=tol * 10, atol=tol * 100)


def test_large_power_of_two_and_bluestein_through_the_backend():
    rng = np.random.default_rng(1)
    for n in (1 << 16, 3 * 7 * 11 * 13):
        t = f"tensor<{n}xcomplex<f32>>"
        text = (f"func.func @main(%x: {t}) -> {t} {{\n  %0 = hlo.fft %x, type = IFFT, length = [{n}] : ({t}) -> {t}\n"
                f"  func.return %0 : {t}\n}}")
        x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
        (got,), (want,) = _both(text, x)
        _close(got, want, 4e-6)


def test_gpu_pipeline_rejects_fft_with_its_location(tmp_path, capsys):
    """On the GPU path the CPU kernel's call would land inside a device kernel: a clear error instead."""
    from minixla.tools.opt import main as opt_main

    path = tmp_path / "fft.mlir"
    t = "tensor<8xcomplex<f32>>"
    path.write_text(f"func.func @main(%x: {t}) -> {t} {{\n  %0 = hlo.fft %x, type = FFT, length = [8] : ({t}) -> {t}\n"
                    f"  func.return %0 : {t}\n}}\n")
    assert opt_main([str(path), "-p", "hlo-to-gpu"]) != 0
    err = capsys.readouterr().err
    assert f"@minixla_fft_c64 is the CPU FFT kernel (from 'hlo.fft' op at {path}:2:8)" in err, err
