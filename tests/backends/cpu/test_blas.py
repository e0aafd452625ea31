"""The BLAS path of the CPU backend (passes/linalg_to_blas.py, backends/cpu/blas.py,
passes/hlo_to_linalg/im2col.py): matmuls, contractions and convolutions
agree with numpy / the interpreter, really call gemm, never from inside a
threaded loop body, and the loops fallback works when no BLAS is used."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends.cpu import blas
from minixla.backends.cpu.backend import CpuBackend
from minixla.backends.interpreter import InterpreterBackend
from minixla.dialects import load_all
from minixla.frontend import tf
from minixla.passes.pipelines import hlo_to_cpu

pytestmark = pytest.mark.skipif(not blas.available(), reason="no BLAS (numpy without bundled ILP64 OpenBLAS)")
RNG = np.random.default_rng(7)


def _rand(shape, dtype):
    return RNG.standard_normal(shape).astype(dtype)


def _gemm_calls(llvm_ir: str) -> int:
    return len(re.findall(r'call void @"?minixla_(?:library_)?[sd]gemm"?\(', llvm_ir))  # either symbol


def _jit(fn, *arrays):
    jf = tf.function(fn, jit_compile=True)
    args = [tf.constant(a) for a in arrays]
    out = jf(*args)
    compiled = jf.get_concrete_function(*args).compiled
    assert compiled.backend == "cpu", compiled.fallback_reason
    return out, compiled.executable.owner.llvm_ir


def _tol(dtype):
    return dict(rtol=2e-5, atol=2e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (33, 17, 9), (1, 64, 7), (5, 1, 3), (64, 3, 1)])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_forms(dtype, m, k, n, ta, tb):
    a, b = _rand((m, k), dtype), _rand((k, n), dtype)
    out, ir = _jit(lambda p, q: tf.matmul(p, q, transpose_a=ta, transpose_b=tb),
                   a.T.copy() if ta else a, b.T.copy() if tb else b)
    np.testing.assert_allclose(out.numpy(), a @ b, **_tol(dtype))
    assert _gemm_calls(ir) == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("adj_y", [False, True])
def test_batch_matmul(dtype, adj_y):
    x, y = _rand((3, 2, 5, 6), dtype), _rand((3, 2, 6, 4), dtype)
    out, ir = _jit(lambda p, q: tf.linalg.matmul(p, q, transpose_b=adj_y), x,
                   np.swapaxes(y, -1, -2).copy() if adj_y else y)
    np.testing.assert_allclose(out.numpy(), x @ y, **_tol(dtype))
    assert _gemm_calls(ir) == 1  # one call in a loop over the batch


@pytest.mark.parametrize("m,k,n", [(0, 4, 3), (3, 0, 4), (3, 4, 0)])
def test_zero_size_matmul(m, k, n):
    a, b = _rand((m, k), np.float32), _rand((k, n), np.float32)
    out, ir = _jit(lambda p, q: tf.matmul(p, q), a, b)
    np.testing.assert_array_equal(out.numpy(), np.zeros((m, n), np.float32))
    assert _gemm_calls(ir) == 0


def _hlo(text: str):
    return Parser(load_all(), text).parse_module()


# several batch dims (in transposed order), two contracting dims that collapse into one K
DOT = """
func.func @main(%a: tensor<2x3x4x5x6xf64>, %b: tensor<3x2x5x6x7xf64>) -> tensor<2x3x4x7xf64> {
  %r = hlo.dot_general %a, %b, batching_dims = [0, 1] x [1, 0], contracting_dims = [3, 4] x [2, 3] : (tensor<2x3x4x5x6xf64>, tensor<3x2x5x6x7xf64>) -> tensor<2x3x4x7xf64>
  return %r : tensor<2x3x4x7xf64>
}
"""
# the contracting dims in opposite orders: no single K with a unit stride in b -> loops
DOT_LOOPS = """
func.func @main(%a: tensor<2x3x4x5x6xf64>, %b: tensor<3x6x2x7x5xf64>) -> tensor<2x3x4x7xf64> {
  %r = hlo.dot_general %a, %b, batching_dims = [0, 1] x [2, 0], contracting_dims = [4, 3] x [1, 4] : (tensor<2x3x4x5x6xf64>, tensor<3x6x2x7x5xf64>) -> tensor<2x3x4x7xf64>
  return %r : tensor<2x3x4x7xf64>
}
"""


@pytest.mark.parametrize("text,bshape,spec,calls", [
    (DOT, (3, 2, 5, 6, 7), "abmkl,bakln->abmn", 1),
    (DOT_LOOPS, (3, 6, 2, 7, 5), "abmkl,blank->abmn", 0),
])
def test_dot_general_batch_and_multi_contracting_vs_interpreter(text, bshape, spec, calls):
    a, b = _rand((2, 3, 4, 5, 6), np.float64), _rand(bshape, np.float64)
    cpu = CpuBackend().compile(_hlo(text))
    assert _gemm_calls(cpu.owner.llvm_ir) == calls
    (got,) = cpu(a, b)
    (want,) = InterpreterBackend().compile(_hlo(text))(a, b)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got, np.einsum(spec, a, b), rtol=1e-12, atol=1e-12)


def _conv_ref(x, k, stride, pad, dil):
    """NHWC x HWIO, as sums of shifted matmuls in numpy."""
    kh, kw, _, o = k.shape
    if pad == "SAME":
        eh, ew = (kh - 1) * dil + 1, (kw - 1) * dil + 1
        oh, ow = -(-x.shape[1] // stride), -(-x.shape[2] // stride)
        ph, pw = max((oh - 1) * stride + eh - x.shape[1], 0), max((ow - 1) * stride + ew - x.shape[2], 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    oh = (x.shape[1] - (kh - 1) * dil - 1) // stride + 1
    ow = (x.shape[2] - (kw - 1) * dil - 1) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, o), x.dtype)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i * dil:i * dil + (oh - 1) * stride + 1:stride, j * dil:j * dil + (ow - 1) * stride + 1:stride]
            out += patch @ k[i, j]
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("xs,ks,stride,pad,dil", [
    ((2, 9, 7, 3), (3, 3, 3, 5), 1, "SAME", 1),
    ((2, 9, 7, 3), (3, 2, 3, 4), 2, "VALID", 1),
    ((1, 10, 11, 2), (3, 3, 2, 3), 1, "VALID", 2),
    ((2, 5, 5, 4), (1, 1, 4, 6), 1, "VALID", 1),  # 1x1: reads x directly
    ((1, 6, 6, 1), (6, 6, 1, 2), 1, "VALID", 1),  # window = image
])
def test_conv2d_as_gemm(dtype, xs, ks, stride, pad, dil):
    x, k = _rand(xs, dtype), _rand(ks, dtype)
    out, ir = _jit(lambda a, b: tf.nn.conv2d(a, b, strides=stride, padding=pad, dilations=dil), x, k)
    np.testing.assert_allclose(out.numpy(), _conv_ref(x, k, stride, pad, dil), **_tol(dtype))
    assert _gemm_calls(ir) == 1


@pytest.mark.parametrize("stride,pad", [(1, "SAME"), (2, "SAME"), (2, "VALID")])
def test_conv2d_gradients_use_gemm(stride, pad):
    x = tf.constant(_rand((2, 8, 7, 3), np.float32))
    k = tf.Variable(_rand((3, 3, 3, 4), np.float32))

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.conv2d(x, k, strides=stride, padding=pad)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, [x, k])

    eager = step(x)
    jf = tf.function(step, jit_compile=True)
    got = jf(x)
    compiled = jf.get_concrete_function(x).compiled
    assert compiled.backend == "cpu", compiled.fallback_reason
    assert _gemm_calls(compiled.executable.owner.llvm_ir) == 3  # forward, input and kernel gradients
    for e, g in zip(eager, got):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-4, atol=1e-4)


# NCHW output: the output feature is not innermost, c is computed transposed per batch
CONV_NCHW = """
func.func @main(%x: tensor<2x3x6x5xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<2x4x4x3xf32> {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x6x5xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x4x3xf32>
  return %r : tensor<2x4x4x3xf32>
}
"""


def test_conv_nchw_vs_interpreter():
    x, k = _rand((2, 3, 6, 5), np.float32), _rand((4, 3, 3, 3), np.float32)
    cpu = CpuBackend().compile(_hlo(CONV_NCHW))
    assert _gemm_calls(cpu.owner.llvm_ir) == 1
    (got,) = cpu(x, k)
    (want,) = InterpreterBackend().compile(_hlo(CONV_NCHW))(x, k)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_gemm_not_inside_threaded_bodies():
    """A big matmul + relu: the relu is threaded, the gemm is called from the
    function itself (OpenBLAS threads on its own)."""
    a, b = _rand((256, 512), np.float32), _rand((512, 1024), np.float32)
    out, ir = _jit(lambda p, q: tf.nn.relu(tf.matmul(p, q)), a, b)
    np.testing.assert_allclose(out.numpy(), np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)
    assert "minixla_parallel_for" in ir
    bodies = re.split(r"\ndefine ", ir)
    callers = [body.split("(", 1)[0] for body in bodies if _gemm_calls(body)]
    assert callers and not any("_par" in c or "__task" in c for c in callers), callers


@pytest.fixture
def no_blas(monkeypatch):
    monkeypatch.setenv("MINIXLA_BLAS", "0")
    blas.reset()
    yield
    monkeypatch.delenv("MINIXLA_BLAS")
    blas.reset()


def test_fallback_to_loops(no_blas):
    assert not blas.available()
    assert "convert-linalg-to-blas" not in blas.cpu_pipeline()
    a, b = _rand((7, 5), np.float64), _rand((9, 5), np.float64)
    out, ir = _jit(lambda p, q: tf.matmul(p, q, transpose_b=True), a, b)
    np.testing.assert_allclose(out.numpy(), a @ b.T, rtol=1e-12)
    assert _gemm_calls(ir) == 0
    with pytest.raises(blas.BlasUnavailableError, match="no BLAS is available"):
        blas.ensure_registered()


def test_pipeline_has_blas_when_available():
    assert "bufferize,convert-linalg-to-blas,lower-linalg-to-loops" in blas.cpu_pipeline()
    assert "convert-linalg-to-blas" not in hlo_to_cpu()  # the named pipeline is target-independent
    assert "convert-linalg-to-blas" in hlo_to_cpu(blas=True)


def test_bad_blas_library_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("MINIXLA_BLAS", "/nonexistent/libblas.so")
    blas.reset()
    try:
        with pytest.raises(blas.BlasUnavailableError, match="MINIXLA_BLAS='/nonexistent/libblas.so'"):
            blas.available()
    finally:
        monkeypatch.delenv("MINIXLA_BLAS")
        blas.reset()


# ---- blocked patches (passes/im2col_blocking.py), forced on small shapes ----------------------
def _conv_hlo(xs, ks, rs, dims, window, groups=1, dtype="f32"):
    t = lambda s: f"tensor<{'x'.join(map(str, s))}x{dtype}>"  # noqa: E731
    return f"""
func.func @main(%x: {t(xs)}, %k: {t(ks)}) -> {t(rs)} {{
  %r = hlo.convolution(%x, %k) dim_numbers = {dims}, window = {{{window}}} {{batch_group_count = 1 : i64, feature_group_count = {groups} : i64}} : ({t(xs)}, {t(ks)}) -> {t(rs)}
  return %r : {t(rs)}
}}
"""


@pytest.fixture
def tiny_blocks(monkeypatch):
    """Blocks of 40 patches and a record of the convolutions that were blocked."""
    from minixla.passes import im2col_blocking, linalg_to_blas

    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")  # the passes must run, not a cached compile of the program
    monkeypatch.setattr(im2col_blocking, "BLOCK_ELEMENTS", 40)
    blocked = []

    def spy(op, *gemm):
        done = im2col_blocking.block_patches(op, *gemm)
        blocked.append(done)
        return done

    monkeypatch.setattr(linalg_to_blas, "block_patches", spy)
    return blocked


NHWC, HWIO = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "x[0, 1, i, o]"


@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("xs,ks,rs,dims,window", [
    ((2, 7, 6, 3), (3, 3, 3, 4), (2, 7, 6, 4), NHWC, "stride = [1, 1], pad = [[1, 1], [1, 1]]"),
    ((1, 9, 8, 2), (3, 2, 2, 5), (1, 4, 4, 5), NHWC, "stride = [2, 2], pad = [[1, 0], [0, 1]]"),
    ((2, 9, 9, 2), (3, 3, 2, 3), (2, 6, 2, 3), NHWC, "stride = [1, 2], pad = [[-1, 0], [0, -2]], rhs_dilate = [1, 2]"),
    ((2, 4, 5, 3), (3, 3, 3, 2), (2, 9, 11, 2), NHWC, "stride = [1, 1], pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]"),
    ((2, 3, 8, 7), (4, 3, 3, 2), (2, 4, 8, 8), "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]",
     "stride = [1, 1], pad = [[1, 1], [1, 1]]"),
    # the kernel gradient's form: x as [f, 0, 1, b], dy as the kernel
    ((3, 6, 5, 4), (3, 6, 5, 2), (3, 3, 4, 2), "[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]",
     "stride = [1, 1], pad = [[1, 1], [1, 1]]"),
])
def test_blocked_conv_vs_interpreter(tiny_blocks, dtype, xs, ks, rs, dims, window):
    text = _conv_hlo(xs, ks, rs, dims, window, dtype=dtype)
    npt = np.float32 if dtype == "f32" else np.float64
    x, k = _rand(xs, npt), _rand(ks, npt)
    cpu = CpuBackend().compile(_hlo(text))
    assert tiny_blocks.count(True) == 1
    assert _gemm_calls(cpu.owner.llvm_ir) == 1  # one call site, in the block loop
    (got,) = cpu(x, k)
    (want,) = InterpreterBackend().compile(_hlo(text))(x, k)
    np.testing.assert_allclose(got, want, **_tol(npt))


@pytest.mark.parametrize("stride,pad", [(1, "SAME"), (2, "SAME")])
def test_blocked_conv2d_gradients(tiny_blocks, stride, pad):
    test_conv2d_gradients_use_gemm(stride, pad)
    assert tiny_blocks.count(True) == 3  # forward, input and kernel gradients all blocked


def test_blocked_conv_zero_size(tiny_blocks):
    text = _conv_hlo((0, 5, 5, 2), (3, 3, 2, 3), (0, 5, 5, 3), NHWC, "stride = [1, 1], pad = [[1, 1], [1, 1]]")
    (got,) = CpuBackend().compile(_hlo(text))(np.zeros((0, 5, 5, 2), np.float32), _rand((3, 3, 2, 3), np.float32))
    assert got.shape == (0, 5, 5, 3)
