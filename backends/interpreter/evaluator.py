"""The evaluator: walks `func.func` bodies op by op, keeping an environment
from SSA values to numpy arrays, and dispatches each op by *name* through a
table, so adding an op is one function and `stablehlo.*` ops run unchanged
(they share the `hlo.*` implementation).

Regions (reduce bodies, while/if/case branches...) are evaluated by the same
machinery; a region's frame chains to the frame of the op that owns it, so
bodies may use values from the enclosing scope.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, Region, SSAValue

from minixla.dialects.numpy_types import numpy_dtype
from minixla.backends.interpreter.errors import InterpreterError, UnsupportedOpError

from minixla.backends.interpreter.op_table import OP_IMPLS, TERMINATORS, OpImpl, canonical_name, impl  # noqa: F401


class Frame:
    """SSA value -> array for one region execution; lookups fall back to the
    enclosing frame (implicit capture)."""

    __slots__ = ("parent", "values")

    def __init__(self, parent: Frame | None = None):
        self.values: dict[SSAValue, np.ndarray] = {}
        self.parent = parent

    def lookup(self, value: SSAValue) -> np.ndarray:
        frame: Frame | None = self
        while frame is not None:
            found = frame.values.get(value)
            if found is not None:
                return found
            frame = frame.parent
        raise InterpreterError(f"value {value.name_hint or value} is used before it is defined")


def _expected_dtype(value: SSAValue) -> np.dtype | None:
    t = value.type
    try:
        return numpy_dtype(t.get_element_type())  # type: ignore[attr-defined]
    except (AttributeError, TypeError):
        return None


class Interpreter:
    """Evaluates the functions of one module."""

    def __init__(self, module: ModuleOp, impls: dict[str, OpImpl] | None = None):
        self.module = module
        self.impls = OP_IMPLS if impls is None else impls
        self.functions: dict[str, func.FuncOp] = {
            op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
        self._frame: Frame | None = None
        self.depth = 0

    # -- functions and regions ------------------------------------------------

    def call_function(self, name: str, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        fn = self.functions.get(name)
        if fn is None:
            raise InterpreterError(f"no function @{name} in the module (have: {', '.join(sorted(self.functions))})")
        if not fn.body.blocks:
            raise InterpreterError(f"function @{name} is only a declaration")
        n_in = len(fn.function_type.inputs.data)
        if len(args) != n_in:
            raise InterpreterError(f"@{name} takes {n_in} arguments, got {len(args)}")
        self.depth += 1
        if self.depth > 200:
            raise InterpreterError(f"call depth limit exceeded in @{name} (recursion?)")
        try:
            return self.run_region(fn.body, args, capture=False)
        finally:
            self.depth -= 1

    def run_region(self, region: Region, args: Sequence[np.ndarray], capture: bool = True) -> list[np.ndarray]:
        """Run a single-block region with `args` bound to its block arguments;
        return the values its terminator yields."""
        if len(region.blocks) != 1:
            raise InterpreterError(f"only single-block regions are supported, got {len(region.blocks)} blocks")
        block = region.block
        if len(block.args) != len(args):
            raise InterpreterError(f"region takes {len(block.args)} arguments, got {len(args)}")
        frame = Frame(self._frame if capture else None)
        for arg, value in zip(block.args, args):
            frame.values[arg] = value
        for op in block.ops:
            if canonical_name(op.name) in TERMINATORS:
                return [frame.lookup(v) for v in op.operands]
            self._execute(op, frame)
        raise InterpreterError("region ends without a terminator")

    def _execute(self, op: Operation, frame: Frame) -> None:
        name = canonical_name(op.name)
        fn = self.impls.get(name)
        if fn is None:
            real = getattr(op, "op_name", None)  # unregistered ops keep their name here
            raise UnsupportedOpError(real.data if real is not None else op.name)
        args = [frame.lookup(v) for v in op.operands]
        saved, self._frame = self._frame, frame
        try:
            out = fn(op, args, self)
        finally:
            self._frame = saved
        results = op.results
        if not results:
            return
        if isinstance(out, np.ndarray) or np.isscalar(out) or isinstance(out, np.generic):
            out = [out]
        out = list(out)
        if len(out) != len(results):
            raise InterpreterError(f"{op.name} produced {len(out)} values for {len(results)} results")
        for res, value in zip(results, out):
            if isinstance(value, tuple):  # a tuple-typed value (hlo.tuple) stays a Python tuple
                frame.values[res] = value
                continue
            arr = np.asarray(value)
            want = _expected_dtype(res)
            if want is not None and arr.dtype != want:
                arr = arr.astype(want)
            frame.values[res] = arr

    # -- helpers for op implementations ---------------------------------------

    def combiner(self, region: Region) -> Callable[[list[np.ndarray], list[np.ndarray]], list[np.ndarray]]:
        """A scalar body `(lhs..., rhs...) -> (out...)` applied elementwise to
        whole arrays (the region's ops are elementwise)."""

        def combine(lhs: list[np.ndarray], rhs: list[np.ndarray]) -> list[np.ndarray]:
            args = [np.asarray(a) for a in (*lhs, *rhs)]
            shape = np.broadcast_shapes(*(a.shape for a in args))
            outs = self.run_region(region, args)
            return [np.broadcast_to(o, shape) for o in outs]

        return combine
