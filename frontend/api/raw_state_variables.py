"""`tf.Variable.handle` and the resource-variable raw ops on it (ReadVariableOp, AssignAddVariableOp,
ResourceScatterAdd, ResourceApplyAdam, ...).

A handle refers to its variable; a raw op reads the variables its handles name (captured as function
inputs inside tf.function, as any variable read is), runs the op's functional form
(frontend/ops/raw_variable_ops.py) through `execute`, and assigns the new values, so updates inside
tf.function / jit_compile=True come back as the function's variable writes (frontend/variables.py).
"""

from __future__ import annotations

from minixla.frontend import dtypes
from minixla.frontend.dtypes import as_dtype
from minixla.frontend.errors import InvalidArgumentError, at_user_line
from minixla.frontend.execute import execute
from minixla.frontend.ops import raw_variable_ops
from minixla.frontend.ops.registry import REGISTRY
from minixla.frontend.tensor import TensorShape


class ResourceHandle:
    """A resource handle (TF's `v.handle`, a scalar `resource` tensor): names one tf.Variable."""

    def __init__(self, variable):
        self._variable = variable

    @property
    def shape(self) -> TensorShape:
        return TensorShape([])

    @property
    def dtype(self):
        return dtypes.resource

    def __repr__(self) -> str:
        return f"<tf.Tensor: shape=(), dtype=resource, value=<ResourceHandle to {self._variable.name}>>"


def _variable(op: str, arg: str, value):
    if isinstance(value, ResourceHandle):
        return value._variable
    index = REGISTRY[op].input_names.index(arg)
    kind = value.dtype.name if hasattr(value, "dtype") and hasattr(value.dtype, "name") else type(value).__name__
    raise InvalidArgumentError(at_user_line(
        f"cannot compute {op} as input #{index}(zero-based) was expected to be a resource tensor but is a "
        f"{kind} tensor (pass the tf.Variable's `.handle`) [Op:{op}]"))


def _call(op: str):
    opdef = REGISTRY[op]
    writes = raw_variable_ops.WRITES.get(op, ())
    reads = raw_variable_ops.READS.get(op, ())

    def call(**kw):
        found = {n: _variable(op, n, kw[n]) for n in (*writes, *reads)}
        want = kw.get("dtype")
        if want is not None and "dtype" in opdef.attrs and found:
            have = next(iter(found.values())).dtype
            if as_dtype(want) != have:
                verb = "assign" if writes else "read"
                raise InvalidArgumentError(at_user_line(
                    f"Trying to {verb} variable with wrong dtype. Expected {as_dtype(want).name} got {have.name} "
                    f"[Op:{op}]"))
        inputs = [found[n]._variable_value() if n in found else kw[n] for n in opdef.input_names]
        attrs = {k: kw[k] for k in opdef.attrs if k in kw and k != "dtype"}
        out = execute(op, inputs, attrs)
        if not writes:
            return out
        for n, value in zip(writes, out if isinstance(out, tuple) else (out,)):
            found[n].assign(value)
        return None

    call.__name__ = op
    return call


OPS = [*raw_variable_ops.WRITES, *raw_variable_ops.READS]


def install(tf) -> None:
    """Route the resource-variable raw ops through their handles (tf.Variable.handle is built in)."""
    from minixla.frontend.raw_ops import STATE_CALLS

    for op in OPS:
        STATE_CALLS[op] = _call(op)
