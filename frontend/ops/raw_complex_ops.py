"""Complex numbers and FFTs as raw ops: Complex, Real, Imag, Conj, Angle, ComplexAbs, ConjugateTranspose
and the FFT family (FFT/IFFT/RFFT/IRFFT in 1-3 d, and the n-d ops over any axes), on `hlo.complex`,
`hlo.real`, `hlo.imag` and `hlo.fft`.

As TF's kernels and tf2xla do, RFFT/IRFFT inputs longer than `fft_length` are sliced to it first, so
`hlo.fft` always sees matching trailing dimensions; a shorter one is TF's InvalidArgumentError (the
tf.signal wrappers zero-pad first, as TF's do). Each op carries TF's own gradient (fft_ops.py, math_grad.py), in TF's
convention for complex values (the conjugate of the Wirtinger derivative): the tape records the op as
one unit, so no VJP of the hlo primitives is needed.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import broadcast_all, op_error, register, register_gradient, shape_text

_C = (np.complex64, np.complex128)
_R = (np.float32, np.float64)


def _complex_of(dt) -> np.dtype:
    return np.dtype(np.complex64 if np.dtype(dt) == np.float32 else np.complex128)


def _tf_name(dt) -> str:
    return {"float32": "float", "float64": "double"}.get(np.dtype(dt).name, np.dtype(dt).name)


def _check(op: str, x, allowed, attr: str = "T"):
    """TF's attr check, in TF's words (`Value for attr 'Tcomplex' of float is not in the list ...`)."""
    if np.dtype(x.dtype) not in [np.dtype(a) for a in allowed]:
        raise op_error(op, f"Value for attr '{attr}' of {_tf_name(x.dtype)} is not in the list of allowed values: "
                           f"{', '.join(_tf_name(a) for a in allowed)}")


def _out_type(op: str, want, given):
    """A Tout/Treal/Tcomplex attribute, when given, must be the type the inputs imply."""
    if given is not None and np.dtype(getattr(given, "as_numpy_dtype", given)) != np.dtype(want):
        raise op_error(op, f"output type {np.dtype(getattr(given, 'as_numpy_dtype', given)).name} does not match "
                           f"the input's {np.dtype(want).name}")


def _unbroadcast(b, g, shape):
    lead = len(g.shape) - len(shape)
    dims = list(range(lead)) + [lead + d for d, n in enumerate(shape) if n == 1 and g.shape[lead + d] != 1]
    return b.reshape(b.reduce(g, b.scalar(0, g.dtype), dims, "add"), shape) if dims else g


def _conj(b, x):
    return b.complex(b.real(x), b.negate(b.imag(x))) if np.dtype(x.dtype).kind == "c" else x


def _as_complex(b, x):
    return b.complex(x, b.full(x.shape, 0, x.dtype))


# -- complex parts ----------------------------------------------------------------------------------

def complex_(b, real, imag, Tout=None):
    _check("Complex", real, _R)
    _out_type("Complex", _complex_of(real.dtype), Tout)
    re, im = broadcast_all(b, "Complex", real, imag)
    return b.complex(re, im)


def _part(op: str, fn):
    def rule(b, input, Tout=None):
        _check(op, input, _C)
        _out_type(op, np.real(np.zeros((), input.dtype)).dtype, Tout)
        return fn(b, input)

    rule.__name__ = op.lower()
    return rule


def conj(b, input):
    _check("Conj", input, _C)
    return _conj(b, input)


def angle(b, x):
    return b.atan2(b.imag(x), b.real(x))


def conjugate_transpose(b, x, perm):
    p = [int(v) for v in np.asarray(perm).reshape(-1)]
    if sorted(p) != list(range(len(x.shape))):
        raise op_error("ConjugateTranspose", f"{p} is not a permutation of 0..{len(x.shape) - 1}")
    return _conj(b, b.transpose(x, p))


register("Complex", ("real", "imag"), complex_, attrs={"Tout": None})
register("Real", ("input",), _part("Real", lambda b, x: b.real(x)), attrs={"Tout": None})
register("Imag", ("input",), _part("Imag", lambda b, x: b.imag(x)), attrs={"Tout": None})
register("Angle", ("input",), _part("Angle", angle), attrs={"Tout": None})
register("ComplexAbs", ("x",), _part("ComplexAbs", lambda b, x: b.abs(x)), attrs={"Tout": None})
register("Conj", ("input",), conj)
register("ConjugateTranspose", ("x", "perm"), conjugate_transpose, const_inputs=("perm",))


@register_gradient("Complex")
def _complex_grad(b, op, grad):
    real, imag = op.inputs
    return [_unbroadcast(b, b.real(grad), real.shape), _unbroadcast(b, b.imag(grad), imag.shape)]


@register_gradient("Real")
def _real_grad(b, op, grad):
    return [_as_complex(b, grad)]


@register_gradient("Imag")
def _imag_grad(b, op, grad):
    return [b.complex(b.full(grad.shape, 0, grad.dtype), grad)]


@register_gradient("Conj")
def _conj_grad(b, op, grad):
    return [_conj(b, grad)]


@register_gradient("ConjugateTranspose")
def _conjugate_transpose_grad(b, op, grad):
    inverse = np.argsort([int(v) for v in np.asarray(op.inputs[1]).reshape(-1)])
    return [_conj(b, b.transpose(grad, inverse)), None]


@register_gradient("Angle")
def _angle_grad(b, op, grad):
    """TF's: -complex(grad, 0) / complex(imag(x), real(x))."""
    x = op.inputs[0]
    z = b.complex(b.imag(x), b.real(x))
    return [b.negate(b.divide(_as_complex(b, grad), z))]


@register_gradient("ComplexAbs")
def _complex_abs_grad(b, op, grad):
    """TF's: div_no_nan(complex(grad, 0) * x, complex(|x|, 0))."""
    x, y = op.inputs[0], op.outputs[0]
    q = b.divide(b.multiply(_as_complex(b, grad), x), _as_complex(b, y))
    zero = b.full(y.shape, 0, y.dtype)
    return [b.select(b.compare(y, zero, "EQ"), b.full(x.shape, 0, x.dtype), q)]


# -- FFTs ----------------------------------------------------------------------------------------------

def _fit(b, x, sizes) -> object:
    """`x` sliced (inputs) or zero-padded (gradients, and the n-d ops) on its trailing dims to `sizes`."""
    k, shape = len(sizes), tuple(x.shape)
    lead = shape[:-k] if k else shape
    keep = [min(n, s) for n, s in zip(shape[-k:], sizes)]
    x = b.slice(x, [0] * len(shape), list(lead) + keep)
    high = [0] * len(lead) + [s - n for n, s in zip(keep, sizes)]
    if any(high):
        x = b.pad(x, b.scalar(0, x.dtype), [0] * len(shape), high)
    return x


def _half(n: int) -> int:
    """Length of a real transform's complex side (0 for an empty transform, as TF and StableHLO)."""
    return n // 2 + 1 if n else 0


def _lengths(op: str, fft_length, k: int) -> list[int]:
    n = [int(v) for v in np.asarray(fft_length).reshape(-1)]
    if len(n) != k:
        raise op_error(op, f"fft_length must have {k} elements, got {len(n)}")
    if any(v < 0 for v in n):
        raise op_error(op, f"fft_length must not be negative, got {n}")
    return n


def _rank(op: str, x, k: int):
    if len(x.shape) < k:
        raise op_error(op, f"Input must have rank of at least {k} but got: {shape_text(x.shape)}")


def _at_least(op: str, x, sizes: list[int]):
    """TF's kernels (and tf2xla) pad nothing: each transformed input dim must be at least its size."""
    lead = len(x.shape) - len(sizes)
    for d, n in enumerate(sizes):
        if x.shape[lead + d] < n:
            raise op_error(op, f"Input dimension {lead + d} must have length of at least {n} but got: "
                               f"{x.shape[lead + d]}")


def _fft_op(op: str, kind: str, k: int):
    def rule(b, input):
        _check(op, input, _C, "Tcomplex")
        _rank(op, input, k)
        length = list(input.shape[len(input.shape) - k:])
        if 0 in input.shape:
            return input
        return b.fft(input, kind, length)

    rule.__name__ = op.lower()
    return rule


def _rfft_op(op: str, k: int):
    def rule(b, input, fft_length, Tcomplex=None):
        _check(op, input, _R, "Treal")
        _rank(op, input, k)
        n = _lengths(op, fft_length, k)
        _out_type(op, _complex_of(input.dtype), Tcomplex)
        _at_least(op, input, n)
        out_shape = tuple(input.shape[:len(input.shape) - k]) + tuple(n[:-1]) + (_half(n[-1]),)
        if 0 in out_shape or 0 in n or 0 in input.shape:
            return b.full(out_shape, 0, _complex_of(input.dtype))
        return b.fft(_fit(b, input, n), "RFFT", n)

    rule.__name__ = op.lower()
    return rule


def _irfft_op(op: str, k: int):
    def rule(b, input, fft_length, Treal=None):
        _check(op, input, _C, "Tcomplex")
        _rank(op, input, k)
        n = _lengths(op, fft_length, k)
        real = np.real(np.zeros((), input.dtype)).dtype
        _out_type(op, real, Treal)
        _at_least(op, input, n[:-1] + [n[-1] // 2 + 1])
        out_shape = tuple(input.shape[:len(input.shape) - k]) + tuple(n)
        if 0 in out_shape or 0 in input.shape:
            return b.full(out_shape, 0, real)
        return b.fft(_fit(b, input, n[:-1] + [n[-1] // 2 + 1]), "IRFFT", n)

    rule.__name__ = op.lower()
    return rule


def _size(shape, k: int) -> int:
    return int(np.prod(shape[len(shape) - k:], dtype=np.int64))


def _scaled(b, x, factor: float):
    return b.multiply(x, b.full(x.shape, factor, x.dtype))


def _fft_grad(kind: str, k: int):
    """TF's: FFT's gradient is IFFT(grad) * size, IFFT's is FFT(grad) / size."""
    def rule(b, op, grad):
        if 0 in grad.shape:
            return [grad]
        length = list(grad.shape[len(grad.shape) - k:])
        size = _size(grad.shape, k)
        return [_scaled(b, b.fft(grad, kind, length), size if kind == "IFFT" else 1 / size)]

    return rule


def _rfft_grad(k: int):
    """d/dx of RFFT: Re(sum_k g_k e^{+2 pi i k n / N}) = N Re(IFFT(g zero-padded to the full last axis)) --
    the sum TF's gradient builds from IRFFT plus its DC/Nyquist terms; then back to the input's size."""
    def rule(b, op, grad):
        x = op.inputs[0]
        n = [int(v) for v in np.asarray(op.inputs[1]).reshape(-1)]
        real = np.dtype(x.dtype)
        if 0 in grad.shape or 0 in n or 0 in x.shape:
            return [b.full(x.shape, 0, real), None]
        full = _fit(b, grad, n)
        dx = b.real(_scaled(b, b.fft(full, "IFFT", n), float(np.prod(n))))
        return [_fit(b, dx, list(x.shape[len(x.shape) - k:])), None]

    return rule


def _irfft_grad(k: int):
    """TF's: RFFT(grad) * mask / size, the mask doubling the bins that stand for two (Hermitian pairs)."""
    def rule(b, op, grad):
        x = op.inputs[0]
        n = [int(v) for v in np.asarray(op.inputs[1]).reshape(-1)]
        if 0 in grad.shape or 0 in x.shape:
            return [b.full(x.shape, 0, x.dtype), None]
        last = n[-1] // 2 + 1
        mask = np.full(last, 2.0)
        mask[0] = 1.0
        if n[-1] % 2 == 0:
            mask[-1] = 1.0
        mask /= float(np.prod(n))
        y = b.fft(grad, "RFFT", n)
        m = b.broadcast_in_dim(b.constant(mask.astype(x.dtype)), y.shape, [len(y.shape) - 1])
        return [_fit(b, b.multiply(y, m), list(x.shape[len(x.shape) - k:])), None]

    return rule


for _k, _suffix in ((1, ""), (2, "2D"), (3, "3D")):
    register(f"FFT{_suffix}", ("input",), _fft_op(f"FFT{_suffix}", "FFT", _k))
    register(f"IFFT{_suffix}", ("input",), _fft_op(f"IFFT{_suffix}", "IFFT", _k))
    register(f"RFFT{_suffix}", ("input", "fft_length"), _rfft_op(f"RFFT{_suffix}", _k), attrs={"Tcomplex": None},
             const_inputs=("fft_length",))
    register(f"IRFFT{_suffix}", ("input", "fft_length"), _irfft_op(f"IRFFT{_suffix}", _k), attrs={"Treal": None},
             const_inputs=("fft_length",))
    register_gradient(f"FFT{_suffix}")(_fft_grad("IFFT", _k))
    register_gradient(f"IFFT{_suffix}")(_fft_grad("FFT", _k))
    register_gradient(f"RFFT{_suffix}")(_rfft_grad(_k))
    register_gradient(f"IRFFT{_suffix}")(_irfft_grad(_k))


# -- n-d transforms over any axes (FFTND, IFFTND, RFFTND, IRFFTND: no XLA kernel in TF 2.21) ---------------

def _over_block(b, x, kinds: list[str], lengths: list[int]):
    """Transforms over the len(lengths) trailing dims, in groups of at most 3 from the end (kinds[0] for
    the first group, kinds[1] after): each group is rotated to the front of the block, so after all
    groups the block is back in its order."""
    k, rank = len(lengths), len(x.shape)
    lengths, done, first = list(lengths), 0, True
    while done < k:
        m = min(3, k - done)
        x = b.fft(x, kinds[0] if first else kinds[1], lengths[k - m:])
        lead = list(range(rank - k))
        block = list(range(rank - k, rank))
        x = b.transpose(x, lead + block[k - m:] + block[:k - m])
        lengths = lengths[k - m:] + lengths[:k - m]
        done, first = done + m, False
    return x


def _nd_op(op: str, kind: str):
    def rule(b, input, fft_length, axes, **out_type):
        _check(op, input, _R if kind == "RFFT" else _C, "Treal" if kind == "RFFT" else "Tcomplex")
        rank = len(input.shape)
        ax = [int(a) for a in np.asarray(axes).reshape(-1)]
        n = _lengths(op, fft_length, len(ax))
        if not ax or any(not -rank <= a < rank for a in ax) or len({a % rank for a in ax}) != len(ax):
            raise op_error(op, f"axes {ax} must be distinct dimensions of the rank-{rank} input")
        ax = [a % rank for a in ax]
        perm = [d for d in range(rank) if d not in ax] + ax
        x = b.transpose(input, perm)
        lead = len(perm) - len(ax)
        sizes = n[:-1] + [n[-1] // 2 + 1] if kind == "IRFFT" else n
        out_sizes = n[:-1] + [_half(n[-1])] if kind == "RFFT" else n
        out_dtype = (_complex_of(input.dtype) if kind == "RFFT" else
                     np.real(np.zeros((), input.dtype)).dtype if kind == "IRFFT" else input.dtype)
        _out_type(op, out_dtype, next(iter(out_type.values()), None))
        out_shape = tuple(x.shape[:lead]) + tuple(out_sizes)
        if 0 in out_shape or 0 in input.shape:
            y = b.full(out_shape, 0, out_dtype)
        else:
            x = _fit(b, x, sizes)
            if kind in ("FFT", "IFFT"):
                y = _over_block(b, x, [kind, kind], n)
            elif kind == "RFFT":
                y = _over_block(b, x, ["RFFT", "FFT"], n)
            else:  # the complex axes first (IFFT), the real one last (IRFFT)
                k = len(n)
                if k > 1:
                    x = b.transpose(x, list(range(lead)) + [lead + k - 1] + list(range(lead, lead + k - 1)))
                    x = _over_block(b, x, ["IFFT", "IFFT"], n[:-1])
                    x = b.transpose(x, list(range(lead)) + list(range(lead + 1, lead + k)) + [lead])
                y = b.fft(x, "IRFFT", n[-1:])
        return b.transpose(y, list(np.argsort(perm)))

    rule.__name__ = op.lower()
    return rule


for _op, _kind, _attr in (("FFTND", "FFT", None), ("IFFTND", "IFFT", None), ("RFFTND", "RFFT", "Tcomplex"),
                          ("IRFFTND", "IRFFT", "Treal")):
    register(_op, ("input", "fft_length", "axes"), _nd_op(_op, _kind), const_inputs=("fft_length", "axes"),
             attrs={_attr: None} if _attr else {}, xla_kernel=False)
