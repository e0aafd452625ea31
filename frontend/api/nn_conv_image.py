"""P1 `tf.nn` / `tf.random` / `tf.image` APIs (TF 2.21 semantics), written as TF's Python layer writes them:

* `tf.nn.conv1d` (Conv2D on expand_dims), `tf.nn.convolution` (Conv2D / Conv3D by filter rank),
  `tf.nn.depthwise_conv2d` (DepthwiseConv2dNative), `tf.nn.conv2d_transpose` (Conv2DBackpropInput);
* `tf.nn.l2_normalize` (also `tf.math` / `tf.linalg`), `tf.nn.compute_average_loss`;
* `tf.random.stateless_truncated_normal`, `tf.random.stateless_categorical`,
  `tf.nn.experimental.stateless_dropout` (TF's eager Philox stream, frontend/ops/p1_nn_ops.py);
* `tf.image.flip_left_right`, `flip_up_down`, `crop_to_bounding_box`, `resize` (bilinear / nearest,
  half-pixel centers, as TF's CPU kernels: the interpolation indices and weights are computed in float32
  on the host for the static sizes, the image side is gather + lerp).

`install(tf_module)` puts them into the `tf` namespaces (one line in frontend/tf.py).
"""

from __future__ import annotations

import numbers
from types import SimpleNamespace

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.api import core as api
from minixla.frontend.api.indexing import gather
from minixla.frontend.api.random_stateless import _alg, _key_counter, _shape, stateless_uniform
from minixla.frontend.execute import execute
from minixla.frontend.tensor import Tensor


def _seq(value, n, channel_index, name):
    """TF's `_get_sequence`: an int or n/n+2 values -> the full per-dimension list."""
    if value is None:
        value = 1
    if isinstance(value, int):
        v = [value] * n
    else:
        v = [int(x) for x in value]
    if len(v) == 1:
        v = v * n
    if len(v) == n:
        full = [1] * (n + 2)
        start = 2 if channel_index == 1 else 1
        full[start:start + n] = v
        return full
    if len(v) == n + 2:
        return v
    raise ValueError(f"{name} should be of length 1, {n} or {n + 2} but was {len(v)}")


def _pad(padding):
    if isinstance(padding, str):
        return padding.upper(), ()
    return "EXPLICIT", tuple(int(v) for pair in padding for v in pair)


# -- convolutions --------------------------------------------------------------------------

def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    if data_format in (None, "NHWC", "NWC"):
        fmt, start, ch = "NHWC", -3, 2
    elif data_format in ("NCHW", "NCW"):
        fmt, start, ch = "NCHW", -2, 1
    else:
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
    strides = [1] + _seq(stride, 1, ch, "stride")
    dil = [1] + _seq(dilations, 1, ch, "dilations")
    x = api.expand_dims(input, start)
    w = api.expand_dims(filters, 0)
    pad, explicit = _pad(padding)
    if explicit:
        explicit = (0, 0) + explicit if fmt == "NCHW" else (0, 0, 0, 0) + explicit[2:]
        explicit = tuple(explicit)
    out = execute("Conv2D", [x, w], {"strides": tuple(strides), "padding": pad, "data_format": fmt,
                                     "dilations": tuple(dil), "explicit_paddings": explicit})
    return api.squeeze(out, [start])


def _conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None):
    fmt = data_format or "NDHWC"
    ch = 1 if fmt.startswith("NC") else 4
    return execute("Conv3D", [input, filters], {"strides": tuple(_seq(strides, 3, ch, "strides")),
                                                "padding": padding.upper(), "data_format": fmt,
                                                "dilations": tuple(_seq(dilations, 3, ch, "dilations"))})


def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None, name=None):
    from minixla.frontend.api.nn import conv2d
    f = api.convert_to_tensor(filters)
    n = f.ndim - 2
    if n == 1:
        return conv1d(input, f, strides or 1, padding, data_format or "NWC", dilations)
    if n == 2:
        fmt = data_format or "NHWC"
        ch = 1 if fmt.startswith("NC") else 3
        return conv2d(input, f, _seq(strides, 2, ch, "strides"), padding, fmt, _seq(dilations, 2, ch, "dilations"))
    if n == 3:
        return _conv3d(input, f, strides, padding, data_format, dilations)
    raise ValueError(f"`filters.shape.rank` must be 3, 4 or 5 (1-D, 2-D or 3-D convolution). "
                     f"Received: filters.shape={f.shape}")


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):
    fmt = data_format or "NHWC"
    ch = 1 if fmt.startswith("NC") else 3
    pad, explicit = _pad(padding)
    return execute("DepthwiseConv2dNative", [input, filter],
                   {"strides": tuple(_seq(strides, 2, ch, "strides")), "padding": pad, "data_format": fmt,
                    "dilations": tuple(_seq(dilations, 2, ch, "dilations")), "explicit_paddings": explicit})


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC", dilations=None,
                     name=None):
    fmt = data_format or "NHWC"
    ch = 1 if fmt.startswith("NC") else 3
    pad, explicit = _pad(padding)
    sizes = output_shape if isinstance(output_shape, Tensor) else np.asarray([int(d) for d in output_shape],
                                                                              np.int32)
    return execute("Conv2DBackpropInput", [sizes, filters, input],
                   {"strides": tuple(_seq(strides, 2, ch, "strides")), "padding": pad, "data_format": fmt,
                    "dilations": tuple(_seq(dilations, 2, ch, "dilations")), "explicit_paddings": explicit})


# -- normalization and losses ----------------------------------------------------------------

def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    x = api.convert_to_tensor(x)
    square_sum = api.reduce_sum(api.square(x), axis, keepdims=True)
    x_inv_norm = api.rsqrt(api.maximum(square_sum, api.cast(epsilon, x.dtype)))
    return api.multiply(x, x_inv_norm)


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    loss = api.convert_to_tensor(per_example_loss)
    input_dtype = loss.dtype
    if loss.ndim == 0:
        raise ValueError(f"Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         f"Received per_example_loss={loss.numpy()} with rank 0")
    if sample_weight is not None:
        w = api.cast(api.convert_to_tensor(sample_weight), dtypes.float32)
        lf = api.cast(loss, dtypes.float32)
        if w.ndim == lf.ndim + 1 and w.shape[-1] == 1:
            w = api.squeeze(w, [-1])
        elif w.ndim == lf.ndim - 1 and lf.ndim > 0:
            w = api.expand_dims(w, -1)
        loss = api.multiply(lf, w)
    loss = api.cast(loss, input_dtype)
    if global_batch_size is None:
        global_batch_size = int(loss.shape[0])
    gbs = api.convert_to_tensor(global_batch_size)
    if gbs.ndim != 0:
        raise ValueError("global_batch_size must be scalar.")
    if not gbs.dtype.is_integer:
        raise TypeError("global_batch_size must be an integer.")
    if not isinstance(global_batch_size, Tensor) and int(global_batch_size) < 0:
        raise api_errors().InvalidArgumentError("global_batch_size must be non-negative.")
    return api.divide_no_nan(api.reduce_sum(loss), api.cast(gbs, input_dtype))


def api_errors():
    from minixla.frontend import errors
    return errors


# -- random -----------------------------------------------------------------------------------

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    dt = dtypes.as_dtype(dtype)
    if dt not in _FLOATS:
        if not dt.is_floating and isinstance(mean, float):  # TF converts `mean` to `dtype` first
            raise TypeError(f"Cannot convert {mean!r} to EagerTensor of dtype {dt.name}")
        raise ValueError(f"Argument `dtype` got invalid value {dt!r}. Accepted dtypes are "
                         f"{[d.name for d in _FLOATS]}.")
    key, counter = _key_counter(seed)
    rnd = execute("StatelessTruncatedNormalV2", [_shape(shape), key, counter, np.asarray(_alg(alg), np.int32)],
                  {"dtype": dt.np})
    return api.add(api.multiply(rnd, api.cast(stddev, dt)), api.cast(mean, dt))


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    dt = dtypes.as_dtype(dtype)
    if dt not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Value passed to parameter 'output_dtype' has DataType {dt.name} not in list of allowed "
                        f"values: int32, int64")
    logits = api.convert_to_tensor(logits)
    seed = api.convert_to_tensor(seed)
    return execute("StatelessMultinomial", [logits, np.asarray(int(num_samples), np.int32), seed],
                   {"output_dtype": dt.np, "Tseed": seed.dtype.np})


def dropout_input(x, rate):
    """TF's argument checks shared by the dropouts: (x as a float tensor, whether `rate` is a Python number)."""
    is_rate_number = isinstance(rate, numbers.Real)
    if is_rate_number and (rate < 0 or rate >= 1):
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    x = api.convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: "
                         f"x_dtype={x.dtype}")
    return x, is_rate_number


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    x, is_rate_number = dropout_input(x, rate)
    if is_rate_number and rate == 0:
        return x
    if is_rate_number:
        ret = api.multiply(x, api.cast(1 / (1 - rate), x.dtype))
    else:
        rate = api.cast(rate, x.dtype)
        ret = api.multiply(x, api.divide(api.cast(1, x.dtype), api.subtract(api.cast(1, x.dtype), rate)))
    shape = x.shape.as_list() if noise_shape is None else [x.shape[i] if d is None else int(d)
                                                           for i, d in enumerate(noise_shape)]
    rnd = stateless_uniform(shape, seed, dtype=x.dtype, alg="auto_select" if rng_alg is None else rng_alg)
    keep = api.greater_equal(rnd, rate if not is_rate_number else api.cast(rate, x.dtype))
    return api.where(keep, ret, api.zeros_like(ret))


# -- image ------------------------------------------------------------------------------------

def _image(image, op):
    img = api.convert_to_tensor(image)
    if img.ndim < 3:
        raise ValueError(f"'image' (shape {img.shape}) must be at least three-dimensional.")
    return img


def _flip(image, axis, op):
    img = _image(image, op)
    if img.ndim == 3:
        return api.reverse(img, [axis])
    if img.ndim == 4:
        return api.reverse(img, [axis + 1])
    raise ValueError("'image' must have either 3 or 4 dimensions.")


def flip_left_right(image):
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image):
    return _flip(image, 0, "flip_up_down")


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    img = _image(image, "crop_to_bounding_box")
    batched = img.ndim == 4
    if not batched:
        img = api.expand_dims(img, 0)
    if img.ndim != 4:
        raise ValueError(f"'image' (shape {img.shape}) must have either 3 or 4 dimensions.")
    _, h, w, _ = img.shape.as_list()
    oh, ow, th, tw = (int(v) for v in (offset_height, offset_width, target_height, target_width))
    for ok, msg in ((ow >= 0, "offset_width must be >= 0."), (oh >= 0, "offset_height must be >= 0."),
                    (tw > 0, "target_width must be > 0."), (th > 0, "target_height must be > 0."),
                    (w >= tw + ow, "width must be >= target + offset."),
                    (h >= th + oh, "height must be >= target + offset.")):
        if not ok:
            raise ValueError(msg)
    out = api.slice(img, [0, oh, ow, 0], [-1, th, tw, -1])
    return out if batched else api.squeeze(out, [0])


def _bilinear_weights(out_size, in_size):
    """TF's compute_interpolation_weights with HalfPixelScaler, in float32."""
    scale = np.float32(in_size) / np.float32(out_size)
    i = np.arange(out_size, dtype=np.float32)
    src = (i + np.float32(0.5)) * scale - np.float32(0.5)
    fl = np.floor(src)
    lower = np.maximum(fl.astype(np.int64), 0)
    upper = np.minimum(np.ceil(src).astype(np.int64), in_size - 1)
    return lower.astype(np.int32), upper.astype(np.int32), (src - fl).astype(np.float32)


def _nearest_index(out_size, in_size):
    scale = np.float32(in_size) / np.float32(out_size)
    src = np.floor((np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale).astype(np.int64)
    return np.maximum(np.minimum(src, in_size - 1), 0).astype(np.int32)


def resize(images, size, method="bilinear", preserve_aspect_ratio=False, antialias=False, name=None):
    img = api.convert_to_tensor(images)
    if img.ndim not in (3, 4):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    batched = img.ndim == 4
    if not batched:
        img = api.expand_dims(img, 0)
    method = getattr(method, "value", method)
    if antialias:
        raise NotImplementedError("tf.image.resize(antialias=True) is not implemented in minixla")
    if preserve_aspect_ratio:
        raise NotImplementedError("tf.image.resize(preserve_aspect_ratio=True) is not implemented in minixla")
    size = [int(v) for v in (size.numpy() if isinstance(size, Tensor) else size)]
    if len(size) != 2:
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    _, h, w, _ = img.shape.as_list()
    oh, ow = size
    if method == "nearest":
        out = gather(gather(img, _nearest_index(oh, h), axis=1), _nearest_index(ow, w), axis=2)
    elif method == "bilinear":
        x = img if img.dtype == dtypes.float32 else api.cast(img, dtypes.float32)
        ylo, yhi, ylerp = _bilinear_weights(oh, h)
        xlo, xhi, xlerp = _bilinear_weights(ow, w)
        top, bottom = gather(x, ylo, axis=1), gather(x, yhi, axis=1)
        xl = api.constant(xlerp.reshape(1, 1, ow, 1))
        yl = api.constant(ylerp.reshape(1, oh, 1, 1))

        def row(r):
            left, right = gather(r, xlo, axis=2), gather(r, xhi, axis=2)
            return api.add(left, api.multiply(api.subtract(right, left), xl))

        t, btm = row(top), row(bottom)
        out = api.add(t, api.multiply(api.subtract(btm, t), yl))
    else:
        raise NotImplementedError(f"tf.image.resize method {method!r} is not implemented in minixla "
                                  f"(bilinear and nearest are)")
    return out if batched else api.squeeze(out, [0])


class ResizeMethod:
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"


def install(tf) -> None:
    """Add these APIs to the `tf` module's namespaces."""
    for n in ("conv1d", "convolution", "depthwise_conv2d", "conv2d_transpose", "l2_normalize",
              "compute_average_loss"):
        setattr(tf.nn, n, globals()[n])
    tf.nn.experimental = SimpleNamespace(stateless_dropout=stateless_dropout)
    tf.math.l2_normalize = tf.linalg.l2_normalize = l2_normalize
    tf.random.stateless_truncated_normal = stateless_truncated_normal
    tf.random.stateless_categorical = stateless_categorical
    tf.image = SimpleNamespace(flip_left_right=flip_left_right, flip_up_down=flip_up_down,
                               crop_to_bounding_box=crop_to_bounding_box, resize=resize, ResizeMethod=ResizeMethod)
