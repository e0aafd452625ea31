"""cholesky and triangular_solve (kernels in kernels/linalg.py)."""

from __future__ import annotations

from minixla.backends.interpreter.attrs import enum_value, prop
from minixla.backends.interpreter.kernels import linalg as la
from minixla.backends.interpreter.op_table import impl


def _flag(op, name: str) -> bool:
    attr = prop(op, name)
    return attr is not None and bool(attr.value.data)


@impl("hlo.cholesky")
def _cholesky(op, args, interp):
    return la.cholesky(args[0], _flag(op, "lower"))


@impl("hlo.triangular_solve")
def _triangular_solve(op, args, interp):
    return la.triangular_solve(args[0], args[1], left_side=_flag(op, "left_side"), lower=_flag(op, "lower"),
                               unit_diagonal=_flag(op, "unit_diagonal"),
                               transpose_a=enum_value(prop(op, "transpose_a")))
