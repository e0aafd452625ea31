"""`tf.linalg.LinearOperatorCirculant`, `...Circulant2D`, `...Circulant3D`: (block-)circulant matrices given
by their spectrum, as TF's linear_operator_circulant.py defines them. A circulant matrix is
F^-1 diag(spectrum) F with F the DFT over the block dims, so matmul and solve are FFTs of the
columns (tf.signal's transforms) and the determinant, trace and eigenvalues read off the spectrum;
everything else comes from LinearOperator's dense forms (linear_operators.py).
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.api.linear_operators import LinearOperator

tf = None  # the public `tf` module, set by install()


class _CirculantBase(LinearOperator):
    """Shared by the 1-3 d operators: `block_depth` trailing spectrum dims hold one block structure."""

    block_depth = 1

    def __init__(self, spectrum, input_output_dtype=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        self.spectrum = tf.convert_to_tensor(spectrum, dtype_hint=tf.complex64)
        if not (self.spectrum.dtype.is_complex or self.spectrum.dtype.is_floating):
            raise TypeError(f"{type(self).__name__}: spectrum must be float or complex, got {self.spectrum.dtype.name}")
        if self.spectrum.shape.rank < self.block_depth:
            raise ValueError(f"{type(self).__name__}: spectrum must have rank at least {self.block_depth}, "
                             f"got shape {self.spectrum.shape}")
        if is_square is False:
            raise ValueError("A circulant operator is always square.")
        dtype = tf.as_dtype(input_output_dtype) if input_output_dtype is not None else tf.complex64
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name or type(self).__name__)

    # -- structure ------------------------------------------------------------------------------------
    @property
    def block_shape(self):
        return self.spectrum.shape.as_list()[-self.block_depth:]

    def _size(self) -> int:
        return int(np.prod(self.block_shape))

    @property
    def shape(self):
        n = self._size()
        return tf.TensorShape(self.spectrum.shape.as_list()[:-self.block_depth] + [n, n])

    def _complex_spectrum(self):
        s = self.spectrum
        if s.dtype.is_complex:
            return s
        return tf.complex(s, tf.zeros_like(s)) if s.dtype in (tf.float32, tf.float64) else \
            tf.cast(s, tf.complex64)

    def _fft(self, x):
        return (tf.signal.fft, tf.signal.fft2d, tf.signal.fft3d)[self.block_depth - 1](x)

    def _ifft(self, x):
        return (tf.signal.ifft, tf.signal.ifft2d, tf.signal.ifft3d)[self.block_depth - 1](x)

    def _out(self, x):
        """Cast to the operator's dtype: a real dtype keeps the real part (TF's complex -> real cast)."""
        if self.dtype.is_complex:
            return tf.cast(x, self.dtype)
        return tf.cast(tf.math.real(x), self.dtype)

    def _blockify(self, x):
        """[..., N, R] -> [..., R, *block_shape]: each column as a block tensor."""
        rank = x.shape.rank
        cols = tf.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])
        return tf.reshape(cols, cols.shape.as_list()[:-1] + self.block_shape)

    def _unblockify(self, y, lead):
        """[..., R, *block_shape] -> [..., N, R]."""
        cols = tf.reshape(y, lead + [self._size()])
        rank = cols.shape.rank
        return tf.transpose(cols, list(range(rank - 2)) + [rank - 1, rank - 2])

    def _apply_spectrum(self, x, spectrum, adjoint_arg, divide):
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        x = tf.convert_to_tensor(x, dtype_hint=self.dtype)
        if x.dtype != self.dtype:  # TF's LinearOperator._check_input_dtype
            raise TypeError(f"Expected argument to have dtype {self.dtype}. Found: {x.dtype} in tensor {x}")
        if x.dtype.is_complex:
            x = tf.cast(x, spectrum.dtype)
        else:
            x = tf.cast(x, spectrum.dtype.real_dtype)
            x = tf.complex(x, tf.zeros_like(x))
        batch = np.broadcast_shapes(tuple(x.shape.as_list()[:-2]), tuple(spectrum.shape.as_list()[:-self.block_depth]))
        x = tf.broadcast_to(x, list(batch) + x.shape.as_list()[-2:])
        blocks = self._blockify(x)
        s = tf.expand_dims(spectrum, -self.block_depth - 1)  # one spectrum for all R columns
        f = self._fft(blocks)
        y = self._ifft(f / s if divide else s * f)
        return self._out(self._unblockify(y, y.shape.as_list()[:-self.block_depth]))

    # -- the operator -----------------------------------------------------------------------------------
    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        s = self._complex_spectrum()
        return self._apply_spectrum(x, tf.math.conj(s) if adjoint else s, adjoint_arg, divide=False)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        s = self._complex_spectrum()
        return self._apply_spectrum(rhs, tf.math.conj(s) if adjoint else s, adjoint_arg, divide=True)

    def _to_dense(self):
        n = self._size()
        return self.matmul(tf.eye(n, dtype=self.dtype))  # batches broadcast in matmul

    def convolution_kernel(self, name="convolution_kernel"):
        return self._out(self._ifft(self._complex_spectrum()))

    def _axes(self):
        return [-(i + 1) for i in range(self.block_depth)]

    def determinant(self, name="det"):
        return self._out(tf.reduce_prod(self._complex_spectrum(), axis=self._axes()))

    def log_abs_determinant(self, name="log_abs_det"):
        return tf.cast(tf.reduce_sum(tf.math.log(tf.abs(self._complex_spectrum())), axis=self._axes()),
                       self.dtype.real_dtype)

    def trace(self, name="trace"):
        return self._out(tf.reduce_sum(self._complex_spectrum(), axis=self._axes()))

    def diag_part(self, name="diag_part"):
        value = self.trace() / tf.cast(self._size(), self.dtype)
        return tf.expand_dims(value, -1) * tf.ones(self.shape.as_list()[-1:], self.dtype)

    def eigvals(self, name="eigvals"):
        s = self._complex_spectrum()
        return self._out(tf.reshape(s, s.shape.as_list()[:-self.block_depth] + [self._size()]))


class LinearOperatorCirculant(_CirculantBase):
    """Circulant: column j is the convolution kernel ifft(spectrum) rotated down by j."""

    block_depth = 1


class LinearOperatorCirculant2D(_CirculantBase):
    """Block circulant with circulant blocks (spectrum [..., N0, N1])."""

    block_depth = 2


class LinearOperatorCirculant3D(_CirculantBase):
    """Doubly block circulant with circulant blocks (spectrum [..., N0, N1, N2])."""

    block_depth = 3


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for cls in (LinearOperatorCirculant, LinearOperatorCirculant2D, LinearOperatorCirculant3D):
        setattr(tf_module.linalg, cls.__name__, cls)
