"""Exceptions the interpreter raises on purpose (anything else is a bug)."""

from __future__ import annotations


class InterpreterError(Exception):
    """The program cannot be evaluated (bad input, malformed IR...)."""


class UnsupportedOpError(InterpreterError):
    """No implementation for this op name; `op_name` says which."""

    def __init__(self, op_name: str, detail: str = ""):
        self.op_name = op_name
        super().__init__(f"the interpreter does not support '{op_name}'" + (f": {detail}" if detail else ""))


class CheckFailure(AssertionError):
    """A `check.*` op failed. The message names the op, the expected and the
    actual values (shortened), and is meant to be shown as is."""

    def __init__(self, op_name: str, message: str, *, index: tuple[int, ...] | None = None):
        self.op_name = op_name
        self.index = index
        super().__init__(f"{op_name} failed: {message}")
