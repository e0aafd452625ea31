"""`tf.linalg.LinearOperator*`: matrices described by structure. Each subclass says how to build
its dense matrix (and, where it is cheap, its diagonal or determinant); the base class does the
rest -- matmul/matvec, solve/solvevec, determinant, log_abs_determinant, trace, diag_part,
adjoint, inverse, shapes -- with the ops and the solvers of linalg_solvers.py, so every operator
works eagerly, in tf.function and under jit_compile=True. (The FFT-based circulant operators are in
linear_operator_circulant.py.)
"""

from __future__ import annotations

import numpy as np

tf = None  # the public `tf` module, set by install()


class LinearOperator:
    """Base: subclasses implement `_to_dense()`; everything else derives from it."""

    def __init__(self, dtype=None, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None, graph_parents=None, parameters=None):
        self._dtype = dtype
        self.is_non_singular, self.is_self_adjoint = is_non_singular, is_self_adjoint
        self.is_positive_definite, self._is_square = is_positive_definite, is_square
        self.name = name or type(self).__name__

    # -- what subclasses provide -----------------------------------------------------------------
    def _to_dense(self):
        raise NotImplementedError(f"{type(self).__name__} must implement _to_dense()")

    # -- shape and dtype ---------------------------------------------------------------------------
    def to_dense(self, name="to_dense"):
        return self._to_dense()

    @property
    def dtype(self):
        return self._dtype if self._dtype is not None else self.to_dense().dtype

    @property
    def shape(self):
        return self.to_dense().shape

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def domain_dimension(self):
        return self.shape[-1]

    @property
    def range_dimension(self):
        return self.shape[-2]

    @property
    def is_square(self):
        return self._is_square if self._is_square is not None else self.shape[-1] == self.shape[-2]

    def shape_tensor(self, name="shape_tensor"):
        return tf.constant(self.shape.as_list(), tf.int32)

    # -- algebra -------------------------------------------------------------------------------------
    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            left = LinearOperatorAdjoint(self) if adjoint else self
            right = LinearOperatorAdjoint(x) if adjoint_arg else x
            return LinearOperatorComposition([left, right])
        return tf.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name="matvec"):
        return tf.squeeze(self.matmul(tf.expand_dims(x, -1), adjoint=adjoint), -1)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if adjoint_arg:
            rhs = tf.linalg.adjoint(rhs)
        return tf.linalg.solve(self.to_dense(), rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        return tf.squeeze(self.solve(tf.expand_dims(rhs, -1), adjoint=adjoint), -1)

    def determinant(self, name="det"):
        return tf.linalg.det(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        return tf.linalg.slogdet(self.to_dense())[1]

    def diag_part(self, name="diag_part"):
        return tf.linalg.diag_part(self.to_dense())

    def trace(self, name="trace"):
        return tf.reduce_sum(self.diag_part(), axis=-1)

    def add_to_tensor(self, x, name="add_to_tensor"):
        return self.to_dense() + x

    def adjoint(self, name="adjoint"):
        return LinearOperatorAdjoint(self)

    H = property(adjoint)

    def inverse(self, name="inverse"):
        return LinearOperatorInversion(self)

    def cholesky(self, name="cholesky"):
        return LinearOperatorLowerTriangular(tf.linalg.cholesky(self.to_dense()))

    def eigvals(self, name="eigvals"):
        return tf.linalg.eigvalsh(self.to_dense())

    def cond(self, name="cond"):
        s = tf.linalg.svd(self.to_dense(), compute_uv=False)
        return s[..., 0] / s[..., -1]


class LinearOperatorFullMatrix(LinearOperator):
    def __init__(self, matrix, **kw):
        self._matrix = tf.convert_to_tensor(matrix)
        super().__init__(dtype=self._matrix.dtype, **kw)

    def _to_dense(self):
        return self._matrix


class LinearOperatorLowerTriangular(LinearOperatorFullMatrix):
    def _to_dense(self):
        return tf.linalg.band_part(self._matrix, -1, 0)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if adjoint_arg:
            rhs = tf.linalg.adjoint(rhs)
        return tf.linalg.triangular_solve(self.to_dense(), rhs, lower=True, adjoint=adjoint)

    def determinant(self, name="det"):
        return tf.reduce_prod(self.diag_part(), axis=-1)

    def log_abs_determinant(self, name="log_abs_det"):
        return tf.reduce_sum(tf.math.log(tf.abs(self.diag_part())), axis=-1)


class LinearOperatorDiag(LinearOperator):
    def __init__(self, diag, **kw):
        self._diag = tf.convert_to_tensor(diag)
        super().__init__(dtype=self._diag.dtype, **kw)

    def _to_dense(self):
        return tf.linalg.diag(self._diag)

    def diag_part(self, name="diag_part"):
        return self._diag

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if adjoint_arg:
            rhs = tf.linalg.adjoint(rhs)
        return rhs / self._diag[..., :, None]

    def determinant(self, name="det"):
        return tf.reduce_prod(self._diag, axis=-1)

    def log_abs_determinant(self, name="log_abs_det"):
        return tf.reduce_sum(tf.math.log(tf.abs(self._diag)), axis=-1)


class LinearOperatorScaledIdentity(LinearOperator):
    def __init__(self, num_rows, multiplier, **kw):
        self._n, self._multiplier = int(num_rows), tf.convert_to_tensor(multiplier)
        super().__init__(dtype=self._multiplier.dtype, **kw)

    def _to_dense(self):
        return self._multiplier[..., None, None] * tf.eye(self._n, dtype=self._multiplier.dtype)


class LinearOperatorIdentity(LinearOperator):
    def __init__(self, num_rows, batch_shape=None, dtype=None, **kw):
        self._n, self._batch = int(num_rows), list(batch_shape or [])
        super().__init__(dtype=tf.as_dtype(dtype or tf.float32), **kw)

    def _to_dense(self):
        return tf.broadcast_to(tf.eye(self._n, dtype=self._dtype), self._batch + [self._n, self._n])


class LinearOperatorZeros(LinearOperator):
    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, **kw):
        self._rows, self._cols = int(num_rows), int(num_rows if num_columns is None else num_columns)
        self._batch = list(batch_shape or [])
        super().__init__(dtype=tf.as_dtype(dtype or tf.float32), **kw)

    def _to_dense(self):
        return tf.zeros(self._batch + [self._rows, self._cols], self._dtype)

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            return super().matmul(x, adjoint, adjoint_arg)
        x = tf.convert_to_tensor(x)
        rows = self._cols if adjoint else self._rows
        cols = x.shape[-2] if adjoint_arg else x.shape[-1]
        batch = tf.broadcast_static_shape(tf.TensorShape(self._batch), x.shape[:-2]).as_list()
        return tf.zeros(batch + [rows, cols], self._dtype)  # does not depend on x (its gradient is None)


class LinearOperatorAdjoint(LinearOperator):
    def __init__(self, operator, **kw):
        self.operator = operator
        super().__init__(**kw)

    def _to_dense(self):
        return tf.linalg.adjoint(self.operator.to_dense())


class LinearOperatorInversion(LinearOperator):
    def __init__(self, operator, **kw):
        self.operator = operator
        super().__init__(**kw)

    def _to_dense(self):
        return tf.linalg.inv(self.operator.to_dense())

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            return super().matmul(x, adjoint, adjoint_arg)
        return self.operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        return self.operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)


class LinearOperatorComposition(LinearOperator):
    def __init__(self, operators, **kw):
        self.operators = list(operators)
        super().__init__(**kw)

    def _to_dense(self):
        dense = self.operators[-1].to_dense()
        for op in reversed(self.operators[:-1]):
            dense = op.matmul(dense)
        return dense


class LinearOperatorKronecker(LinearOperator):
    def __init__(self, operators, **kw):
        self.operators = list(operators)
        super().__init__(**kw)

    def _to_dense(self):
        dense = self.operators[0].to_dense()
        for op in self.operators[1:]:
            right = op.to_dense()
            (m, n), (p, q) = dense.shape.as_list()[-2:], right.shape.as_list()[-2:]
            prod = dense[..., :, None, :, None] * right[..., None, :, None, :]
            dense = tf.reshape(prod, prod.shape.as_list()[:-4] + [m * p, n * q])
        return dense


class LinearOperatorBlockDiag(LinearOperator):
    def __init__(self, operators, **kw):
        self.operators = list(operators)
        super().__init__(**kw)

    def _to_dense(self):
        blocks = [op.to_dense() for op in self.operators]
        cols = sum(b.shape[-1] for b in blocks)
        rows, left = [], 0
        for b in blocks:
            n = b.shape[-1]
            rows.append(tf.pad(b, [[0, 0]] * (b.shape.rank - 1) + [[left, cols - left - n]]))
            left += n
        return tf.concat(rows, axis=-2)


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """operators[i] holds the blocks of block-row i, left to right (the last one on the diagonal)."""

    def __init__(self, operators, **kw):
        self.operators = [list(row) for row in operators]
        super().__init__(**kw)

    def _to_dense(self):
        sizes = [row[-1].to_dense().shape[-1] for row in self.operators]
        rows = []
        for i, row in enumerate(self.operators):
            blocks = [op.to_dense() for op in row]
            right = sum(sizes[i + 1:])
            if right:
                blocks.append(tf.zeros(blocks[-1].shape.as_list()[:-1] + [right], blocks[-1].dtype))
            rows.append(tf.concat(blocks, axis=-1))
        return tf.concat(rows, axis=-2)


class LinearOperatorPermutation(LinearOperator):
    """Row i is e_{perm[i]}: x -> x[perm]."""

    def __init__(self, perm, dtype=None, **kw):
        self._perm = tf.convert_to_tensor(perm)
        super().__init__(dtype=tf.as_dtype(dtype or tf.float32), **kw)

    def _to_dense(self):
        return tf.one_hot(self._perm, self._perm.shape[-1], dtype=self._dtype)


class LinearOperatorHouseholder(LinearOperator):
    """I - 2 v v^T / (v^T v)."""

    def __init__(self, reflection_axis, **kw):
        self._v = tf.convert_to_tensor(reflection_axis)
        super().__init__(dtype=self._v.dtype, **kw)

    def _to_dense(self):
        v = self._v
        n = v.shape[-1]
        outer = v[..., :, None] * v[..., None, :]
        return tf.eye(n, dtype=v.dtype) - 2.0 * outer / tf.reduce_sum(v * v, axis=-1)[..., None, None]


class LinearOperatorLowRankUpdate(LinearOperator):
    """base + U diag(d) V^T (V = U when not given; d = 1 when not given)."""

    def __init__(self, base_operator, u, diag_update=None, v=None, **kw):
        self.base_operator, self._u = base_operator, tf.convert_to_tensor(u)
        self._d = None if diag_update is None else tf.convert_to_tensor(diag_update)
        self._v = self._u if v is None else tf.convert_to_tensor(v)
        super().__init__(**kw)

    def _to_dense(self):
        u = self._u if self._d is None else self._u * self._d[..., None, :]
        return self.base_operator.to_dense() + tf.matmul(u, self._v, transpose_b=True)


class LinearOperatorToeplitz(LinearOperator):
    """Constant diagonals: entry (i, j) is col[i - j] below and row[j - i] above the diagonal."""

    def __init__(self, col, row, **kw):
        self._col, self._row = tf.convert_to_tensor(col), tf.convert_to_tensor(row)
        super().__init__(dtype=self._col.dtype, **kw)

    def _to_dense(self):
        n = self._col.shape[-1]
        i, j = np.indices((n, n))
        values = tf.concat([tf.reverse(self._row[..., 1:], [-1]), self._col], axis=-1)  # row[n-1..1], col[0..n-1]
        return tf.gather(values, tf.constant((i - j + n - 1).astype(np.int32)), axis=-1)


class LinearOperatorTridiag(LinearOperator):
    def __init__(self, diagonals, diagonals_format="compact", **kw):
        self._diagonals, self._format = diagonals, diagonals_format
        super().__init__(**kw)

    def _to_dense(self):
        main = tf.convert_to_tensor(self._diagonals[1] if self._format == "sequence" else self._diagonals)
        eye = tf.eye(main.shape[-1], dtype=main.dtype)
        return tf.linalg.tridiagonal_matmul(self._diagonals, eye, diagonals_format=self._format)


OPERATORS = [LinearOperator, LinearOperatorFullMatrix, LinearOperatorLowerTriangular, LinearOperatorDiag,
             LinearOperatorScaledIdentity, LinearOperatorIdentity, LinearOperatorZeros, LinearOperatorAdjoint,
             LinearOperatorInversion, LinearOperatorComposition, LinearOperatorKronecker, LinearOperatorBlockDiag,
             LinearOperatorBlockLowerTriangular, LinearOperatorPermutation, LinearOperatorHouseholder,
             LinearOperatorLowRankUpdate, LinearOperatorToeplitz, LinearOperatorTridiag]


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for cls in OPERATORS:
        setattr(tf_module.linalg, cls.__name__, cls)
