"""Normalization layers: BatchNormalization (batch statistics when training, moving ones at
inference), LayerNormalization, GroupNormalization, UnitNormalization.
"""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.keras.layers.base import Layer, _dims


def _axes(axis, ndim):
    axis = [axis] if isinstance(axis, int) else list(axis)
    return sorted(a % ndim for a in axis)


class BatchNormalization(Layer):
    supports_masking = True

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, synchronized=False, **kw):
        kw.pop("beta_constraint", None)
        kw.pop("gamma_constraint", None)
        super().__init__(**kw)
        self.axis, self.momentum, self.epsilon = axis, float(momentum), float(epsilon)
        self.center, self.scale = center, scale
        self.inits = (gamma_initializer, beta_initializer, moving_mean_initializer, moving_variance_initializer)
        self.regs = (gamma_regularizer, beta_regularizer)

    def build(self, input_shape) -> None:
        ndim = len(input_shape)
        self._feature_axes = _axes(self.axis, ndim)
        shape = tuple(input_shape[a] for a in self._feature_axes)
        self.gamma = self.add_weight(shape, self.inits[0], regularizer=self.regs[0], name="gamma") \
            if self.scale else None
        self.beta = self.add_weight(shape, self.inits[1], regularizer=self.regs[1], name="beta") \
            if self.center else None
        self.moving_mean = self.add_weight(shape, self.inits[2], trainable=False, name="moving_mean")
        self.moving_variance = self.add_weight(shape, self.inits[3], trainable=False, name="moving_variance")

    def _broadcast(self, v, ndim):
        shape = [1] * ndim
        for a, d in zip(self._feature_axes, v.shape.as_list()):
            shape[a] = d
        return api.reshape(v, shape)

    def call(self, x, training=None, mask=None):
        ndim = len(_dims(x))
        reduce = [a for a in range(ndim) if a not in self._feature_axes]
        if training and self.trainable:
            mean = api.reduce_mean(x, reduce)
            var = api.reduce_mean(api.square(api.subtract(x, self._broadcast(mean, ndim))), reduce)
            m = np.float32(self.momentum)
            self.moving_mean.assign(api.add(api.multiply(self.moving_mean, m), api.multiply(mean, 1 - m)))
            self.moving_variance.assign(api.add(api.multiply(self.moving_variance, m), api.multiply(var, 1 - m)))
        else:
            mean, var = self.moving_mean, self.moving_variance
        inv = api.rsqrt(api.add(var, np.float32(self.epsilon)))
        if self.gamma is not None:
            inv = api.multiply(inv, self.gamma)
        y = api.multiply(api.subtract(x, self._broadcast(mean, ndim)), self._broadcast(inv, ndim))
        if self.beta is not None:
            y = api.add(y, self._broadcast(self.beta, ndim))
        return y


class LayerNormalization(Layer):
    supports_masking = True

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 **kw):
        kw.pop("beta_constraint", None)
        kw.pop("gamma_constraint", None)
        super().__init__(**kw)
        self.axis, self.epsilon = axis, float(epsilon)
        self.center, self.scale, self.rms_scaling = center, scale, rms_scaling
        self.inits, self.regs = (gamma_initializer, beta_initializer), (gamma_regularizer, beta_regularizer)

    def build(self, input_shape) -> None:
        ndim = len(input_shape)
        self._norm_axes = _axes(self.axis, ndim)
        shape = tuple(input_shape[a] for a in self._norm_axes)
        self.gamma = self.add_weight(shape, self.inits[0], regularizer=self.regs[0], name="gamma") \
            if self.scale else None
        self.beta = self.add_weight(shape, self.inits[1], regularizer=self.regs[1], name="beta") \
            if self.center and not self.rms_scaling else None

    def _broadcast(self, v, ndim):
        shape = [1] * ndim
        for a, d in zip(self._norm_axes, v.shape.as_list()):
            shape[a] = d
        return api.reshape(v, shape)

    def call(self, x):
        ndim = len(_dims(x))
        eps = np.float32(self.epsilon)
        if self.rms_scaling:
            var = api.reduce_mean(api.square(x), self._norm_axes, keepdims=True)
            return api.multiply(api.multiply(x, api.rsqrt(api.add(var, eps))), self._broadcast(self.gamma, ndim))
        mean = api.reduce_mean(x, self._norm_axes, keepdims=True)
        centered = api.subtract(x, mean)
        var = api.reduce_mean(api.square(centered), self._norm_axes, keepdims=True)
        y = api.multiply(centered, api.rsqrt(api.add(var, eps)))
        if self.gamma is not None:
            y = api.multiply(y, self._broadcast(self.gamma, ndim))
        if self.beta is not None:
            y = api.add(y, self._broadcast(self.beta, ndim))
        return y


class GroupNormalization(Layer):
    supports_masking = True

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", **kw):
        for k in ("beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint"):
            kw.pop(k, None)
        super().__init__(**kw)
        self.groups, self.axis, self.epsilon = int(groups), axis, float(epsilon)
        self.center, self.scale, self.inits = center, scale, (gamma_initializer, beta_initializer)

    def build(self, input_shape) -> None:
        if self.axis not in (-1, len(input_shape) - 1):
            raise NotImplementedError("GroupNormalization: only the last axis is supported")
        c = int(input_shape[-1])
        if c < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number of channels ({c}).")
        if c % self.groups:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number of channels ({c}).")
        self.gamma = self.add_weight((c,), self.inits[0], name="gamma") if self.scale else None
        self.beta = self.add_weight((c,), self.inits[1], name="beta") if self.center else None

    def call(self, x):
        dims = _dims(x)
        c = dims[-1]
        grouped = api.reshape(x, [-1] + dims[1:-1] + [self.groups, c // self.groups])
        axes = list(range(1, len(dims) - 1)) + [len(dims)]
        mean = api.reduce_mean(grouped, axes, keepdims=True)
        centered = api.subtract(grouped, mean)
        var = api.reduce_mean(api.square(centered), axes, keepdims=True)
        y = api.reshape(api.multiply(centered, api.rsqrt(api.add(var, np.float32(self.epsilon)))),
                        [-1] + dims[1:])
        if self.gamma is not None:
            y = api.multiply(y, self.gamma)
        if self.beta is not None:
            y = api.add(y, self.beta)
        return y


class UnitNormalization(Layer):
    supports_masking = True

    def __init__(self, axis=-1, **kw):
        super().__init__(**kw)
        self.axis = axis

    def call(self, x):
        sq = api.reduce_sum(api.square(x), self.axis, keepdims=True)
        return api.multiply(x, api.rsqrt(api.maximum(sq, np.float32(1e-12))))
