"""The gemm wrappers of backends/cpu/gemm_threads.py against numpy: every
storage order and transpose combination, split by rows (m >= n) and by
columns (n > m), serial (small) and threaded (big), 1, 2 and 3 threads,
with leading dimensions larger than the matrix (views into bigger buffers)."""

from __future__ import annotations

import ctypes
import itertools

import numpy as np
import pytest

from minixla.backends.cpu import blas
from minixla.backends.cpu.gemm_threads import SERIAL_WORK
from minixla.backends.cpu.threadpool import set_num_threads

pytestmark = pytest.mark.skipif(blas.library() is None or not blas.library().threads_local,
                                reason="needs numpy's bundled OpenBLAS (openblas_set_num_threads_local)")

ROW_MAJOR, COL_MAJOR, NO_TRANS, TRANS = 101, 102, 111, 112


def _gemm(dtype):
    sgemm, dgemm = blas.library_gemm()  # the wrappers, whichever gemm the JIT registered
    scalar = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    proto = ctypes.CFUNCTYPE(None, i32, i32, i32, i64, i64, i64, scalar, ptr, i64, ptr, i64, scalar, ptr, i64)
    return proto(sgemm if dtype == np.float32 else dgemm)


def _stored(rng, rows, cols, dtype, order, pad):
    """A rows x cols matrix in `order` inside a buffer with `pad` extra leading-dimension elements."""
    big = rng.standard_normal((rows, cols + pad) if order == ROW_MAJOR else (cols, rows + pad)).astype(dtype)
    view = big[:, :cols] if order == ROW_MAJOR else big[:, :rows].T
    return big, view, big.shape[1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", [ROW_MAJOR, COL_MAJOR])
@pytest.mark.parametrize("shape", [(3, 5, 4), (130, 70, 120), (40, 300, 150)])  # serial, rows split, cols split
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_wrapper_matches_numpy(dtype, order, shape, threads):
    m, n, k = shape
    assert (m * n * k >= SERIAL_WORK) == (shape != (3, 5, 4))
    gemm = _gemm(dtype)
    rng = np.random.default_rng(m * 7 + n)
    old = set_num_threads(threads)
    try:
        for ta, tb in itertools.product((NO_TRANS, TRANS), repeat=2):
            a_big, a, lda = _stored(rng, *((m, k) if ta == NO_TRANS else (k, m)), dtype, order, pad=3)
            b_big, b, ldb = _stored(rng, *((k, n) if tb == NO_TRANS else (n, k)), dtype, order, pad=1)
            c_big, c, ldc = _stored(rng, m, n, dtype, order, pad=2)
            c0 = c.copy()
            alpha, beta = 1.5, 0.5
            gemm(order, ta, tb, m, n, k, alpha, a_big.ctypes.data, lda, b_big.ctypes.data, ldb, beta,
                 c_big.ctypes.data, ldc)
            opa = a if ta == NO_TRANS else a.T
            opb = b if tb == NO_TRANS else b.T
            want = alpha * (opa.astype(np.float64) @ opb) + beta * c0
            tol = 1e-4 if dtype == np.float32 else 1e-12
            np.testing.assert_allclose(c, want, rtol=tol, atol=tol * np.abs(want).max())
    finally:
        set_num_threads(old)


def test_padding_past_the_matrix_is_untouched():
    gemm = _gemm(np.float32)
    m, n, k = 200, 100, 80
    a = np.ones((m, k), np.float32)
    b = np.ones((k, n), np.float32)
    c_big = np.full((m, n + 5), -7.0, np.float32)
    old = set_num_threads(2)
    try:
        gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, m, n, k, 1.0, a.ctypes.data, k, b.ctypes.data, n, 0.0,
             c_big.ctypes.data, n + 5)
    finally:
        set_num_threads(old)
    assert np.all(c_big[:, :n] == k) and np.all(c_big[:, n:] == -7.0)
