"""`tf.function(input_signature=[tf.TensorSpec(...), ...])`: every call is checked against the
signature before tracing, with TF's `TypeError: Binding inputs to tf.function failed due to ...`.
Python values and numpy arrays are converted to the spec's dtype (as TF does); tensors must have it.
A None dim accepts any size; minixla then compiles once per concrete shape."""

from __future__ import annotations

import inspect

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.tensor import Tensor
from minixla.frontend.tensor_spec import TensorSpec


def _spec_of(value) -> TensorSpec:
    return TensorSpec.from_tensor(value)


def _describe(signature: tuple, params: list[str]) -> str:
    return ", ".join(f"{p}: {s!r}" for p, s in zip(params, signature))


def bind_signature(signature: tuple, py_signature: inspect.Signature, args: tuple, kwargs: dict):
    """(args, kwargs) with each argument converted and checked against its spec."""
    params = [p.name for p in py_signature.parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:len(signature)]

    def fail(reason: str):
        raise TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received args: {args} and "
                        f"kwargs: {kwargs} for signature: ({_describe(signature, params)}).")

    if len(args) > len(signature):
        fail("too many positional arguments")
    bound = list(args)
    for name in params[len(args):]:
        if name not in kwargs:
            fail(f"missing a required argument: '{name}'")
        bound.append(kwargs[name])
    extra = set(kwargs) - set(params)
    if extra:
        fail(f"got an unexpected keyword argument '{sorted(extra)[0]}'")
    out = []
    for value, spec in zip(bound, signature):
        if not isinstance(spec, TensorSpec):  # a nested structure of specs: left to tracing
            out.append(value)
            continue
        converted = value
        if not isinstance(value, Tensor) and not hasattr(value, "_variable_value"):
            try:
                converted = Tensor.make(np.asarray(value).astype(spec.dtype.np))
            except (TypeError, ValueError):
                fail(f"Can not cast {value!r} to {spec!r}")
        have = _spec_of(converted)
        if not spec.is_compatible_with(have):
            fail(f"Can not cast {have!r} to {spec!r}")
        out.append(converted)
    return tuple(out), {}


def spec_example(spec):
    """Zeros of a fully known spec (to trace `get_concrete_function()` without arguments)."""
    if not isinstance(spec, TensorSpec):
        raise TypeError(f"get_concrete_function(): cannot trace the signature entry {spec!r}")
    if spec.shape is None or any(d is None for d in spec.shape):
        raise ValueError(f"get_concrete_function() without arguments needs static shapes; {spec!r} has unknown "
                         "dimensions. minixla compiles one executable per concrete shape (as XLA does): pass "
                         "example arguments, e.g. f.get_concrete_function(tf.zeros([8, 2]))")
    return Tensor.make(np.zeros(tuple(spec.shape), dtypes.as_dtype(spec.dtype).np))
