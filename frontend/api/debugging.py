"""`tf.debugging`: assertions and numeric checks.

Eagerly they check the values and raise TF's `InvalidArgumentError` with TF's message
shape ("Condition x == y did not hold element-wise: ..."). Inside a traced
`tf.function` the values are not known; like XLA, which drops `Assert` when it
compiles, minixla traces them away (the check happens when the function runs eagerly
with `tf.config.run_functions_eagerly(True)`), and `check_numerics` stays the identity.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.graph import current_graph
from minixla.frontend.tensor import Tensor


def _value(x):
    if isinstance(x, Tensor):
        return None if x._value is None else np.asarray(x._value)
    if hasattr(x, "numpy"):
        return np.asarray(x.numpy())
    return np.asarray(x)


def _eager(*xs) -> bool:
    return current_graph() is None and all(_value(x) is not None for x in xs)


def _fail(message, summary: str, *xs):
    parts = [str(message)] if message else []
    parts.append(summary)
    for name, x in zip("xy", xs):
        parts.append(f"{name} (shape={list(np.shape(_value(x)))}) = {np.array2string(_value(x), threshold=6)}")
    raise InvalidArgumentError("\n".join(parts))


def _comparison(symbol: str, fn):
    def check(x, y, message=None, summarize=None, name=None):
        if not _eager(x, y):
            return None
        a, b = _value(x), _value(y)
        try:
            ok = fn(a, b)
        except ValueError as err:
            raise InvalidArgumentError(f"Incompatible shapes: {list(np.shape(a))} vs. {list(np.shape(b))}") from err
        if not np.all(ok):
            _fail(message, f"Condition x {symbol} y did not hold element-wise:", x, y)
        return None

    return check


def _sign_check(text: str, fn):
    def check(x, message=None, summarize=None, name=None):
        if not _eager(x):
            return None
        if not np.all(fn(_value(x))):
            _fail(message, f"Condition x {text} did not hold element-wise:", x)
        return None

    return check


assert_equal = _comparison("==", np.equal)
assert_none_equal = _comparison("!=", np.not_equal)
assert_less = _comparison("<", np.less)
assert_less_equal = _comparison("<=", np.less_equal)
assert_greater = _comparison(">", np.greater)
assert_greater_equal = _comparison(">=", np.greater_equal)
assert_positive = _sign_check("> 0", lambda a: a > 0)
assert_negative = _sign_check("< 0", lambda a: a < 0)
assert_non_negative = _sign_check(">= 0", lambda a: a >= 0)
assert_non_positive = _sign_check("<= 0", lambda a: a <= 0)


def assert_rank(x, rank, message=None, name=None):
    shape = x.shape if hasattr(x, "shape") else np.shape(x)
    actual = len(shape) if shape is not None and getattr(shape, "rank", 0) is not None else None
    if actual is not None and actual != int(rank):
        raise ValueError(f"{message + ' ' if message else ''}Tensor must have rank {int(rank)}.  "
                         f"Received rank {actual}, shape {tuple(shape)}")


def assert_type(tensor, tf_type, message=None, name=None):
    from minixla.frontend import dtypes

    got = dtypes.as_dtype(tensor.dtype)
    if got != dtypes.as_dtype(tf_type):
        raise TypeError(f"{message + ' ' if message else ''}tensor must be of type {dtypes.as_dtype(tf_type).name}; "
                        f"got {got.name}")


def assert_all_finite(t, message, name=None):
    return check_numerics(t, message)


def check_numerics(tensor, message, name=None):
    """The tensor itself; eagerly, InvalidArgumentError if it holds a NaN or an infinity."""
    value = _value(tensor)
    if _eager(tensor) and value.dtype.kind in "fc" and not np.all(np.isfinite(value)):
        kind = "NaN" if np.any(np.isnan(value)) else "Inf"
        raise InvalidArgumentError(f"{message} : Tensor had {kind} values")
    return tensor


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 -- TF's name
    if _eager(condition) and not bool(np.all(_value(condition))):
        shown = ", ".join(np.array2string(np.asarray(_value(d) if not isinstance(d, str) else d), threshold=6)
                          for d in data)
        raise InvalidArgumentError(f"assertion failed: [{shown}]")
    return None


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Each tensor's shape matches its spec; a symbol (str) must mean the same size everywhere."""
    sizes: dict[str, int] = {}
    for x, spec in (shapes.items() if isinstance(shapes, dict) else shapes):
        shape = tuple(x.shape)
        if len(shape) != len(spec):
            raise ValueError(f"{message + ' ' if message else ''}Specified by tensor {x!r} dimension 0. "
                             f"Tensor must have rank {len(spec)}.  Received rank {len(shape)}")
        for i, (d, s) in enumerate(zip(shape, spec)):
            if isinstance(s, str):
                if sizes.setdefault(s, d) != d and d is not None:
                    raise ValueError(f"{message + ' ' if message else ''}Specified by tensor dimension {i}. "
                                     f"Tensor dimension {i} must have size {sizes[s]}.  Received size {d}")
            elif s is not None and d is not None and int(s) != d:
                raise ValueError(f"{message + ' ' if message else ''}Specified by tensor dimension {i}. "
                                 f"Tensor dimension {i} must have size {int(s)}.  Received size {d}")


def is_numeric_tensor(tensor) -> bool:
    return isinstance(tensor, Tensor) and np.dtype(tensor.dtype.np).kind in "biufc"


def enable_check_numerics(*args, **kwargs) -> None:
    """Eager checks already raise at the offending op's result (check_numerics)."""


debugging = SimpleNamespace(**{n: globals()[n] for n in (
    "assert_equal", "assert_none_equal", "assert_less", "assert_less_equal", "assert_greater",
    "assert_greater_equal", "assert_positive", "assert_negative", "assert_non_negative", "assert_non_positive",
    "assert_rank", "assert_type", "assert_all_finite", "check_numerics", "Assert", "assert_shapes",
    "is_numeric_tensor")})
