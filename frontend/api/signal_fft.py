"""`tf.signal`'s Fourier transforms: fft/ifft/rfft/irfft in 1-3 d and over any axes (the *nd forms with
`norm`), and the short-time transform pair stft/inverse_stft, written as TF's fft_ops.py and
spectral_ops.py write them: fft_length inferred from the static shape, inputs zero-padded up to it
(the raw ops truncate), stft = frame * window -> rfft, inverse_stft = irfft -> window -> overlap_and_add.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.api.signal import hann_window
from minixla.frontend.execute import execute

tf = None  # the public `tf` module, set by install()


def _ints(value) -> list[int]:
    if hasattr(value, "numpy"):
        value = value.numpy()
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _complex_input(x, op: str):
    x = tf.convert_to_tensor(x, dtype_hint=tf.complex64)
    if not x.dtype.is_complex:
        raise ValueError(f"{op} requires tf.complex64 or tf.complex128 inputs, got: {x.dtype.name}")
    return x


def _real_input(x, op: str):
    x = tf.convert_to_tensor(x, dtype_hint=tf.float32)
    if x.dtype not in (tf.float32, tf.float64):
        raise ValueError(f"{op} requires tf.float32 or tf.float64 inputs, got: {x.dtype.name}")
    return x


def _rank_at_least(x, k: int, op: str):
    if x.shape.rank < k:
        raise ValueError(f"{op}: Shape {x.shape} must have rank at least {k}")


def _pad_up(x, sizes: list[int], axes: list[int]):
    """Zero padding of `x` along `axes` up to `sizes` (TF's _maybe_pad_for_rfft; never truncates)."""
    shape = x.shape.as_list()
    if 0 in shape:
        return x
    pads = [[0, 0] for _ in shape]
    for a, n in zip(axes, sizes):
        pads[a][1] = max(n - shape[a], 0)
    return tf.pad(x, pads) if any(p[1] for p in pads) else x


def _fixed(op: str):
    def fn(input, name=None):  # noqa: A002 -- TF's argument names
        return execute(op, [tf.convert_to_tensor(input, dtype_hint=tf.complex64)])

    fn.__name__ = op.lower()
    fn.__doc__ = f"tf.raw_ops.{op} over the innermost dimensions of a complex tensor."
    return fn


def _rfft(op: str, k: int):
    def fn(input_tensor, fft_length=None, name=None):
        x = _real_input(input_tensor, "RFFT")
        _rank_at_least(x, k, op)
        n = x.shape.as_list()[-k:] if fft_length is None else _ints(fft_length)
        x = _pad_up(x, n, list(range(x.shape.rank - k, x.shape.rank)))
        return execute(op, [x, np.asarray(n, np.int32)])

    fn.__name__ = op.lower()
    return fn


def _irfft(op: str, k: int):
    def fn(input_tensor, fft_length=None, name=None):
        x = _complex_input(input_tensor, "IRFFT")
        _rank_at_least(x, k, op)
        if fft_length is None:
            n = x.shape.as_list()[-k:]
            n[-1] = max(0, 2 * (n[-1] - 1))
        else:
            n = _ints(fft_length)
        x = _pad_up(x, n[:-1] + [n[-1] // 2 + 1], list(range(x.shape.rank - k, x.shape.rank)))
        return execute(op, [x, np.asarray(n, np.int32)])

    fn.__name__ = op.lower()
    return fn


def _nd(op: str):
    kind = op[:-2]

    def fn(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        x = _real_input(input_tensor, kind) if kind == "RFFT" else _complex_input(input_tensor, kind)
        rank = x.shape.rank
        ax = list(range(rank)) if axes is None else [a % rank for a in _ints(axes)]
        if fft_length is None:
            n = [x.shape.as_list()[a] for a in ax]
            if kind == "IRFFT":
                n[-1] = max(0, 2 * (n[-1] - 1))
        else:
            n = _ints(fft_length)
        x = _pad_up(x, n[:-1] + [n[-1] // 2 + 1] if kind == "IRFFT" else n, ax)
        norm = "backward" if norm is None else norm
        if norm not in ("backward", "forward", "ortho"):
            raise ValueError(f"tf.signal.{op.lower()}: norm must be 'backward', 'forward' or 'ortho', got {norm!r}")
        if norm != "backward":
            size = float(np.prod(n))
            scale = (size if norm == "forward" else np.sqrt(size)) ** (1 if kind in ("IFFT", "IRFFT") else -1)
            x = x * tf.cast(scale, x.dtype)
        return execute(op, [x, np.asarray(n, np.int32), np.asarray(ax, np.int32)])

    fn.__name__ = op.lower()
    return fn


def _enclosing_power_of_two(value: int) -> int:
    return int(2 ** np.ceil(np.log(value) / np.log(2.0)))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """[..., frames, fft_length // 2 + 1] spectra of windowed frames."""
    signals = tf.convert_to_tensor(signals)
    _rank_at_least(signals, 1, "stft")
    flen = int(_ints(frame_length)[0])
    fft_length = _enclosing_power_of_two(flen) if fft_length is None else int(_ints(fft_length)[0])
    framed = tf.signal.frame(signals, flen, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(flen, dtype=framed.dtype)
    return tf.signal.rfft(framed, [fft_length])


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """Overlap-added, windowed inverse real FFTs of `stfts` (inverse_stft_window_fn makes it undo stft)."""
    stfts = _complex_input(stfts, "inverse_stft")
    _rank_at_least(stfts, 2, "inverse_stft")
    flen = int(_ints(frame_length)[0])
    fft_length = _enclosing_power_of_two(flen) if fft_length is None else int(_ints(fft_length)[0])
    frames = tf.signal.irfft(stfts, [fft_length])
    have = frames.shape.as_list()[-1]
    if have > flen:
        frames = frames[..., :flen]
    elif have < flen:
        frames = tf.pad(frames, [[0, 0]] * (frames.shape.rank - 1) + [[0, flen - have]])
    if window_fn is not None:
        frames = frames * window_fn(flen, dtype=stfts.dtype.real_dtype)
    return tf.signal.overlap_and_add(frames, frame_step)


def install(module) -> None:
    global tf
    tf = module
    space = module.signal
    for op in ("FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D"):
        setattr(space, op.lower(), _fixed(op))
    for k, suffix in ((1, ""), (2, "2D"), (3, "3D")):
        setattr(space, f"rfft{suffix.lower()}", _rfft(f"RFFT{suffix}", k))
        setattr(space, f"irfft{suffix.lower()}", _irfft(f"IRFFT{suffix}", k))
    for op in ("FFTND", "IFFTND", "RFFTND", "IRFFTND"):
        setattr(space, op.lower(), _nd(op))
    space.stft, space.inverse_stft = stft, inverse_stft
