"""The numpy reference interpreter: the oracle for every other backend.

    exe = InterpreterBackend().compile(module)          # or entry="name"
    outputs = exe(np.ones((2, 3), np.float32))          # -> tuple of arrays

A failing `check.*` op raises `CheckFailure`; an op without an
implementation raises `UnsupportedOpError(op_name)`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from minixla.dialects.numpy_types import dense_attr_to_numpy, numpy_dtype, numpy_to_dense_attr
from minixla.backends.interpreter.errors import CheckFailure, InterpreterError, UnsupportedOpError
from minixla.backends.interpreter import (  # noqa: F401  (each ops module fills the op table)
    ops_check, ops_collective, ops_control, ops_elementwise, ops_fft, ops_fusion, ops_reduction, ops_shape)
from minixla.backends.interpreter.evaluator import Interpreter
from minixla.backends.interpreter.op_table import OP_IMPLS, impl

__all__ = [
    "OP_IMPLS",
    "CheckFailure",
    "InterpreterBackend",
    "InterpreterError",
    "InterpreterExecutable",
    "UnsupportedOpError",
    "dense_attr_to_numpy",
    "impl",
    "numpy_dtype",
    "numpy_to_dense_attr",
    "pick_entry",
    "run_function",
]


def pick_entry(module: ModuleOp, entry: str | None = None) -> str:
    """`entry` if given, else `@main`, else the only public function."""
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp)]
    names = [f.sym_name.data for f in funcs]
    if entry is not None:
        if entry not in names:
            raise InterpreterError(f"no function @{entry} in the module (have: {', '.join(names) or 'none'})")
        return entry
    if "main" in names:
        return "main"
    public = [f.sym_name.data for f in funcs
              if f.body.blocks and (f.sym_visibility is None or f.sym_visibility.data == "public")]
    if len(public) == 1:
        return public[0]
    raise InterpreterError("cannot choose an entry function: no @main and "
                           f"{len(public)} public functions ({', '.join(public) or 'none'}); pass entry=")


class InterpreterExecutable:
    """Calls one function of a module; arguments are checked against its signature."""

    def __init__(self, module: ModuleOp, entry: str):
        self.module = module
        self.entry = entry
        self._interp = Interpreter(module)
        fn = self._interp.functions[entry]
        self.input_types = list(fn.function_type.inputs.data)
        self.output_types = list(fn.function_type.outputs.data)

    def _argument(self, i: int, value, t) -> np.ndarray:
        shape, dt = tuple(t.get_shape()), numpy_dtype(t.get_element_type())
        arr = value if isinstance(value, np.ndarray) else np.asarray(value, dtype=dt)
        if arr.dtype != dt:
            raise TypeError(f"argument #{i} of @{self.entry}: expected dtype {dt}, got {arr.dtype}")
        if arr.shape != shape:
            raise ValueError(f"argument #{i} of @{self.entry}: expected shape {list(shape)}, got {list(arr.shape)}")
        return arr

    def __call__(self, *args) -> tuple[np.ndarray, ...]:
        if len(args) != len(self.input_types):
            raise TypeError(f"@{self.entry} takes {len(self.input_types)} arguments, got {len(args)}")
        arrays = [self._argument(i, a, t) for i, (a, t) in enumerate(zip(args, self.input_types))]
        with np.errstate(all="ignore"):
            results = self._interp.call_function(self.entry, arrays)
        return tuple(np.array(r, copy=True) for r in results)


class InterpreterBackend:
    name = "interpreter"
    runs_check_ops = True  # evaluates `check.*` itself (see backends/check_outlining.py)

    def compile(self, module: ModuleOp, entry: str | None = None, *, verify: bool = True) -> InterpreterExecutable:
        if verify:
            module.verify()
        return InterpreterExecutable(module, pick_entry(module, entry))


def run_function(module: ModuleOp, entry: str | None = None, args: Sequence[np.ndarray] = ()) -> tuple[np.ndarray, ...]:
    """One-shot convenience: compile and call."""
    return InterpreterBackend().compile(module, entry)(*args)


def _evaluate_for_folding(op, args):
    """The constant folder's view of the interpreter: one region-free op on numpy operands."""
    from xdsl.dialects.builtin import ModuleOp

    from minixla.backends.interpreter.op_table import canonical_name

    impl = OP_IMPLS.get(canonical_name(op.name))
    if impl is None:
        return None
    out = impl(op, args, Interpreter(ModuleOp([])))
    return [out] if isinstance(out, np.ndarray) or np.isscalar(out) or isinstance(out, np.generic) else list(out)


def _register_constant_evaluator() -> None:
    from minixla.passes.hlo_opt.constant_fold import register_constant_evaluator

    register_constant_evaluator(_evaluate_for_folding)


_register_constant_evaluator()
