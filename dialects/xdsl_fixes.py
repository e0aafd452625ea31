"""Workarounds for xDSL 0.74 behaviour that differs from MLIR, applied once on import.

* Hex literals in float `dense<...>` attributes (`0x7F800000` for +inf in f32,
  `0x7C00` for +inf in f16) are bit patterns in MLIR; xDSL reads them as
  integers and converts the integer's value to float. StableHLO's tests use
  them for inf/NaN/denormals everywhere.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.parser.attribute_parser import AttrParser

_BITS_DTYPES = {Float16Type: (np.uint16, np.float16), Float32Type: (np.uint32, np.float32),
                Float64Type: (np.uint64, np.float64)}


def _float_from_bits(bits: int, type_) -> float:
    if isinstance(type_, BFloat16Type):
        return float(np.array([bits << 16], dtype=np.uint32).view(np.float32)[0])
    int_dtype, float_dtype = _BITS_DTYPES[type(type_)]
    return float(np.array([bits], dtype=int_dtype).view(float_dtype)[0])


_element = AttrParser._TensorLiteralElement  # noqa: SLF001
_original_to_type = _element.to_type


def _to_type(self, parser, type_):
    text = self.span.text.lstrip("-").strip()
    if (type(type_) in _BITS_DTYPES or isinstance(type_, BFloat16Type)) and isinstance(self.value, int) \
            and not isinstance(self.value, bool) and text[:2] in ("0x", "0X"):
        if self.is_negative:
            parser.raise_error("a hexadecimal float literal must not be negated", at_position=self.span)
        return _float_from_bits(int(text, 16), type_)
    return _original_to_type(self, parser, type_)


if not getattr(_element, "_minixla_patched", False):
    _element.to_type = _to_type
    _element._minixla_patched = True  # noqa: SLF001
