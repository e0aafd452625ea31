"""Merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot (and the
functional forms `keras.layers.add(...)`)."""

from __future__ import annotations

import functools

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.keras.layers.base import Layer, _dims


class _Merge(Layer):
    supports_masking = True

    def _check_input(self, inputs) -> None:
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(f"A merge layer should be called on a list of at least 2 inputs. Got "
                             f"{len(inputs) if isinstance(inputs, (list, tuple)) else 1} inputs.")
        shapes = [tuple(_dims(x)) for x in inputs]
        if not isinstance(self, Concatenate) and not isinstance(self, Dot):
            for s in shapes[1:]:
                a, b = shapes[0], s
                if len(a) == len(b) and any(x != y and x not in (1, None) and y not in (1, None)
                                            for x, y in zip(a, b)):
                    raise ValueError(f"Inputs have incompatible shapes. Received shapes {a} and {b}")

    def call(self, inputs):
        return functools.reduce(self._op, inputs)


class Add(_Merge):
    _op = staticmethod(api.add)


class Subtract(_Merge):
    def _check_input(self, inputs) -> None:
        super()._check_input(inputs)
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: "
                             f"inputs={len(inputs)}")

    _op = staticmethod(api.subtract)


class Multiply(_Merge):
    _op = staticmethod(api.multiply)


class Maximum(_Merge):
    _op = staticmethod(api.maximum)


class Minimum(_Merge):
    _op = staticmethod(api.minimum)


class Average(_Merge):
    def call(self, inputs):
        return api.divide(functools.reduce(api.add, inputs), np.float32(len(inputs)))


class Concatenate(_Merge):
    def __init__(self, axis=-1, **kw):
        super().__init__(**kw)
        self.axis = axis

    def _check_input(self, inputs) -> None:
        super()._check_input(inputs)
        shapes = [list(_dims(x)) for x in inputs]
        rank = len(shapes[0])
        axis = self.axis % rank
        for s in shapes[1:]:
            if len(s) != rank or any(a != b and a is not None and b is not None
                                     for i, (a, b) in enumerate(zip(shapes[0], s)) if i != axis):
                raise ValueError(f"A `Concatenate` layer requires inputs with matching shapes except for the "
                                 f"concatenation axis. Received: input_shape={[tuple(x) for x in shapes]}")

    def call(self, inputs):
        return api.concat(list(inputs), self.axis)


class Dot(_Merge):
    def __init__(self, axes, normalize=False, **kw):
        super().__init__(**kw)
        self.axes, self.normalize = axes, normalize

    def call(self, inputs):
        a, b = inputs
        axes = [self.axes, self.axes] if isinstance(self.axes, int) else list(self.axes)
        if self.normalize:
            a = api.multiply(a, api.rsqrt(api.maximum(api.reduce_sum(api.square(a), axes[0], keepdims=True),
                                                      np.float32(1e-12))))
            b = api.multiply(b, api.rsqrt(api.maximum(api.reduce_sum(api.square(b), axes[1], keepdims=True),
                                                      np.float32(1e-12))))
        ra, rb = len(_dims(a)), len(_dims(b))
        ax0, ax1 = axes[0] % ra, axes[1] % rb
        if ra == 2 and rb == 2:
            return api.reduce_sum(api.multiply(a, b), 1, keepdims=True)
        if ax0 != ra - 1:
            perm = [i for i in range(ra) if i != ax0] + [ax0]
            a = api.transpose(a, perm)
        if ax1 != 1:
            perm = [0, ax1] + [i for i in range(1, rb) if i != ax1]
            b = api.transpose(b, perm)
        return api.matmul(a, b)


def _functional(cls):
    def fn(inputs, **kw):
        return cls(**kw)(inputs)

    fn.__name__ = cls.__name__.lower()
    return fn


add, subtract, multiply = _functional(Add), _functional(Subtract), _functional(Multiply)
average, maximum, minimum = _functional(Average), _functional(Maximum), _functional(Minimum)
concatenate, dot = _functional(Concatenate), _functional(Dot)
