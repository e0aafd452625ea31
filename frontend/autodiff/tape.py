"""Recording builder-level ops on the active gradient tapes.

Every value a tape can differentiate carries an integer *key*. While a tape
tracks one of a TF op's inputs, `record_op` runs the op's decomposition rule
on a `RecordingBuilder` instead of the plain one: each hlo primitive the rule
issues is computed by the inner builder (`EagerBuilder` eagerly, a
`GraphBuilder` inside `tf.function`) and appended, with its operand and result
values, to every recording tape that tracks one of its operands. So the
gradient of a TF op is the gradient of its decomposition, eagerly and traced
alike, and backward passes built on a `RecordingBuilder` are themselves
recorded (nested tapes give higher derivatives).

Two kinds of TF op are recorded as one unit instead, a `Prim` named after the
TF op whose `vjp` is a TF-level gradient rule (see `RecordingBuilder.tf_op`):
ops that declare their own gradient (`ops.registry.register_gradient`: TF's
gradient kernels where they differ from the decomposition's, host ops such as
EagerPyFunc), and, inside `tf.function`, ops with an input of unknown static
shape (downstream of a py_function), which cannot be decomposed into hlo
primitives: their gradient runs on the host when the graph runs
(`host_vjp.runtime_gradient`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import numpy as np

from minixla.frontend.builder import Builder
from minixla.frontend.thread_state import PerThreadList

#: makes the gradient rule of an op without a static shape (the host re-runs it under a tape);
#: installed by frontend/autodiff/host_vjp.py, which builds on this module
RUNTIME_GRADIENT: list = [None]

_keys = itertools.count(1)

#: the tapes inside whose `with` block we are (innermost last)
ACTIVE: PerThreadList = PerThreadList()  # this thread's recording tapes


def new_key() -> int:
    return next(_keys)


class RValue:
    """A builder value seen through the recording builder: the inner value plus its tape key."""

    __slots__ = ("v", "key", "shape", "dtype")

    def __init__(self, v, key: int | None):
        self.v = v
        self.key = key
        self.shape = None if v.shape is None else tuple(v.shape)
        self.dtype = np.dtype(v.dtype)

    def __repr__(self) -> str:
        return f"RValue(key={self.key}, {self.dtype.name}{list(self.shape)})"


@dataclass
class Prim:
    """One recorded hlo primitive, or one TF op recorded as a unit (then `vjp` is its gradient:
    vjp(b, prim, result cotangents) -> operand cotangents, like a `backprop.VJPS` rule)."""

    op: str
    operands: list[RValue]
    attrs: dict
    results: list[RValue]
    body: Callable | None = None
    vjp: Callable | None = None


def differentiable(dtype) -> bool:
    dt = np.dtype(dtype)
    return dt.kind in "fc" or dt.name == "bfloat16"


#: primitives whose results never carry a gradient (TF: None / zero)
NON_DIFFERENTIABLE = frozenset({"compare", "is_finite", "iota", "not", "and", "or", "xor", "shift_left",
                                "shift_right_arithmetic", "shift_right_logical", "bitcast_convert", "floor",
                                "ceil", "round_nearest_even", "sign", "remainder_int", "rng_bit_generator"})


@dataclass(eq=False)
class Tape:
    """The records of one `tf.GradientTape` (see `gradient_tape.py` for the public class)."""

    persistent: bool = False
    watch_accessed_variables: bool = True
    recording: bool = True
    records: list[Prim] = field(default_factory=list)
    tracked: set[int] = field(default_factory=set)
    #: Variable -> keys of its reads while this tape watched it
    var_keys: dict[Any, list[int]] = field(default_factory=dict)
    watched_vars: set = field(default_factory=set)

    def tracks(self, key: int | None) -> bool:
        return key is not None and key in self.tracked

    def watches_variable(self, var) -> bool:
        return var in self.watched_vars or (self.watch_accessed_variables and getattr(var, "trainable", False))


def recording_tapes() -> list[Tape]:
    return [t for t in ACTIVE if t.recording]


class RecordingBuilder(Builder):
    """Delegates to `inner` and records each primitive on the tapes that track an operand."""

    def __init__(self, inner: Builder, tapes: list[Tape] | None = None):
        self.inner = inner
        self.tapes = recording_tapes() if tapes is None else tapes

    def wrap(self, value, key: int | None = None) -> RValue:
        return value if isinstance(value, RValue) else RValue(value, key)

    def _constant(self, array: np.ndarray) -> RValue:
        return RValue(self.inner._constant(array), None)

    def _tapes_for(self, operands: list[RValue]) -> list[Tape]:
        keys = [o.key for o in operands if o.key is not None]
        return [t for t in self.tapes if any(k in t.tracked for k in keys)] if keys else []

    def _record(self, prim: Prim, tapes: list[Tape]) -> list[RValue]:
        for t in tapes:
            t.records.append(prim)
            t.tracked.update(w.key for w in prim.results if w.key is not None)
        return prim.results

    def _apply(self, op, operands, attrs, results, body=None):
        operands = [self.wrap(o) for o in operands]
        outs = self.inner._apply(op, [o.v for o in operands], attrs, results, body)
        tapes = []
        if self.tapes and op not in NON_DIFFERENTIABLE and any(differentiable(r.dtype) for r in results):
            tapes = self._tapes_for(operands)
        if not tapes:
            return [RValue(v, None) for v in outs]
        wrapped = [RValue(v, new_key() if differentiable(r.dtype) else None) for v, r in zip(outs, results)]
        return self._record(Prim(op, operands, attrs, wrapped, body), tapes)

    def tf_op(self, name: str, *inputs, **attrs) -> list:
        """TF op `name`: decomposed into recorded hlo primitives, or run on the inner builder and recorded
        as one unit with its TF-level gradient rule (see the module docstring)."""
        from minixla.frontend.ops.registry import get

        opdef = get(name)
        attrs = opdef.full_attrs(attrs)
        args = [x if opdef.is_const(i) else [self.wrap(v) for v in x] if isinstance(x, list) else self.wrap(x)
                for i, x in enumerate(inputs)]
        flat = [v for i, x in enumerate(args) if not opdef.is_const(i) for v in (x if isinstance(x, list) else [x])]
        tapes = self._tapes_for(flat)
        unknown = any(v.shape is None for v in flat)  # no hlo decomposition: a node of the op itself
        rule = opdef.gradient
        if rule is None and tapes and unknown and opdef.compilable:
            rule = RUNTIME_GRADIENT[0](opdef)
        if rule is None and opdef.compilable and not unknown:
            return super().tf_op(name, *args, **attrs)
        outs = self.inner.tf_op(name, *[x if opdef.is_const(i) else [v.v for v in x] if isinstance(x, list) else x.v
                                        for i, x in enumerate(args)], **attrs)
        if rule is None or not tapes:
            return [RValue(v, None) for v in outs]
        wrapped = [RValue(v, new_key() if differentiable(v.dtype) else None) for v in outs]
        if all(w.key is None for w in wrapped):
            return wrapped
        return self._record(Prim(name, flat, attrs, wrapped, vjp=_flat_vjp(opdef, rule, args)), tapes)


def _flat_vjp(opdef, rule: Callable, args: list) -> Callable:
    """A TF-level gradient rule (`register_gradient`: per TF input) as a `Prim.vjp` (per flat operand)."""
    from minixla.frontend.ops.registry import GradOp

    def vjp(b, prim: Prim, cts: list) -> list:
        grads = rule(b, GradOp(tuple(args), tuple(prim.results), prim.attrs), *cts)
        if len(grads) != len(args):
            raise ValueError(f"gradient of {opdef.name} returned {len(grads)} values for {len(args)} inputs")
        flat = []
        for i, (x, g) in enumerate(zip(args, grads)):
            if opdef.is_const(i):
                continue
            if isinstance(x, list):
                flat.extend(list(g) if g is not None else [None] * len(x))
            else:
                flat.append(g)
        return flat

    return vjp


# -- hooks called by the frontend ------------------------------------------------------

def tensor_key(t) -> int | None:
    return getattr(t, "_tape_key", None)


def should_record(opdef, tensors: list) -> bool:
    """Does some recording tape track an input of this TF op (one it can differentiate)?"""
    if not ACTIVE or opdef.name == "StopGradient" or not (opdef.compilable or opdef.gradient):
        return False
    tapes = recording_tapes()
    for x in tensors:
        for t in (x if isinstance(x, list) else [x]):
            k = tensor_key(t)
            if k is not None and any(k in tape.tracked for tape in tapes):
                return True
    return False


def inner_builder(graph):
    """The builder values are computed with: numpy now, or graph nodes while tracing."""
    if graph is None:
        from minixla.frontend.builder_eager import EagerBuilder

        return EagerBuilder()
    from minixla.frontend.autodiff.graph_builder import GraphBuilder

    return GraphBuilder(graph)


def to_inner(t, graph):
    """A Tensor as a value of the inner builder."""
    if graph is None:
        return t._value
    from minixla.frontend.autodiff.graph_builder import GValue

    return GValue(t)


def to_tensor(value: RValue, graph):
    """An RValue as a Tensor carrying its key."""
    from minixla.frontend.tensor import Tensor

    if graph is None:
        t = Tensor.make(np.asarray(value.v))
    else:
        t = value.v.tensor
    if value.key is not None:
        t._tape_key = value.key
    return t


def record_op(opdef, tensors: list, attrs: dict, graph) -> list:
    """Run TF op `opdef` through a RecordingBuilder; returns its output Tensors."""
    b = RecordingBuilder(inner_builder(graph))
    args = []
    for i, x in enumerate(tensors):
        if opdef.is_const(i):
            args.append(x._value if graph is None else graph._const_value(x, opdef, i))
        elif isinstance(x, list):
            args.append([RValue(to_inner(t, graph), tensor_key(t)) for t in x])
        else:
            args.append(RValue(to_inner(x, graph), tensor_key(x)))
    return [to_tensor(b.wrap(o), graph) for o in b.tf_op(opdef.name, *args, **attrs)]


def on_variable_read(var, t):
    """Give a read of `var` a key on every recording tape that watches it."""
    tapes = [tape for tape in recording_tapes() if tape.watches_variable(var)]
    if not tapes:
        return t
    key = tensor_key(t)
    if key is None or t._graph is None:  # eager reads are fresh tensors: one key per read
        key = new_key()
        t._tape_key = key
    for tape in tapes:
        keys = tape.var_keys.setdefault(var, [])
        if key not in keys:
            keys.append(key)
        tape.tracked.add(key)
    return t
