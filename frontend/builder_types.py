"""The builder's value types and shared helpers: `Spec` (shape and dtype), the XLA-style
type text, `ShapeError`, element classes and the combiner bodies; imported by the
builder (frontend/builder.py) and its structured ops (frontend/builder_structured.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from minixla.dialects.hlo_ops.elementwise import BINARY_OPS, UNARY_OPS
from minixla.frontend.dtypes import _BF16
from minixla.frontend.errors import InvalidArgumentError, at_user_line


@dataclass(frozen=True)
class Spec:
    """Shape and numpy dtype of a value (also a value of `SpecBuilder`).
    Not a tuple: rules return tuples for multiple results."""

    shape: tuple[int, ...] | None
    dtype: np.dtype

    def __str__(self) -> str:
        return type_str(self)


_SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64", "bool": "pred",
          "int8": "s8", "int16": "s16", "int32": "s32", "int64": "s64", "uint8": "u8", "uint16": "u16",
          "uint32": "u32", "uint64": "u64", "complex64": "c64", "complex128": "c128"}


def type_str(v) -> str:
    """XLA-style `f32[2,3]`."""
    return f"{_SHORT.get(np.dtype(v.dtype).name, str(v.dtype))}[{','.join(str(d) for d in v.shape)}]"


class ShapeError(InvalidArgumentError):
    """An HLO-level shape/type error, naming the op, the operands and the user's line."""

    def __init__(self, op: str, detail: str, operands: Sequence[Any] = ()):
        shapes = ", ".join(type_str(o) for o in operands)
        text = f"hlo.{op}: {detail}" + (f" (operands: {shapes})" if operands else "")
        super().__init__(at_user_line(text))


# -- element classes (mirroring dialects/hlo_ops/base.ELEMENT_CLASSES on numpy dtypes)

def _kind(dt: np.dtype) -> str:
    dt = np.dtype(dt)
    if dt == np.bool_:
        return "bool"
    if dt == _BF16 or dt.kind == "f":
        return "float"
    if dt.kind == "c":
        return "complex"
    return "uint" if dt.kind == "u" else "int"


_CLASSES: dict[str, set[str]] = {
    "any": {"bool", "int", "uint", "float", "complex"},
    "float": {"float"},
    "float_or_complex": {"float", "complex"},
    "int": {"int", "uint"},
    "bool_or_int": {"bool", "int", "uint"},
    "signed_int_float_complex": {"int", "float", "complex"},
    "numeric": {"int", "uint", "float", "complex"},
    "int_or_float": {"int", "uint", "float"},
}

#: python-safe builder method name -> hlo mnemonic
UNARY = {("not_" if m == "not" else m): m for m in UNARY_OPS}
BINARY = {(m + "_" if m in ("and", "or") else m): m for m in BINARY_OPS}
COMBINERS = ("add", "multiply", "maximum", "minimum", "and", "or", "xor")


def _ints(values: Sequence[int] | None) -> tuple[int, ...]:
    return tuple(int(v) for v in values) if values is not None else ()


def _combiner_body(name: str) -> Callable:
    def body(b, accs, vals):
        return [b.binary(name, accs[0], vals[0])]

    body.combiner = name  # lets eager reductions use one numpy ufunc call
    return body
