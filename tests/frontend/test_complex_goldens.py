"""Complex tensors and FFTs against real TensorFlow 2.21 (tests/golden/complex/, recorded by
`record_tf_goldens.py --cases tests/frontend/complex_cases.py --out tests/golden/complex`): every case
eagerly, in tf.function and under jit_compile=True, forward and gradient (TF's conjugate convention for
complex values, through real-valued chains; the circulant LinearOperators included), plus the *ND ops (no CPU kernel in TF 2.21) against
numpy.fft, and TF's errors for bad input.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.complex_cases import CASES
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "complex"
TABLE = "tests/frontend/complex_cases.py"
TOL = 2e-5  # float32 transforms sum in another order than TF's (pocketfft/Eigen, ducc under XLA)
NAMES = sorted(CASES)
# fused chains of several complex transcendental expansions compile in 1.5-4 s each on 2 cores (each op alone
# in ~0.2 s): `python -m pytest -m slow tests/frontend/test_complex_goldens.py`; the other cases: ~4.5 s in all
SLOW_JIT = {"math_unary_trig", "math_unary_inverse", "math_unary_hyperbolic", "math_reductions",
            # circulant operators: dense form, products, solve, determinant and trace over several ffts (1.5-3.5 s each)
            "linalg_circulant", "linalg_circulant_real", "linalg_circulant2d", "linalg_circulant3d"}
FORWARD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" and n in SLOW_JIT else (n, m)
                 for n in NAMES for m in MODES]


# Every case must really compile on CPU (fft too: hlo-complex-to-real's {interleaved} fft): the jit mode
# forces the cpu backend, so a fallback to the interpreter (frontend/compiler.py) fails the test.


def _force_cpu(monkeypatch, name, mode):
    if mode == "jit":
        monkeypatch.setenv("MINIXLA_TF_BACKEND", "cpu")


@pytest.mark.parametrize("name, mode", FORWARD_CASES)
def test_complex_forward_against_tensorflow(name, mode, monkeypatch):
    _force_cpu(monkeypatch, name, mode)
    replay.check_forward(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, TOL)


GRAD_NAMES = [n for n in NAMES if replay.has_gradient(GOLDEN, n)]
# a gradient under jit compiles forward and backward together (0.1-7 s each, ~23 s for all on 2 cores): the
# default run compiles one per rule family, `python -m pytest -m slow tests/frontend/test_complex_goldens.py` all
FAST_JIT_GRAD = {"raw_irfft2d", "raw_rfft3d", "raw_fft3d", "raw_ifft",
                 "raw_angle", "raw_conjugate_transpose", "raw_complex_broadcast", "math_complex128"}
GRAD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" and n not in FAST_JIT_GRAD else (n, m)
              for n in GRAD_NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", GRAD_CASES)
def test_complex_gradient_against_tensorflow(name, mode, monkeypatch):
    _force_cpu(monkeypatch, name, mode)
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 4 * TOL)


def test_every_case_has_a_golden_with_gradients_where_tf_has_them():
    missing = [n for n in NAMES if not (GOLDEN / f"{n}.npz").exists()]
    assert not missing, missing
    assert len(GRAD_NAMES) >= 45  # all but the forward-only truncation cases


# -- the n-d transforms over any axes: numpy.fft is the oracle (TF 2.21 has no CPU kernel for them) -----

_R = np.random.default_rng(7)
_X = _R.standard_normal((3, 2, 2, 5)).astype(np.float32)
_Z = (_X + 1j * _R.standard_normal(_X.shape)).astype(np.complex64)
ND = {
    "fftnd_axes": (lambda: tf.signal.fftnd(_Z, fft_length=[3, 6], axes=[0, 3]),
                   lambda: np.fft.fftn(_Z, s=[3, 6], axes=[0, 3])),
    "fftnd_4_axes": (lambda: tf.signal.fftnd(_Z), lambda: np.fft.fftn(_Z, axes=[0, 1, 2, 3])),
    "ifftnd_ortho": (lambda: tf.signal.ifftnd(_Z, axes=[1, 3], norm="ortho"),
                     lambda: np.fft.ifftn(_Z, axes=[1, 3], norm="ortho")),
    "rfftnd_forward": (lambda: tf.signal.rfftnd(_X, fft_length=[4, 2, 5], axes=[3, 1, 0], norm="forward"),
                       lambda: np.fft.rfftn(_X, s=[4, 2, 5], axes=[3, 1, 0], norm="forward")),
    "irfftnd": (lambda: tf.signal.irfftnd(_Z, fft_length=[3, 2, 2, 8], axes=[0, 1, 2, 3]),
                lambda: np.fft.irfftn(_Z, s=[3, 2, 2, 8], axes=[0, 1, 2, 3])),
    "raw_irfftnd": (lambda: tf.raw_ops.IRFFTND(input=_Z, fft_length=[2, 7], axes=[2, 0]),
                    lambda: np.fft.irfftn(_Z, s=[2, 7], axes=[2, 0])),
}


@pytest.mark.parametrize("name", sorted(ND))
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_nd_transforms_against_numpy(name, mode):
    fn, want = ND[name]
    got = fn() if mode == "eager" else tf.function(fn)()
    np.testing.assert_allclose(got.numpy(), want(), rtol=2e-5, atol=2e-5)


def test_nd_transforms_are_not_xla_compilable_as_in_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError, match="No registered 'FFTND' OpKernel for XLA_CPU_JIT"):
        tf.function(lambda: tf.signal.fftnd(_Z), jit_compile=True)()


# -- TF's errors -----------------------------------------------------------------------------------------

def test_rfft_input_shorter_than_fft_length_is_tf_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input dimension 1 must have length of at least 10 "
                                                            "but got: 6"):
        tf.raw_ops.RFFT(input=tf.zeros([2, 6]), fft_length=[10])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input dimension 1 must have length of at least 4"):
        tf.function(lambda: tf.raw_ops.IRFFT2D(input=tf.zeros([2, 3, 5], tf.complex64), fft_length=[4, 8]),
                    jit_compile=True)()


def test_fft_of_a_real_tensor_names_the_attribute():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tcomplex' of float is not in the "
                                                            "list of allowed values: complex64, complex128"):
        tf.raw_ops.FFT(input=tf.zeros([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input must have rank of at least 1"):
        tf.raw_ops.FFT(input=tf.zeros([], tf.complex64))


def test_complex_needs_matching_float_parts():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Complex as input #1.zero-based. was expected to be a float32 tensor but is a float64"):
        tf.raw_ops.Complex(real=tf.zeros([2]), imag=tf.zeros([2], tf.float64))
    with pytest.raises(TypeError, match="must be consistent, and one of"):
        tf.complex(tf.zeros([2], tf.int32), tf.zeros([2], tf.int32))
    with pytest.raises(ValueError, match="RFFT requires tf.float32 or tf.float64 inputs"):
        tf.signal.rfft(tf.zeros([2], tf.int32))


def test_real_dtype_and_namespaces():
    assert tf.complex64.real_dtype == tf.float32 and tf.complex128.real_dtype == tf.float64
    assert tf.float32.real_dtype == tf.float32
    assert tf.dtypes.complex is tf.complex
    for n in ("fft", "fft2d", "fft3d", "fftnd", "ifft", "ifft2d", "ifft3d", "ifftnd", "rfft", "rfft2d", "rfft3d",
              "rfftnd", "irfft", "irfft2d", "irfft3d", "irfftnd", "stft", "inverse_stft"):
        assert callable(getattr(tf.signal, n)), n


def test_transforms_trace_to_one_hlo_fft_each():
    """tf.signal's transforms reach the compiler as hlo.fft (not as DFT matrix products), complex values as
    hlo.complex/real/imag."""
    f = tf.function(lambda a, c: tf.signal.irfft(tf.signal.fft(tf.complex(a, c))[:, :5], [8])
                    + tf.math.imag(tf.signal.rfft(a, [8]))[:, :1], jit_compile=True)
    a = tf.constant(np.ones((2, 8), np.float32))
    hlo = f.experimental_get_compiler_ir(a, a)(stage="hlo")
    assert "hlo.complex %0, %1 : tensor<2x8xcomplex<f32>>" in hlo
    assert "type = FFT, length = [8] : (tensor<2x8xcomplex<f32>>) -> tensor<2x8xcomplex<f32>>" in hlo
    assert "type = IRFFT, length = [8] : (tensor<2x5xcomplex<f32>>) -> tensor<2x8xf32>" in hlo
    assert "type = RFFT, length = [8] : (tensor<2x8xf32>) -> tensor<2x5xcomplex<f32>>" in hlo
    assert "hlo.imag" in hlo and "dot_general" not in hlo


def test_empty_transforms_give_empty_results_as_in_tensorflow():
    assert tf.signal.fft(tf.zeros([0, 4], tf.complex64)).shape == [0, 4]  # TF 2.21: (0, 4) and (3, 0)
    assert tf.signal.rfft(tf.zeros([3, 0]), [0]).shape == [3, 0]


def test_fft_of_python_values_and_of_floats():
    np.testing.assert_allclose(tf.signal.fft([1.0, 2.0, 0.5]).numpy(), np.fft.fft([1.0, 2.0, 0.5]), rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'Tcomplex' of float is not in the list of allowed values: complex64, complex128"):
        tf.signal.fft(tf.zeros([4]))


def test_builder_names_the_hlo_op_and_operands():
    from minixla.frontend.builder import ShapeError
    from minixla.frontend.builder_eager import EagerBuilder

    b = EagerBuilder()
    with pytest.raises(ShapeError, match=r"hlo.fft: RFFT operand's trailing dimensions \[6\] must be \[8\] .*f32\[2,6\]"):
        b.fft(np.zeros((2, 6), np.float32), "RFFT", [8])
    with pytest.raises(ShapeError, match="hlo.fft: FFT needs a complex64 or complex128 operand"):
        b.fft(np.zeros((2, 6), np.float32), "FFT", [6])
    with pytest.raises(ShapeError, match="hlo.complex: operands must be f32 or f64 tensors of one shape and type"):
        b.complex(np.zeros(2, np.int32), np.zeros(2, np.int32))
    with pytest.raises(ShapeError, match="hlo.real: operand must be floating-point or complex"):
        b.real(np.zeros(2, np.int32))


@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_gradient_wrt_a_complex_tensor_is_dl_dre_plus_i_dl_dim(mode):
    """TF's convention for a complex source: d L/d Re + i d L/d Im (checked by central differences)."""
    z0 = np.array([0.3 + 0.4j, -1.2 + 0.5j, 0.7 - 0.9j], np.complex128)

    def loss(tf_, z):
        y = tf_.signal.fft(z * z) * tf_.exp(z)
        return tf_.reduce_sum(tf_.math.real(y) * 0.5 + tf_.abs(y))

    def grad(z):
        with tf.GradientTape() as tape:
            tape.watch(z)
            out = loss(tf, z)
        return tape.gradient(out, z)

    got = (grad if mode == "eager" else tf.function(grad, jit_compile=True))(tf.constant(z0)).numpy()

    def numeric(z):
        y = np.fft.fft(z * z) * np.exp(z)
        return np.sum(y.real * 0.5 + np.abs(y))

    eps, want = 1e-6, np.zeros(3, np.complex128)
    for k in range(3):
        e = np.eye(3)[k]
        want[k] = ((numeric(z0 + eps * e) - numeric(z0 - eps * e))
                   + 1j * (numeric(z0 + 1j * eps * e) - numeric(z0 - 1j * eps * e))) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_circulant_operator_checks_the_argument_dtype_as_tf():
    op = tf.linalg.LinearOperatorCirculant(tf.constant([1.0 + 0j, 2.0, 3.0], tf.complex64))
    with pytest.raises(TypeError, match=r"Expected argument to have dtype <dtype: 'complex64'>\. Found: <dtype: 'float32'>"):
        op.matvec(tf.constant([1.0, 2.0, 3.0]))
    assert op.shape == [3, 3] and op.dtype == tf.complex64


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_second_order_through_ffts(mode):
    """Gradients of gradients differentiate the complex ops' TF rules (hlo.complex/real/imag/fft VJPs):
    Parseval's sum |FFT(a)|^2 = n sum a^2 and irfft(rfft(a)) = a give Hessians 2n I and 2 diag(w)."""
    a0 = np.array([0.5, -1.0, 2.0, 0.25, 1.5, -0.75], np.float32)
    v = np.array([1.0, 0.5, -2.0, 0.0, 1.0, 3.0], np.float32)
    w = np.array([0.5, 1.0, 2.0, -1.0, 0.25, 1.5], np.float32)

    def hvp(a):
        with tf.GradientTape() as outer:
            outer.watch(a)
            with tf.GradientTape() as inner:
                inner.watch(a)
                parseval = tf.reduce_sum(tf.square(tf.abs(tf.signal.fft(tf.complex(a, tf.zeros_like(a))))))
                loss = parseval + tf.reduce_sum(tf.square(tf.signal.irfft(tf.signal.rfft(a))) * w)
            g = inner.gradient(loss, a)
            total = tf.reduce_sum(g * v)
        return g, outer.gradient(total, a)

    grad, hess_v = (hvp if mode == "eager" else tf.function(hvp))(tf.constant(a0))
    np.testing.assert_allclose(grad.numpy(), 2 * 6 * a0 + 2 * w * a0, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(hess_v.numpy(), 2 * 6 * v + 2 * w * v, rtol=2e-5, atol=2e-5)
