"""The functional API: `keras.Input` gives a symbolic `KerasTensor`; calling a layer on
KerasTensors records a node; `Model(inputs, outputs)` replays the nodes in order.

A layer's output shape is found by running it eagerly on small placeholder
batches (every unknown dimension 1, then 2): dimensions that differ between
the two runs are unknown (None) in the result. Weights are built first from
the symbolic shape, so `build` sees `None` for the batch dimension as in Keras.
"""

from __future__ import annotations

import itertools

import numpy as np
from minixla.frontend import dtypes
from minixla.frontend.keras.layers.base import Layer, unique_name


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

    def _op(self, fn, *others):
        return Lambda_(fn)([self, *others]) if others else Lambda_(fn)(self)

    def __add__(self, o):
        return _binary("add", self, o)

    def __sub__(self, o):
        return _binary("subtract", self, o)

    def __mul__(self, o):
        return _binary("multiply", self, o)

    def __truediv__(self, o):
        return _binary("divide", self, o)

    def __getitem__(self, item):
        from minixla.frontend.api import core as api  # noqa: F401
        return _Op(lambda x: x[item], "getitem")(self)


class _Op(Layer):
    """An anonymous layer for an operation applied to KerasTensors (`x + y`, `x[:, 0]`)."""

    def __init__(self, fn, name: str):
        super().__init__(name=unique_name(name))
        self.fn = fn

    def call(self, inputs):
        return self.fn(*inputs) if isinstance(inputs, list) else self.fn(inputs)


def Lambda_(fn):
    return _Op(fn, "lambda")


def _binary(op: str, a, b):
    from minixla.frontend.api import core as api

    fn = getattr(api, op)
    if isinstance(b, KerasTensor):
        return _Op(lambda x, y: fn(x, y), op)([a, b])
    return _Op(lambda x: fn(x, b), op)(a)


class Node:
    def __init__(self, layer: Layer, inputs, args, kwargs, outputs):
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


def call_symbolic(layer: Layer, inputs, args, kwargs):
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


class InputLayer(Layer):
    def __init__(self, shape=None, batch_size=None, dtype=None, name=None, batch_shape=None, **kw):
        kw.pop("input_shape", None)
        super().__init__(name=name or unique_name("input_layer"), dtype=dtype)
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size,) + tuple(shape)
        self.batch_shape = tuple(batch_shape)
        self.output = KerasTensor(self.batch_shape, dtype or "float32", name=self.name, node=None)
        self.output.node = Node(self, None, (), {}, self.output)
        self._output_shape = self.batch_shape
        self.built = True

    def call(self, x):
        return x


def Input(shape=None, batch_size=None, dtype=None, name=None, batch_shape=None, sparse=None, tensor=None,
          **_) -> KerasTensor:
    """`keras.Input`: a symbolic batch of `shape` (batch dimension unknown)."""
    if shape is not None and not isinstance(shape, (tuple, list)):
        shape = (shape,)
    return InputLayer(shape, batch_size, dtype, name, batch_shape).output


class FunctionalGraph:
    """The nodes between `inputs` and `outputs`, in an order that computes each before its use."""

    def __init__(self, inputs, outputs):
        self.inputs, self.outputs = inputs, outputs
        flat_in = _flat(inputs)
        for t in flat_in + _flat(outputs):
            if not isinstance(t, KerasTensor):
                raise ValueError(  # noqa: TRY004 (Keras' type)
                f"All `inputs` and `outputs` of a functional Model must be KerasTensors "
                                 f"(from `keras.Input` and layer calls). Received: {t!r}")
        known = {id(t) for t in flat_in}
        self.nodes: list[Node] = []
        seen: set[int] = set()

        def visit(t: KerasTensor):
            if id(t) in known:
                return
            node = t.node
            if node is None or node.inputs is None:
                raise ValueError(f"Graph disconnected: cannot obtain value for tensor {t!r}: it is not "
                                 "computed from the model's inputs.")
            if id(node) in seen:
                return
            for s in node.flat_inputs():
                visit(s)
            seen.add(id(node))
            self.nodes.append(node)

        for t in _flat(outputs):
            visit(t)
        self.layers: list[Layer] = []
        for t in flat_in:
            if t.node is not None and t.node.layer not in self.layers:
                self.layers.append(t.node.layer)
        for node in self.nodes:
            if all(node.layer is not lay for lay in self.layers):
                self.layers.append(node.layer)

    def run(self, values, training=None):
        env: dict[int, object] = {}
        flat_in, flat_vals = _flat(self.inputs), _flat_values(values, self.inputs)
        if len(flat_in) != len(flat_vals):
            raise ValueError(f"Functional model expects {len(flat_in)} input(s), but it received "
                             f"{len(flat_vals)} input tensors.")
        for t, v in zip(flat_in, flat_vals):
            env[id(t)] = v
        for node in self.nodes:
            ins = _substitute(node.inputs, env)
            kwargs = dict(node.kwargs)
            if training is not None and "training" not in kwargs:
                kwargs["training"] = training
            out = node.layer(ins, *node.args, **kwargs)
            for t, v in zip(_flat(node.outputs), _flat_values(out, node.outputs)):
                env[id(t)] = v
        return _substitute(self.outputs, env)


def _flat_values(values, like) -> list:
    if isinstance(like, (list, tuple)):
        if isinstance(values, dict):
            values = list(values.values())
        if not isinstance(values, (list, tuple)):
            values = [values]
        return [v for x, y in zip(values, like) for v in _flat_values(x, y)]
    if isinstance(like, dict):
        return [v for k in like for v in _flat_values(values[k], like[k])]
    return [values]


def _substitute(x, env):
    if isinstance(x, (list, tuple)):
        return [_substitute(v, env) for v in x]
    if isinstance(x, dict):
        return {k: _substitute(v, env) for k, v in x.items()}
    if isinstance(x, KerasTensor):
        return env[id(x)]
    return x
