"""Complex tensors in the public API: `tf.complex`, `tf.math.real/imag/conj/angle`, `tf.abs` of complex
values (ComplexAbs, as TF dispatches it), and conjugating transposes, all on the raw
ops of frontend/ops/raw_complex_ops.py (so they run eagerly, traced and under jit_compile, with TF's
gradients). Real inputs behave as in TF: their real part and conjugate are themselves, their imaginary
part is zero.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.execute import execute

tf = None  # the public `tf` module, set by install()


def _t(x):
    return x if isinstance(x, tf.Tensor) else tf.convert_to_tensor(x)


def complex(real, imag, name=None):  # noqa: A001 -- TF's name
    """`real + 1j * imag`: both float32 (complex64) or both float64 (complex128)."""
    real, imag = _t(real), _t(imag)
    if real.dtype != imag.dtype or real.dtype not in (tf.float32, tf.float64):
        raise TypeError(f"The `real` and `imag` components have incorrect types: {real.dtype.name} "
                        f"{imag.dtype.name}. They must be consistent, and one of [tf.float32, tf.float64]")
    out = tf.complex64 if real.dtype == tf.float32 else tf.complex128
    return execute("Complex", [real, imag], {"Tout": out})


def real(input, name=None):  # noqa: A002 -- TF's argument names
    x = _t(input)
    return execute("Real", [x]) if x.dtype.is_complex else x


def imag(input, name=None):  # noqa: A002
    x = _t(input)
    return execute("Imag", [x]) if x.dtype.is_complex else tf.zeros_like(x)


def conj(x, name=None):
    x = _t(x)
    if x.dtype.is_complex:
        return execute("Conj", [x])
    if x.dtype.is_floating or x.dtype.is_integer:
        return x
    raise TypeError(f"tf.math.conj: expected a numeric tensor, got {x.dtype.name}")


def angle(input, name=None):  # noqa: A002
    """The argument of complex values; pi for negative reals and 0 otherwise (as TF)."""
    x = _t(input)
    if x.dtype.is_complex:
        return execute("Angle", [x])
    return tf.where(x < 0, np.pi * tf.ones_like(x), tf.zeros_like(x))


def _complex_abs(real_abs):
    def abs(x, name=None):  # noqa: A001
        dt = getattr(x, "_dt", None)  # an eager tensor's dtype, without building its DType
        if dt is not None and dt.kind != "c":
            return real_abs(x, name=name)
        x = _t(x)  # TF's conversion (and its errors for ragged lists) first
        return execute("ComplexAbs", [x]) if x.dtype.is_complex else real_abs(x, name=name)

    abs.__doc__ = "`|x|`; of complex values through ComplexAbs (float results and TF's gradient)."
    return abs


def _conjugating_transpose(real_transpose):
    def transpose(a, perm=None, conjugate=False, name="transpose"):
        x = _t(a)
        if conjugate and x.dtype.is_complex:
            perm = list(range(x.shape.rank))[::-1] if perm is None else perm
            return execute("ConjugateTranspose", [x, np.asarray(perm, np.int32)])
        return real_transpose(x, perm)

    return transpose


def adjoint(matrix, name=None):
    """Conjugate transpose of the two innermost dimensions."""
    x = _t(matrix)
    rank = x.shape.rank
    return tf.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2], conjugate=True)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    x = _t(a)
    rank = x.shape.rank
    return tf.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2], conjugate=conjugate)


def install(module) -> None:
    global tf
    tf = module
    module.complex = module.dtypes.complex = complex
    for n in ("real", "imag", "conj", "angle"):
        setattr(module.math, n, globals()[n])
    if not hasattr(module, "conj"):
        module.conj = conj
    module.math.abs = module.abs = _complex_abs(module.abs)
    module.transpose = _conjugating_transpose(module.transpose)
    module.linalg.adjoint = adjoint
    module.linalg.matrix_transpose = matrix_transpose
