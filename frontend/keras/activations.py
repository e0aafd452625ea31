"""`tf.keras.activations`: the named activations Keras layers accept (`activation='relu'`)."""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.api import nn as api_nn


def linear(x):
    return x


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    x = api.convert_to_tensor(x)
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return api_nn.relu(x)
    dt = x.dtype.np
    y = api.where(api.greater(x, np.asarray(threshold, dt)), x,
                  api.multiply(np.asarray(negative_slope, dt), api.subtract(x, np.asarray(threshold, dt))))
    return y if max_value is None else api.minimum(y, np.asarray(max_value, dt))


def relu6(x):
    return api_nn.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    return api_nn.leaky_relu(x, alpha=negative_slope)


def elu(x, alpha=1.0):
    y = api_nn.elu(x)
    return y if alpha == 1.0 else api.where(api.greater(x, 0.0), y, api.multiply(np.float32(alpha), y))


def selu(x):
    return api_nn.selu(x)


def gelu(x, approximate=False):
    return api_nn.gelu(x, approximate=approximate)


def silu(x):
    return api_nn.silu(x)


swish = silu


def sigmoid(x):
    return api.sigmoid(x)


def hard_sigmoid(x):
    x = api.convert_to_tensor(x)
    return api.clip_by_value(api.add(api.divide(x, np.asarray(6.0, x.dtype.np)), np.asarray(0.5, x.dtype.np)),
                             0.0, 1.0)


def hard_silu(x):
    return api.multiply(x, hard_sigmoid(x))


def tanh(x):
    return api.tanh(x)


def softplus(x):
    return api.softplus(x)


def softsign(x):
    return api_nn.softsign(x)


def exponential(x):
    return api.exp(x)


def mish(x):
    return api.multiply(x, api.tanh(api.softplus(x)))


def log_softmax(x, axis=-1):
    return api_nn.log_softmax(x, axis=axis)


def softmax(x, axis=-1):
    return api_nn.softmax(x, axis=axis)


_BY_NAME = {f.__name__: f for f in (linear, relu, relu6, leaky_relu, elu, selu, gelu, silu, sigmoid, hard_sigmoid,
                                     hard_silu, tanh, softplus, softsign, exponential, mish, log_softmax, softmax)}
_BY_NAME.update(swish=silu, hard_swish=hard_silu)


def get(identifier):
    """A callable from a name or callable; None and 'linear' give the identity."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(fn) -> str:
    return getattr(fn, "__name__", str(fn))
