"""Convolutions through minixla's generated gemm (not the library fallback): im2col patches
large enough for the dispatcher to pick the generated kernel (`min(m, n) >= MIN_DIM`,
`m*n*k >= MIN_WORK`, checked here so the cases stay meaningful), f32 and f64, strides,
padding, dilation, edge tiles in m and n, and the blocked patches of
`passes/im2col_blocking.py` with several blocks, against numpy (sums of shifted matmuls
in float64)."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.backends.cpu import blas
from minixla.backends.cpu.gemm_driver import MIN_DIM, MIN_WORK
from minixla.frontend import tf

pytestmark = pytest.mark.skipif(blas.generated_shapes() is None, reason="no generated gemm on this CPU")


@pytest.fixture(autouse=True)
def generated(monkeypatch):
    from minixla.passes import linalg_to_blas

    monkeypatch.setenv("MINIXLA_BLAS", "generated")
    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")  # compiled under the thresholds below, not taken from disk
    monkeypatch.setattr(linalg_to_blas, "MIN_WORK", MIN_WORK)  # the dispatcher's bound: these reach it
    blas.reset()
    yield
    monkeypatch.delenv("MINIXLA_BLAS")
    blas.reset()


def _ref(x, k, stride, pad, dil):
    """NHWC x HWIO in float64, as sums of shifted matmuls."""
    x, k = x.astype(np.float64), k.astype(np.float64)
    kh, kw, _, o = k.shape
    if pad == "SAME":
        eh, ew = (kh - 1) * dil + 1, (kw - 1) * dil + 1
        oh, ow = -(-x.shape[1] // stride), -(-x.shape[2] // stride)
        ph, pw = max((oh - 1) * stride + eh - x.shape[1], 0), max((ow - 1) * stride + ew - x.shape[2], 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    oh = (x.shape[1] - (kh - 1) * dil - 1) // stride + 1
    ow = (x.shape[2] - (kw - 1) * dil - 1) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, o))
    for i in range(kh):
        for j in range(kw):
            out += x[:, i * dil:i * dil + (oh - 1) * stride + 1:stride,
                     j * dil:j * dil + (ow - 1) * stride + 1:stride] @ k[i, j]
    return out


def _run(dtype, xs, ks, stride, pad, dil):
    rng = np.random.default_rng(sum(xs) * 7 + sum(ks))
    x, k = rng.standard_normal(xs).astype(dtype), rng.standard_normal(ks).astype(dtype)
    want = _ref(x, k, stride, pad, dil)
    m, n, kk = int(np.prod(want.shape[:3])), ks[3], ks[0] * ks[1] * ks[2]
    assert min(m, n) >= MIN_DIM and m * n * kk >= MIN_WORK, "too small: the library's gemm would run"
    jf = tf.function(lambda a, b: tf.nn.conv2d(a, b, strides=stride, padding=pad, dilations=dil), jit_compile=True)
    got = jf(tf.constant(x), tf.constant(k)).numpy()
    assert blas.gemm_kind() == "generated"
    tol = 1e-4 if dtype == np.float32 else 1e-11
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("xs,ks,stride,pad,dil", [
    ((2, 12, 12, 32), (3, 3, 32, 128), 1, "SAME", 1),
    ((2, 25, 25, 16), (3, 3, 16, 128), 2, "VALID", 1),
    ((2, 12, 12, 32), (3, 3, 32, 128), 1, "SAME", 2),
    ((3, 11, 13, 20), (3, 3, 20, 130), 1, "SAME", 1),  # m = 429, n = 130: edge tiles in both
    ((2, 23, 22, 33), (5, 3, 33, 160), 2, "SAME", 1),  # k = 495: not a multiple of 4 (the unroll)
    ((2, 9, 9, 64), (3, 3, 64, 256), 1, "SAME", 1),  # n = NC: the tasks pack A, k = 576 two k blocks (f64)
    ((2, 17, 17, 16), (3, 3, 16, 257), 2, "SAME", 2),  # n = NC + 1: the packing phase packs A
])
def test_conv2d_through_generated_gemm(dtype, xs, ks, stride, pad, dil):
    _run(dtype, xs, ks, stride, pad, dil)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blocked_patches_through_generated_gemm(dtype, monkeypatch):
    """Patches built 128 rows at a time (4 blocks; BLOCK_ELEMENTS 2^14 allows up to 2^16 for these
    288-element rows), each block's gemm the generated one."""
    from minixla.passes import im2col_blocking, linalg_to_blas

    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")  # the passes must run, not a cached compile
    monkeypatch.setattr(im2col_blocking, "BLOCK_ELEMENTS", 1 << 14)
    blocked = []

    def spy(op, *gemm):
        blocked.append(im2col_blocking.block_patches(op, *gemm))
        return blocked[-1]

    monkeypatch.setattr(linalg_to_blas, "block_patches", spy)
    _run(dtype, (2, 16, 16, 32), (3, 3, 32, 128), 1, "SAME", 1)
    assert blocked.count(True) == 1


def test_block_rows_grow_with_the_patch_row():
    """m blocks: 2^20 elements, but at least MIN_BLOCK_ROWS rows up to 2^22 (whole images here, the
    divisor that fits); k blocks (the kernel gradient's [K..., M...] patches) keep 2^20."""
    from minixla.passes.im2col_blocking import _block_limit, _block_shape

    m3k3 = ["m"] * 3 + ["k"] * 3
    for shape, want in (([8, 28, 28, 3, 3, 256], (0, 2)),  # k = 2304: 2 images = 1568 rows (2^20: 392)
                        ([8, 14, 14, 3, 3, 512], (0, 4)),  # k = 4608: 784 rows (2^20: 196)
                        ([8, 56, 56, 3, 3, 64], (1, 28))):  # k = 576: 1568 rows, as with 2^20
        assert _block_shape(shape, m3k3, _block_limit(shape, m3k3)) == want, shape
    k3m3 = ["k"] * 3 + ["m"] * 3
    assert _block_limit([3, 3, 256, 8, 28, 28], k3m3) == 1 << 20
