"""`tf.keras.layers`: Dense, Conv2D, MaxPool2D, Flatten, and the Layer base.

Weights are built on the first call from the input's shape, eagerly (inside
`init_scope`) even when that call is being traced, so a compiled training step
captures them as variables that its calls update.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.api import core as api
from minixla.frontend.api import nn as api_nn
from minixla.frontend.graph import init_scope
from minixla.frontend.variables import Variable
from minixla.frontend.keras import initializers

_ACTIVATIONS = {None: None, "linear": None, "relu": api_nn.relu, "sigmoid": api.sigmoid, "tanh": api.tanh,
                "softmax": api_nn.softmax, "gelu": api_nn.gelu, "elu": api_nn.elu}


def get_activation(a):
    if callable(a) or a is None:
        return a
    if a not in _ACTIVATIONS:
        raise ValueError(f"Unknown activation function: '{a}'")
    return _ACTIVATIONS[a]


class Layer:
    def __init__(self, trainable: bool = True, name: str | None = None, input_shape=None, **_):
        self.trainable = trainable
        self.name = name or type(self).__name__.lower()
        self.built = False
        self._weights: list[Variable] = []

    def add_weight(self, name: str, shape, initializer="zeros", trainable: bool = True, dtype=np.float32):
        value = initializers.get(initializer)(tuple(int(d) for d in shape), np.dtype(dtype))
        var = Variable(value, trainable=trainable, name=f"{self.name}/{name}")
        self._weights.append(var)
        return var

    def build(self, input_shape) -> None:
        pass

    def call(self, inputs):
        raise NotImplementedError

    def __call__(self, inputs, *args, **kwargs):
        x = api.convert_to_tensor(inputs)
        if not self.built:
            with init_scope():
                self.build(tuple(x.shape.as_list()))
            self.built = True
        return self.call(x, *args, **kwargs)

    @property
    def weights(self) -> list[Variable]:
        return list(self._weights)

    variables = weights

    @property
    def trainable_variables(self) -> list[Variable]:
        return [v for v in self._weights if v.trainable] if self.trainable else []

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self) -> list[Variable]:
        return [v for v in self._weights if not v.trainable or not self.trainable]

    def get_weights(self) -> list[np.ndarray]:
        return [v.numpy() for v in self._weights]

    def set_weights(self, values) -> None:
        for v, value in zip(self._weights, values):
            v.assign(np.asarray(value, dtype=v.dtype.np))


class Dense(Layer):
    def __init__(self, units: int, activation=None, use_bias: bool = True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", **kw):
        super().__init__(**kw)
        self.units = int(units)
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer

    def build(self, input_shape) -> None:
        self.kernel = self.add_weight("kernel", (input_shape[-1], self.units), self.kernel_initializer)
        self.bias = self.add_weight("bias", (self.units,), self.bias_initializer) if self.use_bias else None

    def call(self, x):
        if x.ndim == 2:
            y = api.matmul(x, self.kernel)
        else:
            lead = x.shape.as_list()[:-1]
            y = api.reshape(api.matmul(api.reshape(x, [-1, x.shape[-1]]), self.kernel), lead + [self.units])
        if self.use_bias:
            y = api_nn.bias_add(y, self.bias)
        return self.activation(y) if self.activation else y


def _pair(v):
    return (int(v), int(v)) if isinstance(v, int) else tuple(int(x) for x in v)


class Conv2D(Layer):
    def __init__(self, filters: int, kernel_size, strides=(1, 1), padding: str = "valid", activation=None,
                 use_bias: bool = True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 dilation_rate=(1, 1), **kw):
        super().__init__(**kw)
        self.filters, self.kernel_size, self.strides = int(filters), _pair(kernel_size), _pair(strides)
        self.padding, self.dilation_rate = padding.upper(), _pair(dilation_rate)
        self.activation, self.use_bias = get_activation(activation), use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer

    def build(self, input_shape) -> None:
        self.kernel = self.add_weight("kernel", self.kernel_size + (input_shape[-1], self.filters),
                                      self.kernel_initializer)
        self.bias = self.add_weight("bias", (self.filters,), self.bias_initializer) if self.use_bias else None

    def call(self, x):
        y = api_nn.conv2d(x, self.kernel, self.strides, self.padding, dilations=self.dilation_rate)
        if self.use_bias:
            y = api_nn.bias_add(y, self.bias)
        return self.activation(y) if self.activation else y


class MaxPool2D(Layer):
    def __init__(self, pool_size=(2, 2), strides=None, padding: str = "valid", **kw):
        super().__init__(**kw)
        self.pool_size = _pair(pool_size)
        self.strides = _pair(strides) if strides is not None else self.pool_size
        self.padding = padding.upper()

    def call(self, x):
        return api_nn.max_pool2d(x, self.pool_size, self.strides, self.padding)


class AveragePooling2D(MaxPool2D):
    def call(self, x):
        return api_nn.avg_pool2d(x, self.pool_size, self.strides, self.padding)


class Flatten(Layer):
    def call(self, x):
        return api.reshape(x, [x.shape[0], -1])


class ReLU(Layer):
    def call(self, x):
        return api_nn.relu(x)


MaxPooling2D = MaxPool2D
AvgPool2D = AveragePooling2D
