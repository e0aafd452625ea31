"""Pooling layers: Max/Average pooling 1D/2D/3D and the global poolings (channels_last)."""

from __future__ import annotations

from minixla.frontend.api import core as api
from minixla.frontend.api import nn as api_nn
from minixla.frontend.keras.layers.base import Layer, _dims
from minixla.frontend.keras.layers.conv import _tuple

_FORMATS = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


class _Pooling(Layer):
    rank = 2
    kind = "MaxPool"

    def __init__(self, pool_size=2, strides=None, padding: str = "valid", data_format=None, **kw):
        super().__init__(**kw)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError(f"{type(self).__name__}: only data_format='channels_last' is supported")
        self.pool_size = _tuple(pool_size, self.rank, "pool_size")
        self.strides = _tuple(strides, self.rank, "strides") if strides is not None else self.pool_size
        if padding.lower() not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: padding={padding}")
        self.padding = padding.upper()

    def _check_input(self, x) -> None:
        shape = _dims(x)
        if len(shape) != self.rank + 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                             f"ndim={self.rank + 2}, found ndim={len(shape)}. Full shape received: {tuple(shape)}")

    def call(self, x):
        return api_nn._pool(self.kind, x, list(self.pool_size), list(self.strides), self.padding,
                            _FORMATS[self.rank], self.rank)


def _make(name, rank, kind):
    return type(name, (_Pooling,), {"rank": rank, "kind": kind})


MaxPooling1D = _make("MaxPooling1D", 1, "MaxPool")
MaxPooling2D = _make("MaxPooling2D", 2, "MaxPool")
MaxPooling3D = _make("MaxPooling3D", 3, "MaxPool")
AveragePooling1D = _make("AveragePooling1D", 1, "AvgPool")
AveragePooling2D = _make("AveragePooling2D", 2, "AvgPool")
AveragePooling3D = _make("AveragePooling3D", 3, "AvgPool")
MaxPool1D, MaxPool2D, MaxPool3D = MaxPooling1D, MaxPooling2D, MaxPooling3D
AvgPool1D, AvgPool2D, AvgPool3D = AveragePooling1D, AveragePooling2D, AveragePooling3D


class _GlobalPooling(Layer):
    rank = 2
    reduce = staticmethod(api.reduce_max)

    def __init__(self, data_format=None, keepdims: bool = False, **kw):
        super().__init__(**kw)
        self.keepdims = keepdims

    def _check_input(self, x) -> None:
        shape = _dims(x)
        if len(shape) != self.rank + 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                             f"ndim={self.rank + 2}, found ndim={len(shape)}. Full shape received: {tuple(shape)}")

    def call(self, x, mask=None):
        axes = list(range(1, self.rank + 1))
        if mask is not None and type(self).reduce is api.reduce_mean and self.rank == 1:
            m = api.expand_dims(api.cast(mask, x.dtype), 2)
            return api.divide(api.reduce_sum(api.multiply(x, m), axes, keepdims=self.keepdims),
                              api.reduce_sum(m, axes, keepdims=self.keepdims))
        return type(self).reduce(x, axes, keepdims=self.keepdims)


def _make_global(name, rank, reduce):
    return type(name, (_GlobalPooling,), {"rank": rank, "reduce": staticmethod(reduce)})


GlobalMaxPooling1D = _make_global("GlobalMaxPooling1D", 1, api.reduce_max)
GlobalMaxPooling2D = _make_global("GlobalMaxPooling2D", 2, api.reduce_max)
GlobalMaxPooling3D = _make_global("GlobalMaxPooling3D", 3, api.reduce_max)
GlobalAveragePooling1D = _make_global("GlobalAveragePooling1D", 1, api.reduce_mean)
GlobalAveragePooling2D = _make_global("GlobalAveragePooling2D", 2, api.reduce_mean)
GlobalAveragePooling3D = _make_global("GlobalAveragePooling3D", 3, api.reduce_mean)
GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D = GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D
GlobalAvgPool1D, GlobalAvgPool2D, GlobalAvgPool3D = (GlobalAveragePooling1D, GlobalAveragePooling2D,
                                                     GlobalAveragePooling3D)
