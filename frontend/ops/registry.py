"""The one table of TF ops.

An `OpDef` names a TF raw op (`AddV2`, `Mean`, ...), its inputs and
attributes, which inputs must be compile-time constants, and one
decomposition `rule(b, *inputs, **attrs)` written against `frontend.builder`.
The same rule runs eagerly (EagerBuilder), infers result types while tracing
(SpecBuilder) and emits `hlo` in `tf-legalize-to-hlo` (TracingBuilder).
Const inputs reach the rule as numpy arrays, never as builder values.

Ops without a rule (`compilable=False`) run on the host only, through `host`.

A TF op may also declare its own gradient (`register_gradient`, TF's
`ops.RegisterGradient`) where TF's differs from that of the decomposition:
see `register_gradient` and frontend/autodiff/tape.py.
"""

from __future__ import annotations

import functools

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minixla.dialects.tf import register_tf_op
from minixla.frontend.errors import InvalidArgumentError, at_user_line

REQUIRED = object()


@dataclass(frozen=True)
class OpDef:
    name: str
    #: input names; a leading "*" marks a variadic input (a list of tensors)
    inputs: tuple[str, ...]
    rule: Callable | None
    #: attribute name -> default (REQUIRED if none)
    attrs: dict[str, Any] = field(default_factory=dict)
    #: inputs that must be compile-time constants (the rule gets numpy arrays)
    const_inputs: tuple[str, ...] = ()
    #: inputs sharing the type attribute `T` (default: all non-const inputs)
    typed: tuple[str, ...] | None = None
    #: numpy implementation for ops that cannot be compiled
    host: Callable | None = None
    #: result specs of a host op: infer(*input specs, **attrs) -> Spec or tuple of Specs
    infer: Callable | None = None
    #: stateful ops are never constant-folded or deduplicated
    stateful: bool = False
    #: False where TF 2.21 has no XLA kernel although we have a rule (EuclideanNorm): runs eagerly and in
    #: tf.function, but jit_compile=True raises TF's "Detected unsupported operations" as TF does
    xla_kernel: bool | Callable = True  # or a predicate of the node's attrs (StatelessMultinomial: int32 seeds only)

    @property
    def compilable(self) -> bool:
        return self.rule is not None

    @property
    def gradient(self) -> Callable | None:
        """This op's own gradient rule (`register_gradient`), or None: differentiate the decomposition."""
        return GRADIENTS.get(self.name)

    @functools.cached_property  # (read several times per eager op: computed once per op)
    def input_names(self) -> tuple[str, ...]:
        return tuple(n.lstrip("*") for n in self.inputs)

    @functools.cached_property
    def _variadic(self) -> tuple[bool, ...]:
        return tuple(n.startswith("*") for n in self.inputs)

    @functools.cached_property
    def _const(self) -> tuple[bool, ...]:
        return tuple(n in self.const_inputs for n in self.input_names)

    def is_variadic(self, i: int) -> bool:
        return self._variadic[i]

    def is_const(self, i: int) -> bool:
        return self._const[i]

    @functools.cached_property
    def typed_inputs(self) -> tuple[str, ...]:
        if self.typed is not None:
            return self.typed
        return tuple(n for n in self.input_names if n not in self.const_inputs)

    def full_attrs(self, given: dict[str, Any]) -> dict[str, Any]:
        unknown = set(given) - set(self.attrs)
        if unknown:
            raise TypeError(f"{self.name} got unexpected attributes {sorted(unknown)}")
        out = {}
        for k, default in self.attrs.items():
            v = given.get(k, default)
            if v is REQUIRED:
                raise TypeError(f"{self.name} requires attribute {k!r}")
            out[k] = v
        return out


REGISTRY: dict[str, OpDef] = {}


def register(name: str, inputs: Sequence[str], rule: Callable | None, **kw) -> OpDef:
    opdef = OpDef(name, tuple(inputs), rule, **kw)
    if name in REGISTRY:
        raise ValueError(f"TF op {name} registered twice")
    REGISTRY[name] = opdef
    register_tf_op(name, opdef.inputs)  # the `tf` dialect gets one op class per entry
    return opdef


#: TF op name -> gradient rule, for ops whose TF gradient is not that of their decomposition
GRADIENTS: dict[str, Callable] = {}


@dataclass(frozen=True)
class GradOp:
    """What a gradient rule sees of the forward op (TF's `op` argument): `inputs` per TF input (a list
    for a variadic input, a numpy array for a const input), `outputs`, and the full `attrs`."""

    inputs: tuple
    outputs: tuple
    attrs: dict


def register_gradient(name: str):
    """Decorator: `rule(b, op: GradOp, *output_cotangents)` is TF op `name`'s gradient.

    Like TF's `@ops.RegisterGradient(name)`, but written against the builder API
    (`b` records, so the rule's own ops are differentiable again). It returns one
    cotangent per TF input (a list for a variadic input; None where there is no
    gradient, always for const inputs). The tape then records the op as one unit
    instead of differentiating its decomposition: use it where TF's gradient
    kernel differs (ReluGrad's select ignores NaN) or where there is no
    decomposition to differentiate (EagerPyFunc)."""
    def decorate(rule: Callable) -> Callable:
        if name in GRADIENTS:
            raise ValueError(f"gradient of TF op {name} registered twice")
        GRADIENTS[name] = rule
        return rule

    return decorate


def get(name: str) -> OpDef:
    if name not in REGISTRY:
        raise KeyError(f"no TF op {name!r} in the registry")
    return REGISTRY[name]


# -- helpers shared by the rule modules ------------------------------------------

def op_error(op: str, message: str) -> InvalidArgumentError:
    """A TF-style op error ("... [Op:MatMul]") pointing at the user's line."""
    return InvalidArgumentError(at_user_line(f"{message} [Op:{op}]"))


def shape_text(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def broadcast_shape(op: str, a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """numpy/TF broadcasting, with TF's "Incompatible shapes" error."""
    out = []
    for i in range(max(len(a), len(b))):
        x = a[len(a) - 1 - i] if i < len(a) else 1
        y = b[len(b) - 1 - i] if i < len(b) else 1
        if x != y and 1 not in (x, y):
            raise op_error(op, f"Incompatible shapes: {shape_text(a)} vs. {shape_text(b)}")
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


def broadcast_all(b, op: str, *xs):
    shape: tuple[int, ...] = ()
    for x in xs:
        shape = broadcast_shape(op, shape, x.shape)
    return [b.broadcast_to(x, shape) for x in xs]


def axes(op: str, value, rank: int, allow_empty: bool = True) -> list[int]:
    """Normalize a const axis input (scalar or list; negatives wrap)."""
    flat = [int(v) for v in np.asarray(value).reshape(-1)]
    out = []
    for a in flat:
        if not -rank <= a < max(rank, 1):
            raise op_error(op, f"Invalid reduction dimension ({a} for input with {rank} dimension(s)")
        out.append(a % rank if rank else 0)
    return out


def is_float(dt) -> bool:
    dt = np.dtype(dt)
    return dt.kind == "f" or dt.name == "bfloat16"


def is_int(dt) -> bool:
    return np.dtype(dt).kind in "iu"
