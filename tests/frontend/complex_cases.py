"""Complex tensors and FFTs: the raw ops (Complex, Real, Imag, Conj, Angle, ComplexAbs, ConjugateTranspose,
FFT/IFFT/RFFT/IRFFT 1-3d) and the public names (tf.signal's FFTs, stft/inverse_stft,
tf.complex, tf.math.real/imag/conj/angle, tf.abs, complex arithmetic, LinearOperatorCirculant*), recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/complex_cases.py --out tests/golden/complex` and replayed by
tests/frontend/test_complex_goldens.py. Same format as raw_cases.py; numpy only.

Inputs and outputs are real (complex values are built with Complex and taken apart with Real/Imag inside
the case), so the recorder takes TF's gradients w.r.t. the float inputs: every complex op's gradient is
checked through such a chain, in TF's conjugate convention. (The *ND ops have no CPU kernel in TF 2.21:
test_complex_goldens.py checks them against numpy.fft.)
"""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(1414)
F, D = np.float32, np.float64


def _n(*shape, dtype=F):
    return R.standard_normal(shape).astype(dtype)


def _c(tf, re, im):
    """Complex(re, im) by the raw op, with the Tout TF needs for float64 parts."""
    return tf.raw_ops.Complex(real=re, imag=im, Tout=tf.complex128 if re.dtype == tf.float64 else tf.complex64)


def _p(tf, z):
    """(Real(z), Imag(z)) by the raw ops."""
    out = tf.float64 if z.dtype == tf.complex128 else tf.float32
    return tf.raw_ops.Real(input=z, Tout=out), tf.raw_ops.Imag(input=z, Tout=out)


def _raw_fft(op, k_in):
    return (lambda tf, a, c: _p(tf, getattr(tf.raw_ops, op)(input=_c(tf, a, c)))), [_n(*k_in), _n(*k_in)], None


def _raw_rfft(op, shape, length, dtype=F, stop=False):
    """`stop`: forward only (TF's RFFT/IRFFT gradients fail on inputs longer than fft_length)."""
    return (lambda tf, a: _p(tf, getattr(tf.raw_ops, op)(input=tf.stop_gradient(a) if stop else a, fft_length=length,
                                                           Tcomplex=tf.complex128 if dtype == D else tf.complex64))), \
        [_n(*shape, dtype=dtype)], None


def _raw_irfft(op, shape, length, dtype=F, stop=False):
    return (lambda tf, a, c: getattr(tf.raw_ops, op)(input=tf.stop_gradient(_c(tf, a, c)) if stop else _c(tf, a, c),
                                                      fft_length=length,
                                                      Treal=tf.float64 if dtype == D else tf.float32)), \
        [_n(*shape, dtype=dtype), _n(*shape, dtype=dtype)], None


def _circulant(tf, op, x):
    """A complex circulant operator's dense form, products, solve, determinant and trace as real parts."""
    x = tf.complex(x, x * 0.5)
    outs = [op.to_dense(), op.matmul(x), op.matmul(x, adjoint=True), op.solve(x), op.determinant(), op.trace()]
    return tuple(part for o in outs for part in _p(tf, o))


ANGLE_RE = np.array([[1.0, -1.0, 0.0, -2.0, 0.5], [3.0, -0.25, 1.5, -4.0, 2.0]], F)
ANGLE_IM = np.array([[0.5, 0.0, 2.0, -1.0, -0.5], [0.0, 1.0, -1.5, 0.25, 3.0]], F)
SIG = _n(2, 64)

CASES = {
    # -- complex parts ------------------------------------------------------------------------------
    "raw_complex": (lambda tf, a, c: _p(tf, _c(tf, a, c)), [_n(2, 3), _n(2, 3)], None),
    "raw_complex_broadcast": (lambda tf, a, c: _p(tf, _c(tf, a, c)), [_n(2, 3), _n(3)], None),
    "raw_complex_f64": (lambda tf, a, c: _p(tf, _c(tf, a, c)), [_n(2, 3, dtype=D), _n(2, 3, dtype=D)], None),
    "raw_conj": (lambda tf, a, c: _p(tf, tf.raw_ops.Conj(input=_c(tf, a, c))), [_n(2, 3), _n(2, 3)], None),
    "raw_angle": (lambda tf, a, c: tf.raw_ops.Angle(input=_c(tf, a, c)), [ANGLE_RE, ANGLE_IM], None),
    "raw_complex_abs": (lambda tf, a, c: tf.raw_ops.ComplexAbs(x=_c(tf, a, c)), [ANGLE_RE, ANGLE_IM], None),
    "raw_complex_abs_f64": (lambda tf, a, c: tf.raw_ops.ComplexAbs(x=_c(tf, a, c), Tout=tf.float64),
                            [_n(4, dtype=D), _n(4, dtype=D)], None),
    "raw_conjugate_transpose": (lambda tf, a, c: _p(tf, tf.raw_ops.ConjugateTranspose(x=_c(tf, a, c), perm=[2, 0, 1])),
                                [_n(2, 3, 4), _n(2, 3, 4)], None),
    # -- FFT / IFFT: power-of-two and other lengths ----------------------------------------------------
    "raw_fft": _raw_fft("FFT", (2, 8)),
    "raw_fft_odd": _raw_fft("FFT", (3, 7)),
    "raw_ifft": _raw_fft("IFFT", (2, 6)),
    "raw_fft2d": _raw_fft("FFT2D", (2, 4, 6)),
    "raw_ifft2d": _raw_fft("IFFT2D", (3, 5, 4)),
    "raw_fft3d": _raw_fft("FFT3D", (2, 3, 4, 4)),
    "raw_ifft3d": _raw_fft("IFFT3D", (2, 2, 3, 5)),
    "raw_fft_f64": (lambda tf, a, c: _p(tf, tf.raw_ops.FFT(input=_c(tf, a, c))), [_n(2, 10, dtype=D),
                                                                                    _n(2, 10, dtype=D)], None),
    # -- RFFT: even, odd and truncated lengths -----------------------------------------------------------
    "raw_rfft": _raw_rfft("RFFT", (2, 8), [8]),
    "raw_rfft_odd": _raw_rfft("RFFT", (3, 7), [7]),
    "raw_rfft_trunc": _raw_rfft("RFFT", (2, 9), [6], stop=True),
    "raw_rfft2d": _raw_rfft("RFFT2D", (3, 4, 6), [4, 6]),
    "raw_rfft2d_trunc": _raw_rfft("RFFT2D", (2, 5, 9), [3, 8], stop=True),
    "raw_rfft3d": _raw_rfft("RFFT3D", (2, 3, 4, 6), [3, 4, 6]),
    "raw_rfft_f64": _raw_rfft("RFFT", (2, 12), [12], D),
    # -- IRFFT ---------------------------------------------------------------------------------------
    "raw_irfft": _raw_irfft("IRFFT", (2, 5), [8]),
    "raw_irfft_odd": _raw_irfft("IRFFT", (2, 5), [9]),
    "raw_irfft_trunc": _raw_irfft("IRFFT", (2, 7), [8], stop=True),
    "raw_irfft2d": _raw_irfft("IRFFT2D", (3, 4, 5), [4, 8]),
    "raw_irfft3d": _raw_irfft("IRFFT3D", (2, 3, 4, 4), [3, 4, 6]),
    "raw_irfft_f64": _raw_irfft("IRFFT", (2, 7), [12], D),
    # -- tf.signal ------------------------------------------------------------------------------------
    "signal_fft": (lambda tf, a, c: _p(tf, tf.signal.fft(tf.complex(a, c))), [_n(2, 6), _n(2, 6)], None),
    "signal_ifft2d": (lambda tf, a, c: _p(tf, tf.signal.ifft2d(tf.complex(a, c))), [_n(2, 4, 3), _n(2, 4, 3)], None),
    "signal_fft3d": (lambda tf, a, c: _p(tf, tf.signal.fft3d(tf.complex(a, c))), [_n(2, 2, 3), _n(2, 2, 3)], None),
    "signal_rfft": (lambda tf, a: _p(tf, tf.signal.rfft(a)), [_n(3, 10)], None),
    "signal_rfft_pad": (lambda tf, a: _p(tf, tf.signal.rfft(a, fft_length=[16])), [_n(2, 11)], None),
    "signal_irfft": (lambda tf, a, c: tf.signal.irfft(tf.complex(a, c)), [_n(2, 5), _n(2, 5)], None),
    "signal_irfft_len": (lambda tf, a, c: tf.signal.irfft(tf.complex(a, c), fft_length=[7]), [_n(2, 4), _n(2, 4)],
                         None),
    "signal_rfft2d": (lambda tf, a: _p(tf, tf.signal.rfft2d(a, fft_length=[4, 8])), [_n(2, 4, 6)], None),
    "signal_irfft2d": (lambda tf, a, c: tf.signal.irfft2d(tf.complex(a, c)), [_n(3, 4, 3), _n(3, 4, 3)], None),
    "signal_rfft3d": (lambda tf, a: _p(tf, tf.signal.rfft3d(a)), [_n(2, 3, 4)], None),
    "signal_irfft3d": (lambda tf, a, c: tf.signal.irfft3d(tf.complex(a, c), fft_length=[2, 3, 5]),
                       [_n(2, 3, 3), _n(2, 3, 3)], None),
    "signal_stft": (lambda tf, a: _p(tf, tf.signal.stft(a, frame_length=16, frame_step=8)), [SIG], None),
    "signal_stft_pad_end": (lambda tf, a: _p(tf, tf.signal.stft(a, frame_length=12, frame_step=5, fft_length=16,
                                                                 window_fn=tf.signal.hamming_window, pad_end=True)),
                            [SIG], None),
    "signal_stft_magnitude": (lambda tf, a: tf.abs(tf.signal.stft(a, frame_length=8, frame_step=4, fft_length=8)),
                              [SIG], None),
    "signal_inverse_stft": (lambda tf, a, c: tf.signal.inverse_stft(tf.complex(a, c), frame_length=16,
                                                                    frame_step=4), [_n(2, 5, 9), _n(2, 5, 9)], None),
    "signal_stft_roundtrip": (lambda tf, a: tf.signal.inverse_stft(
        tf.signal.stft(a, frame_length=16, frame_step=4), frame_length=16, frame_step=4,
        window_fn=tf.signal.inverse_stft_window_fn(4)), [SIG], None),
    # -- tf.complex / tf.math on complex values ----------------------------------------------------------
    "math_parts": (lambda tf, a, c: (tf.math.real(tf.complex(a, c)), tf.math.imag(tf.complex(a, c)),
                                     tf.math.angle(tf.complex(a, c)), tf.abs(tf.complex(a, c))),
                   [ANGLE_RE, ANGLE_IM], None),
    "math_python_abs": (lambda tf, a, c: abs(tf.complex(a, c) * tf.complex(c, a)), [ANGLE_RE, ANGLE_IM], None),
    "math_on_real": (lambda tf, a: (tf.math.real(a), tf.math.imag(a), tf.math.conj(a), tf.math.angle(a)),
                     [ANGLE_RE], None),
    "math_arith": (lambda tf, a, c, d, e: _p(tf, tf.complex(a, c) * tf.complex(d, e) - tf.complex(d, e) / tf.complex(a, c)
                                            + tf.math.conj(tf.complex(a, c)) * 2.0),
                   [_n(2, 3), _n(2, 3), _n(2, 3), _n(2, 3)], None),
    "math_transcendental": (lambda tf, a, c: _p(tf, tf.exp(tf.complex(a, c)) + tf.math.log(tf.complex(a, c))
                                                + tf.sqrt(tf.complex(a, c)) + tf.tanh(tf.complex(a, c))
                                                + tf.sin(tf.complex(a, c)) * tf.square(tf.complex(a, c))),
                            [_n(2, 4) * 0.5, _n(2, 4) * 0.5], None),
    # three cases, not one: one fused loop of all ten complex expansions compiles in ~11 s on 2 cores
    "math_unary_trig": (lambda tf, a, c: _p(tf, tf.cos(tf.complex(a, c)) + tf.math.tan(tf.complex(a, c))
                                            + tf.math.expm1(tf.complex(a, c))), [_n(2, 4) * 0.5, _n(2, 4) * 0.5], None),
    "math_unary_inverse": (lambda tf, a, c: _p(tf, tf.math.log1p(tf.complex(a, c)) + tf.math.reciprocal(tf.complex(a, c))
                                               + tf.math.rsqrt(tf.complex(a, c))), [_n(2, 4) * 0.5, _n(2, 4) * 0.5], None),
    "math_unary_hyperbolic": (lambda tf, a, c: _p(tf, tf.math.sinh(tf.complex(a, c)) + tf.math.cosh(tf.complex(a, c))
                                                  + tf.negative(tf.complex(a, c)) + tf.math.sigmoid(tf.complex(a, c))),
                              [_n(2, 4) * 0.5, _n(2, 4) * 0.5], None),
    "math_reductions": (lambda tf, a, c: _p(tf, tf.reduce_mean(tf.complex(a, c), 1) + tf.reduce_prod(tf.complex(a, c), 1)
                                            + tf.reduce_sum(tf.complex(a, c) ** tf.complex(c * 0.1, a * 0.1), 1)
                                            + tf.reduce_sum(tf.math.square(tf.complex(a, c)), 1)),
                        [_n(2, 4) + 2.0, _n(2, 4) * 0.5], None),
    "math_matmul_sum": (lambda tf, a, c, d, e: _p(tf, tf.reduce_sum(tf.matmul(tf.complex(a, c), tf.complex(d, e)), 0)),
                        [_n(3, 4), _n(3, 4), _n(4, 2), _n(4, 2)], None),
    "math_adjoint": (lambda tf, a, c: _p(tf, tf.linalg.adjoint(tf.complex(a, c))), [_n(2, 3, 4), _n(2, 3, 4)], None),
    "math_transpose_conjugate": (lambda tf, a, c: _p(tf, tf.transpose(tf.complex(a, c), conjugate=True)),
                                 [_n(3, 4), _n(3, 4)], None),
    "math_complex128": (lambda tf, a, c: _p(tf, tf.exp(tf.complex(a, c)) * tf.complex(c, a)),
                        [_n(5, dtype=D), _n(5, dtype=D)], None),
    # -- tf.linalg.LinearOperatorCirculant{,2D,3D} ------------------------------------------------------
    "linalg_circulant": (lambda tf, a, c, x: _circulant(tf, tf.linalg.LinearOperatorCirculant(tf.complex(a, c)), x),
                         [_n(5), _n(5), _n(5, 2)], None),
    "linalg_circulant_real": (lambda tf, a, x: (lambda op: (op.to_dense(), op.matvec(x), op.log_abs_determinant(),
                                                            op.solvevec(x)))(
        tf.linalg.LinearOperatorCirculant(tf.complex(a + tf.reverse(tf.roll(a, -1, 0), [0]), tf.zeros_like(a)),
                                          input_output_dtype=tf.float32)), [_n(6) + 4.0, _n(6)], None),
    "linalg_circulant2d": (lambda tf, a, c, x: _circulant(tf, tf.linalg.LinearOperatorCirculant2D(tf.complex(a, c)), x),
                           [_n(2, 2, 3) + 2.0, _n(2, 2, 3), _n(2, 6, 3)], None),
    "linalg_circulant3d": (lambda tf, a, c, x: _circulant(tf, tf.linalg.LinearOperatorCirculant3D(tf.complex(a, c)), x),
                           [_n(2, 2, 2) + 2.0, _n(2, 2, 2), _n(8, 1)], None),
    # a spectral loss as users write one: filter in the frequency domain, magnitude, back to time
    "spectral_filter": (lambda tf, a, w: tf.signal.irfft(tf.signal.rfft(a) * tf.complex(w, w * 0.5)) + tf.reduce_sum(
        tf.abs(tf.signal.rfft(a))), [_n(2, 16), _n(9)], None),
}
