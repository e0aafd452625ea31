"""The compiled FFT kernel (backends/cpu/fft_codegen.py) against numpy.fft (pocketfft): powers of two
(radix 2), other lengths (Bluestein), batched lines on both sides of the axis, every kind, f32 and f64."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from minixla.backends.cpu.fft import SYMBOLS, fft_nd, kernel_addresses
from minixla.passes.fft_plan import FFT, IFFT, KINDS, plan

LENGTHS = [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 31, 64, 100, 127, 128, 1000, 1024, 4097]
#: error bound relative to the largest output magnitude (radix 2 and Bluestein both grow like log n)
TOL = {np.complex64: 2e-6, np.complex128: 1e-14}
SIG = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                       ctypes.c_int64, ctypes.c_int32)


def _random(shape, dtype, rng):
    x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _close(got, want, dtype, scale=1.0):
    err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
    assert err <= TOL[dtype] * scale, err


def _kernel(dtype):
    return SIG(kernel_addresses()["minixla_fft_c64" if dtype == np.complex64 else "minixla_fft_c128"])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft_and_ifft_every_length_batched(dtype):
    rng = np.random.default_rng(1)
    fn = _kernel(dtype)
    for n in LENGTHS:
        x = _random((3, n), dtype, rng)
        want = np.fft.fft(x.astype(np.complex128), axis=-1)
        y = np.full_like(x, np.nan)
        assert fn(x.ctypes.data, y.ctypes.data, 3, n, 1, FFT) == 0
        _close(y, want, dtype)
        z = np.full_like(x, np.nan)
        assert fn(y.ctypes.data, z.ctypes.data, 3, n, 1, IFFT) == 0
        _close(z, x, dtype, 4)  # round trip
        _close(z, np.fft.ifft(y.astype(np.complex128), axis=-1), dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [6, 8, 13])
def test_strided_lines_and_in_place(dtype, n):
    """The transformed axis in the middle: [outer, n, inner] with inner > 1; src == dst."""
    rng = np.random.default_rng(2)
    x = _random((2, n, 5), dtype, rng)
    want = np.fft.fft(x.astype(np.complex128), axis=1)
    y = x.copy()
    assert _kernel(dtype)(y.ctypes.data, y.ctypes.data, 2, n, 5, FFT) == 0
    _close(y, want, dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_rfft_and_irfft_lines(dtype):
    rng = np.random.default_rng(3)
    real = np.float32 if dtype == np.complex64 else np.float64
    fn = _kernel(dtype)
    for n in LENGTHS:
        x = rng.standard_normal((2, n)).astype(real)
        h = n // 2 + 1
        y = np.full((2, h), np.nan, dtype)
        assert fn(x.ctypes.data, y.ctypes.data, 2, n, 1, KINDS["RFFT"]) == 0
        _close(y, np.fft.rfft(x.astype(np.float64), axis=-1), dtype)
        # an arbitrary half spectrum: the imaginary parts of X_0 (and X_n/2) drop out, as in numpy
        s = _random((2, h), dtype, rng)
        z = np.full((2, n), np.nan, real)
        assert fn(s.ctypes.data, z.ctypes.data, 2, n, 1, KINDS["IRFFT"]) == 0
        _close(z, np.fft.irfft(s.astype(np.complex128), n, axis=-1), dtype)


CASES = [("FFT", (4, 6, 8), (8,)), ("FFT", (3, 5, 8), (5, 8)), ("IFFT", (2, 3, 4, 5), (3, 4, 5)),
         ("RFFT", (3, 10), (10,)), ("RFFT", (2, 6, 9), (6, 9)), ("RFFT", (4, 3, 5, 8), (3, 5, 8)),
         ("IRFFT", (3, 6), (10,)), ("IRFFT", (5, 4), (5, 7)), ("IRFFT", (2, 3, 4, 5), (3, 4, 8)),
         ("FFT", (0, 4), (4,)), ("RFFT", (2, 0), (0,))]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("kind,shape,length", CASES)
def test_nd_plan(dtype, kind, shape, length):
    rng = np.random.default_rng(4)
    real = np.float32 if dtype == np.complex64 else np.float64
    x = rng.standard_normal(shape).astype(real) if kind == "RFFT" else _random(shape, dtype, rng)
    got = fft_nd(x, kind, length)
    axes = tuple(range(len(shape) - len(length), len(shape)))
    ref = {"FFT": lambda a: np.fft.fftn(a, axes=axes), "IFFT": lambda a: np.fft.ifftn(a, axes=axes),
           "RFFT": lambda a: np.fft.rfftn(a, s=length, axes=axes),
           "IRFFT": lambda a: np.fft.irfftn(a, s=length, axes=axes)}[kind]
    if 0 in shape:
        assert got.size == 0 and plan(kind, x.shape, got.shape, length) == []
        return
    want = ref(x.astype(np.complex128 if kind != "RFFT" else np.float64))
    assert got.dtype == (real if kind == "IRFFT" else dtype) and got.shape == want.shape
    _close(got, want, dtype, 2)


def test_two_to_the_twenty_complex64_matches_numpy():
    rng = np.random.default_rng(5)
    x = _random(1 << 20, np.complex64, rng)
    got = fft_nd(x, "FFT", (1 << 20,))
    _close(got, np.fft.fft(x.astype(np.complex128)), np.complex64, 2)


def test_symbols_are_named_for_the_jit():
    assert set(SYMBOLS) == {f"minixla_{p}fft_{g}" for p in ("", "r", "ir") for g in ("c64", "c128")}
    assert all(kernel_addresses().values())


@pytest.mark.parametrize("n", [2048, 1000])
def test_many_lines_split_over_threads_same_result_any_thread_count(n):
    """64 lines (>= THREAD_WORK points): the lines go to minixla_parallel_for, each task with its scratch."""
    from minixla.backends.cpu.fft_driver import THREAD_WORK
    from minixla.backends.cpu.threadpool import set_num_threads

    rng = np.random.default_rng(6)
    x = _random((64, n, 3), np.complex64, rng)
    assert 64 * 3 * n >= THREAD_WORK
    results = []
    for threads in (1, 2, 3):
        previous = set_num_threads(threads)
        try:
            results.append(fft_nd(x, "FFT", (n, 3)))
        finally:
            set_num_threads(previous)
    _close(results[0], np.fft.fftn(x.astype(np.complex128), axes=(1, 2)), np.complex64, 2)
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("kind,n", [("FFT", 1 << 22), ("FFT", 10**6 + 3), ("IFFT", 3 * (1 << 18)),
                                    ("RFFT", 10**6), ("IRFFT", (1 << 21) + 2)])
def test_large_lengths(dtype, kind, n):
    rng = np.random.default_rng(7)
    real = np.float32 if dtype == np.complex64 else np.float64
    if kind == "RFFT":
        x, ref = rng.standard_normal(n).astype(real), lambda a: np.fft.rfft(a)
    elif kind == "IRFFT":
        x, ref = _random(n // 2 + 1, dtype, rng), lambda a: np.fft.irfft(a, n)
    else:
        x, ref = _random(n, dtype, rng), (np.fft.fft if kind == "FFT" else np.fft.ifft)
    wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    _close(fft_nd(x, kind, (n,)), ref(wide), dtype, 4)
