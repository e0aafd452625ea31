"""`tf.signal`, its real-valued part: windows, framing and overlap-add, DCT I-IV (as matrix
products with a cosine basis), MDCT and its inverse, mel filterbanks and MFCCs, fftshift.
(FFTs and the STFT are in signal_fft.py.)

Windows and filterbanks depend only on static arguments: they are computed on the host in
float64 and enter the program as constants, as TF's XLA lowering folds them.
"""

from __future__ import annotations

import numpy as np

tf = None  # the public `tf` module, set by install()


def _np_dtype(dtype):
    return tf.as_dtype(dtype).as_numpy_dtype


def _static(value, what):
    if hasattr(value, "numpy"):
        value = value.numpy()
    try:
        return value.item() if hasattr(value, "item") else value
    except ValueError:
        raise ValueError(f"tf.signal: {what} must be a scalar known when the program is built") from None


# -- windows ---------------------------------------------------------------------------------

def _raised_cosine(window_length, periodic, dtype, a, b):
    n = int(_static(window_length, "window_length"))
    if n == 1:
        return tf.ones([1], dtype)
    even = 1 - n % 2
    denominator = n + int(bool(periodic)) * even - 1
    count = np.arange(n, dtype=np.float64)
    return tf.constant((a - b * np.cos(2 * np.pi * count / denominator)).astype(_np_dtype(dtype)))


def hann_window(window_length, periodic=True, dtype=np.float32, name=None):
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=np.float32, name=None):
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def _kaiser(n: int, beta: float) -> np.ndarray:
    if n == 1:
        return np.ones(1)
    half = (n - 1) / 2.0
    arg = np.arange(-half, half + 0.1)
    return np.i0(beta * np.sqrt(np.maximum(1.0 - arg ** 2 / half ** 2, 0.0))) / np.i0(beta)


def kaiser_window(window_length, beta=12.0, dtype=np.float32, name=None):
    n = int(_static(window_length, "window_length"))
    return tf.constant(_kaiser(n, float(_static(beta, "beta"))).astype(_np_dtype(dtype)))


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=np.float32, name=None):
    n = int(_static(window_length, "window_length"))
    kaiser = _kaiser(n // 2 + 1, float(_static(beta, "beta")))
    csum = np.cumsum(kaiser)
    half = np.sqrt(csum[:-1] / csum[-1])
    return tf.constant(np.concatenate([half, half[::-1]]).astype(_np_dtype(dtype)))


def vorbis_window(window_length, dtype=np.float32, name=None):
    n = int(_static(window_length, "window_length"))
    arg = np.arange(n, dtype=np.float64)
    return tf.constant(np.sin(np.pi / 2.0 * np.sin(np.pi / n * (arg + 0.5)) ** 2).astype(_np_dtype(dtype)))


# -- framing ------------------------------------------------------------------------------------

def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Overlapping frames of `frame_length` every `frame_step` along `axis` (a new frames axis before it)."""
    signal = tf.convert_to_tensor(signal)
    rank = signal.shape.rank
    axis = axis % rank
    length, flen, step = signal.shape[axis], int(frame_length), int(frame_step)
    if pad_end:
        frames = -(-length // step)
        padded = max((frames - 1) * step + flen - length, 0)
        if padded:
            pads = [[0, 0]] * rank
            pads[axis] = [0, padded]
            signal = tf.pad(signal, pads, constant_values=tf.cast(pad_value, signal.dtype))
    else:
        frames = max(0, 1 + (length - flen) // step)
    index = (np.arange(frames)[:, None] * step + np.arange(flen)[None, :]).astype(np.int32)
    return tf.gather(signal, tf.constant(index), axis=axis)


def overlap_and_add(signal, frame_step, name=None):
    """Sum of frames [..., frames, frame_length] placed every frame_step samples."""
    signal = tf.convert_to_tensor(signal)
    if signal.shape.rank < 2:
        raise ValueError(f"overlap_and_add: signal must have rank at least 2, got shape {signal.shape}")
    *outer, frames, flen = signal.shape.as_list()
    step = int(frame_step)
    out_len = (frames - 1) * step + flen if frames else 0
    ids = (np.arange(frames)[:, None] * step + np.arange(flen)[None, :]).reshape(-1).astype(np.int32)
    flat = tf.reshape(signal, [*outer, frames * flen])
    moved = tf.transpose(flat, [len(outer), *range(len(outer))]) if outer else flat
    summed = tf.math.unsorted_segment_sum(moved, tf.constant(ids), out_len)
    return tf.transpose(summed, [*range(1, len(outer) + 1), 0]) if outer else summed


# -- DCT ----------------------------------------------------------------------------------------------

def _dct_matrix(kind: int, n: int, norm) -> np.ndarray:
    """M with dct(x) = x @ M (float64), scipy's definitions."""
    k = np.arange(n)[None, :]  # output index
    j = np.arange(n)[:, None]  # input index
    if kind == 1:
        if n < 2:
            raise ValueError("DCT type 1 needs a length of at least 2")
        m = 2 * np.cos(np.pi * j * k / (n - 1))
        m[0, :], m[-1, :] = 1.0, (-1.0) ** np.arange(n)
        return m
    if kind == 2:
        m = 2 * np.cos(np.pi * k * (2 * j + 1) / (2 * n))
        if norm == "ortho":
            m[:, 0] *= np.sqrt(1 / (4 * n))
            m[:, 1:] *= np.sqrt(1 / (2 * n))
        return m
    if kind == 3:
        m = 2 * np.cos(np.pi * j * (2 * k + 1) / (2 * n))
        m[0, :] = 1.0
        if norm == "ortho":
            m[0, :] *= np.sqrt(1 / n)
            m[1:, :] *= np.sqrt(2 / n) / 2
        return m
    m = 2 * np.cos(np.pi * (2 * j + 1) * (2 * k + 1) / (4 * n))  # type 4
    return m * np.sqrt(1 / (2 * n)) if norm == "ortho" else m


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 -- TF's argument names
    x = tf.convert_to_tensor(input)
    if axis not in (-1, x.shape.rank - 1):
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if type not in (1, 2, 3, 4):
        raise ValueError(f"Types I, II, III and IV (I)DCT are supported, got {type}")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    if type == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    length = x.shape[-1]
    if n is not None:
        if n < 1:
            raise ValueError(f"Invalid length: `n` must be a positive integer, got {n}")
        if n < length:
            x = x[..., :n]
        elif n > length:
            x = tf.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - length]])
        length = n
    basis = tf.constant(_dct_matrix(type, length, norm).astype(x.dtype.as_numpy_dtype))
    return tf.tensordot(x, basis, axes=[[x.shape.rank - 1], [0]])


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    return dct(input, type={1: 1, 2: 3, 3: 2, 4: 4}.get(type, type), n=n, axis=axis, norm=norm)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """Frames of frame_length every frame_length / 2, windowed (None: rectangular, scaled by 1/sqrt(2)),
    folded and DCT-IV'd."""
    flen = int(frame_length)
    if flen % 4:
        raise ValueError("The frame length must be a multiple of 4.")
    frames = frame(signals, flen, flen // 2, pad_end=pad_end)
    if window_fn is not None:
        frames = frames * window_fn(flen, dtype=frames.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2))
    a, b, c, d = tf.split(frames, 4, axis=-1)
    folded = tf.concat([-tf.reverse(c, [-1]) - d, a - tf.reverse(b, [-1])], axis=-1)
    return dct(folded, type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    mdcts = tf.convert_to_tensor(mdcts)
    half = mdcts.shape[-1]
    if norm is None:
        result = (0.5 / half) * dct(mdcts, type=4)
    elif norm == "ortho":
        result = dct(mdcts, type=4, norm="ortho")
    else:
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    first, second = tf.split(result, 2, axis=-1)
    frames = tf.concat([second, -tf.reverse(second, [-1]), -tf.reverse(first, [-1]), -first], axis=-1)
    if window_fn is not None:
        frames = frames * window_fn(2 * half, dtype=frames.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2))
    return overlap_and_add(frames, half)


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window function that makes inverse_stft undo stft: the forward window over the sum of
    its squares at each overlap position."""
    step = int(frame_step)

    def window(frame_length, dtype):
        forward = forward_window_fn(frame_length, dtype=dtype)
        flen = int(frame_length)
        overlaps = -(-flen // step)
        denom = tf.pad(tf.square(forward), [[0, overlaps * step - flen]])
        denom = tf.reshape(tf.tile(tf.reduce_sum(tf.reshape(denom, [overlaps, step]), 0, keepdims=True),
                                   [overlaps, 1]), [overlaps * step])
        return forward / denom[:flen]

    return window


# -- mel --------------------------------------------------------------------------------------------

def _hertz_to_mel(f):
    return 1127.0 * np.log(1.0 + f / 700.0)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0, dtype=np.float32, name=None):
    """[num_spectrogram_bins, num_mel_bins] triangular filters, evenly spaced on the mel scale (HTK)."""
    bins, mels = int(num_spectrogram_bins), int(num_mel_bins)
    lo, hi, rate = (float(_static(v, w)) for v, w in ((lower_edge_hertz, "lower_edge_hertz"),
                                                      (upper_edge_hertz, "upper_edge_hertz"),
                                                      (sample_rate, "sample_rate")))
    if not 0.0 <= lo < hi <= rate / 2.0:
        raise ValueError(f"need 0 <= lower_edge_hertz < upper_edge_hertz <= sample_rate / 2, got {lo}, {hi}, {rate}")
    dt = _np_dtype(dtype)
    freqs = np.linspace(0.0, rate / 2.0, bins).astype(dt)[1:]
    spec_mel = _hertz_to_mel(freqs).astype(dt)[:, None]
    edges = np.linspace(_hertz_to_mel(lo), _hertz_to_mel(hi), mels + 2).astype(dt)
    lower, center, upper = edges[:-2][None], edges[1:-1][None], edges[2:][None]
    weights = np.maximum(0.0, np.minimum((spec_mel - lower) / (center - lower), (upper - spec_mel) / (upper - center)))
    return tf.constant(np.pad(weights.astype(dt), [[1, 0], [0, 0]]))


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    x = tf.convert_to_tensor(log_mel_spectrograms)
    return dct(x, type=2) * tf.math.rsqrt(tf.cast(x.shape[-1] * 2.0, x.dtype))


def fftshift(x, axes=None, name=None):
    x = tf.convert_to_tensor(x)
    axes = list(range(x.shape.rank)) if axes is None else ([axes] if isinstance(axes, int) else list(axes))
    return tf.roll(x, [x.shape[a] // 2 for a in axes], axes)


def ifftshift(x, axes=None, name=None):
    x = tf.convert_to_tensor(x)
    axes = list(range(x.shape.rank)) if axes is None else ([axes] if isinstance(axes, int) else list(axes))
    return tf.roll(x, [-(x.shape[a] // 2) for a in axes], axes)


def install(tf_module) -> None:
    global tf
    tf = tf_module
    from types import SimpleNamespace

    names = ("hann_window", "hamming_window", "kaiser_window", "kaiser_bessel_derived_window", "vorbis_window",
             "frame", "overlap_and_add", "dct", "idct", "mdct", "inverse_mdct", "inverse_stft_window_fn",
             "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "fftshift", "ifftshift")
    space = getattr(tf_module, "signal", None) or SimpleNamespace()
    for n in names:
        setattr(space, n, globals()[n])
    tf_module.signal = space
