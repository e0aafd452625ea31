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
from minixla.frontend import tensor as _tensor_module
from minixla.frontend.autodiff import tape as _tape
from minixla.frontend.graph import _STACK
from minixla.frontend.tensor import Spec, Tensor
from minixla.passes import trace_events as _trace_events

BINARY_KERNELS = {op: BINARY[SIMPLE_BINARY[op]] for op in ("AddV2", "Sub", "Mul", "Maximum", "Minimum", "RealDiv")}
#: float-only unary ops that are one hlo op each (their hlo op from math_ops' table)
UNARY_KERNELS = {op: UNARY[SIMPLE_UNARY[op]] for op in ("Abs", "Neg", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log",
                                                        "Log1p", "Sin", "Cos", "Tanh", "Floor", "Ceil", "Sigmoid")}
KERNELS = {**BINARY_KERNELS, **UNARY_KERNELS}
_NUMERIC = frozenset("fiu")


def _exact_scalar(x, dtype: np.dtype) -> bool:
    """Whether Python number `x` converts to `dtype` exactly (TF's conversion would not fail or round)."""
    if type(x) is float:
        return dtype.kind == "f" and dtype.itemsize >= 4 and (abs(x) <= 3.0e38 or x != x)
    if type(x) is int:
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            return bool(info.min <= x <= info.max)
        return dtype.kind == "f" and dtype.itemsize >= 4 and abs(x) < 2 ** 24
    return False


def _operand(x, dtype: np.dtype):
    """x's array if it is an eager Tensor of `dtype`, or a Python number that converts exactly; else None."""
    if type(x) is Tensor:
        v = x._value
        return v if v is not None and v.dtype == dtype else None
    return np.asarray(x, dtype) if _exact_scalar(x, dtype) else None


def _ignoring_errors():
    """numpy's floating-point error state set to "ignore" (TF never warns on inf/NaN), made the cheap way:
    `np.errstate` costs ~3x the op itself on small arrays; numpy 2 keeps the state in a context variable,
    which we set directly when it is there (a private API: the errstate path stays as the fallback)."""
    try:
        from numpy._core import _ufunc_config as config

        var, ignore = config._extobj_contextvar, config._make_extobj(all="ignore")
    except (ImportError, AttributeError, TypeError):
        return None

    def call(kernel, *args):
        token = var.set(ignore)
        try:
            return kernel(*args)
        finally:
            var.reset(token)
    return call


_QUIET = _ignoring_errors()


def quietly(kernel, *args):
    if _QUIET is not None:
        return _QUIET(kernel, *args)
    with np.errstate(all="ignore"):
        return kernel(*args)


def run(name: str, inputs) -> Tensor | None:
    """The op's result, or None when the general path must take it."""
    if name in UNARY_KERNELS:
        (x,) = inputs
        if type(x) is not Tensor or x._value is None or x._value.dtype.kind != "f":
            return None
        out = quietly(UNARY_KERNELS[name], x._value)
        return _wrap(np.asarray(out, x._value.dtype))
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
    return _wrap(np.asarray(quietly(KERNELS[name], x, y), dtype))


def _wrap(value: np.ndarray) -> Tensor:
    """An eager Tensor around a fresh kernel result (what Tensor(value) makes, without its checks: the
    result is a new, writeable array)."""
    t = _new(Tensor)
    t._value = t._const = value
    t._graph = t._ssa = None
    t._spec = Spec(value.shape, value.dtype)
    t._name = ""
    return t


_new = object.__new__


#: numpy 2 converts a Python scalar to the array's dtype before the op (NEP 50), exactly what `_operand`
#: does by hand; numpy 1's value-based casting might compute a 0-d float32 op in float64
_WEAK_SCALARS = int(np.__version__.split(".")[0]) >= 2
#: the ufuncs the interpreter's kernels call for these ops on every dtype the fast path takes
#: (they differ only for bool and bfloat16, which it never takes)
_UFUNCS = {"AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply}


def _scalar(x, dtype: np.dtype):
    """A Python number for the ufunc: itself under numpy 2's weak scalars, else its exact array."""
    if not _WEAK_SCALARS:
        return _operand(x, dtype)
    return x if _exact_scalar(x, dtype) else None


def dunder(name: str, a, b) -> Tensor | None:
    """`a + b` etc. on eager tensors straight from Tensor's operator (skipping the API function and
    `execute`), under the same conditions as `execute`'s fast path (no tape, trace or graph) and with
    the same numbers (`binary`'s rules, the same ufuncs)."""
    if _tape.ACTIVE or _STACK or _trace_events.ACTIVE is not None:
        return None
    if type(a) is Tensor:
        x = a._value
        if x is None:
            return None
        dtype = x.dtype
        if type(b) is Tensor:
            y = b._value
            if y is None or y.dtype != dtype or (y.shape != x.shape and x.ndim and y.ndim):
                return None
        else:
            y = _scalar(b, dtype)
    elif type(b) is Tensor:
        y = b._value
        if y is None:
            return None
        dtype = y.dtype
        x = _scalar(a, dtype)
    else:
        return None
    kind = dtype.kind
    if x is None or y is None or kind not in _NUMERIC or (name == "RealDiv" and kind != "f"):
        return None
    ufunc = _UFUNCS.get(name)
    if ufunc is None:  # the interpreter's kernel (RealDiv's special cases) wants arrays
        ufunc = KERNELS[name]
        x, y = np.asarray(x, dtype), np.asarray(y, dtype)
    out = quietly(ufunc, x, y)
    return _wrap(out if type(out) is np.ndarray and out.dtype == dtype else np.asarray(out, dtype))


_tensor_module.OPERATOR_FAST_PATH[0] = dunder
