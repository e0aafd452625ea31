"""Eager ops under an open GradientTape without the general path: the elementwise ops whose
decomposition is one hlo primitive on operands of one shape and dtype are computed by the eager fast
path's tables (eager_fast_path.py, bit-identical to the general path) and recorded as that primitive,
the record `RecordingBuilder` would have made (`Prim(op, operands, {}, results)`), so gradients are
the same. Broadcasting operands (the general path records a `broadcast_in_dim` too), variables (their
reads get keys in `on_variable_read`), a graph being traced in this thread, a trace-event recorder,
and every error take the general path (~10x slower per op).
"""

from __future__ import annotations

import numpy as np
from ml_dtypes import bfloat16

from minixla.frontend.autodiff.tape import ACTIVE, Prim, RValue, new_key, recording_tapes
from minixla.frontend.eager_fast_path import (BINARY_TABLES, UNARY_TABLES, _exact_scalar, _retry, quiet,
                                              wrap)
from minixla.frontend.graph import current_graph
from minixla.frontend.tensor import Tensor
from minixla.passes import trace_events as _events

#: TF op -> the hlo primitive its rule issues for operands of one shape (tests/frontend/
#: test_tape_fast_path.py checks each against the general path's record)
PRIMITIVES = {
    "AddV2": "add", "Sub": "subtract", "Mul": "multiply", "RealDiv": "divide", "Maximum": "maximum",
    "Minimum": "minimum", "Pow": "power", "Square": "multiply",
    "Neg": "negate", "Exp": "exponential", "Expm1": "exponential_minus_one", "Log": "log",
    "Log1p": "log_plus_one", "Tanh": "tanh", "Sigmoid": "logistic", "Sqrt": "sqrt", "Rsqrt": "rsqrt",
    "Abs": "abs", "Sin": "sine", "Cos": "cosine",
}

_FLOATS = frozenset(np.dtype(t) for t in (np.float16, bfloat16, np.float32, np.float64))


def _operand(x, dtype: np.dtype | None, shape: tuple | None):
    """(array, tape key) of an eager Tensor, or of a Python number that converts exactly (an untracked
    constant broadcast to `shape`, as the general path's rule makes it); None otherwise."""
    if type(x) is Tensor:
        a = x._value
        if a is None or (dtype is not None and (a.dtype != dtype or a.shape != shape)):
            return None
        return a, getattr(x, "_tape_key", None)
    if dtype is not None and _exact_scalar(x, dtype):
        return np.broadcast_to(np.asarray(x, dtype), shape), None
    return None


def record(name: str, inputs) -> Tensor | None:
    """Op `name` on `inputs` computed and recorded on this thread's tapes, or None (general path)."""
    prim = PRIMITIVES.get(name)
    if prim is None or _events.ACTIVE is not None or current_graph() is not None or not ACTIVE:
        return None
    binary = len(inputs) == 2
    first = inputs[1] if binary and type(inputs[0]) is not Tensor else inputs[0]
    if type(first) is not Tensor or first._value is None:
        return None
    dtype, shape = first._value.dtype, first._value.shape
    if dtype not in _FLOATS:
        return None
    operands = [_operand(x, dtype, shape) for x in inputs]
    if any(o is None for o in operands):
        return None
    table = (BINARY_TABLES if binary else UNARY_TABLES)[name]
    fn = table.get(dtype)
    if fn is None:
        return None
    arrays = [a for a, _ in operands]
    try:
        out = quiet(fn, *arrays)
    except RuntimeError:
        out = _retry(fn, *arrays)
    except Exception:  # noqa: BLE001 -- the general path makes the error
        return None
    if out is None:
        return None
    result = wrap(out)
    keys = [k for _, k in operands if k is not None]
    tapes = [t for t in recording_tapes() if any(k in t.tracked for k in keys)] if keys else []
    if tapes:
        key = new_key()
        values = [RValue(a, k) for a, k in operands]
        if name == "Square":  # the rule multiplies the operand by itself
            values = [values[0], values[0]]
        p = Prim(prim, values, {}, [RValue(result._value, key)])
        for t in tapes:
            t.records.append(p)
            t.tracked.add(key)
        result._tape_key = key
    return result
