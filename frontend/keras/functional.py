"""The functional API: `keras.Input` gives a symbolic `KerasTensor` (keras.symbolic); calling a
layer on KerasTensors records a node; `Model(inputs, outputs)` replays the nodes in order.
"""

from __future__ import annotations

from minixla.frontend.keras.layers.base import Layer, unique_name
from minixla.frontend.keras.symbolic import KerasTensor, Node, _flat, register_op_layer


class _Op(Layer):
    """An anonymous layer for an operation applied to KerasTensors (`x + y`, `x[:, 0]`)."""

    def __init__(self, fn, name: str):
        super().__init__(name=unique_name(name))
        self.fn = fn

    def call(self, inputs):
        return self.fn(*inputs) if isinstance(inputs, list) else self.fn(inputs)


register_op_layer(_Op)


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
