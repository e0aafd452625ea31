"""`tf.nn.*`: activations, softmax/cross-entropy, bias_add, pooling, moments.

Python composites (gelu, silu, sigmoid_cross_entropy_with_logits, moments,
batch_normalization) are written with the public ops, as TF writes them.
"""

from __future__ import annotations

import math


from minixla.frontend import eager_fast_ops as _fast_ops
from minixla.frontend import eager_fast_path as _fast
from minixla.frontend.api import core as api
from minixla.frontend.execute import execute


def relu(features, name=None):
    return execute("Relu", [features])


relu = _fast.unary_api("Relu", relu)


def relu6(features, name=None):
    return execute("Relu6", [features])


def leaky_relu(features, alpha=0.2, name=None):
    return execute("LeakyRelu", [features], {"alpha": float(alpha)})


def elu(features, name=None):
    return execute("Elu", [features])


def selu(features, name=None):
    return execute("Selu", [features])


def softsign(features, name=None):
    return execute("Softsign", [features])


sigmoid = api.sigmoid
tanh = api.tanh
softplus = api.softplus


def silu(features, beta=1.0, name=None):
    x = api.convert_to_tensor(features)
    return api.multiply(x, api.sigmoid(api.multiply(x, beta) if beta != 1.0 else x))


swish = silu


def gelu(features, approximate=False, name=None):
    x = api.convert_to_tensor(features)
    if approximate:
        inner = api.multiply(math.sqrt(2 / math.pi), api.add(x, api.multiply(0.044715, api.pow(x, 3))))
        return api.multiply(api.multiply(0.5, x), api.add(1.0, api.tanh(inner)))
    return api.multiply(api.multiply(0.5, x), api.add(1.0, api.erf(api.multiply(x, 1 / math.sqrt(2)))))


def _along_last(fn, logits, axis):
    x = api.convert_to_tensor(logits)
    rank = x.ndim
    axis = axis % rank if rank else 0
    if axis == rank - 1:
        return fn(x)
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return api.transpose(fn(api.transpose(x, perm)), perm)


def _softmax(x):
    out = _fast_ops.softmax_last(x)
    return execute("Softmax", [x]) if out is None else out


def _log_softmax(x):
    out = _fast_ops.softmax_last(x, log=True)
    return execute("LogSoftmax", [x]) if out is None else out


def softmax(logits, axis=None, name=None):
    return _along_last(_softmax, logits, -1 if axis is None else axis)


def log_softmax(logits, axis=None, name=None):
    return _along_last(_log_softmax, logits, -1 if axis is None else axis)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    logits = api.convert_to_tensor(logits)
    labels = api.convert_to_tensor(labels, logits.dtype)
    if logits.ndim == 2 and axis in (-1, 1):
        loss, _ = execute("SoftmaxCrossEntropyWithLogits", [logits, labels])
        return loss
    lead = logits.shape.as_list()[:-1]
    k = logits.shape[-1]
    loss, _ = execute("SoftmaxCrossEntropyWithLogits", [api.reshape(logits, [-1, k]), api.reshape(labels, [-1, k])])
    return api.reshape(loss, lead)


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    logits = api.convert_to_tensor(logits)
    labels = api.convert_to_tensor(labels)
    lead = logits.shape.as_list()[:-1]
    if logits.ndim == 2:
        loss, _ = execute("SparseSoftmaxCrossEntropyWithLogits", [logits, labels])
        return loss
    loss, _ = execute("SparseSoftmaxCrossEntropyWithLogits",
                      [api.reshape(logits, [-1, logits.shape[-1]]), api.reshape(labels, [-1])])
    return api.reshape(loss, lead)


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)), written as TF writes it (with `where` on x >= 0) so that
    the gradient at x == 0 is TF's, 0.5 - z."""
    x = api.convert_to_tensor(logits)
    z = api.convert_to_tensor(labels, x.dtype)
    zeros = api.zeros_like(x)
    cond = api.greater_equal(x, zeros)
    relu_logits = api.where(cond, x, zeros)
    neg_abs_logits = api.where(cond, api.negative(x), x)
    return api.add(api.subtract(relu_logits, api.multiply(x, z)), api.log1p(api.exp(neg_abs_logits)))


def bias_add(value, bias, data_format=None, name=None):
    return execute("BiasAdd", [value, bias], {"data_format": data_format or "NHWC"})


bias_add = _fast_ops.bias_add_api(bias_add)


def l2_loss(t, name=None):
    return api.multiply(api.reduce_sum(api.square(t)), 0.5)


def moments(x, axes, shift=None, keepdims=False, name=None):
    x = api.convert_to_tensor(x)
    mean = api.reduce_mean(x, axes, keepdims=True)
    variance = api.reduce_mean(api.squared_difference(x, api.stop_gradient(mean)), axes, keepdims=True)
    if not keepdims:
        mean = api.squeeze(mean, axes)
        variance = api.squeeze(variance, axes)
    return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    inv = api.rsqrt(api.add(variance, variance_epsilon))
    if scale is not None:
        inv = api.multiply(inv, scale)
    shifted = api.subtract(offset, api.multiply(mean, inv)) if offset is not None else api.negative(
        api.multiply(mean, inv))
    return api.add(api.multiply(x, inv), shifted)


def _window(v, n, rank, data_format):
    v = [v] * n if isinstance(v, int) else list(v)
    if len(v) == n:
        v = [1] + v + [1] if not data_format.startswith("NC") else [1, 1] + v
    if len(v) != rank:
        raise ValueError(f"window parameter {v} does not match rank {rank}")
    return tuple(int(x) for x in v)


def _pool(kind, input, ksize, strides, padding, data_format, n):
    x = api.convert_to_tensor(input)
    data_format = data_format or ("NHWC" if n == 2 else "NWC")
    attrs = {"ksize": _window(ksize, n, x.ndim, data_format), "strides": _window(strides, n, x.ndim, data_format),
             "padding": padding.upper(), "data_format": data_format}
    return execute(kind, [x], attrs)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    return _pool("MaxPool", input, ksize, strides, padding, data_format, 2)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    return _pool("AvgPool", input, ksize, strides, padding, data_format, 2)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    x = api.convert_to_tensor(input)
    fmt = data_format or "NHWC"
    pad = padding.upper() if isinstance(padding, str) else "EXPLICIT"
    explicit = () if isinstance(padding, str) else tuple(int(v) for pair in padding for v in pair)
    return execute("Conv2D", [x, filters], {"strides": _window(strides, 2, 4, fmt), "padding": pad,
                                           "data_format": fmt, "dilations": _window(dilations or 1, 2, 4, fmt),
                                           "explicit_paddings": explicit})


max_pool = max_pool2d
avg_pool = avg_pool2d


__all__ = [n for n in dir() if not n.startswith("_") and n not in ("annotations", "math", "np", "Tensor")]
