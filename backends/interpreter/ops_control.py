"""Calls and control flow (while, if, case), identity-like ops and the RNG."""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.attrs import enum_value, prop
from minixla.dialects.numpy_types import numpy_dtype
from minixla.backends.interpreter.errors import InterpreterError
from minixla.backends.interpreter.op_table import impl
from minixla.backends.interpreter.kernels.rng import rng_bit_generator


@impl("func.call")
def _call(op, args, interp):
    return interp.call_function(op.callee.root_reference.data, args)


@impl("hlo.while")
def _while(op, args, interp):
    values = list(args)
    while True:
        cond = interp.run_region(op.cond, values)[0]
        if not bool(np.asarray(cond).reshape(-1)[0]):
            return values
        values = [np.asarray(v) for v in interp.run_region(op.body, values)]


@impl("hlo.if")
def _if(op, args, interp):
    branch = op.true_branch if bool(np.asarray(args[0]).reshape(-1)[0]) else op.false_branch
    return interp.run_region(branch, [])


@impl("hlo.case")
def _case(op, args, interp):
    """An out-of-range index runs the last branch (spec)."""
    branches = list(op.branches)
    if not branches:
        raise InterpreterError("hlo.case without branches")
    index = int(np.asarray(args[0]).reshape(-1)[0])
    if not 0 <= index < len(branches):
        index = len(branches) - 1
    return interp.run_region(branches[index], [])


@impl("hlo.optimization_barrier")
def _optimization_barrier(op, args, interp):
    return [a.copy() for a in args]


@impl("hlo.rng_bit_generator")
def _rng_bit_generator(op, args, interp):
    out_t = op.results[1].type
    algorithm = enum_value(prop(op, "rng_algorithm")) or "DEFAULT"
    return rng_bit_generator(algorithm, args[0], tuple(out_t.get_shape()), numpy_dtype(out_t.get_element_type()))
