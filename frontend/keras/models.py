"""`tf.keras.Sequential`: layers called in order; its variables are theirs."""

from __future__ import annotations

from minixla.frontend.keras.layers import Layer


class Model(Layer):
    def __init__(self, layers=None, name: str | None = None, **kw):
        super().__init__(name=name, **kw)
        self.layers: list[Layer] = list(layers or [])
        self.built = True

    def add(self, layer: Layer) -> None:
        self.layers.append(layer)

    def call(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def __call__(self, inputs, *args, **kwargs):
        return self.call(inputs, *args, **kwargs)

    @property
    def weights(self):
        return [w for layer in self.layers for w in layer.weights]

    variables = weights

    @property
    def trainable_variables(self):
        return [w for layer in self.layers for w in layer.trainable_variables] if self.trainable else []

    trainable_weights = trainable_variables


Sequential = Model
