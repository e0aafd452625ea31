"""Neural-network ops (category 8) and matrix products (category 7).

Softmax-style ops subtract the max first (as tf2xla does) so they never
overflow; pooling lowers to `reduce_window` with TF's SAME/VALID padding.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import broadcast_shape, is_float, op_error, register, register_gradient, shape_text


def _full(b, x, v):
    return b.full(x.shape, v, x.dtype)


# Gradients are mostly those of the decompositions (the tape differentiates hlo
# ops), so operand order and branch shapes below are chosen to give TF's
# EluGrad / SeluGrad values at the kinks: the exponential branch only ever sees
# min(x, 0) so that its zero cotangent never meets exp(+inf). Relu and Relu6
# register TF's own gradients (ReluGrad / Relu6Grad, as tf2xla lowers them): a
# max/min VJP cannot give 0 at a NaN input, where the comparison is false.


def relu(b, features):
    """max(0, x), as tf2xla."""
    return b.maximum(_full(b, features, 0), features)


def relu6(b, features):
    """min(6, max(0, x))."""
    x = b.maximum(_full(b, features, 0), features)
    return b.minimum(_full(b, features, 6), x)


@register_gradient("Relu")
def relu_grad(b, op, grad):
    """TF's ReluGrad: select(x > 0, g, 0), so 0 at x == 0 and at NaN."""
    x = op.inputs[0]
    zero = _full(b, x, 0)
    return [b.select(b.compare(x, zero, "GT"), grad, zero)]


@register_gradient("Relu6")
def relu6_grad(b, op, grad):
    """TF's Relu6Grad: select(0 < x < 6, g, 0), so 0 at both kinks and at NaN."""
    x = op.inputs[0]
    zero = _full(b, x, 0)
    inside = b.and_(b.compare(x, zero, "GT"), b.compare(x, _full(b, x, 6), "LT"))
    return [b.select(inside, grad, zero)]


def leaky_relu(b, features, alpha=0.2):
    x = features
    return b.select(b.compare(x, _full(b, x, 0), "GT"), x, b.multiply(x, _full(b, x, alpha)))


def elu(b, features):
    """x < 0 ? expm1(min(x, 0)) : x. TF's EluGrad is g where y >= 0 (also for NaN and +inf inputs) and
    g * (y + 1) below: NaN takes the `x` branch, and the unselected expm1 never sees +inf (0 * inf = NaN)."""
    x = features
    zero = _full(b, x, 0)
    return b.select(b.compare(x, zero, "LT"), b.exponential_minus_one(b.minimum(x, zero)), x)


def selu(b, features):
    """Same branch structure as `elu` (TF's SeluGrad: scale * g at x == 0)."""
    x = features
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    zero = _full(b, x, 0)
    neg = b.multiply(_full(b, x, alpha * scale), b.exponential_minus_one(b.minimum(x, zero)))
    return b.select(b.compare(x, zero, "LT"), neg, b.multiply(x, _full(b, x, scale)))


def softsign(b, features):
    x = features
    return b.divide(x, b.add(b.abs(x), _full(b, x, 1)))


for _name, _rule in (("Relu", relu), ("Relu6", relu6), ("Elu", elu), ("Selu", selu), ("Softsign", softsign)):
    register(_name, ("features",), _rule)
register("LeakyRelu", ("features",), leaky_relu, attrs={"alpha": 0.2})


def bias_add(b, value, bias, data_format="NHWC"):
    x = value
    rank = len(x.shape)
    axis = 1 if data_format.startswith("NC") and rank > 2 else rank - 1
    if len(bias.shape) != 1 or bias.shape[0] != x.shape[axis]:
        raise op_error("BiasAdd", f"Must provide as many biases as the last dimension of the input tensor: "
                                  f"{shape_text(bias.shape)} vs. {shape_text(x.shape)}")
    return b.add(x, b.broadcast_in_dim(bias, x.shape, [axis]))


register("BiasAdd", ("value", "bias"), bias_add, attrs={"data_format": "NHWC"})


def _last_axis_reduce(b, x, combiner, init):
    rank = len(x.shape)
    r = b.reduce(x, b.scalar(init, x.dtype), [rank - 1], combiner)
    return b.broadcast_in_dim(r, x.shape, list(range(rank - 1)))


def _shifted(b, logits):
    return b.subtract(logits, _last_axis_reduce(b, logits, "maximum", -np.inf))


def softmax(b, logits):
    e = b.exponential(_shifted(b, logits))
    return b.divide(e, _last_axis_reduce(b, e, "add", 0))


def log_softmax(b, logits):
    s = _shifted(b, logits)
    return b.subtract(s, b.log(_last_axis_reduce(b, b.exponential(s), "add", 0)))


register("Softmax", ("logits",), softmax)
register("LogSoftmax", ("logits",), log_softmax)


def softmax_xent(b, features, labels):
    """(loss, backprop) = (-sum(labels * log_softmax), softmax - labels)."""
    features, labels = [b.broadcast_to(t, broadcast_shape("SoftmaxCrossEntropyWithLogits", features.shape,
                                                          labels.shape)) for t in (features, labels)]
    if len(features.shape) != 2:
        raise op_error("SoftmaxCrossEntropyWithLogits", f"logits and labels must be 2-D, but got shapes "
                                                        f"{shape_text(features.shape)} and {shape_text(labels.shape)}")
    lsm = log_softmax(b, features)
    rank = len(features.shape)
    loss = b.negate(b.reduce(b.multiply(labels, lsm), b.scalar(0, features.dtype), [rank - 1], "add"))
    return loss, b.subtract(b.exponential(lsm), labels)


def sparse_softmax_xent(b, features, labels):
    n, k = features.shape
    if tuple(labels.shape) != (n,):
        raise op_error("SparseSoftmaxCrossEntropyWithLogits",
                       f"logits and labels must have the same first dimension, got logits shape "
                       f"{shape_text(features.shape)} and labels shape {shape_text(labels.shape)}")
    hot = b.compare(b.broadcast_in_dim(labels, [n, k], [0]), b.iota([n, k], 1, labels.dtype), "EQ")
    dense = b.select(hot, b.full([n, k], 1, features.dtype), b.full([n, k], 0, features.dtype))
    return softmax_xent(b, features, dense)


register("SoftmaxCrossEntropyWithLogits", ("features", "labels"), softmax_xent)
register("SparseSoftmaxCrossEntropyWithLogits", ("features", "labels"), sparse_softmax_xent, typed=("features",))


def _matmul_result_dtype(x):
    return x.dtype


def mat_mul(b, a, b_, transpose_a=False, transpose_b=False):
    if len(a.shape) != 2 or len(b_.shape) != 2:
        raise op_error("MatMul", f"In[0] and In[1] has different ndims: {shape_text(a.shape)} vs. "
                                 f"{shape_text(b_.shape)}" if len(a.shape) != len(b_.shape)
                       else f"In[0] is not a matrix. Instead it has shape {shape_text(a.shape)}")
    ka = a.shape[0] if transpose_a else a.shape[1]
    kb = b_.shape[1] if transpose_b else b_.shape[0]
    if ka != kb:
        raise op_error("MatMul", f"Matrix size-incompatible: In[0]: {shape_text(a.shape)}, In[1]: "
                                 f"{shape_text(b_.shape)}")
    return b.dot_general(a, b_, ([0 if transpose_a else 1], [1 if transpose_b else 0]))


register("MatMul", ("a", "b"), mat_mul, attrs={"transpose_a": False, "transpose_b": False})


def batch_mat_mul(b, x, y, adj_x=False, adj_y=False):
    """Broadcast the batch dims, then one dot_general with batching dims."""
    if len(x.shape) < 2 or len(y.shape) < 2:
        raise op_error("BatchMatMulV2", f"In[0] and In[1] must have rank >= 2: {shape_text(x.shape)} vs. "
                                        f"{shape_text(y.shape)}")
    batch = broadcast_shape("BatchMatMulV2", x.shape[:-2], y.shape[:-2])
    x = b.broadcast_to(x, batch + tuple(x.shape[-2:]))
    y = b.broadcast_to(y, batch + tuple(y.shape[-2:]))
    r = len(batch)
    kx = r if adj_x else r + 1
    ky = r + 1 if adj_y else r
    if x.shape[kx] != y.shape[ky]:
        raise op_error("BatchMatMulV2", f"Matrix size-incompatible: In[0]: {shape_text(x.shape)}, In[1]: "
                                        f"{shape_text(y.shape)}")
    return b.dot_general(x, y, ([kx], [ky]), (list(range(r)), list(range(r))))


register("BatchMatMulV2", ("x", "y"), batch_mat_mul, attrs={"adj_x": False, "adj_y": False})


def _same_padding(n, k, s):
    out = -(-n // s)
    total = max((out - 1) * s + k - n, 0)
    return total // 2, total - total // 2


def _pool(kind: str):
    def rule(b, input, ksize, strides, padding, data_format="NHWC"):
        x = input
        if len(ksize) != len(x.shape) or len(strides) != len(x.shape):
            raise op_error(kind, "Sliding window ksize and strides must have one entry per input dimension")
        pads = ([_same_padding(n, k, s) for n, k, s in zip(x.shape, ksize, strides)] if padding == "SAME"
                else [(0, 0)] * len(x.shape))
        if kind == "MaxPool":
            init = -np.inf if is_float(x.dtype) else np.iinfo(x.dtype).min
            return b.reduce_window(x, b.scalar(init, x.dtype), ksize, strides, pads, "maximum")
        total = b.reduce_window(x, b.scalar(0, x.dtype), ksize, strides, pads, "add")
        if padding == "SAME":  # divide by the number of in-bounds elements of each window
            ones = b.full(x.shape, 1, x.dtype)
            count = b.reduce_window(ones, b.scalar(0, x.dtype), ksize, strides, pads, "add")
            return b.divide(total, count)
        return b.divide(total, b.full(total.shape, int(np.prod(ksize)), x.dtype))

    return rule


for _kind in ("MaxPool", "AvgPool"):
    register(_kind, ("input",), _pool(_kind),
             attrs={"ksize": (1, 1, 1, 1), "strides": (1, 1, 1, 1), "padding": "VALID", "data_format": "NHWC"})
