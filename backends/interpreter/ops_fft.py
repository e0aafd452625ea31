"""`hlo.fft` on numpy.fft (pocketfft): the oracle the compiled FFT kernel is tested against.

numpy's n-d transforms are StableHLO's definition (1-d transforms along each
of the trailing axes; RFFT's real axis last, IRFFT's last); the result is
rounded once to the result element type. Zero-size transforms give zeros.
"""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.attrs import ints, prop
from minixla.backends.interpreter.op_table import impl
from minixla.dialects.numpy_types import numpy_dtype


def fft(x: np.ndarray, kind: str, length: tuple[int, ...], out_shape: tuple[int, ...],
        out_dtype: np.dtype) -> np.ndarray:
    """The transform `kind` ("FFT", "IFFT", "RFFT", "IRFFT") of `x` over its len(length) last axes."""
    if 0 in out_shape or 0 in x.shape:
        return np.zeros(out_shape, out_dtype)
    axes = tuple(range(x.ndim - len(length), x.ndim))
    if kind == "FFT":
        y = np.fft.fftn(x, axes=axes)
    elif kind == "IFFT":
        y = np.fft.ifftn(x, axes=axes)
    elif kind == "RFFT":
        y = np.fft.rfftn(x, s=length, axes=axes)
    else:
        y = np.fft.irfftn(x, s=length, axes=axes)
    return np.asarray(y).astype(out_dtype)


@impl("hlo.fft")
def _fft(op, args, interp):
    t = op.results[0].type
    return fft(args[0], prop(op, "fft_type").data.value, ints(prop(op, "fft_length")), tuple(t.get_shape()),
               numpy_dtype(t.get_element_type()))
