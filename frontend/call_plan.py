"""The cached-call fast path of `tf.function` (docs/frontend-call-path.md).

The full path binds the arguments with `inspect`, flattens them, builds the
trace key and explains misses: ~15 us of Python per call. A call that repeats
an earlier call's *call key* -- per argument, the shape and dtype of array
values and the type and value of Python values, found by one walk over the
arguments that also collects the arrays in leaf order -- reuses that call's
*plan*: a closure that appends the captured variables' buffers, calls the
executable and wraps its fresh output buffers as Tensors.

The call key is never looser than the trace key (equal call keys mean equal
trace keys), so a plan only ever replays what the full path would have done;
anything it does not recognize raises `Miss` and takes the full path.
"""

from __future__ import annotations

import inspect

import numpy as np

from minixla.frontend.builder import Spec
from minixla.frontend.nest import rebuild
from minixla.frontend.tensor import Tensor, eager_tensor
from minixla.frontend.variables import Variable

_SCALARS = frozenset([int, float, bool, str, type(None)])


class Miss(Exception):
    """The arguments are outside what the fast path keys: use the full path."""


def _record(v, key: list, arrays: list) -> None:
    """Append `v`'s two-item record to `key` (and its arrays to `arrays`).

    Every record is (discriminator, payload); the discriminator is a shape
    tuple for arrays and a type otherwise, so records cannot run together."""
    cls = v.__class__
    if cls is Tensor or cls is Variable:
        a = v._value
        if a is None:  # a symbolic Tensor: calling from inside a trace
            raise Miss
    elif cls is np.ndarray:
        a = v
    elif cls in _SCALARS:
        key += (cls, v)
        return
    elif cls is list or cls is tuple:
        sub: list = []
        for item in v:
            _record(item, sub, arrays)
        key += (cls, tuple(sub))
        return
    elif cls is dict:
        sub = []
        names = sorted(v)  # the full path flattens dicts in sorted key order
        for name in names:
            _record(v[name], sub, arrays)
        key += (dict, (tuple(names), tuple(sub)))
        return
    elif isinstance(v, tuple) and hasattr(v, "_fields"):  # namedtuple
        sub = []
        for item in v:
            _record(item, sub, arrays)
        key += (cls, tuple(sub))
        return
    elif isinstance(v, np.generic):  # keyed by its bytes: stricter than the full path's repr
        key += (cls, v.tobytes())
        return
    else:
        raise Miss
    arrays.append(a)
    key += (a.shape, a.dtype)


def call_key(head, values, arrays: list) -> tuple:
    """The call key of `values` (normalized arguments), behind `head` (the call's form)."""
    key: list = [head]
    for v in values:
        cls = v.__class__
        if cls is Tensor:  # the common cases, inlined
            a = v._value
            if a is None:
                raise Miss
        elif cls is np.ndarray:
            a = v
        else:
            _record(v, key, arrays)
            continue
        arrays.append(a)
        key += (a.shape, a.dtype)
    return tuple(key)


class _Slot:
    """Stands for one argument while `inspect` binds a call's form."""

    def __init__(self, source):
        self.source = source


def normalizer(signature: inspect.Signature, n_args: int, kwarg_names: tuple):
    """How a call with `n_args` positional arguments and these keyword names
    maps onto the full path's leaf order (bound args, then bound kwargs
    sorted by name, defaults filled in): None when the positional arguments
    already are that order, else a function `(args, kwargs) -> values`.
    Raises TypeError when such a call cannot bind (the full path reports it)."""
    bound = signature.bind(*[_Slot(i) for i in range(n_args)], **{k: _Slot(k) for k in kwarg_names})
    bound.apply_defaults()
    ordered = list(bound.args) + [bound.kwargs[k] for k in sorted(bound.kwargs)]
    sources = [v.source if isinstance(v, _Slot) else (v,) for v in ordered]  # (v,): a default value
    if not kwarg_names and sources == list(range(n_args)):
        return None

    def normalize(args, kwargs):
        return [args[s] if s.__class__ is int else (kwargs[s] if s.__class__ is str else s[0]) for s in sources]

    return normalize


class ByValue:
    """The plans of one call key whose arrays at `positions` are keyed by value
    (they feed must-be-constant inputs and are baked into each executable)."""

    def __init__(self, positions: list[int]):
        self.positions = positions
        self.plans: dict[tuple, object] = {}

    def key(self, arrays: list) -> tuple:  # bytes: stricter than the trace key's repr of the values
        return tuple(arrays[k].tobytes() for k in self.positions)

    def get(self, arrays: list):
        return self.plans.get(self.key(arrays))


def build_plan(cf, jit: bool, results: list, counter):
    """The plan replaying `cf` for calls with this call key. `results` are
    the first call's outputs (their shapes/dtypes are the plan's, for the
    compiled CPU executable)."""
    compiled = cf.compiled
    if not jit or compiled is None or compiled.backend != "cpu":
        def plan(arrays):  # the host/interpreter paths: cf.run keeps their copying rules
            counter.called_without_tracing()
            return rebuild(cf.structure, [Tensor.make(r) for r in cf.run(arrays, jit)])
        return plan
    exe = compiled.executable
    entry = getattr(exe, "_call", exe)  # the generated checker/caller of a CompiledFunction
    specs = [Spec(r.shape, r.dtype) for r in results]
    captures, updates, n, structure = list(cf.captures), list(cf.updates), len(cf.outputs), cf.structure
    tick = counter.called_without_tracing
    kept = [k for k, leaf in enumerate(cf.tensor_leaves) if leaf not in cf.const_leaves]
    plan = _cpu_plan(entry, specs, captures, updates, n, structure, tick)
    if len(kept) == len(cf.tensor_leaves):
        return plan

    def drop(arrays):  # value-specialized arguments are baked in, not passed
        return plan([arrays[k] for k in kept])
    return drop


def _cpu_plan(entry, specs, captures, updates, n, structure, tick):
    """The compiled CPU executable's plan: its outputs are fresh buffers,
    which the Tensors (and updated variables) own without a copy."""
    if not captures and not updates and structure == ("leaf", 0):
        spec = specs[0]

        def plan(arrays):
            tick()
            return eager_tensor(entry(*arrays)[0], spec)
        return plan

    def plan(arrays):
        tick()
        for var in captures:
            arrays.append(var._value)
        out = entry(*arrays)
        for var, value in zip(updates, out[n:]):  # fresh buffers: the variable takes them over
            var._value = value
        return rebuild(structure, [eager_tensor(r, s) for r, s in zip(out, specs)])
    return plan

