"""Element types <-> numpy dtypes, and dense attributes <-> numpy arrays.

xDSL 0.74 stores a `DenseIntOrFPElementsAttr` as raw little-endian bytes in
`attr.data.data` (splats already expanded by the parser). We read and write
those bytes directly rather than going through `get_values()`, which loses
NaN payloads (bf16 goes through Python floats) and mixes signed/unsigned
integers. Quirks handled here, in one place:

* i1 is stored one byte per element; the parser writes `true` as 0xFF, so we
  read "non-zero" as true and write true as 0xFF to match.
* signless integers are stored signed, `ui64` unsigned: both read back exactly.
* a hand-built attribute may hold a single element for a larger shape (splat):
  we broadcast it.
* the fp8/fp6/fp4 types are one byte per element holding the bit pattern in
  its low bits, as ml_dtypes lays them out: the bytes are viewed directly.
* i2/i4/ui2/ui4 are one byte per element, sign-extended by xDSL; ml_dtypes
  keeps only the low bits, so the values (not the bytes) are converted.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    f16,
    f32,
    f64,
    i1,
)
from xdsl.ir import Attribute

bfloat16 = np.dtype(ml_dtypes.bfloat16)

#: the fp8/fp6/fp4 element types and their ml_dtypes dtypes (one byte per element)
NARROW_FLOATS = {
    Float8E4M3FNType: np.dtype(ml_dtypes.float8_e4m3fn), Float8E5M2Type: np.dtype(ml_dtypes.float8_e5m2),
    Float8E4M3FNUZType: np.dtype(ml_dtypes.float8_e4m3fnuz), Float8E5M2FNUZType: np.dtype(ml_dtypes.float8_e5m2fnuz),
    Float8E4M3B11FNUZType: np.dtype(ml_dtypes.float8_e4m3b11fnuz), Float8E3M4Type: np.dtype(ml_dtypes.float8_e3m4),
    Float8E4M3Type: np.dtype(ml_dtypes.float8_e4m3), Float8E8M0FNUType: np.dtype(ml_dtypes.float8_e8m0fnu),
    Float6E2M3FNType: np.dtype(ml_dtypes.float6_e2m3fn), Float6E3M2FNType: np.dtype(ml_dtypes.float6_e3m2fn),
    Float4E2M1FNType: np.dtype(ml_dtypes.float4_e2m1fn),
}
#: (width, unsigned) -> ml_dtypes dtype of the sub-byte integers
SUB_BYTE_INTS = {(2, False): np.dtype(ml_dtypes.int2), (4, False): np.dtype(ml_dtypes.int4),
                 (2, True): np.dtype(ml_dtypes.uint2), (4, True): np.dtype(ml_dtypes.uint4)}
_SUB_BYTE_WIDTH = {dt: (w, u) for (w, u), dt in SUB_BYTE_INTS.items()}
_ML_FLOATS = frozenset({bfloat16, *NARROW_FLOATS.values()})

_FLOATS = {Float16Type: np.dtype(np.float16), BFloat16Type: bfloat16,
           Float32Type: np.dtype(np.float32), Float64Type: np.dtype(np.float64), **NARROW_FLOATS}


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype holding elements of xDSL element type `t`."""
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return np.dtype(np.bool_)
        unsigned = t.signedness.data == Signedness.UNSIGNED
        if (width, unsigned) in SUB_BYTE_INTS:
            return SUB_BYTE_INTS[width, unsigned]
        if width not in (8, 16, 32, 64):
            raise TypeError(f"unsupported integer width in {t}")
        return np.dtype(f"{'u' if unsigned else 'i'}{width // 8}")
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    for cls, dt in _FLOATS.items():
        if isinstance(t, cls):
            return dt
    if isinstance(t, ComplexType):
        inner = t.element_type
        if isinstance(inner, Float32Type):
            return np.dtype(np.complex64)
        if isinstance(inner, Float64Type):
            return np.dtype(np.complex128)
    from minixla.dialects.quant import UniformQuantizedType  # held as its storage integers

    if isinstance(t, UniformQuantizedType):
        return numpy_dtype(t.storage_type)
    raise TypeError(f"no numpy dtype for element type {t}")


def element_type(dtype: np.dtype | type) -> Attribute:
    """The xDSL element type for a numpy dtype (signed ints become signless)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return i1
    if dt in _SUB_BYTE_WIDTH:
        width, unsigned = _SUB_BYTE_WIDTH[dt]
        return IntegerType(width, Signedness.UNSIGNED if unsigned else Signedness.SIGNLESS)
    for cls, narrow in NARROW_FLOATS.items():
        if dt == narrow:
            return cls()
    if dt.kind in "iu":
        return IntegerType(dt.itemsize * 8, Signedness.UNSIGNED if dt.kind == "u" else Signedness.SIGNLESS)
    if dt == bfloat16:
        return BFloat16Type()
    if dt.kind == "f":
        return {2: f16, 4: f32, 8: f64}[dt.itemsize]
    if dt.kind == "c":
        return ComplexType(f32 if dt.itemsize == 8 else f64)
    raise TypeError(f"no element type for numpy dtype {dt}")


def tensor_type(t: Attribute) -> tuple[tuple[int, ...], np.dtype]:
    """(shape, dtype) of a tensor type."""
    if not isinstance(t, TensorType):
        raise TypeError(f"expected a tensor type, got {t}")
    return tuple(t.get_shape()), numpy_dtype(t.element_type)


# -- dtype predicates (bf16 is not an np.floating subtype, hence these) -------

def is_bool(dt: np.dtype) -> bool:
    return np.dtype(dt) == np.bool_


def is_int(dt: np.dtype) -> bool:
    dt = np.dtype(dt)
    return dt.kind in "iu" or dt in _SUB_BYTE_WIDTH


def is_sub_byte_int(dt: np.dtype) -> bool:
    return np.dtype(dt) in _SUB_BYTE_WIDTH


def is_unsigned(dt: np.dtype) -> bool:
    dt = np.dtype(dt)
    return dt.kind == "u" or _SUB_BYTE_WIDTH.get(dt, (0, False))[1]


def is_float(dt: np.dtype) -> bool:
    dt = np.dtype(dt)
    return dt.kind == "f" or dt in _ML_FLOATS


def is_ml_float(dt: np.dtype) -> bool:
    """bf16 and the fp8/fp6/fp4 types: ml_dtypes floats, computed through float32."""
    return np.dtype(dt) in _ML_FLOATS


def is_narrow_float(dt: np.dtype) -> bool:
    """The fp8/fp6/fp4 types (not bf16)."""
    return np.dtype(dt) in _ML_FLOATS and np.dtype(dt) != bfloat16


def wide_int(dt: np.dtype) -> np.dtype:
    """The numpy integer type a sub-byte integer is computed in (others: themselves)."""
    dt = np.dtype(dt)
    if dt in _SUB_BYTE_WIDTH:
        return np.dtype(np.uint8 if _SUB_BYTE_WIDTH[dt][1] else np.int8)
    return dt


def is_complex(dt: np.dtype) -> bool:
    return np.dtype(dt).kind == "c"


def bit_width(dt: np.dtype) -> int:
    """Bits of the element type (4 for int4 and float4_e2m1fn, though numpy uses a byte)."""
    dt = np.dtype(dt)
    if dt in _SUB_BYTE_WIDTH:
        return _SUB_BYTE_WIDTH[dt][0]
    if dt in _ML_FLOATS:
        return ml_dtypes.finfo(dt).bits
    return 1 if is_bool(dt) else dt.itemsize * 8


def uint_of(dt: np.dtype) -> np.dtype:
    """Unsigned integer dtype of the same width (for bit manipulation)."""
    return np.dtype(f"u{np.dtype(dt).itemsize}")


def int_of(dt: np.dtype) -> np.dtype:
    return np.dtype(f"i{np.dtype(dt).itemsize}")


def signed_of(dt: np.dtype) -> np.dtype:
    """The signed integer dtype of the same width (uint4 -> int4, uint32 -> int32)."""
    dt = np.dtype(dt)
    return SUB_BYTE_INTS[bit_width(dt), False] if dt in _SUB_BYTE_WIDTH else int_of(dt)


# -- dense attributes ---------------------------------------------------------

def _storage_dtype(dt: np.dtype) -> np.dtype:
    """How xDSL lays out one element in the attribute's bytes (little endian)."""
    if dt == np.bool_ or dt in _SUB_BYTE_WIDTH:
        return np.dtype(np.uint8 if is_unsigned(dt) else np.int8)
    if dt in _ML_FLOATS:
        return np.dtype("<u2") if dt == bfloat16 else np.dtype(np.uint8)
    return np.dtype(dt).newbyteorder("<")


def dense_attr_to_numpy(attr: DenseIntOrFPElementsAttr, type_: Attribute | None = None) -> np.ndarray:
    """The value of a dense attribute as a (fresh, writable) numpy array of
    `type_`'s shape (default: the attribute's own type)."""
    ttype = type_ if type_ is not None else attr.type
    shape = tuple(ttype.get_shape())  # type: ignore[union-attr]
    dt = numpy_dtype(ttype.get_element_type())  # type: ignore[union-attr]
    raw = np.frombuffer(attr.data.data, dtype=_storage_dtype(dt))
    if dt == np.bool_:
        flat = raw != 0
    elif dt in _ML_FLOATS:
        flat = raw.astype(raw.dtype.newbyteorder("=")).view(dt)
    else:
        flat = raw.astype(dt)
    size = int(np.prod(shape, dtype=np.int64))
    if flat.size == size:
        return flat.reshape(shape).copy()
    if flat.size == 1:
        return np.full(shape, flat[0], dtype=dt)
    raise ValueError(f"dense attribute holds {flat.size} elements, type {ttype} needs {size}")


def numpy_to_dense_attr(arr: np.ndarray, type_: Attribute | None = None) -> DenseIntOrFPElementsAttr:
    """A dense attribute holding `arr` bit-exactly (NaN payloads, -0.0 kept).
    `type_` defaults to a tensor of `arr`'s shape and element type."""
    arr = np.asarray(arr)
    if type_ is None:
        type_ = TensorType(element_type(arr.dtype), arr.shape)
    shape, dt = tensor_type(type_)
    if arr.shape != shape:
        arr = np.broadcast_to(arr, shape)
    arr = np.ascontiguousarray(arr.astype(dt, copy=False))
    if dt == np.bool_:
        data = np.where(arr, np.int8(-1), np.int8(0)).tobytes()
    elif dt in _ML_FLOATS:
        data = arr.view(np.uint16 if dt == bfloat16 else np.uint8).astype(_storage_dtype(dt)).tobytes()
    else:
        data = arr.astype(_storage_dtype(dt)).tobytes()
    return DenseIntOrFPElementsAttr(type_, BytesAttr(data))
