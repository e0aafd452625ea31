"""Preprocessing layers: Normalization (with `adapt`)."""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.keras.layers.base import Layer, _dims

EPSILON = 1e-7


class Normalization(Layer):
    """(x - mean) / max(sqrt(variance), 1e-7) per feature of `axis`; mean/variance given or from `adapt`."""

    def __init__(self, axis=-1, mean=None, variance=None, invert: bool = False, **kw):
        super().__init__(**kw)
        self.axis = () if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
        if (mean is None) != (variance is None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must be set. Received: "
                             f"mean={mean} and variance={variance}")
        self.input_mean, self.input_variance, self.invert = mean, variance, invert

    def build(self, input_shape) -> None:
        ndim = len(input_shape)
        self._keep = sorted(a % ndim for a in self.axis)
        self._broadcast = [input_shape[d] if d in self._keep else 1 for d in range(ndim)]
        shape = tuple(input_shape[d] for d in self._keep)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(shape, "zeros", trainable=False, name="mean")
            self.adapt_variance = self.add_weight(shape, "ones", trainable=False, name="variance")
            self.count = self.add_weight((), "zeros", dtype="int64", trainable=False, name="count")

    def adapt(self, data, batch_size=None, steps=None) -> None:
        """Set mean and variance from `data` (an array or a dataset of arrays)."""
        if hasattr(data, "as_numpy_iterator"):
            data = np.concatenate([np.asarray(b) for b in data.as_numpy_iterator()])
        data = np.asarray(data, np.float64)
        if data.ndim == 1:
            data = data[:, None]
        if not self.built:
            self.build((None,) + data.shape[1:])
            self.built = True
        reduce = tuple(d for d in range(data.ndim) if d not in self._keep)
        self.adapt_mean.assign(data.mean(reduce).astype(np.float32))
        self.adapt_variance.assign(data.var(reduce).astype(np.float32))
        self.count.assign(np.int64(np.prod([data.shape[d] for d in reduce])))

    def _stats(self):
        if self.input_mean is not None:
            mean, var = np.asarray(self.input_mean, np.float32), np.asarray(self.input_variance, np.float32)
            return (np.broadcast_to(mean, [d or 1 for d in self._broadcast]),
                    np.broadcast_to(var, [d or 1 for d in self._broadcast]))
        shape = [d for d in self._broadcast]
        return api.reshape(self.adapt_mean, shape), api.reshape(self.adapt_variance, shape)

    def call(self, x):
        x = api.cast(x, "float32")
        if len(_dims(x)) == 1:
            x = api.expand_dims(x, -1)
        mean, var = self._stats()
        scale = api.maximum(api.sqrt(var), np.float32(EPSILON))
        if self.invert:
            return api.add(mean, api.multiply(x, scale))
        return api.divide(api.subtract(x, mean), scale)
