"""Argument checks at the tf.* boundary, with TensorFlow's error types and texts.

Without them bad calls fail deep inside numpy or the interpreter with raw
Python exceptions (IndexError for `tf.concat([], 0)`, TypeError for
`tf.add(None, 1.0)`, MemoryError for huge `tf.zeros`). The op executor and
tensor conversion call these few functions; api modules need no checks of
their own.
"""

from __future__ import annotations

import numbers
import re

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.errors import InvalidArgumentError, ResourceExhaustedError, at_user_line

#: TF's op-def minimum list lengths (`N >= k`); other list inputs may be empty.
_MIN_LIST_LENGTH = {"ConcatV2": 2, "Concat": 2, "Pack": 1, "AddN": 1}
_INTEGER_DIVISIONS = {"FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Div", "Mod"}
_SCALAR_TYPES = (numbers.Number, bool, str, bytes, np.generic)


def _unsupported(value) -> ValueError:
    return ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                      f"({type(value)!r}) to a Tensor.")


def _shape_of(value) -> tuple[int, ...]:
    """The rectangular shape of a nested Python sequence; raises TF's errors."""
    if isinstance(value, (list, tuple)):
        shapes = {_shape_of(v) for v in value}
        if len(shapes) > 1:
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
        return (len(value), *(shapes.pop() if shapes else ()))
    if isinstance(value, _SCALAR_TYPES) or isinstance(value, np.ndarray):
        return tuple(value.shape) if isinstance(value, np.ndarray) else ()
    if hasattr(value, "_variable_value") or hasattr(value, "_spec") or hasattr(value, "__array__"):
        return tuple(np.shape(value))
    raise _unsupported(value)


def check_convertible(value, dtype=None) -> None:
    """Raise TF's ValueError for None, unsupported objects and ragged nesting,
    and its TypeError for mixing strings with numbers under a fixed dtype."""
    if isinstance(value, np.ndarray):
        return
    _shape_of(value)
    if dtype is None:
        return
    want_string = np.dtype(dtype).kind in "OSU"
    is_string = isinstance(value, (str, bytes))
    is_number = isinstance(value, numbers.Number) and not isinstance(value, np.generic)
    if (want_string and is_number) or (not want_string and is_string):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtypes.dtype_name(dtype)}")


def check_list_inputs(op_name: str, input_names: list[str], inputs: list, variadic) -> None:
    """TF's error for a list argument shorter than its op-def minimum."""
    for index, (name, x) in enumerate(zip(input_names, inputs)):
        if not variadic(index):
            continue
        if x is None:
            raise TypeError(f"Expected list for '{name}' argument to '{op_name}' Op, not {x!r}.")
        minimum = _MIN_LIST_LENGTH.get(op_name, 0)
        if isinstance(x, (list, tuple)) and len(x) < minimum:
            if op_name == "AddN":
                raise ValueError("inputs must be a list of at least one Tensor/IndexedSlices "
                                 "with the same dtype and shape")
            raise ValueError(f"List argument '{name}' to '{op_name}' Op with length {len(x)} "
                             f"shorter than minimum length {minimum}.")


def check_integer_division(op_name: str, arrays: list) -> None:
    """Eager TF raises on an integer division by zero (XLA defines a result instead)."""
    if op_name not in _INTEGER_DIVISIONS or len(arrays) != 2:
        return
    divisor = np.asarray(arrays[1])
    if divisor.dtype.kind in "iu" and divisor.size and not np.all(divisor):
        raise InvalidArgumentError(at_user_line(f"Integer division by zero [Op:{op_name}] name: "))


def out_of_memory(op_name: str, err: BaseException) -> ResourceExhaustedError:
    """TF's OOM error for an allocation numpy could not make."""
    found = re.search(r"shape \(([^)]*)\) and data type (\w+)", str(err))
    what = "tensor"
    if found:
        dims = ",".join(d.strip() for d in found.group(1).split(",") if d.strip())
        what = f"tensor with shape[{dims}] and type {found.group(2)}"
    return ResourceExhaustedError(
        f"OOM when allocating {what} on /job:localhost/replica:0/task:0/device:CPU:0 "
        f"by allocator cpu [Op:{op_name}]")


def is_allocation_failure(err: BaseException) -> bool:
    """numpy's ways of saying an array does not fit."""
    return isinstance(err, MemoryError) or (
        isinstance(err, ValueError) and ("Maximum allowed size exceeded" in str(err)
                                         or "array is too big" in str(err)))
