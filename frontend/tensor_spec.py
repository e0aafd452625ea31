"""`tf.TensorSpec` (`tf.TypeSpec`): the shape (dims may be None) and dtype a value must have.

Used by `tf.function(input_signature=...)`, `tf.data` element specs, `map_fn`'s
`fn_output_signature` and `tf.type_spec_from_value`. minixla compiles for static shapes, so a
signature with None dims accepts every matching shape and compiles once per concrete shape
(as JAX and XLA do); a call that does not fit the signature is refused with TF's message.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.tensor import Tensor, TensorShape


class SpecShape(tuple):
    """A shape whose dimensions may be None (unknown), with TensorShape's `as_list`/`rank`."""

    def as_list(self) -> list:
        return list(self)

    @property
    def rank(self) -> int:
        return len(self)

    def __repr__(self) -> str:
        return f"TensorShape({list(self)})"


class TypeSpec:
    """Base of the value specs (TF's `tf.TypeSpec`)."""


class TensorSpec(TypeSpec):
    def __init__(self, shape, dtype="float32", name=None):
        if shape is None:
            self.shape = None  # unknown rank
        else:
            dims = shape.as_list() if hasattr(shape, "as_list") else list(shape)
            self.shape = SpecShape(None if d is None else int(d) for d in dims)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None) -> TensorSpec:
        value = tensor._variable_value() if hasattr(tensor, "_variable_value") else tensor
        shape = value.shape.as_list() if isinstance(value, Tensor) else list(np.shape(value))
        return cls(shape, value.dtype, name)

    def is_compatible_with(self, other) -> bool:
        """True when `other` (a spec, tensor or array) has this dtype and a shape that fits."""
        if not isinstance(other, TensorSpec):
            other = TensorSpec.from_tensor(other if hasattr(other, "dtype") else np.asarray(other))
        return other.dtype == self.dtype and shape_fits(self.shape, other.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.dtype == other.dtype and self.name == other.name
                and (None if self.shape is None else list(self.shape)) ==
                (None if other.shape is None else list(other.shape)))

    def __hash__(self):
        return hash((None if self.shape is None else tuple(self.shape), self.dtype.name, self.name))

    def __repr__(self) -> str:
        shape = "<unknown>" if self.shape is None else str(tuple(self.shape))
        name = "None" if self.name is None else repr(self.name)
        return f"TensorSpec(shape={shape}, dtype=tf.{self.dtype.name}, name={name})"


def _shape_text(shape) -> str:
    return f"TensorShape({None if shape is None else list(shape)})"


class IndexedSlicesSpec(TypeSpec):
    """The spec of a `tf.IndexedSlices` (a gather's gradient)."""

    def __init__(self, shape=None, dtype="float32", indices_dtype="int64", dense_shape_dtype=None,
                 indices_shape=None):
        self.shape = None if shape is None else SpecShape(None if d is None else int(d) for d in list(shape))
        self.dtype, self.indices_dtype = dtypes.as_dtype(dtype), dtypes.as_dtype(indices_dtype)
        self.dense_shape_dtype = None if dense_shape_dtype is None else dtypes.as_dtype(dense_shape_dtype)
        self.indices_shape = SpecShape([None] if indices_shape is None else list(indices_shape))

    def __eq__(self, other):
        return isinstance(other, IndexedSlicesSpec) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self) -> str:
        return (f"IndexedSlicesSpec({_shape_text(self.shape)}, tf.{self.dtype.name}, tf.{self.indices_dtype.name}, "
                f"{None if self.dense_shape_dtype is None else 'tf.' + self.dense_shape_dtype.name}, "
                f"{_shape_text(self.indices_shape)})")


class NoneTensorSpec(TypeSpec):
    """The spec of None (a structure's empty slot)."""

    def __eq__(self, other):
        return isinstance(other, NoneTensorSpec)

    def __hash__(self):
        return hash(NoneTensorSpec)

    def __repr__(self) -> str:
        return "NoneTensorSpec()"


class TensorArraySpec(TypeSpec):
    def __init__(self, element_shape=None, dtype="float32", dynamic_size=False, infer_shape=True):
        self.element_shape = None if element_shape is None else SpecShape(
            None if d is None else int(d) for d in list(element_shape))
        self.dtype, self.dynamic_size, self.infer_shape = dtypes.as_dtype(dtype), dynamic_size, infer_shape

    def __eq__(self, other):
        return isinstance(other, TensorArraySpec) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self) -> str:
        return (f"TensorArraySpec({_shape_text(self.element_shape)}, tf.{self.dtype.name}, {self.dynamic_size}, "
                f"{self.infer_shape})")


class OptionalSpec(TypeSpec):
    """The spec of an optional value (tf.experimental.Optional) holding `element_spec`."""

    def __init__(self, element_spec):
        self.element_spec = element_spec

    def __eq__(self, other):
        return isinstance(other, OptionalSpec) and self.element_spec == other.element_spec

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self) -> str:
        return f"OptionalSpec({self.element_spec!r},)"


def shape_fits(spec_shape, shape) -> bool:
    if spec_shape is None:
        return True
    if shape is None or len(shape) != len(spec_shape):
        return False
    return all(s is None or d is None or int(s) == int(d) for s, d in zip(spec_shape, shape))


def type_spec_from_value(value) -> TypeSpec:
    from minixla.frontend.indexed_slices import IndexedSlices

    if isinstance(value, IndexedSlices):
        return IndexedSlicesSpec(value.shape.as_list(), value.dtype, value.indices.dtype,
                                 None if value.dense_shape is None else value.dense_shape.dtype,
                                 value.indices.shape.as_list())
    if value is None:
        return NoneTensorSpec()
    if hasattr(value, "_type_spec") and not isinstance(value, Tensor):  # SparseTensor, RaggedTensor
        return value._type_spec() if callable(value._type_spec) else value._type_spec
    if isinstance(value, (Tensor, np.ndarray)) or hasattr(value, "_variable_value"):
        return TensorSpec.from_tensor(value)
    arr = np.asarray(value)
    if arr.dtype == object:
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type {type(value)}.")
    return TensorSpec.from_tensor(Tensor.make(arr) if arr.dtype != np.float64 else Tensor.make(arr.astype(np.float32)))


__all__ = ["IndexedSlicesSpec", "NoneTensorSpec", "OptionalSpec", "SpecShape", "TensorArraySpec", "TensorShape",
           "TensorSpec", "TypeSpec", "shape_fits", "type_spec_from_value"]
