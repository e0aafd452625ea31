"""VJP rules of hlo.complex, hlo.real, hlo.imag and hlo.fft, in TF's convention for complex values (the
cotangent of z is dL/dRe z + i dL/dIm z). The TF ops built on them carry TF's own gradients
(ops/raw_complex_ops.py), so these rules run when such a gradient is itself differentiated (a tape
watching a gradient computation). They are not holomorphic rules: backprop applies them as they are.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.autodiff.backprop import defvjp


def _zero(b, like):
    return b.full(like.shape, 0, like.dtype)


@defvjp("complex")
def _complex(b, p, cts):
    return [b.real(cts[0]), b.imag(cts[0])]


@defvjp("real")
def _real(b, p, cts):
    g = cts[0]
    return [b.complex(g, _zero(b, g)) if np.dtype(p.operands[0].dtype).kind == "c" else g]


@defvjp("imag")
def _imag(b, p, cts):
    g = cts[0]
    return [b.complex(_zero(b, g), g) if np.dtype(p.operands[0].dtype).kind == "c" else _zero(b, g)]


def _scaled(b, x, factor):
    return b.multiply(x, b.full(x.shape, factor, x.dtype))


@defvjp("fft")
def _fft(b, p, cts):
    """The adjoint transform: FFT^H = n IFFT, IFFT^H = FFT / n; RFFT's is n Re(IFFT(g zero-padded to the
    full last axis)); IRFFT's, as TF's IRFFT gradient, RFFT(g) with the paired bins doubled, over n."""
    kind, length = p.attrs["type"], list(p.attrs["length"])
    g, x = cts[0], p.operands[0]
    n = float(np.prod(length))
    if kind in ("FFT", "IFFT"):
        return [_scaled(b, b.fft(g, "IFFT" if kind == "FFT" else "FFT", length), n if kind == "FFT" else 1 / n)]
    rank = len(g.shape)
    if kind == "RFFT":
        pad = length[-1] - g.shape[-1]
        full = b.pad(g, b.scalar(0, g.dtype), [0] * rank, [0] * (rank - 1) + [pad])
        return [b.real(_scaled(b, b.fft(full, "IFFT", length), n))]
    half = x.shape[-1]
    mask = np.full(half, 2.0)
    mask[0] = 1.0
    if length[-1] % 2 == 0:
        mask[-1] = 1.0
    y = b.fft(g, "RFFT", length)
    m = b.broadcast_in_dim(b.constant((mask / n).astype(y.dtype)), y.shape, [rank - 1])
    return [b.multiply(y, m)]
