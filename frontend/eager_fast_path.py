"""The eager fast path for the arithmetic users chain most (x * 2 + y): AddV2, Sub, Mul, Maximum,
Minimum and float RealDiv on eager tensors of one dtype and the same shape (or a scalar side), and
the float unary ops that are one hlo op (Exp, Log, Sqrt, Tanh, ...), with no GradientTape
recording and no graph. It calls the same numpy kernel the op's decomposition would
reach (backends/interpreter/kernels/elementwise.py), so the numbers are identical, and skips op
lookup, input conversion and the builder. Anything else returns None and takes the general path
(execute.py), which also produces every error message."""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.ops_elementwise import BINARY, UNARY
from minixla.frontend.ops.math_ops import SIMPLE_BINARY, SIMPLE_UNARY
from minixla.frontend.tensor import Tensor

BINARY_KERNELS = {op: BINARY[SIMPLE_BINARY[op]] for op in ("AddV2", "Sub", "Mul", "Maximum", "Minimum", "RealDiv")}
#: float-only unary ops that are one hlo op each (their hlo op from math_ops' table)
UNARY_KERNELS = {op: UNARY[SIMPLE_UNARY[op]] for op in ("Abs", "Neg", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log",
                                                        "Log1p", "Sin", "Cos", "Tanh", "Floor", "Ceil", "Sigmoid")}
KERNELS = {**BINARY_KERNELS, **UNARY_KERNELS}
_NUMERIC = frozenset("fiu")


def _operand(x, dtype: np.dtype):
    """x's array if it is an eager Tensor of `dtype`, or a Python number that converts exactly; else None."""
    if type(x) is Tensor:
        v = x._value
        return v if v is not None and v.dtype == dtype else None
    if type(x) is float and dtype.kind == "f" and dtype.itemsize >= 4:
        if abs(x) <= 3.0e38 or x != x:
            return np.asarray(x, dtype)
        return None
    if type(x) is int and dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.asarray(x, dtype) if info.min <= x <= info.max else None
    if type(x) is int and dtype.kind == "f" and dtype.itemsize >= 4 and abs(x) < 2 ** 24:
        return np.asarray(x, dtype)
    return None


def run(name: str, inputs) -> Tensor | None:
    """The op's result, or None when the general path must take it."""
    if name in UNARY_KERNELS:
        (x,) = inputs
        if type(x) is not Tensor or x._value is None or x._value.dtype.kind != "f":
            return None
        with np.errstate(all="ignore"):
            out = UNARY_KERNELS[name](x._value)
        return Tensor(np.asarray(out, x._value.dtype))
    return binary(name, inputs)


def binary(name: str, inputs) -> Tensor | None:
    a, b = inputs
    ref = a if type(a) is Tensor else b
    if type(ref) is not Tensor or ref._value is None:
        return None
    dtype = ref._value.dtype
    if dtype.kind not in _NUMERIC or (name == "RealDiv" and dtype.kind != "f"):
        return None
    x, y = _operand(a, dtype), _operand(b, dtype)
    if x is None or y is None or (x.shape != y.shape and x.ndim and y.ndim):
        return None
    with np.errstate(all="ignore"):
        out = KERNELS[name](x, y)
    return Tensor(np.asarray(out, dtype))
