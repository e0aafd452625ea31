"""Tensors printed the way `stablehlo-translate --interpret` prints them
(`minixla-run` results and `interpreter.print`)."""

from __future__ import annotations

import math

import numpy as np

from minixla.dialects.numpy_types import is_float, is_sub_byte_int


def _scalar_text(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (complex, np.complexfloating)):
        return f"({_scalar_text(x.real)}, {_scalar_text(x.imag)})"
    dt = getattr(x, "dtype", None)
    if dt is not None and is_sub_byte_int(dt):  # ml_dtypes' int4 is no np.integer
        return str(int(x))
    if isinstance(x, (float, np.floating)) or dt is not None and is_float(dt):  # bf16, fp8: no np.floating
        v = float(x)
        if math.isnan(v):
            return "nan"
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else f"{v:.6e}"
    try:
        return str(int(x))
    except (TypeError, ValueError):
        return f"{float(x):.6e}"


def _nested(a: np.ndarray, indent: int) -> str:
    pad = "  " * indent
    if a.ndim == 1:
        return pad + "[" + ", ".join(_scalar_text(x) for x in a) + "]"
    if a.shape[0] == 0:
        return pad + "[]"
    inner = ",\n".join(_nested(sub, indent + 1) for sub in a)
    return f"{pad}[\n{inner}\n{pad}]"


def format_tensor(value: np.ndarray, type_text: str) -> str:
    """`tensor<2xi32> {\\n  [3, 3]\\n}` (scalars on one line: `tensor<i32> {3}`)."""
    value = np.asarray(value)
    if value.ndim == 0:
        return f"{type_text} {{{_scalar_text(value[()])}}}"
    return f"{type_text} {{\n{_nested(value, 1)}\n}}"
