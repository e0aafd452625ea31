"""`tf.SparseTensor`: values[i] sits at indices[i] of a tensor of shape dense_shape.

A composite of three tensors (int64 indices [N, rank], values [N], int64 dense_shape [rank]),
so it flows through `tf.function` arguments and results as three leaves (nest.py) and its ops
are decompositions into dense ops (frontend/api/sparse_ops.py). minixla compiles static shapes,
so the static dense shape is kept beside the tensor (from a constant dense_shape, or from the
trace structure inside a tf.function), as TF keeps it in SparseTensorSpec. Like TF, a
SparseTensor does not convert to a Tensor implicitly: `tf.sparse.to_dense` does that.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.tensor import Tensor, TensorShape
from minixla.frontend.tensor_spec import SpecShape, TypeSpec

#: the public `tf` module, installed by frontend/api/sparse_ops.py (importing the API here would
#: close an import cycle: nest.py, under tf.function, imports this module)
API: dict = {}


def _int64(x):
    if isinstance(x, Tensor) or hasattr(x, "_variable_value"):
        t = API["tf"].convert_to_tensor(x)
        return t if t.dtype.name == "int64" else API["tf"].cast(t, "int64")
    return API["tf"].constant(np.asarray(x, dtype=np.int64))


class SparseTensor:
    """A sparse tensor: indices [N, rank] (int64), values [N], dense_shape [rank] (int64)."""

    def __init__(self, indices, values, dense_shape, _static_shape=None):
        tf = API["tf"]
        self._indices = _int64(indices)
        self._values = tf.convert_to_tensor(values)
        self._dense_shape = _int64(dense_shape)
        if self._indices.shape.rank not in (None, 2):
            raise ValueError(f"Shape {self._indices.shape} must have rank 2")
        if self._values.shape.rank not in (None, 1):
            raise ValueError(f"Shape {self._values.shape} must have rank 1")
        if self._dense_shape.shape.rank != 1:
            raise ValueError(f"Shape {self._dense_shape.shape} must have rank 1")
        known = self._dense_shape._const
        if known is not None:
            self._shape = tuple(int(d) for d in np.asarray(known))
        elif _static_shape is not None:
            self._shape = tuple(None if d is None else int(d) for d in _static_shape)
        else:
            self._shape = (None,) * int(self._dense_shape.shape[0])

    @classmethod
    def from_value(cls, value) -> SparseTensor:
        if isinstance(value, SparseTensor):
            return value
        return cls(value.indices, value.values, value.dense_shape)

    @property
    def indices(self):
        return self._indices

    @property
    def values(self):
        return self._values

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        return TensorShape(list(self._shape))

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def rank(self) -> int:
        return len(self._shape)

    def static_shape(self, op: str) -> list:
        """The dense shape as ints; ops that build dense tensors need it (minixla compiles static shapes)."""
        if any(d is None for d in self._shape):
            raise ValueError(f"{op}: the SparseTensor's dense_shape must be known when tracing "
                             f"(minixla compiles static shapes), got {list(self._shape)}")
        return list(self._shape)

    def with_values(self, new_values) -> SparseTensor:
        return SparseTensor(self._indices, new_values, self._dense_shape, self._shape)

    @property
    def _type_spec(self):
        return SparseTensorSpec(self.shape, self.dtype)

    def numpy(self):
        raise AttributeError("'SparseTensor' object has no attribute 'numpy'")

    def __mul__(self, other):
        """sparse * dense: the dense tensor gathered at the indices (TF's SparseDenseCwiseMul)."""
        tf = API["tf"]
        dense = tf.broadcast_to(tf.convert_to_tensor(other, dtype=self.dtype), self.static_shape("mul"))
        return self.with_values(self._values * tf.gather_nd(dense, self._indices))

    def __truediv__(self, other):
        tf = API["tf"]
        dense = tf.broadcast_to(tf.convert_to_tensor(other, dtype=self.dtype), self.static_shape("div"))
        return self.with_values(self._values / tf.gather_nd(dense, self._indices))

    def __neg__(self):
        return self.with_values(-self._values)

    def __repr__(self) -> str:
        return f"SparseTensor(indices={self._indices}, values={self._values}, dense_shape={self._dense_shape})"

    __str__ = __repr__


class SparseTensorSpec(TypeSpec):
    """The type of a SparseTensor: its dense shape (dims may be None) and dtype."""

    def __init__(self, shape=None, dtype="float32"):
        dims = None if shape is None else (shape.as_list() if hasattr(shape, "as_list") else list(shape))
        self._shape = None if dims is None else SpecShape(None if d is None else int(d) for d in dims)
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def value_type(self):
        return SparseTensor

    @classmethod
    def from_value(cls, value) -> SparseTensorSpec:
        return cls(value.shape, value.dtype)

    def is_compatible_with(self, other) -> bool:
        other = other if isinstance(other, SparseTensorSpec) else SparseTensorSpec.from_value(other)
        if other.dtype != self.dtype:
            return False
        if self._shape is None or other.shape is None:
            return True
        return len(self._shape) == len(other.shape) and all(
            a is None or b is None or a == b for a, b in zip(self._shape, other.shape))

    def __eq__(self, other):
        return (isinstance(other, SparseTensorSpec) and self._dtype == other.dtype
                and (None if self._shape is None else list(self._shape))
                == (None if other.shape is None else list(other.shape)))

    def __hash__(self):
        return hash((None if self._shape is None else tuple(self._shape), self._dtype.name))

    def __repr__(self) -> str:
        shape = "<unknown>" if self._shape is None else str(list(self._shape))
        return f"SparseTensorSpec(TensorShape({shape}), tf.{self._dtype.name})"
