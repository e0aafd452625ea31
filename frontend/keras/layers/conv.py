"""Convolution layers: Conv1D/2D/3D, Conv2DTranspose, DepthwiseConv2D, SeparableConv2D (channels_last)."""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.api import nn as api_nn
from minixla.frontend.api import nn_conv_image as api_conv
from minixla.frontend.keras import activations
from minixla.frontend.keras.layers.base import Layer, _dims


def _tuple(v, n: int, what: str):
    if isinstance(v, (int, np.integer)):
        return (int(v),) * n
    v = tuple(int(x) for x in v)
    if len(v) != n:
        raise ValueError(f"The `{what}` argument must be a tuple of {n} integers. Received {what}={v}")
    return v


def _out_len(n, k, s, d, padding):
    if n is None:
        return None
    k_eff = (k - 1) * d + 1
    return -(-n // s) if padding == "SAME" else (n - k_eff) // s + 1


class Conv(Layer):
    """N-D convolution of a channels-last input with a (*kernel_size, in, filters) kernel."""

    rank = 2

    def __init__(self, filters: int, kernel_size, strides=1, padding: str = "valid", data_format=None,
                 dilation_rate=1, groups: int = 1, activation=None, use_bias: bool = True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kw):
        super().__init__(activity_regularizer=activity_regularizer, **kw)
        n = self.rank
        if padding.lower() not in ("valid", "same", "causal"):
            raise ValueError(f"The `padding` argument must be a string in ('valid', 'same', 'causal'). "
                             f"Received: padding={padding}")
        if data_format not in (None, "channels_last"):
            raise NotImplementedError(f"{type(self).__name__}: only data_format='channels_last' is supported")
        self.filters = int(filters)
        self.kernel_size = _tuple(kernel_size, n, "kernel_size")
        self.strides = _tuple(strides, n, "strides")
        self.dilation_rate = _tuple(dilation_rate, n, "dilation_rate")
        self.padding = padding.upper()
        self.groups = int(groups)
        self.activation, self.use_bias = activations.get(activation), use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer

    def _check_input(self, x) -> None:
        shape = _dims(x)
        if len(shape) != self.rank + 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                             f"ndim={self.rank + 2}, found ndim={len(shape)}. Full shape received: {tuple(shape)}")
        if self.built and shape[-1] != self._in_channels:
            raise self.incompatible(shape, f"expected axis -1 of input shape to have value {self._in_channels}")

    def _kernel_shape(self, in_channels):
        return self.kernel_size + (in_channels // self.groups, self.filters)

    def build(self, input_shape) -> None:
        self._in_channels = int(input_shape[-1])
        if self._in_channels % self.groups:
            raise ValueError(f"The number of input channels must be evenly divisible by the number of groups. "
                             f"Received groups={self.groups}, but the input has {self._in_channels} channels "
                             f"(full input shape is {tuple(input_shape)}).")
        self.kernel = self.add_weight(self._kernel_shape(self._in_channels), self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, name="kernel")
        self.bias = (self.add_weight((self.filters,), self.bias_initializer, regularizer=self.bias_regularizer,
                                     name="bias") if self.use_bias else None)

    def _convolve(self, x):
        padding = self.padding
        if padding == "CAUSAL":
            left = (self.kernel_size[0] - 1) * self.dilation_rate[0]
            x = api.pad(x, [[0, 0], [left, 0], [0, 0]])
            padding = "VALID"
        if self.groups == 1:
            return api_conv.convolution(x, self.kernel, list(self.strides), padding,
                                        dilations=list(self.dilation_rate))
        xs = api.split(x, self.groups, axis=-1)
        ks = api.split(self.kernel, self.groups, axis=-1)
        return api.concat([api_conv.convolution(a, k, list(self.strides), padding,
                                                dilations=list(self.dilation_rate)) for a, k in zip(xs, ks)], -1)

    def call(self, x):
        y = self._convolve(x)
        if self.use_bias:
            y = api.add(y, self.bias)
        return self.activation(y)


class Conv1D(Conv):
    rank = 1


class Conv2D(Conv):
    rank = 2


class Conv3D(Conv):
    rank = 3


class Conv2DTranspose(Conv):
    """Transposed 2-D convolution (kernel (kh, kw, filters, in_channels), as Keras)."""

    rank = 2

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None, **kw):
        super().__init__(filters, kernel_size, strides, padding, **kw)
        if output_padding is not None:
            raise NotImplementedError("Conv2DTranspose: output_padding is not supported")

    def _kernel_shape(self, in_channels):
        return self.kernel_size + (self.filters, in_channels)

    def _convolve(self, x):
        dims = _dims(x)
        out = [_deconv_len(n, k, s, d, self.padding) for n, k, s, d in
               zip(dims[1:3], self.kernel_size, self.strides, self.dilation_rate)]
        batch = api.shape(x)[0:1]
        sizes = api.concat([api.cast(batch, "int32"), np.asarray(out + [self.filters], np.int32)], 0)
        return api_conv.conv2d_transpose(x, self.kernel, sizes, list(self.strides), self.padding,
                                         dilations=list(self.dilation_rate))


class Conv1DTranspose(Conv2DTranspose):
    """Transposed 1-D convolution: the 2-D one on a height-1 image (kernel (k, filters, in_channels))."""

    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None, **kw):
        super().__init__(filters, kernel_size, strides, padding, output_padding, **kw)

    def _convolve(self, x):
        _, w, _ = _dims(x)
        x2 = api.expand_dims(x, 1)
        out_w = _deconv_len(w, self.kernel_size[0], self.strides[0], self.dilation_rate[0], self.padding)
        sizes = api.concat([api.cast(api.shape(x)[0:1], "int32"), np.asarray([1, out_w, self.filters], np.int32)], 0)
        y = api_conv.conv2d_transpose(x2, api.expand_dims(self.kernel, 0), sizes, [1, self.strides[0]],
                                      self.padding, dilations=[1, self.dilation_rate[0]])
        return api.squeeze(y, [1])


def _deconv_len(n, k, s, d, padding):
    k_eff = (k - 1) * d + 1
    return n * s if padding == "SAME" else n * s + max(k_eff - s, 0)


class DepthwiseConv2D(Conv):
    rank = 2

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None, **kw):
        kw.pop("depthwise_constraint", None)
        super().__init__(1, kernel_size, strides, padding, data_format, dilation_rate, 1, activation, use_bias,
                         depthwise_initializer, bias_initializer, depthwise_regularizer, bias_regularizer, **kw)
        self.depth_multiplier = int(depth_multiplier)

    def build(self, input_shape) -> None:
        self._in_channels = int(input_shape[-1])
        self.kernel = self.add_weight(self.kernel_size + (self._in_channels, self.depth_multiplier),
                                      self.kernel_initializer, regularizer=self.kernel_regularizer, name="kernel")
        self.filters = self._in_channels * self.depth_multiplier
        self.bias = (self.add_weight((self.filters,), self.bias_initializer, regularizer=self.bias_regularizer,
                                     name="bias") if self.use_bias else None)

    def _convolve(self, x):
        return api_conv.depthwise_conv2d(x, self.kernel, list(self.strides), self.padding,
                                         dilations=list(self.dilation_rate))


class SeparableConv2D(Conv):
    rank = 2

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", **kw):
        for k in ("depthwise_regularizer", "pointwise_regularizer", "depthwise_constraint", "pointwise_constraint"):
            kw.pop(k, None)
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, 1, activation,
                         use_bias, depthwise_initializer, bias_initializer, **kw)
        self.depth_multiplier, self.pointwise_initializer = int(depth_multiplier), pointwise_initializer

    def build(self, input_shape) -> None:
        self._in_channels = c = int(input_shape[-1])
        self.depthwise_kernel = self.add_weight(self.kernel_size + (c, self.depth_multiplier),
                                                self.kernel_initializer, name="depthwise_kernel")
        self.pointwise_kernel = self.add_weight((1, 1, c * self.depth_multiplier, self.filters),
                                                self.pointwise_initializer, name="pointwise_kernel")
        self.bias = self.add_weight((self.filters,), self.bias_initializer, name="bias") if self.use_bias else None

    def _convolve(self, x):
        y = api_conv.depthwise_conv2d(x, self.depthwise_kernel, list(self.strides), self.padding,
                                      dilations=list(self.dilation_rate))
        return api_nn.conv2d(y, self.pointwise_kernel, [1, 1], "VALID")


Convolution1D, Convolution2D, Convolution3D = Conv1D, Conv2D, Conv3D
Convolution1DTranspose, Convolution2DTranspose = Conv1DTranspose, Conv2DTranspose
