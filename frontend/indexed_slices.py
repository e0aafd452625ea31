"""`tf.IndexedSlices`: the gradient of a gather, one row per gathered index.

`GradientTape.gradient` returns one for a source (variable or watched tensor)
read only by row gathers (`tf.gather(v, ids)` on axis 0, Keras' Embedding), as
TensorFlow does: the rows
are not summed per index. Optimizers that square the gradient (Adam, RMSprop,
Adagrad, ...) then add the squares of the rows, not the square of their sum,
like Keras' do on TensorFlow. Anywhere a dense tensor is needed (`tf.*` ops,
`convert_to_tensor`, numpy) the slices turn into one by summing the rows of
each index (`unsorted_segment_sum`), which is TensorFlow's conversion.
"""

from __future__ import annotations

import numpy as np

#: the tf ops this module uses, installed by frontend/api (core.py, math_linalg.py): importing
#: them here would close an import cycle (execute.py converts IndexedSlices inputs)
API: dict = {}


def install(**ops) -> None:
    API.update(ops)


class IndexedSlices:
    """values[i] is row indices[i] of a tensor of shape dense_shape; repeated indices add up."""

    def __init__(self, values, indices, dense_shape=None):
        convert_to_tensor = API["convert_to_tensor"]
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        if self._indices.dtype.np.kind not in "iu":
            raise TypeError(f"IndexedSlices indices must be integers, got {self._indices.dtype.name}")
        if dense_shape is None:
            self._dense_shape = None
        else:
            self._dense_shape = convert_to_tensor(dense_shape if hasattr(dense_shape, "_spec")
                                                  else np.asarray(dense_shape).astype(np.int64, copy=False)
                                                  if not isinstance(dense_shape, np.ndarray) else dense_shape)

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self):
        from minixla.frontend.tensor import TensorShape

        known = None if self._dense_shape is None else self._dense_shape._const
        if known is not None:
            return TensorShape([int(d) for d in np.asarray(known)])
        return TensorShape([None] + list(self._values.shape.as_list()[1:]))

    def _static_rows(self):
        known = None if self._dense_shape is None else self._dense_shape._const
        return None if known is None else int(np.asarray(known)[0])

    def _rows(self) -> int:
        rows = self._static_rows()
        if rows is None:
            from minixla.frontend.errors import InvalidArgumentError

            raise InvalidArgumentError(None, None, "Cannot convert an IndexedSlices without a static "
                                                   "dense_shape to a Tensor")
        return rows

    def to_dense(self):
        """The dense tensor: rows with the same index summed (TF's IndexedSlices -> Tensor conversion)."""
        return API["unsorted_segment_sum"](self._values, self._indices, self._rows())

    def square_rows_to_dense(self):
        """The dense sum of the squared rows: what `square` then a dense add gives in Keras' optimizers."""
        return IndexedSlices(API["square"](self._values), self._indices, self._dense_shape).to_dense()

    def abs_rows_to_dense(self):
        return IndexedSlices(API["abs"](self._values), self._indices, self._dense_shape).to_dense()

    def with_values(self, values) -> IndexedSlices:
        return IndexedSlices(values, self._indices, self._dense_shape)

    def __neg__(self) -> IndexedSlices:
        return self.with_values(API["negative"](self._values))

    def __array__(self, dtype=None, copy=None):
        out = np.asarray(self.to_dense()._value)
        return out.astype(dtype) if dtype is not None else out

    def numpy(self) -> np.ndarray:
        return np.asarray(self)

    def __repr__(self) -> str:
        return (f"IndexedSlices(indices={self._indices!r}, values={self._values!r}, "
                f"dense_shape={self._dense_shape!r})")


def densify(x):
    """`x` as a dense value: IndexedSlices summed into a Tensor, anything else unchanged."""
    return x.to_dense() if isinstance(x, IndexedSlices) else x
