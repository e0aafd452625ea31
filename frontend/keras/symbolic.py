"""Symbolic tensors of the functional API: `KerasTensor` and the recording of a layer call on them.

A layer's output shape is found by running it eagerly on small placeholder
batches (every unknown dimension 1, then 2): dimensions that differ between
the two runs are unknown (None) in the result. Weights are built first from
the symbolic shape, so `build` sees `None` for the batch dimension as in Keras.
This module knows layers only through their methods (no import of the Layer
class): `functional` registers the layer that applies `x + y`, `x[i]`, ... .
"""

from __future__ import annotations

import itertools

import numpy as np
from minixla.frontend import dtypes
from minixla.frontend.api import core as api

_OP_LAYER = [None]  # (fn, name) -> a layer applying fn; set by keras.functional


def register_op_layer(factory) -> None:
    _OP_LAYER[0] = factory


class KerasTensor:
    """A symbolic tensor: shape (with None for unknown dims), dtype, and the node that made it."""

    def __init__(self, shape, dtype="float32", name: str | None = None, node=None, index: int = 0):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name
        self.node, self.index = node, index

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype.name}, name={self.name}>"

    def __add__(self, o):
        return _binary("add", self, o)

    def __sub__(self, o):
        return _binary("subtract", self, o)

    def __mul__(self, o):
        return _binary("multiply", self, o)

    def __truediv__(self, o):
        return _binary("divide", self, o)

    def __getitem__(self, item):
        return _OP_LAYER[0](lambda x: x[item], "getitem")(self)


class Node:
    def __init__(self, layer, inputs, args, kwargs, outputs):
        self.layer, self.inputs, self.args, self.kwargs, self.outputs = layer, inputs, args, kwargs, outputs

    def flat_inputs(self) -> list[KerasTensor]:
        return _flat(self.inputs)


def _flat(x) -> list:
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in _flat(v)]
    if isinstance(x, dict):
        return [t for v in x.values() for t in _flat(v)]
    return [x] if isinstance(x, KerasTensor) else []


def _placeholder(x, unknown: int):
    if isinstance(x, (list, tuple)):
        return [_placeholder(v, unknown) for v in x]
    if isinstance(x, dict):
        return {k: _placeholder(v, unknown) for k, v in x.items()}
    shape = tuple(unknown if d is None else d for d in x.shape)
    if x.dtype.is_integer:
        return np.zeros(shape, x.dtype.np)
    return np.full(shape, 0.5, x.dtype.np)


def _merge(a, b):
    return tuple(d if d == e else None for d, e in zip(a, b))


def _symbolic_shape(x):
    if isinstance(x, (list, tuple)):
        return [_symbolic_shape(v) for v in x]
    return x.shape


def _out_structure(out):
    if isinstance(out, (list, tuple)):
        return [_out_structure(v) for v in out]
    return (tuple(out.shape.as_list()), out.dtype)


def call_symbolic(layer, inputs, args, kwargs):
    """Record `layer(inputs)` on KerasTensors; return KerasTensors of the output's shape."""
    if not layer.built:
        layer.build(_symbolic_shape(inputs))
        layer.built = True
    runs = []
    for unknown in (1, 2):
        try:
            out = layer(_placeholder(inputs, unknown), *args, **{k: v for k, v in kwargs.items()
                                                                   if k != "training"})
        except (ValueError, TypeError) as e:
            raise type(e)(f"Exception encountered when calling {type(layer).__name__}.call().\n\n{e}\n\n"
                          f"Arguments received by {type(layer).__name__}.call():\n  • inputs="
                          f"{_describe(inputs)}") from None
        runs.append(_out_structure(out))
    layer._clear_losses()
    node = Node(layer, inputs, args, kwargs, None)

    def make(a, b, counter):
        if isinstance(a, list):
            return [make(x, y, counter) for x, y in zip(a, b)]
        shape = _merge(a[0], b[0])
        return KerasTensor(shape, a[1], name=f"{layer.name}", node=node, index=next(counter))

    outputs = make(runs[0], runs[1], itertools.count())
    node.outputs = outputs
    layer._inbound_nodes.append(node)
    layer._output_shape = (outputs.shape if isinstance(outputs, KerasTensor)
                           else [o.shape for o in _flat(outputs)])
    return outputs


def _describe(x) -> str:
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(_describe(v) for v in x) + "]"
    return f"tf.Tensor(shape={x.shape}, dtype={x.dtype.name})"




def _binary(op: str, a, b):
    fn = getattr(api, op)
    if isinstance(b, KerasTensor):
        return _OP_LAYER[0](lambda x, y: fn(x, y), op)([a, b])
    return _OP_LAYER[0](lambda x: fn(x, b), op)(a)
