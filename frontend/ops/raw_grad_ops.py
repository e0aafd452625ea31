"""TF's gradient kernels as raw ops (ReluGrad, SigmoidGrad, BiasAddGrad, MaxPoolGrad, Conv2DBackpropFilter, ...),
plus the 3-D pools (MaxPool3D, AvgPool3D and their gradients) and LRN/LRNGrad.

TF's own gradient functions emit these; a graph imported from TF or a user of `tf.raw_ops` calls them
directly. Each is the few hlo ops tf2xla lowers it to: elementwise kernels are a select or a product,
pool gradients are `select_and_scatter` (max) or the transposed window sum (average), and the
convolution backprops are the transposed convolutions of XLA's ConvBackpropInput/Filter. Gradients of
these ops are those of their decompositions.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops import nn_ops
from minixla.frontend.ops.conv_ops import _same
from minixla.frontend.ops.registry import broadcast_shape, op_error, register, register_gradient, shape_text

_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _full(b, x, v):
    return b.full(x.shape, v, x.dtype)


def _same_shape(op, a, c):
    if tuple(a.shape) != tuple(c.shape):
        raise op_error(op, f"Incompatible shapes: {shape_text(a.shape)} vs. {shape_text(c.shape)}")


# -- activations: (gradients, features or outputs) -> backprops ---------------------------

def relu_grad(b, gradients, features):
    _same_shape("ReluGrad", gradients, features)
    return b.select(b.compare(features, _full(b, features, 0), "GT"), gradients, _full(b, gradients, 0))


def relu6_grad(b, gradients, features):
    _same_shape("Relu6Grad", gradients, features)
    f = features
    inside = b.and_(b.compare(f, _full(b, f, 0), "GT"), b.compare(f, _full(b, f, 6), "LT"))
    return b.select(inside, gradients, _full(b, gradients, 0))


def elu_grad(b, gradients, outputs):
    """g * (y + 1) where y < 0, else g."""
    _same_shape("EluGrad", gradients, outputs)
    y = outputs
    neg = b.compare(y, _full(b, y, 0), "LT")
    return b.select(neg, b.multiply(gradients, b.add(y, _full(b, y, 1))), gradients)


def selu_grad(b, gradients, outputs):
    """g * (y + scale * alpha) where y < 0, else g * scale."""
    _same_shape("SeluGrad", gradients, outputs)
    y = outputs
    neg = b.compare(y, _full(b, y, 0), "LT")
    return b.select(neg, b.multiply(gradients, b.add(y, _full(b, y, _SELU_SCALE * _SELU_ALPHA))),
                    b.multiply(gradients, _full(b, y, _SELU_SCALE)))


def leaky_relu_grad(b, gradients, features, alpha=0.2):
    _same_shape("LeakyReluGrad", gradients, features)
    f = features
    return b.select(b.compare(f, _full(b, f, 0), "GT"), gradients, b.multiply(gradients, _full(b, f, alpha)))


def softplus_grad(b, gradients, features):
    _same_shape("SoftplusGrad", gradients, features)
    return b.multiply(gradients, b.logistic(features))


def softsign_grad(b, gradients, features):
    """g / (1 + |x|)^2."""
    _same_shape("SoftsignGrad", gradients, features)
    d = b.add(_full(b, features, 1), b.abs(features))
    return b.divide(gradients, b.multiply(d, d))


for _name, _rule in (("ReluGrad", relu_grad), ("Relu6Grad", relu6_grad), ("EluGrad", elu_grad),
                     ("SeluGrad", selu_grad), ("SoftplusGrad", softplus_grad), ("SoftsignGrad", softsign_grad)):
    register(_name, ("gradients", "features"), _rule)
register("LeakyReluGrad", ("gradients", "features"), leaky_relu_grad, attrs={"alpha": 0.2})


def _piecewise_grad(name):
    """TF's ReluGradGrad & co.: the same select applied to the cotangent, and zeros for the features
    (a tape through the compare would give None)."""
    @register_gradient(name)
    def rule(b, op, grad):
        g, f = op.inputs
        return [REGISTRY_RULES[name](b, grad, f, **({"alpha": op.attrs["alpha"]} if "alpha" in op.attrs else {})),
                _full(b, f, 0)]

    return rule


REGISTRY_RULES = {"ReluGrad": relu_grad, "Relu6Grad": relu6_grad, "LeakyReluGrad": leaky_relu_grad}
for _name in REGISTRY_RULES:
    _piecewise_grad(_name)


# -- (y, dy) -> z: the derivative written in terms of the forward output --------------------

def sigmoid_grad(b, y, dy):
    return b.multiply(dy, b.multiply(y, b.subtract(_full(b, y, 1), y)))


def tanh_grad(b, y, dy):
    return b.multiply(dy, b.subtract(_full(b, y, 1), b.multiply(y, y)))


def sqrt_grad(b, y, dy):
    return b.divide(b.multiply(dy, _full(b, y, 0.5)), y)


def rsqrt_grad(b, y, dy):
    """dy * -0.5 * y^3."""
    return b.multiply(b.multiply(dy, _full(b, y, -0.5)), b.multiply(y, b.multiply(y, y)))


def reciprocal_grad(b, y, dy):
    return b.multiply(b.negate(dy), b.multiply(y, y))


for _name, _rule in (("SigmoidGrad", sigmoid_grad), ("TanhGrad", tanh_grad), ("SqrtGrad", sqrt_grad),
                     ("RsqrtGrad", rsqrt_grad), ("ReciprocalGrad", reciprocal_grad), ("InvGrad", reciprocal_grad)):
    register(_name, ("y", "dy"), _rule)


# -- reductions ---------------------------------------------------------------------------------

def bias_add_grad(b, out_backprop, data_format="NHWC"):
    """The sum over every dimension but the feature one."""
    g = out_backprop
    rank = len(g.shape)
    if rank < 2:
        raise op_error("BiasAddGrad", f"Input tensor must be at least 2D: {shape_text(g.shape)}")
    axis = 1 if data_format.startswith("NC") else rank - 1
    return b.reduce(g, b.scalar(0, g.dtype), [d for d in range(rank) if d != axis], "add")


def l2_loss(b, t):
    """sum(t^2) / 2."""
    s = b.reduce(b.multiply(t, t), b.scalar(0, t.dtype), list(range(len(t.shape))), "add")
    return b.multiply(s, b.scalar(0.5, t.dtype))


register("BiasAddGrad", ("out_backprop",), bias_add_grad, attrs={"data_format": "NHWC"})
register("L2Loss", ("t",), l2_loss)


# -- pooling ----------------------------------------------------------------------------------

def _pool_pads(op, shape, ksize, strides, padding):
    ksize, strides = [int(k) for k in np.asarray(ksize).reshape(-1)], [int(s) for s in np.asarray(strides).reshape(-1)]
    if len(ksize) != len(shape) or len(strides) != len(shape):
        raise op_error(op, "Sliding window ksize and strides must have one entry per input dimension")
    if padding == "SAME":
        pads = [_same(n, k, s, 1) for n, k, s in zip(shape, ksize, strides)]
    else:
        pads = [(0, 0)] * len(shape)
    return ksize, strides, pads


def _max_pool_grad(op):
    def rule(b, orig_input, orig_output, grad, ksize, strides, padding, data_format="NHWC",
             explicit_paddings=()):
        if data_format not in ("NHWC", "NDHWC"):
            raise op_error(op, f"Default {op} only supports {'NDHWC' if '3D' in op else 'NHWC'} on device type CPU")
        ksize, strides, pads = _pool_pads(op, orig_input.shape, ksize, strides, padding)
        return b.select_and_scatter(orig_input, grad, b.scalar(0, grad.dtype), ksize, strides, pads, "GE", "add")

    return rule


def window_sum_transpose(b, g, in_shape, window, strides, padding):
    """The transpose of a windowed sum: g spread back over every input element of its windows."""
    ones = [1] * len(in_shape)
    out_d = [0 if n == 0 else 1 + s * (n - 1) for n, s in zip(g.shape, strides)]
    before = [w - lo - 1 for w, (lo, _) in zip(window, padding)]
    after = [n + w - 1 - o - bf for n, w, o, bf in zip(in_shape, window, out_d, before)]
    padded = b.pad(g, b.scalar(0, g.dtype), before, after, [s - 1 for s in strides])
    return b.reduce_window(padded, b.scalar(0, g.dtype), window, ones, [(0, 0)] * len(ones), "add")


def avg_pool_grad(b, orig_input_shape, grad, ksize, strides, padding, data_format="NHWC"):
    """grad / (window's in-bounds count), spread back over the windows (AvgPoolGrad, AvgPool3DGrad)."""
    op = "AvgPoolGrad" if len(grad.shape) == 4 else "AvgPool3DGrad"
    shape = [int(v) for v in np.asarray(orig_input_shape).reshape(-1)]
    if len(shape) != len(grad.shape) or len(shape) not in (4, 5):
        raise op_error(op, f"orig_input_shape must be 1-dimensional and {len(grad.shape)} elements")
    if data_format not in ("NHWC", "NDHWC"):
        raise op_error(op, f"Default {op} only supports channels-last data on device type CPU")
    ksize, strides, pads = _pool_pads(op, shape, ksize, strides, padding)
    if padding == "SAME":
        ones = b.full(shape, 1, grad.dtype)
        count = b.reduce_window(ones, b.scalar(0, grad.dtype), ksize, strides, pads, "add")
    else:
        count = b.full(grad.shape, int(np.prod(ksize)), grad.dtype)
    return window_sum_transpose(b, b.divide(grad, count), shape, ksize, strides, pads)


def _max_pool_grad_grad(b, x, ct, window, strides, pads):
    """MaxPoolGradGrad: per window, the cotangent at the element MaxPoolGrad picked (the first maximum)."""
    lows, highs = [lo for lo, _ in pads], [hi for _, hi in pads]
    xp = b.pad(x, b.scalar(-np.inf, x.dtype), lows, highs)
    gp = b.pad(ct, b.scalar(0, ct.dtype), lows, highs)
    out = [(n + lo + hi - w) // s + 1 for n, w, s, (lo, hi) in zip(x.shape, window, strides, pads)]
    best_x = best_g = None
    for offsets in np.ndindex(*window):
        limit = [o + (n - 1) * s + 1 for o, n, s in zip(offsets, out, strides)]
        cx, cg = b.slice(xp, list(offsets), limit, strides), b.slice(gp, list(offsets), limit, strides)
        if best_x is None:
            best_x, best_g = cx, cg
            continue
        take = b.compare(cx, best_x, "GT")
        best_x, best_g = b.select(take, cx, best_x), b.select(take, cg, best_g)
    return best_g


def _max_pool_grad_gradient(name):
    @register_gradient(name)
    def rule(b, op, ct):
        x, y = op.inputs[0], op.inputs[1]
        ksize = op.inputs[3] if name == "MaxPoolGradV2" else op.attrs["ksize"]
        strides = op.inputs[4] if name == "MaxPoolGradV2" else op.attrs["strides"]
        ksize, strides, pads = _pool_pads(name, x.shape, ksize, strides, op.attrs["padding"])
        out = [_full(b, x, 0), _full(b, y, 0), _max_pool_grad_grad(b, x, ct, ksize, strides, pads)]
        return out + [None, None] if name == "MaxPoolGradV2" else out

    return rule


_POOL_ATTRS = {"ksize": None, "strides": None, "padding": "VALID", "data_format": "NHWC"}
register("MaxPoolGrad", ("orig_input", "orig_output", "grad"), _max_pool_grad("MaxPoolGrad"),
         attrs={**_POOL_ATTRS, "explicit_paddings": ()})
register("MaxPoolGradV2", ("orig_input", "orig_output", "grad", "ksize", "strides"), _max_pool_grad("MaxPoolGradV2"),
         attrs={"padding": "VALID", "data_format": "NHWC"}, const_inputs=("ksize", "strides"),
         typed=("orig_input", "orig_output", "grad"))
_max_pool_grad_gradient("MaxPoolGrad")
_max_pool_grad_gradient("MaxPoolGradV2")


def _max_pool_grad_grad_op(op):
    def rule(b, orig_input, orig_output, grad, ksize, strides, padding, data_format="NHWC"):
        ksize, strides, pads = _pool_pads(op, orig_input.shape, ksize, strides, padding)
        return _max_pool_grad_grad(b, orig_input, grad, ksize, strides, pads)

    @register_gradient(op)
    def gradient(b, gop, ct):
        """TF's: zeros for the pool's input and output, MaxPoolGrad of the cotangent for `grad`."""
        x, y = gop.inputs[0], gop.inputs[1]
        ksize = gop.inputs[3] if op.endswith("V2") else gop.attrs["ksize"]
        strides = gop.inputs[4] if op.endswith("V2") else gop.attrs["strides"]
        ksize, strides, pads = _pool_pads(op, x.shape, ksize, strides, gop.attrs["padding"])
        g = b.select_and_scatter(x, ct, b.scalar(0, ct.dtype), ksize, strides, pads, "GE", "add")
        return [_full(b, x, 0), _full(b, y, 0), g] + ([None, None] if op.endswith("V2") else [])

    return rule


def _pool3d(kind):
    def rule(b, input, ksize, strides, padding, data_format="NDHWC"):
        if len(input.shape) != 5 or data_format != "NDHWC":
            raise op_error(f"{kind}3D", f"{kind}3D needs a 5-D NDHWC input, got {shape_text(input.shape)}")
        return nn_ops._pool(kind)(b, input, list(ksize), list(strides), padding, data_format)

    return rule


_POOL3D_ATTRS = {"ksize": None, "strides": None, "padding": "VALID", "data_format": "NDHWC"}
register("MaxPoolGradGrad", ("orig_input", "orig_output", "grad"), _max_pool_grad_grad_op("MaxPoolGradGrad"),
         attrs={"ksize": None, "strides": None, "padding": "VALID", "data_format": "NHWC"})
register("MaxPoolGradGradV2", ("orig_input", "orig_output", "grad", "ksize", "strides"),
         _max_pool_grad_grad_op("MaxPoolGradGradV2"), attrs={"padding": "VALID", "data_format": "NHWC"},
         const_inputs=("ksize", "strides"), typed=("orig_input", "orig_output", "grad"))
register("MaxPool3DGradGrad", ("orig_input", "orig_output", "grad"), _max_pool_grad_grad_op("MaxPool3DGradGrad"),
         attrs=_POOL3D_ATTRS)
register("MaxPool3D", ("input",), _pool3d("MaxPool"), attrs=_POOL3D_ATTRS)
register("AvgPool3D", ("input",), _pool3d("AvgPool"), attrs=_POOL3D_ATTRS)
register("MaxPool3DGrad", ("orig_input", "orig_output", "grad"), _max_pool_grad("MaxPool3DGrad"),
         attrs=_POOL3D_ATTRS, typed=("grad",))
_max_pool_grad_gradient("MaxPool3DGrad")
register("AvgPool3DGrad", ("orig_input_shape", "grad"), avg_pool_grad, attrs=_POOL3D_ATTRS,
         const_inputs=("orig_input_shape",), typed=("grad",))


# -- local response normalization ------------------------------------------------------------------

def _depth_window_sum(b, x, r):
    """sum over x[..., c - r : c + r + 1] (clipped at the edges) for every channel c."""
    rank = len(x.shape)
    window = [1] * (rank - 1) + [2 * r + 1]
    pads = [(0, 0)] * (rank - 1) + [(r, r)]
    return b.reduce_window(x, b.scalar(0, x.dtype), window, [1] * rank, pads, "add")


def lrn(b, input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    """x / (bias + alpha * sum of squares over the depth window)^beta."""
    x = input
    if len(x.shape) != 4:
        raise op_error("LRN", f"input must be 4-dimensional, got {shape_text(x.shape)}")
    norm = b.add(_full(b, x, bias), b.multiply(_full(b, x, alpha), _depth_window_sum(b, b.multiply(x, x), depth_radius)))
    return b.multiply(x, b.power(norm, _full(b, x, -beta)))


def lrn_grad(b, input_grads, input_image, output_image, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    """g N^-beta - 2 alpha beta x * window_sum(g y / N) with N the LRN denominator (the window is symmetric)."""
    g, x, y = input_grads, input_image, output_image
    norm = b.add(_full(b, x, bias), b.multiply(_full(b, x, alpha), _depth_window_sum(b, b.multiply(x, x), depth_radius)))
    direct = b.multiply(g, b.power(norm, _full(b, x, -beta)))
    cross = _depth_window_sum(b, b.divide(b.multiply(g, y), norm), depth_radius)
    return b.subtract(direct, b.multiply(_full(b, x, 2 * alpha * beta), b.multiply(x, cross)))


_LRN_ATTRS = {"depth_radius": 5, "bias": 1.0, "alpha": 1.0, "beta": 0.5}
register("LRN", ("input",), lrn, attrs=_LRN_ATTRS)
register("LRNGrad", ("input_grads", "input_image", "output_image"), lrn_grad, attrs=_LRN_ATTRS)
register("AvgPoolGrad", ("orig_input_shape", "grad"), avg_pool_grad, attrs=_POOL_ATTRS,
         const_inputs=("orig_input_shape",), typed=("grad",))


# -- convolution backprops -----------------------------------------------------------------------

def _conv_geometry(op, in_shape, k_shape, g_shape, strides, padding, data_format, dilations, explicit_paddings):
    """Spatial dims, feature dim, strides, dilations and TF's (low, high) pads of a forward convolution."""
    nsp = len(in_shape) - 2
    if len(k_shape) != nsp + 2 or len(g_shape) != nsp + 2:
        raise op_error(op, f"input, filter and out_backprop must be {nsp + 2}-dimensional: {shape_text(in_shape)}, "
                           f"{shape_text(k_shape)}, {shape_text(g_shape)}")
    cf = data_format.startswith("NC")
    sp = tuple(range(2, 2 + nsp)) if cf else tuple(range(1, 1 + nsp))
    feat = 1 if cf else nsp + 1
    s = [int(strides[d]) for d in sp]
    dil = [int(dilations[d]) for d in sp]
    pads = []
    for i, d in enumerate(sp):
        n, k, o = in_shape[d], k_shape[i], g_shape[d]
        if padding == "SAME":
            lo, hi = _same(n, k, s[i], dil[i])
        elif padding == "EXPLICIT":
            lo, hi = int(explicit_paddings[2 * d]), int(explicit_paddings[2 * d + 1])
        else:
            lo, hi = 0, 0
        span = (k - 1) * dil[i] + 1
        want = (n + lo + hi - span) // s[i] + 1 if n + lo + hi >= span else 0
        if want != o:
            raise op_error(op, f"Size of out_backprop doesn't match computed: actual = {o}, computed = {want} "
                               f"spatial_dim: {d} input: {n} filter: {k} output: {o} stride: {s[i]} "
                               f"dilation: {dil[i]}")
        pads.append((lo, hi))
    return nsp, sp, feat, s, dil, pads


def _backprop_input(op, depthwise=False):
    def rule(b, input_sizes, filter, out_backprop, strides, padding, data_format="NHWC", dilations=None,
             explicit_paddings=(), use_cudnn_on_gpu=True):
        w, g = filter, out_backprop
        sizes = [int(v) for v in np.asarray(input_sizes).reshape(-1)]
        dilations = dilations or (1,) * len(sizes)
        nsp, sp, feat, s, dil, pads = _conv_geometry(op, sizes, w.shape, g.shape, strides, padding, data_format,
                                                     dilations, explicit_paddings)
        c = sizes[feat]
        if depthwise:  # [k..., c, m] -> one group per input channel, c*m outputs
            w = b.reshape(w, list(w.shape[:nsp]) + [1, c * w.shape[nsp + 1]])
        groups = c // w.shape[nsp]
        # kernel [k..., c/groups, out] -> [k..., c, out/groups] (JAX's reshape_axis_out_of/into)
        if groups > 1:
            o = w.shape[nsp + 1]
            w = b.reshape(w, list(w.shape[:nsp]) + [w.shape[nsp], groups, o // groups])
            w = b.transpose(w, list(range(nsp)) + [nsp + 1, nsp, nsp + 2])
            w = b.reshape(w, list(w.shape[:nsp]) + [c, o // groups])
        before, after = [], []
        for i, d in enumerate(sp):
            span = (w.shape[i] - 1) * dil[i] + 1
            out_d = (g.shape[d] - 1) * s[i] + 1
            before.append(span - pads[i][0] - 1)
            after.append(sizes[d] + span - 1 - out_d - before[-1])
        ksp = tuple(range(nsp))
        dn = (0, feat, sp, nsp + 1, nsp, ksp, 0, feat, sp)
        return b.convolution(g, b.reverse(w, list(ksp)), (1,) * nsp, list(zip(before, after)), s, dil, dn,
                             feature_group_count=groups)

    return rule


def _backprop_filter(op, depthwise=False):
    def rule(b, input, filter_sizes, out_backprop, strides, padding, data_format="NHWC", dilations=None,
             explicit_paddings=(), use_cudnn_on_gpu=True):
        x, g = input, out_backprop
        ksizes = [int(v) for v in np.asarray(filter_sizes).reshape(-1)]
        dilations = dilations or (1,) * len(x.shape)
        nsp, sp, feat, s, dil, pads = _conv_geometry(op, x.shape, ksizes, g.shape, strides, padding, data_format,
                                                     dilations, explicit_paddings)
        groups = x.shape[feat] // ksizes[nsp] if not depthwise else x.shape[feat]
        hi = []
        for i, d in enumerate(sp):
            span = (ksizes[i] - 1) * dil[i] + 1
            out_d = (g.shape[d] - 1) * s[i] + 1
            hi.append(out_d - x.shape[d] + span - pads[i][0] - 1)
        # features play the batch role: out[k..., in, out] = sum over batch and positions
        dn = (feat, 0, sp, 0, feat, sp, nsp, nsp + 1, tuple(range(nsp)))
        out = b.convolution(x, g, dil, [(lo, h) for (lo, _), h in zip(pads, hi)], (1,) * nsp, s, dn,
                            batch_group_count=groups)
        return b.reshape(out, ksizes)

    return rule


_CONV_ATTRS = {"strides": None, "padding": "VALID", "data_format": "NHWC", "dilations": (1, 1, 1, 1),
               "explicit_paddings": ()}
_CONV3D_ATTRS = {"strides": None, "padding": "VALID", "data_format": "NDHWC", "dilations": (1,) * 5}
register("Conv2DBackpropFilter", ("input", "filter_sizes", "out_backprop"), _backprop_filter("Conv2DBackpropFilter"),
         attrs={**_CONV_ATTRS, "use_cudnn_on_gpu": True}, const_inputs=("filter_sizes",),
         typed=("input", "out_backprop"))
register("DepthwiseConv2dNativeBackpropInput", ("input_sizes", "filter", "out_backprop"),
         _backprop_input("DepthwiseConv2dNativeBackpropInput", depthwise=True), attrs=_CONV_ATTRS,
         const_inputs=("input_sizes",), typed=("filter", "out_backprop"))
register("DepthwiseConv2dNativeBackpropFilter", ("input", "filter_sizes", "out_backprop"),
         _backprop_filter("DepthwiseConv2dNativeBackpropFilter", depthwise=True), attrs=_CONV_ATTRS,
         const_inputs=("filter_sizes",), typed=("input", "out_backprop"))
register("Conv3DBackpropInputV2", ("input_sizes", "filter", "out_backprop"), _backprop_input("Conv3DBackpropInputV2"),
         attrs=_CONV3D_ATTRS, const_inputs=("input_sizes",), typed=("filter", "out_backprop"))
register("Conv3DBackpropFilterV2", ("input", "filter_sizes", "out_backprop"),
         _backprop_filter("Conv3DBackpropFilterV2"), attrs=_CONV3D_ATTRS, const_inputs=("filter_sizes",),
         typed=("input", "out_backprop"))


# -- shape arithmetic of gradients (all const) -------------------------------------------------

def broadcast_gradient_args(b, s0, s1):
    """The axes each side's gradient must be summed over to undo a broadcast of s0 against s1."""
    a, c = [int(v) for v in np.asarray(s0).reshape(-1)], [int(v) for v in np.asarray(s1).reshape(-1)]
    out = broadcast_shape("BroadcastGradientArgs", a, c)
    n = len(out)
    pa, pc = [1] * (n - len(a)) + a, [1] * (n - len(c)) + c
    # TF's BCast: a side reduces every axis where it is 1 (or missing), also where the other side is 1 too
    r0 = [i for i in range(n) if pa[i] == 1]
    r1 = [i for i in range(n) if pc[i] == 1]
    dt = np.asarray(s0).dtype
    return b.constant(np.array(r0, dt)), b.constant(np.array(r1, dt))


def concat_offset(b, concat_dim, shape):
    """Each input's offset in the concatenation: the running sum of the shapes along `concat_dim`
    (built from the shape vectors, which need not be constants)."""
    rank = shape[0].shape[0] if shape[0].shape else 0
    dim = int(np.asarray(concat_dim))
    if not -rank <= dim < rank:
        raise op_error("ConcatOffset", f"Concat dim is out of range: {dim} vs. {rank}")
    dim %= rank
    for i, s in enumerate(shape):
        if tuple(s.shape) != (rank,):
            raise op_error("ConcatOffset", f"input {i} should contain {rank} elements, but got {shape_text(s.shape)}")
    dt = shape[0].dtype
    at_dim = b.compare(b.iota([rank], 0, np.int32), b.full([rank], dim, np.int32), "EQ")
    acc, outs = b.full([rank], 0, dt), []
    for s in shape:
        outs.append(b.select(at_dim, acc, b.full([rank], 0, dt)))
        acc = b.add(acc, s)
    return tuple(outs)


register("BroadcastGradientArgs", ("s0", "s1"), broadcast_gradient_args, const_inputs=("s0", "s1"))
register("ConcatOffset", ("concat_dim", "*shape"), concat_offset, const_inputs=("concat_dim",), typed=("shape",))
