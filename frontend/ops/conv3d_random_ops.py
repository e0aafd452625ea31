"""P1 convolutions and random ops: Conv3D, DepthwiseConv2dNative, Conv2DBackpropInput,
StatelessTruncatedNormalV2, StatelessMultinomial.

* Conv3D is Conv2D's rule with three spatial dimensions (one `hlo.convolution`);
* DepthwiseConv2dNative is one `hlo.convolution` with feature_group_count = C
  (the [H, W, C, M] filter read as [H, W, 1, C*M]), as tf2xla;
* Conv2DBackpropInput (`tf.nn.conv2d_transpose`) is the transpose of Conv2D:
  a convolution of out_backprop with the spatially reversed filter (in/out
  features swapped), lhs_dilation = strides, as tf2xla.

The random ops reproduce TF 2.21's *eager* CPU kernels bit for bit from the
same Philox stream as ops/random_ops.py:

* StatelessTruncatedNormalV2 (TF's TruncatedNormalDistribution through
  FillPhiloxRandom's variable-sample path): output group i (4 floats, 2
  doubles) restarts the stream 256 words per output element after group i-1's
  start and keeps the first Box-Muller samples with |z| < 2, in order. We
  compute a fixed budget of 4 Philox blocks per group (16 floats / 8 doubles
  as candidates) directly at those counters (`_philox_blocks`, ten Philox-4x32
  rounds in u64 arithmetic), so nothing between the groups is drawn: the
  chance that fewer than 4 of 16 candidates pass (p = 0.9545 each) is below
  1e-15 (for doubles, fewer than 2 of 8: below 1e-8).
* StatelessMultinomial (`tf.random.stateless_categorical`): TF's CPU
  MultinomialOp: per row, the unnormalized double CDF of exp(logit - max)
  over the finite logits (summed left to right), then for each sample one
  `RandDouble() * total` (two words, Uint64ToDouble) looked up with
  upper_bound; rows and samples consume the stream sequentially (one shard).
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.conv_ops import _same, conv_nd
from minixla.frontend.ops.random_ops import _box_muller, _shape, _unit, _unit64, _words
from minixla.frontend.ops.registry import op_error, register, shape_text


def conv3d(b, input, filter, strides=(1,) * 5, padding="VALID", data_format="NDHWC", dilations=(1,) * 5):
    if len(input.shape) != 5:
        raise op_error("Conv3D", f"input must be 5-dimensional{shape_text(input.shape)}")
    return conv_nd(b, "Conv3D", input, filter, strides, padding, data_format, dilations)


register("Conv3D", ("input", "filter"), conv3d,
         attrs={"strides": (1,) * 5, "padding": "VALID", "data_format": "NDHWC", "dilations": (1,) * 5})


def depthwise_conv2d(b, input, filter, strides=(1, 1, 1, 1), padding="VALID", data_format="NHWC",
                     dilations=(1, 1, 1, 1), explicit_paddings=()):
    x, w = input, filter
    op = "DepthwiseConv2dNative"
    if len(x.shape) != 4:
        raise op_error(op, f"input must be 4-dimensional{shape_text(x.shape)}")
    if len(w.shape) != 4:
        raise op_error(op, f"filter must be 4-dimensional: {shape_text(w.shape)}")
    feat = 1 if data_format == "NCHW" else 3
    c = x.shape[feat]
    if w.shape[2] != c:
        # TF 2.21's CPU (oneDNN) kernel's text; the Eigen kernel says "input and filter must have the same depth"
        raise op_error(op, f"input depth must be evenly divisible by filter depth: {c} vs {w.shape[2]}")
    k = b.reshape(w, [w.shape[0], w.shape[1], 1, c * w.shape[3]])
    return conv_nd(b, op, x, k, strides, padding, data_format, dilations, explicit_paddings)


register("DepthwiseConv2dNative", ("input", "filter"), depthwise_conv2d,
         attrs={"strides": (1, 1, 1, 1), "padding": "VALID", "data_format": "NHWC", "dilations": (1, 1, 1, 1),
                "explicit_paddings": ()})


def conv2d_backprop_input(b, input_sizes, filter, out_backprop, strides=(1, 1, 1, 1), padding="VALID",
                          data_format="NHWC", dilations=(1, 1, 1, 1), explicit_paddings=(), use_cudnn_on_gpu=True):
    op = "Conv2DBackpropInput"
    w, g = filter, out_backprop
    sizes = [int(v) for v in np.asarray(input_sizes).reshape(-1)]
    if len(sizes) != 4:
        raise op_error(op, f"input_sizes must be 4-dimensional, got: {len(sizes)}")
    if len(w.shape) != 4 or len(g.shape) != 4:
        raise op_error(op, f"filter and out_backprop must be 4-dimensional: {shape_text(w.shape)}, "
                           f"{shape_text(g.shape)}")
    nchw = data_format == "NCHW"
    sp = (2, 3) if nchw else (1, 2)
    feat = 1 if nchw else 3
    if sizes[feat] % w.shape[2]:
        raise op_error(op, f"input depth must be evenly divisible by filter depth: {sizes[feat]} vs {w.shape[2]}")
    if g.shape[feat] != w.shape[3]:
        raise op_error(op, f"Conv2DCustomBackpropInput: Filter and out_backprop must have the same out_depth: "
                           f"{w.shape[3]} vs {g.shape[feat]}")
    if sizes[0] != g.shape[0]:
        raise op_error(op, f"Conv2DCustomBackpropInput: input and out_backprop must have the same batch size: "
                           f"{sizes[0]} vs {g.shape[0]}")
    if w.shape[2] != sizes[feat]:
        raise op_error(op, "Conv2DBackpropInput with grouped filters (input depth != filter depth) is not "
                           "implemented")
    s = [strides[d] for d in sp]
    dil = [dilations[d] for d in sp]
    before, after = [], []
    for i, d in enumerate(sp):
        n, k, o = sizes[d], w.shape[i], g.shape[d]
        span = (k - 1) * dil[i] + 1
        if padding == "SAME":
            lo, hi = _same(n, k, s[i], dil[i])
        elif padding == "EXPLICIT":
            lo, hi = explicit_paddings[2 * d], explicit_paddings[2 * d + 1]
        else:
            lo, hi = 0, 0
        want = (n + lo + hi - span) // s[i] + 1 if n + lo + hi >= span else 0
        if want != o:
            raise op_error(op, f"Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = "
                               f"{o}, computed = {want} spatial_dim: {d} input: {n} filter: {k} output: {o} stride: "
                               f"{s[i]} dilation: {dil[i]}")
        bf = span - lo - 1
        before.append(bf)
        after.append(n + span - 1 - ((o - 1) * s[i] + 1) - bf)
    dn = (0, feat, sp, 3, 2, (0, 1), 0, feat, sp)
    return b.convolution(g, b.reverse(w, [0, 1]), (1, 1), list(zip(before, after)), s, dil, dn)


register("Conv2DBackpropInput", ("input_sizes", "filter", "out_backprop"), conv2d_backprop_input,
         attrs={"strides": (1, 1, 1, 1), "padding": "VALID", "data_format": "NHWC", "dilations": (1, 1, 1, 1),
                "explicit_paddings": (), "use_cudnn_on_gpu": True},
         const_inputs=("input_sizes",), typed=("filter", "out_backprop"))


# -- random ------------------------------------------------------------------------------

_RESERVED = 256  # FillPhiloxRandom: group i restarts at word i * kGroupSize * kReservedSamplesPerOutput (256)


def _first_accepted(b, cand, keep: int):
    """Per row of f[g, c] candidates: the first `keep` with |z| < 2, in order -> [g, keep]."""
    g, c = cand.shape
    dt = np.dtype(cand.dtype)
    ok = b.compare(b.abs(cand), b.full(cand.shape, 2, dt), "LT")
    oki = b.select(ok, b.full(cand.shape, 1, np.int32), b.full(cand.shape, 0, np.int32))
    tri = b.constant(np.triu(np.ones((c, c), np.int32)))  # rank[i, j] = sum_{k <= j} ok[i, k]
    rank = b.dot_general(oki, tri, ([1], [0]))
    zero = b.full(cand.shape, 0, dt)
    outs = []
    for j in range(keep):
        hit = b.and_(ok, b.compare(rank, b.full(cand.shape, j + 1, np.int32), "EQ"))
        outs.append(b.reshape(b.reduce(b.select(hit, cand, zero), b.scalar(0, dt), [1], "add"), [g, 1]))
    return b.concatenate(outs, 1)


_M = (0xD2511F53, 0xCD9E8D57)  # Philox-4x32 multipliers and Weyl key increments (TF's philox_random.h)
_W = (0x9E3779B9, 0xBB67AE85)


def _philox_blocks(b, key, counter, offsets: np.ndarray):
    """TF's PhiloxRandom output blocks at counter + offsets[i] (128-bit add), as u32[len(offsets), 4]:
    ten Philox-4x32 rounds written with u64 products, for streams that skip (no rng_bit_generator
    draws the words in between)."""
    u32, u64 = np.dtype(np.uint32), np.dtype(np.uint64)
    m = len(offsets) if isinstance(offsets, np.ndarray) else int(offsets.shape[0])  # or a traced u64[m]

    def full(v, dt=u64):
        return b.full([m], v, dt)

    def lo32(x):
        return b.convert(b.and_(x, full(0xFFFFFFFF)), u32)

    def hi32(x):
        return b.convert(b.shift_right_logical(x, full(32)), u32)

    c_lo = b.broadcast_in_dim(b.reshape(b.slice(counter, [0], [1]), []), [m], [])
    c_hi = b.broadcast_in_dim(b.reshape(b.slice(counter, [1], [2]), []), [m], [])
    lo = b.add(c_lo, b.constant(offsets.astype(u64)) if isinstance(offsets, np.ndarray) else offsets)
    carry = b.select(b.compare(lo, c_lo, "LT", "UNSIGNED"), full(1), full(0))
    hi = b.add(c_hi, carry)
    c = [lo32(lo), hi32(lo), lo32(hi), hi32(hi)]
    k64 = b.broadcast_in_dim(b.reshape(key, []), [m], [])
    k = [lo32(k64), hi32(k64)]
    for r in range(10):
        p0 = b.multiply(b.convert(c[0], u64), full(_M[0]))
        p1 = b.multiply(b.convert(c[2], u64), full(_M[1]))
        c = [b.xor(b.xor(hi32(p1), c[1]), k[0]), lo32(p1), b.xor(b.xor(hi32(p0), c[3]), k[1]), lo32(p0)]
        if r < 9:
            k = [b.add(k[0], full(_W[0], u32)), b.add(k[1], full(_W[1], u32))]
    return b.concatenate([b.reshape(w, [m, 1]) for w in c], 1)


def truncated_normal(b, shape, key, counter, alg, dtype=np.float32, Tshape=None):
    op = "StatelessTruncatedNormalV2"
    from minixla.frontend.ops.random_ops import _check_alg
    _check_alg(op, alg)
    dims, dtype = _shape(op, shape), np.dtype(dtype)
    n = int(np.prod(dims, dtype=np.int64))
    double = dtype == np.float64
    if not (double or dtype in (np.float32, np.float16) or dtype.name == "bfloat16"):
        raise op_error(op, f"unsupported dtype {dtype.name}")
    if tuple(key.shape) != (1,) or tuple(counter.shape) != (2,):
        raise op_error(op, f"key must have shape [1] and counter shape [2], got {shape_text(key.shape)} and "
                           f"{shape_text(counter.shape)}")
    group = 2 if double else 4
    groups = max(-(-n // group), 1)
    pairs = 4 if double else 8  # Box-Muller pairs drawn per group (8 or 16 candidates)
    per_pair = 4 if double else 2
    nblocks = pairs * per_pair // 4
    skip_blocks = group * _RESERVED // 4
    offsets = (np.arange(groups, dtype=np.uint64)[:, None] * np.uint64(skip_blocks)
               + np.arange(nblocks, dtype=np.uint64)[None, :]).reshape(-1)
    w = _philox_blocks(b, key, counter, offsets)  # [groups * nblocks, 4]: each group's first words
    w = b.reshape(w, [groups * pairs, per_pair])
    x = [b.reshape(b.slice(w, [0, k], [groups * pairs, k + 1]), [groups * pairs]) for k in range(per_pair)]
    if double:
        z0, z1 = _box_muller(b, _unit64(b, x[0], x[1]), _unit64(b, x[2], x[3]))
    else:
        z0, z1 = _box_muller(b, _unit(b, x[0], np.float32), _unit(b, x[1], np.float32))
    m = groups * pairs
    z = b.reshape(b.concatenate([b.reshape(z0, [m, 1]), b.reshape(z1, [m, 1])], 1), [groups, 2 * pairs])
    out = b.reshape(_first_accepted(b, z, group), [groups * group])
    out = b.reshape(b.slice(out, [0], [n]), dims)
    return out if double else b.convert(out, dtype)


register(
    "StatelessTruncatedNormalV2", ("shape", "key", "counter", "alg"), truncated_normal,
    attrs={"dtype": np.float32, "Tshape": None}, const_inputs=("shape", "alg"), typed=())


def multinomial(b, logits, num_samples, seed, output_dtype=np.int64, T=None, Tseed=None):
    op = "StatelessMultinomial"
    from minixla.frontend.ops.random_ops import get_key_counter
    if len(logits.shape) != 2:
        raise op_error(op, f"logits should be a matrix, got shape {shape_text(logits.shape)}")
    ns = int(np.asarray(num_samples).reshape(()))
    if ns < 0:
        raise op_error(op, f"num_samples should be nonnegative, got {ns}")
    rows, k = logits.shape
    if k <= 0 and ns > 0:
        raise op_error(op, f"num_classes should be positive, got {k}")
    key, counter = get_key_counter(b, seed)
    if rows * ns == 0:
        return b.full([rows, ns], 0, output_dtype)
    f64 = np.float64
    x = b.convert(logits, f64)
    fin = b.is_finite(x)
    lowest = np.finfo(np.dtype(logits.dtype) if np.dtype(logits.dtype).kind == "f" else np.float32).min
    mx = b.reduce(b.select(fin, x, b.full(x.shape, float(lowest), f64)), b.scalar(-np.inf, f64), [1], "maximum")
    e = b.exponential(b.subtract(x, b.broadcast_in_dim(mx, x.shape, [0])))
    e = b.select(fin, e, b.full(x.shape, 0, f64))
    cols, total = [], None
    for j in range(k):  # TF's running total, left to right
        col = b.reshape(b.slice(e, [0, j], [rows, j + 1]), [rows])
        total = col if total is None else b.add(total, col)
        cols.append(b.reshape(total, [rows, 1]))
    cdf = b.concatenate(cols, 1)
    x0, x1 = [b.reshape(v, [rows, ns]) for v in _pairs_of(b, _words(b, op, key, counter, np.int32(1),
                                                                        2 * rows * ns), rows * ns)]
    find = b.multiply(_unit64(b, x0, x1), b.broadcast_in_dim(total, [rows, ns], [0]))
    le = b.compare(b.broadcast_in_dim(cdf, [rows, ns, k], [0, 2]), b.broadcast_in_dim(find, [rows, ns, k], [0, 1]),
                   "LE")
    cnt = b.select(le, b.full(le.shape, 1, output_dtype), b.full(le.shape, 0, output_dtype))
    return b.reduce(cnt, b.scalar(0, output_dtype), [2], "add")


def _pairs_of(b, w, m):
    w = b.reshape(w, [m, 2])
    return [b.reshape(b.slice(w, [0, k], [m, k + 1]), [m]) for k in (0, 1)]


register("StatelessMultinomial", ("logits", "num_samples", "seed"), multinomial,
         attrs={"output_dtype": np.int64, "T": None, "Tseed": None}, const_inputs=("num_samples",),
         typed=("logits",), xla_kernel=lambda attrs: np.dtype(attrs["Tseed"] or np.int32) == np.int32)
# TF 2.21's XLA kernel of StatelessMultinomial is registered for int32 seeds only: jit_compile=True with an
# int64 seed raises "Detected unsupported operations ... StatelessMultinomial", as TF does

