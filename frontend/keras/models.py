"""`tf.keras.Model` and `Sequential`: the three ways to build a model.

* functional: `Model(inputs, outputs)` on KerasTensors from `keras.Input`;
* `Sequential([...])`: layers called in order (built eagerly when the input
  shape is known from `keras.Input` or an `input_shape=` argument);
* subclassing: `class M(Model)` with `call` (and, optionally, `train_step`).

Training (`compile`/`fit`/`evaluate`/`predict`) is in `training.TrainingMixin`;
weight files and `summary()` are in `saving`.
"""

from __future__ import annotations

import numpy as np
from minixla.frontend.keras import saving
from minixla.frontend.keras.functional import (
    FunctionalGraph,
    InputLayer,
    KerasTensor,
    _flat,
)
from minixla.frontend.keras.layers.base import Layer
from minixla.frontend.keras.training import TrainingMixin


class Model(TrainingMixin, Layer):
    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if len(args) > 0 else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        super().__init__(name=kwargs.pop("name", None), trainable=kwargs.pop("trainable", True),
                         **{k: v for k, v in kwargs.items() if k in ("dtype",)})
        self._graph = None
        self.stop_training = False
        self.history = None
        self._init_training()
        if inputs is not None or outputs is not None:
            if inputs is None or outputs is None:
                raise ValueError("A functional Model needs both `inputs` and `outputs`.")
            self._graph = FunctionalGraph(inputs, outputs)
            self.inputs = _flat(inputs)
            self.outputs = _flat(outputs)
            self.built = True
            self._output_shape = (outputs.shape if isinstance(outputs, KerasTensor)
                                  else [o.shape for o in _flat(outputs)])

    def _layers_flat(self):
        return self.layers

    @property
    def layers(self) -> list[Layer]:
        if self._graph is not None:
            return list(self._graph.layers)
        return list(self._sublayers)

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[lay.name for lay in self.layers]}.")

    def call(self, inputs, training=None, mask=None):
        if self._graph is None:
            raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` method "
                                      "implemented.")
        return self._graph.run(inputs, training)

    def _check_input(self, inputs) -> None:
        if self._graph is None or isinstance(inputs, dict):
            return
        for t, x in zip(self.inputs, inputs if isinstance(inputs, (list, tuple)) else [inputs]):
            shape = list(x.shape.as_list()) if hasattr(x.shape, "as_list") else list(x.shape)
            ok = len(shape) == len(t.shape) and all(a is None or a == b for a, b in zip(t.shape, shape))
            if not ok:
                raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                                 f"shape={t.shape}, found shape={tuple(shape)}")

    def build(self, input_shape) -> None:
        if self._graph is None and type(self).call is Model.call:
            raise ValueError("You must provide `inputs`/`outputs` or subclass `Model` with a `call` method.")
        if self._graph is None and input_shape is not None and not self._sublayers_built():
            shape = tuple(1 if d is None else d for d in input_shape)
            self.call(np.zeros(shape, np.float32))  # sublayers build on this eager call
            self._clear_losses()

    def _sublayers_built(self) -> bool:
        return bool(self._sublayers) and all(s.built for s in self._sublayers)

    def summary(self, line_length=None, positions=None, print_fn=None, **_):
        saving.print_summary(self, print_fn)

    def save_weights(self, filepath, overwrite: bool = True) -> None:
        saving.save_weights(self, filepath, overwrite)

    def load_weights(self, filepath, skip_mismatch: bool = False) -> None:
        saving.load_weights(self, filepath, skip_mismatch)


class Sequential(Model):
    def __init__(self, layers=None, name: str | None = None, trainable: bool = True, **kw):
        super().__init__(name=name, trainable=trainable)
        self._seq: list[Layer] = []
        self._input_layer: InputLayer | None = None
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self) -> list[Layer]:
        return list(self._seq)

    def add(self, layer) -> None:
        if isinstance(layer, KerasTensor) and layer.node is not None and isinstance(layer.node.layer, InputLayer):
            layer = layer.node.layer
        if not isinstance(layer, Layer):
            raise ValueError(  # noqa: TRY004 (Keras' type)
                f"Only instances of `keras.Layer` can be added to a Sequential model. Received: "
                             f"{layer!r} (of type {type(layer)})")
        if isinstance(layer, InputLayer):
            if self._seq or self._input_layer is not None:
                raise ValueError("An InputLayer can only be the first layer of a Sequential model.")
            self._input_layer = layer
            return
        if any(layer.name == other.name for other in self._seq):
            raise ValueError(f"All layers added to a Sequential model should have unique names. Name "
                             f'"{layer.name}" is already the name of a layer in this model.')
        self._seq.append(layer)
        self._graph_shapes()

    def pop(self) -> Layer:
        layer = self._seq.pop()
        self._graph_shapes()
        return layer

    def _graph_shapes(self) -> None:
        """With a known input shape, build every layer now (symbolically) so `summary` has shapes."""
        shape = (self._input_layer.batch_shape if self._input_layer is not None
                 else self._seq[0]._batch_input_shape if self._seq else None)
        if shape is None:
            return
        x = KerasTensor(shape, self._input_layer.dtype if self._input_layer else "float32")
        if self._input_layer is not None:
            x = self._input_layer.output
        for layer in self._seq:
            x = layer(x)
        self.built = True
        self._output_shape = x.shape

    def _check_input(self, inputs) -> None:
        if self._input_layer is None:
            return
        expected = self._input_layer.batch_shape
        shape = inputs.shape.as_list() if hasattr(inputs, "shape") and hasattr(inputs.shape, "as_list") else None
        if shape is not None and (len(shape) != len(expected) or any(
                a is not None and a != b for a, b in zip(expected, shape))):
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                             f"shape={expected}, found shape={tuple(shape)}")

    def build(self, input_shape=None) -> None:
        if input_shape is None:
            return
        if self._input_layer is None and not all(lay.built for lay in self._seq):
            self._input_layer = InputLayer(batch_shape=(None,) + tuple(input_shape)[1:])
            self._graph_shapes()

    def call(self, inputs, training=None, mask=None):
        x = inputs
        for layer in self._seq:
            x = layer(x, training=training)
        return x
