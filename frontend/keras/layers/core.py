"""Core layers: Dense, Activation and the activation layers, Dropout, Embedding, Lambda, Rescaling."""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.api import indexing
from minixla.frontend.keras import activations
from minixla.frontend.keras import random as krandom
from minixla.frontend.keras.layers.base import Layer, _dims
from minixla.frontend.keras.regularizers import L1L2


def check_rank(layer: Layer, x, min_ndim=None, ndim=None, axis_value=None) -> None:
    """Keras' InputSpec check with its error text."""
    shape = _dims(x)
    if ndim is not None and len(shape) != ndim:
        raise ValueError(
            f'Input 0 of layer "{layer.name}" is incompatible with the layer: expected ndim={ndim}, found '
            f"ndim={len(shape)}. Full shape received: {tuple(shape)}")
    if min_ndim is not None and len(shape) < min_ndim:
        raise ValueError(f'Input 0 of layer "{layer.name}" is incompatible with the layer: expected '
                         f"min_ndim={min_ndim}, found ndim={len(shape)}. Full shape received: {tuple(shape)}")
    if axis_value is not None:
        axis, value = axis_value
        if shape[axis] is not None and shape[axis] != value:
            raise layer.incompatible(shape, f"expected axis {axis} of input shape to have value {value}")


class Dense(Layer):
    supports_masking = True

    def __init__(self, units: int, activation=None, use_bias: bool = True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, lora_rank=None, **kw):
        super().__init__(**kw)
        if not isinstance(units, (int, np.integer)) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer

    def build(self, input_shape) -> None:
        self.kernel = self.add_weight((input_shape[-1], self.units), self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, name="kernel")
        self.bias = (self.add_weight((self.units,), self.bias_initializer, regularizer=self.bias_regularizer,
                                     name="bias") if self.use_bias else None)
        self._in_dim = int(input_shape[-1])

    def _check_input(self, x) -> None:
        check_rank(self, x, min_ndim=2, axis_value=(-1, self._in_dim) if self.built else None)

    def call(self, x):
        if x.ndim == 2:
            y = api.matmul(x, self.kernel)
        else:
            lead = _dims(x)[:-1]
            flat = api.matmul(api.reshape(x, [-1, self._in_dim]), self.kernel)
            y = api.reshape(flat, [-1] + lead[1:] + [self.units])
        if self.use_bias:
            y = api.add(y, self.bias)
        return self.activation(y)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)


class Activation(Layer):
    supports_masking = True

    def __init__(self, activation, **kw):
        super().__init__(**kw)
        self.activation = activations.get(activation)

    def call(self, x):
        return self.activation(x)


class ReLU(Layer):
    supports_masking = True

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kw):
        super().__init__(**kw)
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, x):
        return activations.relu(x, self.negative_slope, self.max_value, self.threshold)


class LeakyReLU(Layer):
    supports_masking = True

    def __init__(self, negative_slope=0.3, **kw):
        kw.pop("alpha", None)
        super().__init__(**kw)
        self.negative_slope = negative_slope

    def call(self, x):
        return activations.leaky_relu(x, self.negative_slope)


class ELU(Layer):
    supports_masking = True

    def __init__(self, alpha=1.0, **kw):
        super().__init__(**kw)
        self.alpha = alpha

    def call(self, x):
        return activations.elu(x, self.alpha)


class Softmax(Layer):
    supports_masking = True

    def __init__(self, axis=-1, **kw):
        super().__init__(**kw)
        self.axis = axis

    def call(self, x, mask=None):
        if mask is not None:
            x = api.add(x, api.multiply(api.subtract(1.0, api.cast(mask, x.dtype)), np.float32(-1e9)))
        return activations.softmax(x, self.axis)


class PReLU(Layer):
    supports_masking = True

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, shared_axes=None, **kw):
        super().__init__(**kw)
        self.alpha_initializer, self.alpha_regularizer = alpha_initializer, alpha_regularizer
        self.shared_axes = [shared_axes] if isinstance(shared_axes, int) else list(shared_axes or [])

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for a in self.shared_axes:
            shape[a - 1] = 1
        self.alpha = self.add_weight(tuple(shape), self.alpha_initializer, regularizer=self.alpha_regularizer,
                                     name="alpha")

    def call(self, x):
        return api.add(activations.relu(x), api.multiply(api.negative(self.alpha), activations.relu(api.negative(x))))


class Identity(Layer):
    supports_masking = True

    def call(self, x):
        return x


class Dropout(Layer):
    supports_masking = True

    def __init__(self, rate: float, noise_shape=None, seed=None, **kw):
        super().__init__(**kw)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 "
                             f"and 1. Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = float(rate), noise_shape, seed
        self.seed_generator = krandom.SeedGenerator(seed, name=f"{self.name}/seed_generator")

    def call(self, x, training=None):
        if not training or self.rate == 0:
            return x
        noise_shape = None
        if self.noise_shape is not None:
            dims = _dims(x)
            noise_shape = [d if n is None else n for n, d in zip(self.noise_shape, dims)]
        return krandom.dropout(x, self.rate, self.seed_generator, noise_shape)


class SpatialDropout2D(Dropout):
    def call(self, x, training=None):
        if not training or self.rate == 0:
            return x
        dims = _dims(x)
        return krandom.dropout(x, self.rate, self.seed_generator, [dims[0], 1, 1, dims[3]])


class GaussianNoise(Layer):
    supports_masking = True

    def __init__(self, stddev, seed=None, **kw):
        super().__init__(**kw)
        self.stddev = stddev
        self.seed_generator = krandom.SeedGenerator(seed, name=f"{self.name}/seed_generator")

    def call(self, x, training=None):
        if not training:
            return x
        return api.add(x, krandom.normal(krandom.static_shape(x), 0.0, self.stddev, x.dtype, self.seed_generator))


class Embedding(Layer):
    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer="uniform",
                 embeddings_regularizer=None, mask_zero: bool = False, **kw):
        super().__init__(**{k: v for k, v in kw.items() if k not in ("input_length", "embeddings_constraint")})
        self.input_dim, self.output_dim, self.mask_zero = int(input_dim), int(output_dim), mask_zero
        self.embeddings_initializer = ("random_uniform" if embeddings_initializer == "uniform"
                                       else embeddings_initializer)
        self.embeddings_regularizer = embeddings_regularizer

    def build(self, input_shape=None) -> None:
        self.embeddings = self.add_weight((self.input_dim, self.output_dim), self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer, name="embeddings")

    def call(self, x):
        if x.dtype.name not in ("int32", "int64"):
            x = api.cast(x, "int32")
        return indexing.gather(self.embeddings, x)

    def compute_mask(self, inputs, mask=None):
        return api.not_equal(inputs, 0) if self.mask_zero else None


class Masking(Layer):
    """Marks time steps whose features all equal `mask_value` as masked (and zeroes them)."""

    def __init__(self, mask_value=0.0, **kw):
        super().__init__(**kw)
        self.mask_value = mask_value

    def _keep(self, x):
        return api.reduce_any(api.not_equal(x, np.asarray(self.mask_value, x.dtype.np)), -1)

    def call(self, x):
        return api.multiply(x, api.expand_dims(api.cast(self._keep(x), x.dtype), -1))

    def compute_mask(self, inputs, mask=None):
        return self._keep(inputs)


class Lambda(Layer):
    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kw):
        super().__init__(**kw)
        self.function, self.arguments = function, dict(arguments or {})

    def call(self, x):
        return self.function(x, **self.arguments)


class Rescaling(Layer):
    supports_masking = True

    def __init__(self, scale, offset=0.0, **kw):
        super().__init__(**kw)
        self.scale, self.offset = scale, offset

    def call(self, x):
        dt = np.dtype(self.dtype)
        x = api.cast(x, dt)
        return api.add(api.multiply(x, np.asarray(self.scale, dt)), np.asarray(self.offset, dt))


class ActivityRegularization(Layer):
    def __init__(self, l1=0.0, l2=0.0, **kw):
        super().__init__(activity_regularizer=L1L2(l1, l2), **kw)

    def call(self, x):
        return x

