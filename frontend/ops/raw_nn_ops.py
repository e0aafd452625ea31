"""NN raw ops missing from the registry: FusedBatchNorm/V2/V3 (with TF's gradient, which only uses the
cotangent of `y`) and their gradient ops, the FakeQuant and QuantizeAndDequantize families, the generic
Conv, SparseMatMul, ApproxTopK and XlaConv.

FakeQuant nudges [min, max] so that zero is exactly representable (TF's Nudge: the zero point rounded
half away from zero), clamps, and rounds to the grid; its gradient passes inside the nudged range.
ApproxTopK is exact here (XLA's CPU fallback is a sort too).
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops import nn_ops
from minixla.frontend.ops.raw_xla_ops import xla_conv
from minixla.frontend.ops.registry import op_error, register, register_gradient, shape_text


def _full(b, x, v):
    return b.full(x.shape, v, x.dtype)


# -- FusedBatchNorm -------------------------------------------------------------------------------------

def _bn_axes(x, data_format):
    feat = 1 if data_format.startswith("NC") else len(x.shape) - 1
    return feat, [d for d in range(len(x.shape)) if d != feat]


def _batch_moments(b, x, u, data_format):
    """Per-channel mean and (biased) variance."""
    feat, red = _bn_axes(x, data_format)
    xf = b.convert(x, u)
    n = b.full([x.shape[feat]], int(np.prod([x.shape[d] for d in red])), u)
    m = b.divide(b.reduce(xf, b.scalar(0, u), red, "add"), n)
    d = b.subtract(xf, b.broadcast_in_dim(m, x.shape, [feat]))
    return m, b.divide(b.reduce(b.multiply(d, d), b.scalar(0, u), red, "add"), n)


def _fused_batch_norm(version):
    def rule(b, x, scale, offset, mean, variance, epsilon=1e-4, exponential_avg_factor=1.0, data_format="NHWC",
             is_training=True):
        op = f"FusedBatchNorm{version}"
        if len(x.shape) not in (4, 5):
            raise op_error(op, f"input must be 4 or 5-dimensional{shape_text(x.shape)}")
        feat, red = _bn_axes(x, data_format)
        u = scale.dtype
        xf = b.convert(x, u)
        n = int(np.prod([x.shape[d] for d in red]))

        def per_channel(v):
            return b.broadcast_in_dim(v, x.shape, [feat])

        m, var = _batch_moments(b, x, u, data_format) if is_training else (mean, variance)
        d = b.subtract(xf, per_channel(m))
        inv = b.rsqrt(b.add(var, _full(b, var, epsilon)))
        y = b.add(b.multiply(d, per_channel(b.multiply(inv, scale))), per_channel(offset))
        y = b.convert(y, x.dtype)
        if not is_training:
            outs = [y, mean, variance, mean, variance]
        else:
            corrected = b.multiply(var, _full(b, var, n / max(n - 1, 1)))
            new_mean, new_var = m, corrected
            if exponential_avg_factor != 1.0:
                f = exponential_avg_factor
                new_mean = b.add(b.multiply(mean, _full(b, mean, 1 - f)), b.multiply(m, _full(b, m, f)))
                new_var = b.add(b.multiply(variance, _full(b, variance, 1 - f)), b.multiply(corrected, _full(b, var, f)))
            outs = [y, new_mean, new_var, m, var]
        if version == "V3":
            outs.append(b.full([0], 0, u))
        return tuple(outs)

    @register_gradient(f"FusedBatchNorm{version}")
    def gradient(b, op, dy, *_):
        """TF's _FusedBatchNormGrad: from the cotangent of y only (the statistics' cotangents are ignored)."""
        x, scale = op.inputs[0], op.inputs[1]
        training = op.attrs["is_training"]
        m, var = (op.outputs[3], op.outputs[4]) if training else (op.inputs[3], op.inputs[4])
        dx, d_scale, d_offset = _bn_backprop(b, dy, x, scale, m, var, op.attrs["epsilon"], op.attrs["data_format"],
                                             training)
        return [dx, d_scale, d_offset, None, None]

    return rule


def _bn_backprop(b, dy, x, scale, m, var, eps, fmt, training):
    """(dx, dscale, doffset) of y = (x - m) rsqrt(var + eps) scale + offset, m and var the batch statistics
    when training (so they depend on x too)."""
    feat, red = _bn_axes(x, fmt)
    u = scale.dtype
    xf, g = b.convert(x, u), b.convert(dy, u)
    c = x.shape[feat]

    def per_channel(v):
        return b.broadcast_in_dim(v, x.shape, [feat])

    def total(v):
        return b.reduce(v, b.scalar(0, u), red, "add")

    inv = b.rsqrt(b.add(var, b.full([c], eps, u)))
    xhat = b.multiply(b.subtract(xf, per_channel(m)), per_channel(inv))
    d_offset = total(g)
    d_scale = total(b.multiply(g, xhat))
    if training:
        n = b.full([c], int(np.prod([x.shape[d] for d in red])), u)
        inner = b.subtract(g, per_channel(b.divide(d_offset, n)))
        inner = b.subtract(inner, b.multiply(xhat, per_channel(b.divide(d_scale, n))))
        dx = b.multiply(inner, per_channel(b.multiply(scale, inv)))
    else:
        dx = b.multiply(g, per_channel(b.multiply(scale, inv)))
    return b.convert(dx, x.dtype), d_scale, d_offset


def _fused_batch_norm_grad(version):
    def rule(b, y_backprop, x, scale, reserve_space_1, reserve_space_2, reserve_space_3=None, epsilon=1e-4,
             data_format="NHWC", is_training=True):
        m, var = reserve_space_1, reserve_space_2
        if is_training:  # the batch statistics again, from x: TF's second derivative follows them through x
            m, var = _batch_moments(b, x, scale.dtype, data_format)
        dx, d_scale, d_offset = _bn_backprop(b, y_backprop, x, scale, m, var, epsilon, data_format, is_training)
        empty = b.full([0], 0, scale.dtype)
        return dx, d_scale, d_offset, empty, empty

    return rule


_BN_ATTRS = {"epsilon": 1e-4, "exponential_avg_factor": 1.0, "data_format": "NHWC", "is_training": True}
for _v in ("", "V2", "V3"):
    register(f"FusedBatchNorm{_v}", ("x", "scale", "offset", "mean", "variance"), _fused_batch_norm(_v),
             attrs=_BN_ATTRS, typed=("x",))
    inputs = ("y_backprop", "x", "scale", "reserve_space_1", "reserve_space_2") + (("reserve_space_3",) if _v == "V3"
                                                                                  else ())
    register(f"FusedBatchNormGrad{_v}", inputs, _fused_batch_norm_grad(_v),
             attrs={k: v for k, v in _BN_ATTRS.items() if k != "exponential_avg_factor"}, typed=("y_backprop", "x"))


# -- FakeQuant ------------------------------------------------------------------------------------------

def _nudge(b, lo, hi, num_bits, narrow_range):
    """TF's Nudge on builder scalars/vectors: (nudged_min, nudged_max, scale)."""
    qmin, qmax = (1 if narrow_range else 0), (1 << num_bits) - 1
    scale = b.divide(b.subtract(hi, lo), _full(b, lo, qmax - qmin))
    zp = b.subtract(_full(b, lo, qmin), b.divide(lo, scale))
    rounded = b.multiply(b.sign(zp), b.floor(b.add(b.abs(zp), _full(b, zp, 0.5))))  # half away from zero
    nzp = b.minimum(b.maximum(rounded, _full(b, zp, qmin)), _full(b, zp, qmax))
    return (b.multiply(b.subtract(_full(b, lo, qmin), nzp), scale),
            b.multiply(b.subtract(_full(b, lo, qmax), nzp), scale), scale)


def _spread(b, v, x):
    """A scalar or per-channel (last axis) vector broadcast to x."""
    return b.broadcast_in_dim(v, x.shape, [] if not v.shape else [len(x.shape) - 1])


def _fake_quant(b, x, lo, hi, num_bits, narrow_range):
    nmin, nmax, scale = (_spread(b, v, x) for v in _nudge(b, lo, hi, num_bits, narrow_range))
    clamped = b.minimum(b.maximum(x, nmin), nmax)
    q = b.floor(b.add(b.divide(b.subtract(clamped, nmin), scale), _full(b, x, 0.5)))
    return b.add(b.multiply(q, scale), nmin)


def _inside(b, x, lo, hi, num_bits, narrow_range):
    nmin, nmax, _ = (_spread(b, v, x) for v in _nudge(b, lo, hi, num_bits, narrow_range))
    return b.and_(b.compare(x, nmin, "GE"), b.compare(x, nmax, "LE")), nmin, nmax


def fake_quant_args(b, inputs, min=-6.0, max=6.0, num_bits=8, narrow_range=False):
    if not min < max:
        raise op_error("FakeQuantWithMinMaxArgs", f"min has to be smaller than max, was: {min} >= {max}")
    return _fake_quant(b, inputs, b.scalar(min, inputs.dtype), b.scalar(max, inputs.dtype), num_bits, narrow_range)


def fake_quant_args_grad(b, gradients, inputs, min=-6.0, max=6.0, num_bits=8, narrow_range=False):
    ok, _, _ = _inside(b, inputs, b.scalar(min, inputs.dtype), b.scalar(max, inputs.dtype), num_bits, narrow_range)
    return b.select(ok, gradients, _full(b, gradients, 0))


def fake_quant_vars(b, inputs, min, max, num_bits=8, narrow_range=False):
    return _fake_quant(b, inputs, min, max, num_bits, narrow_range)


def fake_quant_vars_grad(b, gradients, inputs, min, max, num_bits=8, narrow_range=False):
    """(g inside the range, sum of g below it, sum of g above it), per channel for the per-channel op."""
    ok, nmin, nmax = _inside(b, inputs, min, max, num_bits, narrow_range)
    zero = _full(b, gradients, 0)
    dims = list(range(len(inputs.shape) - (1 if min.shape else 0)))

    def total(mask):
        return b.reduce(b.select(mask, gradients, zero), b.scalar(0, gradients.dtype), dims, "add")

    return (b.select(ok, gradients, zero), total(b.compare(inputs, nmin, "LT")), total(b.compare(inputs, nmax, "GT")))


_FQ = {"num_bits": 8, "narrow_range": False}
register("FakeQuantWithMinMaxArgs", ("inputs",), fake_quant_args, attrs={"min": -6.0, "max": 6.0, **_FQ})
register("FakeQuantWithMinMaxArgsGradient", ("gradients", "inputs"), fake_quant_args_grad,
         attrs={"min": -6.0, "max": 6.0, **_FQ})
for _name in ("FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsPerChannel"):
    register(_name, ("inputs", "min", "max"), fake_quant_vars, attrs=_FQ)
    register(f"{_name}Gradient", ("gradients", "inputs", "min", "max"), fake_quant_vars_grad, attrs=_FQ)


@register_gradient("FakeQuantWithMinMaxArgs")
def _fake_quant_args_gradient(b, op, grad):
    return [fake_quant_args_grad(b, grad, op.inputs[0], **op.attrs)]


def _vars_gradient(name):
    @register_gradient(name)
    def rule(b, op, grad):
        x, lo, hi = op.inputs
        return list(fake_quant_vars_grad(b, grad, x, lo, hi, **op.attrs))

    return rule


_vars_gradient("FakeQuantWithMinMaxVars")
_vars_gradient("FakeQuantWithMinMaxVarsPerChannel")


def _not_differentiable(name, n):
    @register_gradient(name)
    def rule(b, op, *grads):
        """TF registers no gradient for the FakeQuant gradient kernels."""
        return [None] * n

    return rule


_not_differentiable("FakeQuantWithMinMaxArgsGradient", 2)
_not_differentiable("FakeQuantWithMinMaxVarsGradient", 4)
_not_differentiable("FakeQuantWithMinMaxVarsPerChannelGradient", 4)


# -- products, top-k, XlaConv -------------------------------------------------------------------------

def sparse_mat_mul(b, a, b_, transpose_a=False, transpose_b=False, a_is_sparse=False, b_is_sparse=False):
    """MatMul (the sparsity flags are hints)."""
    return nn_ops.mat_mul(b, a, b_, transpose_a, transpose_b)


def approx_top_k(b, input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,
                 reduction_input_size_override=-1, aggregate_to_topk=True):
    rank = len(input.shape)
    dim = int(reduction_dimension) % rank
    if not 0 <= k <= input.shape[dim]:
        raise op_error("ApproxTopK", f"k must be in [0, {input.shape[dim]}], got {k}")
    idx = b.iota(input.shape, dim, np.int32)
    vals, order = b.sort([input, idx], dim, key=0, descending=bool(is_max_k))
    limit = list(input.shape)
    limit[dim] = int(k)
    return b.slice(vals, [0] * rank, limit), b.slice(order, [0] * rank, limit)


register("SparseMatMul", ("a", "b"), sparse_mat_mul,
         attrs={"transpose_a": False, "transpose_b": False, "a_is_sparse": False, "b_is_sparse": False}, typed=())
register("ApproxTopK", ("input",), approx_top_k,
         attrs={"k": None, "reduction_dimension": -1, "recall_target": 0.95, "is_max_k": True,
                "reduction_input_size_override": -1, "aggregate_to_topk": True})
register("XlaConv", ("lhs", "rhs", "window_strides", "padding", "lhs_dilation", "rhs_dilation", "feature_group_count"),
         xla_conv, attrs={"dimension_numbers": b"", "precision_config": b""},
         const_inputs=("window_strides", "padding", "lhs_dilation", "rhs_dilation", "feature_group_count"))


def conv(b, input, filter, strides, padding, explicit_paddings=(), data_format="CHANNELS_LAST", dilations=(),
         batch_dims=1, groups=1):
    """TF's generic N-d Conv: leading `batch_dims` folded into one batch, then the Conv2D/Conv3D lowering."""
    from minixla.frontend.ops.conv_ops import conv_nd

    x, w = input, filter
    nsp = len(w.shape) - 2
    if len(x.shape) != nsp + 1 + batch_dims:
        raise op_error("Conv", f"input must have rank {nsp + 1 + batch_dims}, got {shape_text(x.shape)}")
    lead = list(x.shape[:batch_dims])
    x = b.reshape(x, [int(np.prod(lead))] + list(x.shape[batch_dims:]))
    first = data_format == "CHANNELS_FIRST"
    fmt = "NC" + "DHW"[3 - nsp:] if first else "N" + "DHW"[3 - nsp:] + "C"
    # strides, dilations and explicit paddings have nsp + 2 entries (one batch dim), whatever batch_dims is
    dil = list(dilations) if dilations else [1] * (nsp + 2)
    if x.shape[1 if first else nsp + 1] != w.shape[nsp] * groups:
        raise op_error("Conv", f"input depth must be evenly divisible by filter depth * groups: {shape_text(x.shape)}, "
                               f"{shape_text(w.shape)}, groups {groups}")
    out = conv_nd(b, "Conv", x, w, list(strides), padding, fmt, dil, list(explicit_paddings))
    return b.reshape(out, lead + list(out.shape[1:]))


register("Conv", ("input", "filter"), conv,
         attrs={"strides": None, "padding": "VALID", "explicit_paddings": (), "data_format": "CHANNELS_LAST",
                "dilations": (), "batch_dims": 1, "groups": 1})


# -- QuantizeAndDequantize ------------------------------------------------------------------------------

def _qdq_range(b, x, input_min, input_max, range_given, axis):
    """The [min, max] range: given, or the tensor's (per `axis` slice when axis != -1), as x-shaped arrays."""
    rank = len(x.shape)
    ax = None if axis == -1 else axis % rank
    red = [d for d in range(rank) if d != ax]
    kept = [] if ax is None else [ax]
    if range_given:
        lo, hi = input_min, input_max
    else:
        lo = b.reduce(x, b.scalar(np.inf, x.dtype), red, "minimum")
        hi = b.reduce(x, b.scalar(-np.inf, x.dtype), red, "maximum")
    return b.broadcast_in_dim(lo, x.shape, kept), b.broadcast_in_dim(hi, x.shape, kept)


def _quantize_and_dequantize(b, x, input_min, input_max, signed_input, num_bits, range_given, round_mode,
                             narrow_range, axis):
    """TF's kernel: the scale from the side that limits it, the other bound widened to match, then
    round(clamp(x) * scale) / scale (half to even, or half up)."""
    lo, hi = _qdq_range(b, x, input_min, input_max, range_given, axis)
    qmin = -(1 << (num_bits - 1)) + (1 if narrow_range else 0) if signed_input else 0
    qmax = (1 << (num_bits - 1)) - 1 if signed_input else (1 << num_bits) - 1
    big = _full(b, x, np.finfo(x.dtype).max)

    def side(q, r):
        ok = b.compare(b.multiply(_full(b, x, q), r), _full(b, x, 0), "GT")
        return b.select(ok, b.divide(_full(b, x, q), b.select(ok, r, _full(b, x, 1))), big)

    from_min, from_max = side(qmin, lo), side(qmax, hi)
    use_min = b.compare(from_min, from_max, "LT")
    scale = b.select(use_min, from_min, from_max)
    inv = b.select(use_min, b.divide(lo, _full(b, x, qmin if qmin else 1)), b.divide(hi, _full(b, x, qmax)))
    hi = b.select(use_min, b.multiply(_full(b, x, qmax), inv), hi)
    lo = b.select(use_min, lo, b.multiply(_full(b, x, qmin), inv))
    scaled = b.multiply(b.minimum(b.maximum(x, lo), hi), scale)
    rounded = (b.round_nearest_even(scaled) if round_mode == "HALF_TO_EVEN"
               else b.floor(b.add(scaled, _full(b, x, 0.5))))
    return b.multiply(rounded, inv)


def qdq_v2(b, input, input_min, input_max, signed_input=True, num_bits=8, range_given=False,
           round_mode="HALF_TO_EVEN", narrow_range=False, axis=-1):
    return _quantize_and_dequantize(b, input, input_min, input_max, signed_input, num_bits, range_given, round_mode,
                                    narrow_range, axis)


def qdq_v3(b, input, input_min, input_max, num_bits, signed_input=True, range_given=True, narrow_range=False,
           axis=-1):
    return _quantize_and_dequantize(b, input, input_min, input_max, signed_input, int(np.asarray(num_bits)),
                                    range_given, "HALF_TO_EVEN", narrow_range, axis)


_QDQ = {"signed_input": True, "num_bits": 8, "range_given": False, "round_mode": "HALF_TO_EVEN",
        "narrow_range": False, "axis": -1}
register("QuantizeAndDequantizeV2", ("input", "input_min", "input_max"), qdq_v2, attrs=_QDQ)
register("QuantizeAndDequantizeV4", ("input", "input_min", "input_max"), qdq_v2, attrs=_QDQ)
register("QuantizeAndDequantizeV3", ("input", "input_min", "input_max", "num_bits"), qdq_v3,
         attrs={"signed_input": True, "range_given": True, "narrow_range": False, "axis": -1},
         const_inputs=("num_bits",), typed=("input", "input_min", "input_max"))


@register_gradient("QuantizeAndDequantizeV2")
def _qdq_v2_grad(b, op, grad):
    """TF's: the straight-through estimator."""
    return [grad, None, None]


@register_gradient("QuantizeAndDequantizeV3")
def _qdq_v3_grad(b, op, grad):
    return [grad, None, None, None]


@register_gradient("QuantizeAndDequantizeV4")
def _qdq_v4_grad(b, op, grad):
    """TF's QuantizeAndDequantizeV4Grad: the gradient inside [input_min, input_max] (per axis); zeros for
    the bounds (TF's kernel leaves their backprops at zero)."""
    x, lo, hi = op.inputs
    axis = op.attrs["axis"]
    rank = len(x.shape)
    kept = [] if axis == -1 else [axis % rank]
    lo_b, hi_b = b.broadcast_in_dim(lo, x.shape, kept), b.broadcast_in_dim(hi, x.shape, kept)
    inside = b.and_(b.compare(x, lo_b, "GE"), b.compare(x, hi_b, "LE"))
    return [b.select(inside, grad, _full(b, grad, 0)), _full(b, lo, 0), _full(b, hi, 0)]
