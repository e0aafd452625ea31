"""TF's `DType` objects (`tf.float32`, ...) over numpy dtypes.

A `DType` is what users see (`x.dtype == tf.float32`, `repr` -> `tf.float32`);
everything below the API works with numpy dtypes (bf16 from ml_dtypes), so
conversion happens only at the boundary (`as_dtype`).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

_BF16 = np.dtype(ml_dtypes.bfloat16)


class DType:
    """A TF element type; compares equal to its numpy dtype and its name."""

    __slots__ = ("name", "_np")

    def __init__(self, name: str, np_dtype: np.dtype):
        self.name = name
        self._np = np.dtype(np_dtype)

    @property
    def as_numpy_dtype(self) -> type:
        return self._np.type

    @property
    def np(self) -> np.dtype:
        return self._np

    @property
    def is_floating(self) -> bool:
        return self._np.kind == "f" or self._np == _BF16

    @property
    def is_integer(self) -> bool:
        return self._np.kind in "iu"

    @property
    def is_unsigned(self) -> bool:
        return self._np.kind == "u"

    @property
    def is_bool(self) -> bool:
        return self._np == np.bool_

    @property
    def is_complex(self) -> bool:
        return self._np.kind == "c"

    @property
    def real_dtype(self) -> DType:
        """The dtype of a complex dtype's parts (float32 for complex64); any other dtype itself."""
        return _BY_NAME.get({"complex64": "float32", "complex128": "float64"}.get(self.name, ""), self)

    @property
    def is_quantized(self) -> bool:
        return self.name in QUANTIZED

    @property
    def size(self) -> int:
        return 0 if self.name in ("resource", "variant") else self._np.itemsize

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def min(self):
        if self.is_quantized or self.name in ("resource", "variant"):
            raise TypeError(f"Cannot find minimum value of {self} with quantized type {self}.")
        return ml_dtypes.finfo(self._np).min if self.is_floating else np.iinfo(self._np).min

    @property
    def max(self):
        if self.is_quantized or self.name in ("resource", "variant"):
            raise TypeError(f"Cannot find maximum value of {self} with quantized type {self}.")
        return ml_dtypes.finfo(self._np).max if self.is_floating else np.iinfo(self._np).max

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other) -> bool:
        if isinstance(other, DType):
            return self._np == other._np
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __hash__(self) -> int:
        return hash(self._np)


_BY_NAME: dict[str, DType] = {}
_BY_NP: dict[np.dtype, DType] = {}

for _name, _dt in (("float16", np.float16), ("bfloat16", _BF16), ("float32", np.float32),
                   ("float64", np.float64), ("int8", np.int8), ("int16", np.int16), ("int32", np.int32),
                   ("int64", np.int64), ("uint8", np.uint8), ("uint16", np.uint16), ("uint32", np.uint32),
                   ("uint64", np.uint64), ("bool", np.bool_), ("complex64", np.complex64),
                   ("complex128", np.complex128)):
    _d = DType(_name, _dt)
    _BY_NAME[_name] = _d
    _BY_NP[np.dtype(_dt)] = _d

string = DType("string", np.dtype(object))
_BY_NAME["string"] = string
_BY_NP[np.dtype(object)] = string

_BY_NAME.update(half=_BY_NAME["float16"], float=_BY_NAME["float32"], double=_BY_NAME["float64"])

#: TF's quantized element types, and the resource/variant handles: numpy structured types as in TF
#: (distinct from their storage types); names for signatures and dtypes, no arithmetic
QUANTIZED = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16, "qint32": np.int32}
for _name, _dt in (*QUANTIZED.items(), ("resource", np.ubyte), ("variant", np.ubyte)):
    _d = DType(_name, np.dtype([(_name, _dt)]))
    _BY_NAME[_name] = _d
    _BY_NP[_d.np] = _d
qint8, quint8, qint16, quint16, qint32 = (_BY_NAME[n] for n in QUANTIZED)
resource, variant = _BY_NAME["resource"], _BY_NAME["variant"]

float16, bfloat16, float32, float64 = (_BY_NAME[n] for n in ("float16", "bfloat16", "float32", "float64"))
int8, int16, int32, int64 = (_BY_NAME[n] for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (_BY_NAME[n] for n in ("uint8", "uint16", "uint32", "uint64"))
bool_ = _BY_NAME["bool"]
complex64, complex128 = _BY_NAME["complex64"], _BY_NAME["complex128"]
half, double = float16, float64


def as_dtype(value) -> DType:
    """`tf.as_dtype`: a DType from a DType, a name, a numpy dtype or a Python type."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    if value is float:
        return float32
    if value is int:
        return int32
    if value is bool:
        return bool_
    if value is complex:
        return complex128
    try:
        dt = np.dtype(value)
    except TypeError:
        raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType.") from None
    if dt in _BY_NP:
        return _BY_NP[dt]
    raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType.")


def np_dtype(value) -> np.dtype:
    """numpy dtype of anything `as_dtype` accepts."""
    return as_dtype(value).np


def dtype_name(dt) -> str:
    return as_dtype(dt).name
