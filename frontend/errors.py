"""TF's exception classes and the "where in the user's code" locator.

Errors raised deep inside a decomposition must point at the user's line, not
ours, so `user_frame()` walks the stack to the first frame outside the
frontend package (and outside Python's own `contextlib`/`functools`).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

_FRONTEND_DIR = os.path.dirname(os.path.abspath(__file__))
_SKIP_DIRS = (_FRONTEND_DIR, os.path.dirname(os.path.abspath(os.__file__)))


class OpError(Exception):
    """Base of TF's runtime errors (`tf.errors.OpError`)."""

    def __init__(self, *args, node_def=None, op=None, message=None):
        if len(args) >= 3:  # TensorFlow's order: (node_def, op, message)
            node_def, op, message = args[:3]
        elif args:  # (message) or (message, node_def)
            message = args[0]
            node_def = args[1] if len(args) > 1 else node_def
        super().__init__(message)
        self.message = message
        self.node_def = node_def
        self.op = op


class InvalidArgumentError(OpError, ValueError):
    """`tf.errors.InvalidArgumentError`; also a ValueError so graph-time and
    run-time shape errors can be caught the same way."""


#: TF's canonical error codes (tf.errors.OK ... tf.errors.UNAUTHENTICATED)
ERROR_CODES = {"OK": 0, "CANCELLED": 1, "UNKNOWN": 2, "INVALID_ARGUMENT": 3, "DEADLINE_EXCEEDED": 4, "NOT_FOUND": 5,
               "ALREADY_EXISTS": 6, "PERMISSION_DENIED": 7, "RESOURCE_EXHAUSTED": 8, "FAILED_PRECONDITION": 9,
               "ABORTED": 10, "OUT_OF_RANGE": 11, "UNIMPLEMENTED": 12, "INTERNAL": 13, "UNAVAILABLE": 14,
               "DATA_LOSS": 15, "UNAUTHENTICATED": 16}


class CancelledError(OpError):
    """`tf.errors.CancelledError`."""


class UnknownError(OpError):
    """`tf.errors.UnknownError`."""


class DeadlineExceededError(OpError):
    """`tf.errors.DeadlineExceededError`."""


class NotFoundError(OpError):
    """`tf.errors.NotFoundError`."""


class AlreadyExistsError(OpError):
    """`tf.errors.AlreadyExistsError`."""


class PermissionDeniedError(OpError):
    """`tf.errors.PermissionDeniedError`."""


class ResourceExhaustedError(OpError):
    """`tf.errors.ResourceExhaustedError` (e.g. an allocation that does not fit in memory)."""


class FailedPreconditionError(OpError):
    """`tf.errors.FailedPreconditionError`."""


class AbortedError(OpError):
    """`tf.errors.AbortedError`."""


class OutOfRangeError(OpError):
    """`tf.errors.OutOfRangeError` (e.g. a TensorArray index out of range)."""


class UnimplementedError(OpError):
    """`tf.errors.UnimplementedError`."""


class InternalError(OpError):
    """`tf.errors.InternalError`."""


class UnavailableError(OpError):
    """`tf.errors.UnavailableError`."""


class DataLossError(OpError):
    """`tf.errors.DataLossError`."""


class UnauthenticatedError(OpError):
    """`tf.errors.UnauthenticatedError`."""


class OperatorNotAllowedInGraphError(TypeError):
    """`tf.errors.OperatorNotAllowedInGraphError`: a Python operation on a symbolic tensor."""


#: every class of `tf.errors`, by name
ERROR_CLASSES = {c.__name__: c for c in (
    OpError, CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
    AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError, AbortedError,
    OutOfRangeError, UnimplementedError, InternalError, UnavailableError, DataLossError, UnauthenticatedError,
    OperatorNotAllowedInGraphError)}


@dataclass(frozen=True)
class SourceLocation:
    filename: str
    lineno: int
    function: str

    def __str__(self) -> str:
        return f'File "{self.filename}", line {self.lineno}, in {self.function}'


#: filename -> whether it is ours (or Python's): decided once per file, since tracing asks for
#: every op's stack (abspath on every frame of every op was ~10% of a trace)
_INTERNAL: dict[str, bool] = {}


def _is_internal(filename: str) -> bool:
    hit = _INTERNAL.get(filename)
    if hit is None:
        path = os.path.abspath(filename)
        hit = _INTERNAL[filename] = path.startswith(_SKIP_DIRS) or filename.startswith("<frozen")
    return hit


def user_frame() -> SourceLocation | None:
    """The innermost stack frame outside the frontend package."""
    frame = sys._getframe(1)  # noqa: SLF001
    while frame is not None:
        code = frame.f_code
        name = code.co_filename
        if not _is_internal(name):
            return SourceLocation(name, frame.f_lineno, code.co_name)
        frame = frame.f_back
    return None


def user_stack(limit: int = 8) -> list[SourceLocation]:
    """User frames, outermost first (for "The op is created at:" listings)."""
    out = []
    frame = sys._getframe(1)  # noqa: SLF001
    internal = _INTERNAL
    while frame is not None:
        code = frame.f_code
        name = code.co_filename
        flag = internal.get(name)
        if flag is None:
            flag = _is_internal(name)
        if not flag:
            out.append(SourceLocation(name, frame.f_lineno, code.co_name))
            if len(out) == limit:
                break
        frame = frame.f_back
    out.reverse()
    return out


def at_user_line(message: str) -> str:
    """`message` followed by the user's source location (if any)."""
    loc = user_frame()
    return f"{message}\n  {loc}" if loc else message


def compile_time_constant_error(index: int, node: str, op: str, stack: list[SourceLocation]) -> InvalidArgumentError:
    """TF's error for a shape/axis input that is not known at compile time."""
    where = "\n".join(str(s).split(", in ")[0] + ", in " + s.function for s in stack)
    return InvalidArgumentError(
        f"Input {index} to node `{node}` with op {op} must be a compile-time constant.\n\n"
        "XLA compilation requires that operator arguments that represent shapes or dimensions be evaluated "
        "to concrete values at compile time. This error means that a shape or dimension argument could not "
        "be evaluated at compile time, usually because the value of the argument depends on a parameter to "
        "the computation, on a variable, or on a stateful operation such as a random number generator.\n\n"
        f"Stack trace for op definition: \n{where}\n\n\t [[{{{{node {node}}}}}]]")
