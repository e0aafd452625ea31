"""tf.signal (real-valued) cases, recorded from real TensorFlow by `record_tf_goldens.py --cases
tests/frontend/signal_cases.py --out tests/golden/signal`, replayed by test_signal_goldens.py."""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(23)
SIG = R.standard_normal((2, 20)).astype(np.float32)
FRAMES = R.standard_normal((2, 5, 8)).astype(np.float32)
X8 = R.standard_normal((3, 8)).astype(np.float32)
MEL = R.standard_normal((4, 10)).astype(np.float32)
GRID = R.standard_normal((4, 5)).astype(np.float32)

CASES = {
    "sig_hann_window": (lambda tf, x: x * tf.signal.hann_window(8), [X8], None),
    "sig_hann_window_symmetric": (lambda tf, x: x * tf.signal.hann_window(8, periodic=False), [X8], None),
    "sig_hamming_window": (lambda tf, x: x * tf.signal.hamming_window(8), [X8], None),
    "sig_kaiser_window": (lambda tf, x: x * tf.signal.kaiser_window(8, beta=6.0), [X8], None),
    "sig_kaiser_bessel_derived_window": (lambda tf, x: x * tf.signal.kaiser_bessel_derived_window(8), [X8], None),
    "sig_vorbis_window": (lambda tf, x: x * tf.signal.vorbis_window(8), [X8], None),
    "sig_frame": (lambda tf, s: tf.signal.frame(s, 6, 4), [SIG], None),
    "sig_frame_pad_end": (lambda tf, s: tf.signal.frame(s, 6, 4, pad_end=True, pad_value=1.5), [SIG], None),
    "sig_frame_axis0": (lambda tf, s: tf.signal.frame(s, 2, 1, axis=0), [SIG], None),
    "sig_overlap_and_add": (lambda tf, f: tf.signal.overlap_and_add(f, 3), [FRAMES], None),
    "sig_dct1": (lambda tf, x: tf.signal.dct(x, type=1), [X8], None),
    "sig_dct2": (lambda tf, x: tf.signal.dct(x), [X8], None),
    "sig_dct2_ortho": (lambda tf, x: tf.signal.dct(x, norm="ortho"), [X8], None),
    "sig_dct3": (lambda tf, x: tf.signal.dct(x, type=3), [X8], None),
    "sig_dct3_ortho": (lambda tf, x: tf.signal.dct(x, type=3, norm="ortho"), [X8], None),
    "sig_dct4": (lambda tf, x: tf.signal.dct(x, type=4), [X8], None),
    "sig_dct4_ortho": (lambda tf, x: tf.signal.dct(x, type=4, norm="ortho"), [X8], None),
    "sig_dct2_n": (lambda tf, x: tf.signal.dct(x, n=5), [X8], None),
    "sig_dct2_n_pad": (lambda tf, x: tf.signal.dct(x, n=11), [X8], None),
    "sig_idct2_ortho": (lambda tf, x: tf.signal.idct(x, norm="ortho"), [X8], None),
    "sig_idct3": (lambda tf, x: tf.signal.idct(x, type=3), [X8], None),
    "sig_mdct": (lambda tf, s: tf.signal.mdct(s, 8), [SIG], None),
    "sig_mdct_ortho_rect": (lambda tf, s: tf.signal.mdct(s, 8, window_fn=None, norm="ortho"), [SIG], None),
    "sig_inverse_mdct": (lambda tf, f: tf.signal.inverse_mdct(f), [FRAMES[:, :, :4].copy()], None),
    "sig_inverse_stft_window_fn": (lambda tf, x: x * tf.signal.inverse_stft_window_fn(3)(8, dtype=tf.float32),
                                   [X8], None),
    "sig_linear_to_mel_weight_matrix": (lambda tf, x: tf.matmul(x, tf.signal.linear_to_mel_weight_matrix(
        num_mel_bins=6, num_spectrogram_bins=10, sample_rate=16000, lower_edge_hertz=100.0,
        upper_edge_hertz=7000.0)), [MEL], None),
    "sig_mfccs_from_log_mel_spectrograms": (lambda tf, x: tf.signal.mfccs_from_log_mel_spectrograms(x), [MEL], None),
    "sig_fftshift": (lambda tf, x: tf.signal.fftshift(x), [GRID], np.fft.fftshift(GRID)),
    "sig_ifftshift_axis": (lambda tf, x: tf.signal.ifftshift(x, axes=1), [GRID], np.fft.ifftshift(GRID, axes=1)),
}
