"""Eager ops under an open GradientTape without the general path: the elementwise ops whose
decomposition is one hlo primitive on operands of one shape and dtype, 2-D MatMul and BiasAdd are
computed by the eager fast path's kernels (eager_fast_path.py, eager_fast_ops.py: bit-identical to
the general path) and recorded as the primitives `RecordingBuilder` would have recorded
(`Prim(op, operands, attrs, results)`), so gradients are the same. A tf.Variable operand is read as
the general path reads it. Broadcasting operands (the general path records a `broadcast_in_dim`
too), transposed matmuls, a graph being traced in this thread, a trace-event recorder and every
error take the general path (~10x slower per op).
"""

from __future__ import annotations

import numpy as np
from ml_dtypes import bfloat16

from minixla.frontend.autodiff.tape import ACTIVE, Prim, RValue, new_key, recording_tapes
from minixla.frontend.eager_fast_ops import _WIDE
from minixla.frontend.eager_fast_ops import _matmul as fast_matmul
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


def _peek(x):
    """The array of an eager Tensor or a tf.Variable (not read yet: checks only), else None."""
    if type(x) is Tensor or hasattr(x, "_variable_value"):
        return getattr(x, "_value", None)
    return None


def _take(x) -> tuple:
    """(array, tape key) of an eager Tensor; a tf.Variable is read as the general path reads it (a copy,
    which gets its key on the tapes that watch it), so a later update cannot change what was recorded."""
    if type(x) is not Tensor:
        x = x._variable_value()
    return x._value, getattr(x, "_tape_key", None)


def _operand(x, dtype: np.dtype, shape: tuple):
    """Whether x can be an operand of dtype `dtype` and shape `shape`: an eager Tensor or Variable, or
    a Python number that converts exactly."""
    a = _peek(x)
    if a is not None:
        return a.dtype == dtype and a.shape == shape
    return _exact_scalar(x, dtype)


def _taken(x, dtype: np.dtype, shape: tuple) -> tuple:
    """`_take`, or a Python number as the general path's rule makes it: an untracked constant broadcast
    to `shape`."""
    if _peek(x) is not None:
        return _take(x)
    return np.broadcast_to(np.asarray(x, dtype), shape), None


def _float_matrix(x, rank: int) -> bool:
    a = _peek(x)
    return a is not None and a.dtype in _FLOATS and a.ndim == rank


def _computed(fn, *arrays):
    """fn(*arrays) with floating point quiet, or None if it fails (the general path makes the error)."""
    try:
        return quiet(fn, *arrays)
    except RuntimeError:
        return _retry(fn, *arrays)
    except Exception:  # noqa: BLE001 -- the general path makes the error
        return None


def _record(op: str, operands: list, attrs: dict, value: np.ndarray) -> int | None:
    """Append primitive `op` (operands as (array, key) pairs) to this thread's recording tapes that track
    an operand, as RecordingBuilder does; the result's key, or None where no tape tracks an operand."""
    keys = [k for _, k in operands if k is not None]
    tapes = [t for t in recording_tapes() if any(k in t.tracked for k in keys)] if keys else []
    if not tapes:
        return None
    key = new_key()
    p = Prim(op, [RValue(a, k) for a, k in operands], attrs, [RValue(value, key)])
    for t in tapes:
        t.records.append(p)
        t.tracked.add(key)
    return key


def _keyed(value, key: int | None) -> Tensor:
    result = wrap(value)
    if key is not None:
        result._tape_key = key
    return result


def _elementwise(name: str, inputs, attrs: dict) -> Tensor | None:
    """An op of PRIMITIVES on operands of one shape and float dtype (a Python number operand too)."""
    prim = PRIMITIVES[name]
    if attrs:
        return None
    first = _peek(inputs[0])
    if first is None and len(inputs) == 2:
        first = _peek(inputs[1])
    if first is None or first.dtype not in _FLOATS:
        return None
    dtype, shape = first.dtype, first.shape
    fn = (BINARY_TABLES if len(inputs) == 2 else UNARY_TABLES)[name].get(dtype)
    if fn is None or not all(_operand(x, dtype, shape) for x in inputs):
        return None
    operands = [_taken(x, dtype, shape) for x in inputs]
    out = _computed(fn, *[a for a, _ in operands])
    if out is None:
        return None
    result = wrap(out)
    if name == "Square":  # the rule multiplies the operand by itself
        operands = operands * 2
    return _keyed(result._value, _record(prim, operands, {}, result._value))


def _matmul(name: str, inputs, attrs: dict) -> Tensor | None:
    """MatMul of 2-D matrices without transposes: one dot_general (the general path transposes first)."""
    if any(attrs.get(k) for k in ("transpose_a", "transpose_b")) or set(attrs) - {"transpose_a", "transpose_b"}:
        return None
    a, b = inputs
    if not (_float_matrix(a, 2) and _float_matrix(b, 2)):
        return None
    x, y = _peek(a), _peek(b)
    if x.dtype not in _WIDE or y.dtype != x.dtype or x.shape[1] != y.shape[0] or not x.shape[1]:
        return None
    x, y = _take(a), _take(b)
    out = _computed(fast_matmul, x[0], y[0], False, False)
    if out is None:
        return None
    return _keyed(out, _record("dot_general", [x, y], {"lc": (1,), "rc": (0,), "lb": (), "rb": ()}, out))


def _bias_add(name: str, inputs, attrs: dict) -> Tensor | None:
    """BiasAdd (NHWC): the bias broadcast along the last axis, then added (the rule's two primitives)."""
    if attrs.get("data_format", "NHWC") not in (None, "NHWC") or set(attrs) - {"data_format"}:
        return None
    value, bias = inputs
    v, b = _peek(value), _peek(bias)
    if v is None or b is None or v.dtype not in _FLOATS or v.ndim < 2 or b.ndim != 1 or b.dtype != v.dtype \
            or b.shape[0] != v.shape[-1]:
        return None
    add = BINARY_TABLES["AddV2"].get(v.dtype)
    if add is None:
        return None
    x, bias = _take(value), _take(bias)
    out = _computed(add, x[0], bias[0])
    if out is None:
        return None
    wide = np.broadcast_to(bias[0], x[0].shape)
    wide_key = _record("broadcast_in_dim", [bias], {"dims": (x[0].ndim - 1,)}, wide)
    out = wrap(out)._value
    return _keyed(out, _record("add", [x, (wide, wide_key)], {}, out))


#: TF op -> its recorder (tests empty this to reach the general path)
RECORDERS = {**dict.fromkeys(PRIMITIVES, _elementwise), "MatMul": _matmul, "BiasAdd": _bias_add}


def record(name: str, inputs, attrs: dict | None = None) -> Tensor | None:
    """Op `name` on `inputs` computed and recorded on this thread's tapes, or None (general path)."""
    recorder = RECORDERS.get(name)
    if recorder is None or _events.ACTIVE is not None or current_graph() is not None or not ACTIVE:
        return None
    return recorder(name, inputs, attrs or {})
