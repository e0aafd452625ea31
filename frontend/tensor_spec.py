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


def shape_fits(spec_shape, shape) -> bool:
    if spec_shape is None:
        return True
    if shape is None or len(shape) != len(spec_shape):
        return False
    return all(s is None or d is None or int(s) == int(d) for s, d in zip(spec_shape, shape))


def type_spec_from_value(value) -> TensorSpec:
    if isinstance(value, (Tensor, np.ndarray)) or hasattr(value, "_variable_value"):
        return TensorSpec.from_tensor(value)
    arr = np.asarray(value)
    if arr.dtype == object:
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type {type(value)}.")
    return TensorSpec.from_tensor(Tensor(arr) if arr.dtype != np.float64 else Tensor(arr.astype(np.float32)))


__all__ = ["SpecShape", "TensorShape", "TensorSpec", "TypeSpec", "shape_fits", "type_spec_from_value"]
