"""The rest of `tf.nn` (issue #14) written over existing ops, so that eager, tf.function, jit and
gradients all follow from the decomposition: 1-D/3-D pools and `pool`, transposed and atrous
convolutions (3-D transposes as a zero-interleaved input convolved with the flipped filter),
separable and depthwise-backprop convolutions, space/depth/batch rearrangements (reshape +
transpose), morphological dilation/erosion and max_pool_with_argmax (one shifted slice per window
offset), LRN, moments helpers and small losses. CTC lives in nn_ctc.py."""

from __future__ import annotations

import numpy as np

from minixla.frontend.api import (nn as _nn, nn_conv_image as _conv, nn_ctc as _nn_ctc,
                                  nn_fractional as _nn_fractional, nn_rnn_wrappers as _nn_rnn_wrappers,
                                  nn_sampled as _nn_sampled)

tf = None  # the public `tf` module, set by install()


def _channels_first(data_format) -> bool:
    return bool(data_format) and data_format.startswith("NC")


# -- pools -------------------------------------------------------------------------------------

def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002 -- TF's names
    return _nn._pool("MaxPool", input, ksize, strides, padding, data_format or "NWC", 1)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _nn._pool("AvgPool", input, ksize, strides, padding, data_format or "NWC", 1)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _nn._pool("MaxPool", input, ksize, strides, padding, data_format or "NDHWC", 3)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _nn._pool("AvgPool", input, ksize, strides, padding, data_format or "NDHWC", 3)


def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,  # noqa: A002
         dilations=None, name=None):
    """N-d max/avg pooling; dilated windows go through with_space_to_batch, as in TF."""
    n = len(window_shape)
    if n not in (1, 2, 3):
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: window_shape={window_shape}")
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"`pooling_type` must be either 'MAX' or 'AVG'. Received: pooling_type={pooling_type}")
    strides = [1] * n if strides is None else list(strides)
    dilations = [1] * n if dilations is None else list(dilations)
    if any(s > 1 for s in strides) and any(d > 1 for d in dilations):
        raise ValueError(f"`strides` > window shape stride 1 requires that `dilations` be 1. Received: "
                         f"strides={strides}, dilations={dilations}")
    fmt = data_format or {1: "NWC", 2: "NHWC", 3: "NDHWC"}[n]
    kind = "MaxPool" if pooling_type == "MAX" else "AvgPool"

    def op(x, _num_spatial, pad):
        return _nn._pool(kind, x, list(window_shape), strides, pad, fmt, n)

    if all(d == 1 for d in dilations):
        return op(tf.convert_to_tensor(input), n, padding.upper())
    if padding.upper() == "SAME":
        raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. Received: "
                         f"padding={padding} and dilation_rate={dilations}")
    if _channels_first(fmt):
        raise NotImplementedError("tf.nn.pool with dilations and a channels-first data_format is not implemented "
                                  "in minixla")
    return with_space_to_batch(input, dilations, padding, op, filter_shape=window_shape)


# -- convolutions ------------------------------------------------------------------------------

def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    return _conv._conv3d(input, filters, strides, padding, data_format, dilations)


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    first = _channels_first(data_format)
    if data_format not in (None, "NWC", "NCW"):
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
    axis = 2 if first else 1
    shape = [int(d) for d in output_shape]
    shape.insert(axis, 1)
    x = tf.expand_dims(input, axis)
    w = tf.expand_dims(filters, 0)
    s = _conv._seq(strides, 1, 1 if first else 2, "strides")
    d = _conv._seq(dilations, 1, 1 if first else 2, "dilations")
    s.insert(axis, 1)
    d.insert(axis, 1)
    out = _conv.conv2d_transpose(x, w, shape, s, padding, "NCHW" if first else "NHWC", d)
    return tf.squeeze(out, [axis])


def _dilate(x, axis, s):
    """x with s - 1 zeros between neighbours along `axis` (length (n - 1) s + 1)."""
    if s == 1:
        return x
    n = x.shape[axis]
    parts = [x] + [tf.zeros_like(x)] * (s - 1)
    inter = tf.stack(parts, axis=axis + 1)
    shape = x.shape.as_list()
    shape[axis] = n * s
    out = tf.reshape(inter, shape)
    index = [slice(None)] * len(shape)
    index[axis] = slice(0, (n - 1) * s + 1)
    return out[tuple(index)]


def _conv_transpose_nd(x, w, output_shape, strides, padding, dilations):
    """Channels-last N-d transposed convolution: the input dilated by the strides, padded so that the
    forward convolution's window lands on every output position, and convolved (stride 1) with
    the spatially flipped filter with its in/out channels swapped."""
    n = w.shape.rank - 2
    sp = list(range(1, n + 1))
    out_sp = [int(output_shape[d]) for d in sp]
    pads = [[0, 0]]
    for i, d in enumerate(sp):
        k, dil, s, o, m = w.shape[i], dilations[d], strides[d], out_sp[i], x.shape[d]
        span = (k - 1) * dil + 1
        lo = max((-(-o // s) - 1) * s + span - o, 0) // 2 if padding == "SAME" else 0
        want = -(-o // s) if padding == "SAME" else (o - span) // s + 1
        if want != m:
            raise tf.errors.InvalidArgumentError(
                None, None, f"Conv{n}DBackpropInput: Size of out_backprop doesn't match computed: actual = {m}, "
                            f"computed = {want} spatial_dim: {d} input: {o} filter: {k} output: {m} stride: {s} "
                            f"dilation: {dil}")
        x = _dilate(x, d, s)
        pads.append([span - 1 - lo, o + lo - (m - 1) * s - 1])
    pads.append([0, 0])
    x = tf.pad(x, pads)
    flipped = tf.reverse(w, list(range(n)))
    perm = list(range(n)) + [n + 1, n]
    k = tf.transpose(flipped, perm)
    return tf.nn.convolution(x, k, strides=1, padding="VALID", dilations=[dilations[d] for d in sp])


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",  # noqa: A002
                     dilations=None, name=None):
    x, w = tf.convert_to_tensor(input), tf.convert_to_tensor(filters)
    first = _channels_first(data_format)
    ch = 1 if first else 4
    s, d = _conv._seq(strides, 3, ch, "strides"), _conv._seq(dilations, 3, ch, "dilations")
    shape = [int(v) for v in output_shape]
    if first:  # run channels-last
        to_last, to_first = [0, 2, 3, 4, 1], [0, 4, 1, 2, 3]
        x = tf.transpose(x, to_last)
        s, d, shape = ([v[i] for i in to_last] for v in (s, d, shape))
        return tf.transpose(_conv_transpose_nd(x, w, shape, s, padding.upper(), d), to_first)
    return _conv_transpose_nd(x, w, shape, s, padding.upper(), d)


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    n = len(output_shape) - 2 if not isinstance(output_shape, tf.Tensor) else int(output_shape.shape[0]) - 2
    if n == 1:
        return conv1d_transpose(input, filters, output_shape, strides, padding, data_format or "NWC", dilations)
    if n == 2:
        return _conv.conv2d_transpose(input, filters, output_shape, strides, padding, data_format or "NHWC",
                                      dilations)
    if n == 3:
        return conv3d_transpose(input, filters, output_shape, strides, padding, data_format or "NDHWC", dilations)
    raise ValueError(f"output_shape must be of length 3, 4 or 5 but was {n + 2}.")


def atrous_conv2d(value, filters, rate, padding, name=None):
    return _nn.conv2d(value, filters, [1, 1, 1, 1], padding, "NHWC", [1, rate, rate, 1])


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be either VALID or SAME: {padding}")
    if rate < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return _conv.conv2d_transpose(value, filters, output_shape, [1, 1, 1, 1], padding, "NHWC", [1, rate, rate, 1])


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    fmt = data_format or "NHWC"
    depthwise = _conv.depthwise_conv2d(input, depthwise_filter, strides, padding, fmt, dilations)
    return _nn.conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], "VALID", fmt)


def _block_diagonal(filter):  # noqa: A002
    """A depthwise [H, W, C, M] filter as the dense [H, W, C, C*M] one of the same convolution."""
    f = tf.convert_to_tensor(filter)
    h, w, c, m = f.shape.as_list()
    eye = tf.constant(np.eye(c, dtype=f.dtype.as_numpy_dtype)[None, None, :, :, None])
    return tf.reshape(f[:, :, :, None, :] * eye, [h, w, c, c * m])


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                    data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    sizes = [int(v) for v in np.asarray(input_sizes.numpy() if isinstance(input_sizes, tf.Tensor)
                                        else input_sizes).reshape(-1)]
    return _conv.conv2d_transpose(out_backprop, _block_diagonal(filter), sizes, strides, padding, data_format,
                                  dilations)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                     data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """d/dfilter[h, w, c, m] = sum over batch and output positions of input(shifted by h, w) * out_backprop:
    one strided slice of the padded input per filter tap."""
    x, g = tf.convert_to_tensor(input), tf.convert_to_tensor(out_backprop)
    if _channels_first(data_format):
        x, g = tf.transpose(x, [0, 2, 3, 1]), tf.transpose(g, [0, 2, 3, 1])
        strides, dilations = [strides[i] for i in (0, 2, 3, 1)], [dilations[i] for i in (0, 2, 3, 1)]
    kh, kw, c, m = [int(v) for v in np.asarray(filter_sizes.numpy() if isinstance(filter_sizes, tf.Tensor)
                                               else filter_sizes).reshape(-1)]
    n, oh, ow = g.shape[0], g.shape[1], g.shape[2]
    pad, explicit = _conv._pad(padding)
    pads = [[0, 0]]
    for i, k in ((1, kh), (2, kw)):
        if pad == "SAME":
            size, s, d = x.shape[i], strides[i], dilations[i]
            total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
            pads.append([total // 2, total - total // 2])
        elif pad == "EXPLICIT":
            pads.append([explicit[2 * i], explicit[2 * i + 1]])
        else:
            pads.append([0, 0])
    x = tf.pad(x, pads + [[0, 0]])
    g5 = tf.reshape(g, [n, oh, ow, c, m])
    sh, sw, dh, dw = strides[1], strides[2], dilations[1], dilations[2]
    taps = []
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw, :]
            taps.append(tf.reduce_sum(patch[..., None] * g5, [0, 1, 2]))
    return tf.reshape(tf.stack(taps), [kh, kw, c, m])


# -- space, depth and batch rearrangements ----------------------------------------------------

def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    x = tf.convert_to_tensor(input)
    if _channels_first(data_format):
        return tf.transpose(depth_to_space(tf.transpose(x, [0, 2, 3, 1]), block_size), [0, 3, 1, 2])
    n, h, w, c = x.shape.as_list()
    b = int(block_size)
    if b < 2:
        raise ValueError(f"Attribute block_size must be >= 2, got {b}")
    if c % (b * b):
        raise tf.errors.InvalidArgumentError(None, None, f"Input depth dimension {c} should be divisible by: {b * b}")
    y = tf.reshape(x, [n, h, w, b, b, c // (b * b)])
    return tf.reshape(tf.transpose(y, [0, 1, 3, 2, 4, 5]), [n, h * b, w * b, c // (b * b)])


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    x = tf.convert_to_tensor(input)
    if _channels_first(data_format):
        return tf.transpose(space_to_depth(tf.transpose(x, [0, 2, 3, 1]), block_size), [0, 3, 1, 2])
    n, h, w, c = x.shape.as_list()
    b = int(block_size)
    if b < 2:
        raise ValueError(f"Attribute block_size must be >= 2, got {b}")
    if h % b or w % b:
        raise tf.errors.InvalidArgumentError(
            None, None, f"Image width {w} and height {h} should be divisible by block_size: {b}")
    y = tf.reshape(x, [n, h // b, b, w // b, b, c])
    return tf.reshape(tf.transpose(y, [0, 1, 3, 2, 4, 5]), [n, h // b, w // b, b * b * c])


def _ints(v):
    return [int(x) for x in np.asarray(v.numpy() if isinstance(v, tf.Tensor) else v).reshape(-1)]


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    x = tf.convert_to_tensor(input)
    block = _ints(block_shape)
    m = len(block)
    pads = np.asarray(paddings.numpy() if isinstance(paddings, tf.Tensor) else paddings, np.int64).reshape(m, 2)
    x = tf.pad(x, [[0, 0]] + pads.tolist() + [[0, 0]] * (x.shape.rank - 1 - m))
    shape = x.shape.as_list()
    batch, spatial, rest = shape[0], shape[1:1 + m], shape[1 + m:]
    for i, (s, b) in enumerate(zip(spatial, block)):
        if s % b:
            raise tf.errors.InvalidArgumentError(
                None, None, f"padded_shape[{i}]={s} is not divisible by block_shape[{i}]={b}")
    split = [batch] + [v for s, b in zip(spatial, block) for v in (s // b, b)] + rest
    y = tf.reshape(x, split)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, len(split)))
    y = tf.transpose(y, perm)
    return tf.reshape(y, [batch * int(np.prod(block))] + [s // b for s, b in zip(spatial, block)] + rest)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    x = tf.convert_to_tensor(input)
    block = _ints(block_shape)
    m = len(block)
    crop = np.asarray(crops.numpy() if isinstance(crops, tf.Tensor) else crops, np.int64).reshape(m, 2)
    shape = x.shape.as_list()
    prod = int(np.prod(block))
    if shape[0] % prod:
        raise tf.errors.InvalidArgumentError(
            None, None, f"Input batch dimension ({shape[0]}) is not divisible by product of block sizes ({prod})")
    batch, spatial, rest = shape[0] // prod, shape[1:1 + m], shape[1 + m:]
    y = tf.reshape(x, block + [batch] + spatial + rest)
    perm = [m] + [v for i in range(m) for v in (m + 1 + i, i)] + list(range(2 * m + 1, len(block) + 1 + m + len(rest)))
    y = tf.reshape(tf.transpose(y, perm), [batch] + [s * b for s, b in zip(spatial, block)] + rest)
    index = [slice(None)] + [slice(int(lo), s * b - int(hi)) for (lo, hi), s, b in zip(crop, spatial, block)]
    return y[tuple(index)]


def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    return space_to_batch_nd(input, block_shape, paddings)


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    return batch_to_space_nd(input, block_shape, crops)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """op on the dilated grid: space_to_batch by the rate, op with VALID padding, batch_to_space back."""
    x = tf.convert_to_tensor(input)
    rate = _ints(dilation_rate)
    m = len(rate)
    if spatial_dims is not None and list(spatial_dims) != list(range(1, m + 1)):
        raise NotImplementedError("with_space_to_batch with spatial_dims other than 1..N is not implemented in "
                                  "minixla")
    if any(r < 1 for r in rate):
        raise ValueError(f"dilation_rate must be positive: {rate}")
    if all(r == 1 for r in rate):
        return op(x, m, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("filter_shape must be specified for SAME padding")
        extra = [r * (k - 1) for r, k in zip(rate, _ints(filter_shape))]
        base = [[e // 2, e - e // 2] for e in extra]
    elif padding == "VALID":
        base = [[0, 0]] * m
    else:
        raise ValueError(f"Invalid padding method {padding!r}")
    spatial = x.shape.as_list()[1:1 + m]
    pads, crops = [], []
    for s, (lo, hi), r in zip(spatial, base, rate):
        end_extra = (r - (s + lo + hi) % r) % r
        pads.append([lo, hi + end_extra])
        crops.append([0, end_extra])
    y = op(space_to_batch_nd(x, rate, pads), m, "VALID")
    return batch_to_space_nd(y, rate, crops)


# -- morphology and argmax pooling ------------------------------------------------------------

def _taps(x, kh, kw, strides, rates, padding, fill):
    """Per filter tap (i, j): the [N, OH, OW, C] input values it meets, padded with `fill`, and the
    (top, left) padding."""
    n, h, w, c = x.shape.as_list()
    sh, sw, rh, rw = strides[1], strides[2], rates[1], rates[2]
    eh, ew = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    if padding == "SAME":
        oh, ow = -(-h // sh), -(-w // sw)
        ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
    elif padding == "VALID":
        oh, ow, ph, pw = (h - eh) // sh + 1, (w - ew) // sw + 1, 0, 0
    else:
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    top, left = ph // 2, pw // 2
    xp = tf.pad(x, [[0, 0], [top, ph - top], [left, pw - left], [0, 0]], constant_values=fill)
    taps = {(i, j): xp[:, i * rh:i * rh + (oh - 1) * sh + 1:sh, j * rw:j * rw + (ow - 1) * sw + 1:sw, :]
            for i in range(kh) for j in range(kw)}
    return taps, (oh, ow, top, left)


def dilation2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    """Grayscale morphological dilation: max over the taps of input + filter."""
    if data_format != "NHWC":
        raise ValueError("`data_format` must be 'NHWC'. Received: data_format={data_format}")
    x, f = tf.convert_to_tensor(input), tf.convert_to_tensor(filters)
    kh, kw, c = f.shape.as_list()
    if x.shape[3] != c:
        raise tf.errors.InvalidArgumentError(None, None, f"input and filter must have the same depth: {x.shape[3]} "
                                                         f"vs {c}")
    taps, _ = _taps(x, kh, kw, list(strides), list(dilations or [1, 1, 1, 1]), padding.upper(), -np.inf)
    return tf.reduce_max(tf.stack([taps[i, j] + f[i, j] for i in range(kh) for j in range(kw)]), 0)


def erosion2d(value, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    return -dilation2d(-tf.convert_to_tensor(value), tf.reverse(filters, [0, 1]), strides, padding, data_format,
                       dilations)


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", output_dtype=None,  # noqa: A002
                         include_batch_in_index=False, name=None):
    """(max pool, flattened index of each max: ((b * H + y) * W + x) * C + c, b only if asked); the
    first maximum in window order wins, as TF's kernel."""
    if data_format != "NHWC":
        raise ValueError(f"Data formats other than 'NHWC' are not yet supported. Received: data_format={data_format}")
    x = tf.convert_to_tensor(input)
    ks, st = _nn._window(ksize, 2, 4, "NHWC"), _nn._window(strides, 2, 4, "NHWC")
    n, h, w, c = x.shape.as_list()
    taps, (oh, ow, top, left) = _taps(x, ks[1], ks[2], st, [1, 1, 1, 1], padding.upper(), -np.inf)
    keys = list(taps)
    values = tf.stack([taps[k] for k in keys])
    rows = np.arange(oh)[:, None] * st[1] - top
    cols = np.arange(ow)[None, :] * st[2] - left
    flat = np.stack([((rows + i) * w + (cols + j))[None, :, :, None] * c + np.arange(c) for i, j in keys])
    flat = flat + (np.arange(n)[:, None, None, None] * h * w * c if include_batch_in_index else 0)
    flat = np.broadcast_to(flat, (len(keys), n, oh, ow, c))
    dtype = tf.int64 if output_dtype is None else output_dtype
    first = tf.argmax(values, 0, output_type=tf.int32)
    index = tf.gather(tf.constant(np.moveaxis(flat, 0, -1)), first[..., None], batch_dims=4)[..., 0]
    return tf.reduce_max(values, 0), tf.cast(index, dtype)


# -- activations, normalization, statistics, losses ------------------------------------------

def crelu(features, axis=-1, name=None):
    x = tf.convert_to_tensor(features)
    return tf.nn.relu(tf.concat([x, -x], axis))


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None):  # noqa: A002
    """input / (bias + alpha * sum of squares over the 2 r + 1 nearest channels) ** beta."""
    x = tf.convert_to_tensor(input)
    if x.shape.rank != 4:
        raise tf.errors.InvalidArgumentError(None, None, "in must be 4-dimensional")
    r, c = int(depth_radius), x.shape[-1]
    sq = tf.pad(tf.square(x), [[0, 0], [0, 0], [0, 0], [r, r]])
    total = tf.add_n([sq[..., k:k + c] for k in range(2 * r + 1)])
    return x / tf.pow(bias + alpha * total, beta)


lrn = local_response_normalization


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma, variance_epsilon,  # noqa: A002
                                         scale_after_normalization, name=None):
    return _nn.batch_normalization(input, mean, variance, beta, gamma if scale_after_normalization else None,
                                   variance_epsilon)


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum of x - shift, sum of (x - shift)^2, shift) over axes; the count is static."""
    x = tf.convert_to_tensor(x)
    dims = x.shape.as_list()
    count = tf.constant(float(np.prod([dims[a] for a in axes])), x.dtype)
    if shift is not None:
        shift = tf.convert_to_tensor(shift, x.dtype)
        m_ss, v_ss = x - shift, tf.math.squared_difference(x, shift)
    else:
        m_ss, v_ss = x, tf.square(x)
    return count, tf.reduce_sum(m_ss, axes, keepdims=keepdims), tf.reduce_sum(v_ss, axes, keepdims=keepdims), shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    divisor = tf.math.reciprocal(counts)
    shifted_mean = mean_ss * divisor
    mean = shifted_mean + shift if shift is not None else shifted_mean
    return mean, variance_ss * divisor - tf.square(shifted_mean)


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    x = tf.convert_to_tensor(x)
    w = tf.cast(frequency_weights, x.dtype)
    total = tf.reduce_sum(w * x, axes, keepdims=True)
    divisor = tf.math.reciprocal(tf.reduce_sum(w + tf.zeros_like(x), axes, keepdims=True))
    mean = total * divisor
    variance = tf.reduce_sum(w * tf.math.squared_difference(x, mean), axes, keepdims=True) * divisor
    if not keepdims:
        mean, variance = tf.squeeze(mean, axes), tf.squeeze(variance, axes)
    return mean, variance


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    logits = tf.convert_to_tensor(logits)
    labels = tf.convert_to_tensor(labels, logits.dtype)
    log_weight = 1 + (pos_weight - 1) * labels
    return (1 - labels) * logits + log_weight * (tf.math.log1p(tf.exp(-tf.abs(logits))) + tf.nn.relu(-logits))


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    log_input = tf.convert_to_tensor(log_input)
    targets = tf.convert_to_tensor(targets, log_input.dtype)
    if targets.shape != log_input.shape:
        raise ValueError(f"`log_input` and `targets` must have the same shape, received ({log_input.shape} vs "
                         f"{targets.shape}).")
    result = tf.exp(log_input) - log_input * targets
    if compute_full_loss:
        stirling = targets * tf.math.log(targets) - targets + 0.5 * tf.math.log(2 * np.pi * targets)
        small = tf.logical_and(targets >= 0, targets <= 1)
        result += tf.where(small, tf.zeros_like(targets), stirling)
    return result


def zero_fraction(value, name=None):
    x = tf.convert_to_tensor(value)
    return tf.reduce_mean(tf.cast(tf.equal(x, tf.zeros([], x.dtype)), tf.float32))


def scale_regularization_loss(regularization_loss):
    """The loss summed and divided by the replica count (one here: no distribution strategy)."""
    if isinstance(regularization_loss, (list, tuple)):
        regularization_loss = tf.add_n(regularization_loss)
    return tf.reduce_sum(regularization_loss)


def in_top_k(targets, predictions, k, name=None):
    """True where fewer than k classes score strictly higher than the target (False for an
    out-of-range target or a row with a non-finite score), as TF's InTopKV2 kernel."""
    p = tf.convert_to_tensor(predictions)
    t = tf.convert_to_tensor(targets)
    if p.shape.rank != 2:
        raise tf.errors.InvalidArgumentError(None, None, "predictions must be 2-dimensional")
    if t.shape.rank != 1:
        raise tf.errors.InvalidArgumentError(None, None, "targets must be 1-dimensional")
    classes = p.shape[1]
    inside = tf.logical_and(t >= 0, t < classes)
    score = tf.gather(p, tf.clip_by_value(tf.cast(t, tf.int32), 0, classes - 1)[:, None], batch_dims=1)
    finite = tf.reduce_all(tf.math.is_finite(p), 1)
    higher = tf.reduce_sum(tf.cast(p > score, tf.int32), 1)
    return tf.logical_and(tf.logical_and(inside, finite), higher < tf.cast(k, tf.int32))


def _top_k_along(operand, k, dim, sign):
    x = tf.convert_to_tensor(operand)
    dim = dim % x.shape.rank
    perm = [d for d in range(x.shape.rank) if d != dim] + [dim]
    back = list(np.argsort(perm))
    values, indices = tf.math.top_k(sign * tf.transpose(x, perm), k)
    return sign * tf.transpose(values, back), tf.transpose(indices, back)


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """The exact top k (recall 1 meets any recall_target)."""
    return _top_k_along(operand, k, reduction_dimension, 1)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    return _top_k_along(operand, k, reduction_dimension, -1)


_NN = ("max_pool1d", "avg_pool1d", "max_pool3d", "avg_pool3d", "pool", "conv3d", "conv1d_transpose",
       "conv3d_transpose", "conv_transpose", "atrous_conv2d", "atrous_conv2d_transpose", "separable_conv2d",
       "depthwise_conv2d_backprop_input", "depthwise_conv2d_backprop_filter", "depth_to_space", "space_to_depth",
       "space_to_batch", "with_space_to_batch", "dilation2d", "erosion2d", "max_pool_with_argmax", "crelu",
       "local_response_normalization", "lrn", "batch_norm_with_global_normalization", "sufficient_statistics",
       "normalize_moments", "weighted_moments", "weighted_cross_entropy_with_logits", "log_poisson_loss",
       "zero_fraction", "scale_regularization_loss", "in_top_k", "approx_max_k", "approx_min_k")


def install(tf_module) -> None:
    global tf
    tf = tf_module
    g = globals()
    for name in _NN:
        setattr(tf_module.nn, name, g[name])
    for name in ("space_to_batch_nd", "batch_to_space"):
        if not hasattr(tf_module, name):
            setattr(tf_module, name, g[name])
    if not hasattr(tf_module, "space_to_batch"):
        tf_module.space_to_batch = space_to_batch
    if not hasattr(tf_module.math, "in_top_k"):
        tf_module.math.in_top_k = in_top_k
    if not hasattr(tf_module.math, "zero_fraction"):
        tf_module.math.zero_fraction = zero_fraction
    _nn_ctc.install(tf_module)
    _nn_rnn_wrappers.install(tf_module)
    _nn_sampled.install(tf_module)
    _nn_fractional.install(tf_module)
