"""StatelessParameterizedTruncatedNormal as a raw op that compiles: TF's eager CPU kernel
(TruncatedNormalFunctorV2 in one shard, frontend/ops/random_extra_ops.py `_ptn`) as traced ops.

Eagerly and in tf.function without jit the host kernel runs (it raises TF's errors on bad
parameters). Under jit_compile=True the same stream is computed by one bounded `while`: each step
draws the Philox block(s) at the stream's next offset, evaluates the batch's sampler (normal
rejection, uniform rejection or exponential rejection, chosen as TF chooses it from the normalized
bounds) on all candidates of those blocks, and appends the accepted ones in order until the batch
has its samples, when the next batch starts at a fresh block. Float results use libm's rule of the
host kernel (the function in double, rounded once), so jit gives the eager numbers.
Compiled, bad parameters give NaN instead of TF's InvalidArgumentError (no errors inside XLA).
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.conv3d_random_ops import _philox_blocks
from minixla.frontend.ops.random_extra_ops import _MAX_ITERATIONS, _dims, _ptn, _split
from minixla.frontend.ops.random_ops import _unit, _unit64, get_key_counter
from minixla.frontend.ops.raw_misc_ops import _int32_seed
from minixla.frontend.ops.registry import op_error, register, register_gradient

OP = "StatelessParameterizedTruncatedNormal"
_F64, _U64, _I32 = np.dtype(np.float64), np.dtype(np.uint64), np.dtype(np.int32)


def _libm(b, fn: str, x):
    """A float function as libm computes it for the host kernel's type: in double, rounded once."""
    if np.dtype(x.dtype) == _F64:
        return getattr(b, fn)(x)
    return b.convert(getattr(b, fn)(b.convert(x, _F64)), x.dtype)


def _c(b, v, like):
    return b.full(like.shape, v, like.dtype)


def _candidates(b, words, p: dict, t: np.dtype):
    """(accepted, value) per candidate of each sampler, and the blocks each consumes: `words` is u32[2, 4]
    (the next two blocks), `p` the batch's scalars."""
    w = [[b.reshape(b.slice(words, [r, k], [r + 1, k + 1]), []) for k in range(4)] for r in range(2)]
    nmin, nmax, sd, mean = p["nmin"], p["nmax"], p["sd"], p["mean"]
    double = t == _F64

    def unit(r):  # UniformDistribution<t> of block r: 4 floats or 2 doubles
        if double:
            return [_unit64(b, w[r][0], w[r][1]), _unit64(b, w[r][2], w[r][3])]
        return [_unit(b, x, np.float32) for x in w[r]]

    def inside(z):
        return b.and_(b.compare(nmin, z, "LE"), b.compare(z, nmax, "LE"))

    # normal rejection: Box-Muller (sin first) on word pairs, or on one double pair
    pairs = [(w[0][0], w[0][1]), (w[0][2], w[0][3])] if not double else [(None, None)]
    normal = []
    for x0, x1 in pairs:
        if double:
            u1, v = _unit64(b, w[0][0], w[0][1]), _unit64(b, w[0][2], w[0][3])
            v1 = b.multiply(_c(b, 2 * np.pi, v), v)
        else:
            u1, v = _unit(b, x0, np.float32), _unit(b, x1, np.float32)
            v1 = b.convert(b.multiply(b.full([], 2 * np.pi, _F64), b.convert(v, _F64)), t)
        u1 = b.maximum(u1, _c(b, 1e-7, u1))
        r = b.sqrt(b.multiply(_c(b, -2, u1), _libm(b, "log", u1)))
        for fn in ("sine", "cosine"):
            z = b.multiply(_libm(b, fn, v1), r)
            normal.append((inside(z), z))
    # uniform rejection: z from one block, the acceptance uniforms from the next
    uniform = []
    for r, u in zip(unit(0), unit(1)):
        z = b.add(b.multiply(r, p["diff"]), nmin)
        g = b.divide(b.subtract(p["plus"], b.multiply(z, z)), _c(b, 2, z))
        uniform.append((b.compare(u, _libm(b, "exponential", g), "LE"), z))
    # exponential rejection: pairs of uniforms of one block
    expo, r = [], unit(0)
    alpha = p["alpha"]
    for i in range(0, len(r), 2):
        z = b.add(b.negate(b.divide(_libm(b, "log", r[i]), alpha)), nmin)
        x = b.select(b.compare(nmin, alpha, "LT"), b.subtract(alpha, z), b.subtract(nmin, alpha))
        ok = b.compare(r[i + 1], _libm(b, "exponential", b.divide(b.negate(b.multiply(x, x)), _c(b, 2, x))), "LE")
        expo.append((b.and_(ok, b.compare(z, nmax, "LT")), z))
    k = max(len(normal), len(uniform), len(expo))
    no = (b.full([], False, np.bool_), b.full([], 0, t))
    kind = p["kind"]
    out = []
    for i in range(k):
        picks = [s[i] if i < len(s) else no for s in (normal, uniform, expo)]
        is_u, is_e = b.compare(kind, b.scalar(1, _I32), "EQ"), b.compare(kind, b.scalar(2, _I32), "EQ")
        acc = b.select(is_u, picks[1][0], b.select(is_e, picks[2][0], picks[0][0]))
        z = b.select(is_u, picks[1][1], b.select(is_e, picks[2][1], picks[0][1]))
        out.append((acc, b.add(b.multiply(z, sd), mean)))
    blocks = b.select(b.compare(kind, b.scalar(1, _I32), "EQ"), b.scalar(2, _U64), b.scalar(1, _U64))
    return out, blocks


def _batch_params(b, params, t):
    """Per batch ([B] each): TF's swap for an upper tail, the normalized bounds and the sampler."""
    mean, sd, lo, hi = params
    neg_inf_lo = b.and_(b.compare(lo, _c(b, -np.inf, lo), "EQ"), b.compare(lo, _c(b, 0, lo), "LT"))
    swap = b.or_(neg_inf_lo, b.compare(hi, mean, "LT"))
    lo, hi, sd = b.select(swap, hi, lo), b.select(swap, lo, hi), b.select(swap, b.negate(sd), sd)
    nmin = b.divide(b.subtract(lo, mean), sd)
    nmax = b.divide(b.subtract(hi, mean), sd)
    sqrt_f = b.sqrt(b.add(b.multiply(nmin, nmin), _c(b, 4, nmin)))
    inner = b.add(_c(b, 0.5, nmin), b.divide(b.multiply(nmin, b.subtract(nmin, sqrt_f)), _c(b, 4, nmin)))
    cutoff = b.divide(b.multiply(_c(b, 2, nmin), _libm(b, "exponential", inner)), b.add(nmin, sqrt_f))
    diff = b.subtract(nmax, nmin)
    normal = b.or_(b.and_(b.compare(nmin, _c(b, -1.3, nmin), "LT"), b.compare(nmax, _c(b, 0, nmax), "GE")),
                   b.and_(b.compare(nmax, _c(b, 1.3, nmax), "GT"), b.compare(nmin, _c(b, 0, nmin), "LE")))
    kind = b.select(normal, b.full(nmin.shape, 0, _I32),
                    b.select(b.compare(diff, cutoff, "LT"), b.full(nmin.shape, 1, _I32), b.full(nmin.shape, 2, _I32)))
    plus = b.select(b.compare(nmin, _c(b, 0, nmin), "LT"), _c(b, 0, nmin), b.multiply(nmin, nmin))
    alpha = b.divide(b.add(nmin, sqrt_f), _c(b, 2, nmin))
    return {"mean": mean, "sd": sd, "nmin": nmin, "nmax": nmax, "diff": diff, "plus": plus, "alpha": alpha,
            "kind": kind}


_NAMES = ("mean", "sd", "nmin", "nmax", "diff", "plus", "alpha", "kind")


def compiled_ptn(b, shape, key, counter, means, stddevs, minvals, maxvals, dtype):
    dims = _dims(OP, shape)
    dtype = np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
    t = _F64 if dtype == _F64 else np.dtype(np.float32)
    params = [means, stddevs, minvals, maxvals]
    try:
        bshape = list(np.broadcast_shapes(*(tuple(v.shape) for v in params)))
    except ValueError:
        raise op_error(OP, "means, stddevs, minvals, maxvals must have compatible batch dimensions") from None
    batches, per = _split(OP, dims, np.empty(bshape), "parameters")
    n = batches * per
    if n == 0:
        return b.full(dims, 0, dtype)
    flat = [b.reshape(b.broadcast_in_dim(b.convert(v, t), bshape, list(range(len(bshape) - len(v.shape),
                                                                                len(bshape)))), [batches])
            for v in params]
    return b.reshape(_loop(b, flat, key, counter, t, batches, per, n, dtype), dims)


def _loop(b, flat, key, counter, t, batches: int, per: int, n: int, dtype, skip: int | None = None):
    """The samples, flat: V2's layout (batch-minor, the stream continuing across batches at a fresh block)
    or, with `skip` not None, V1's (batch-major, the last batch possibly short; batch i's stream at block
    i * skip, or continuing when skip is 0)."""
    p = _batch_params(b, flat, t)
    state = [b.scalar(0, _I32), b.scalar(0, _I32), b.scalar(0, _U64), b.scalar(0, _I32), b.full([n], np.nan, t),
             key, counter, *(p[k] for k in _NAMES)]
    limit = (n + batches) * (_MAX_ITERATIONS + 1)

    def cond(bb, s):
        return bb.and_(bb.compare(s[0], bb.scalar(batches, _I32), "LT"),
                       bb.compare(s[3], bb.scalar(limit, _I32), "LT"))

    def body(bb, s):
        bi, got, blk, it, out, k, c = s[:7]
        arrays = dict(zip(_NAMES, s[7:]))
        here = {name: bb.reshape(bb.dynamic_slice(a, [bi], [1]), []) for name, a in arrays.items()}
        offs = bb.add(bb.broadcast_in_dim(blk, [2], []), bb.constant(np.array([0, 1], np.uint64)))
        words = _philox_blocks(bb, k, c, offs)
        cands, used = _candidates(bb, words, here, t)
        iota = bb.iota([n], 0, _I32)
        want = bb.scalar(per, _I32)
        if skip is not None:  # V1: the last batch ends at n
            want = bb.minimum(want, bb.subtract(bb.scalar(n, _I32), bb.multiply(bi, bb.scalar(per, _I32))))
        for acc, val in cands:
            room = bb.and_(acc, bb.compare(got, want, "LT"))
            flat_at = (bb.add(bb.multiply(bi, bb.scalar(per, _I32)), got) if skip is not None
                       else bb.add(bb.multiply(got, bb.scalar(batches, _I32)), bi))
            hit = bb.and_(bb.broadcast_in_dim(room, [n], []), bb.compare(iota, bb.broadcast_in_dim(flat_at, [n], []),
                                                                          "EQ"))
            out = bb.select(hit, bb.broadcast_in_dim(val, [n], []), out)
            got = bb.add(got, bb.select(room, bb.scalar(1, _I32), bb.scalar(0, _I32)))
        done = bb.compare(got, want, "EQ")
        bi = bb.add(bi, bb.select(done, bb.scalar(1, _I32), bb.scalar(0, _I32)))
        got = bb.select(done, bb.scalar(0, _I32), got)
        blk = bb.add(blk, used)
        if skip:  # 0: one shard, the stream continuing across batches
            blk = bb.select(done, bb.multiply(bb.convert(bi, _U64), bb.scalar(skip, _U64)), blk)
        return [bi, got, blk, bb.add(it, bb.scalar(1, _I32)), out, k, c, *s[7:]]

    out = b.while_loop(cond, body, state)[4]
    return out if t == dtype else b.convert(out, dtype)


def stateless_ptn(b, shape, seed, means, stddevs, minvals, maxvals, dtype=None, S=None, Tseed=None):
    """`dtype` is the parameters' type in TF's OpDef (the result has it)."""
    dtype = np.dtype(means.dtype)
    if dtype not in (np.float16, np.float32, np.float64):
        raise op_error(OP, f"the parameters must be half, float or double, got {dtype.name}")
    key, counter = get_key_counter(b, seed)
    if type(b).__name__ == "EagerBuilder":  # the host kernel, with TF's errors on bad parameters
        return _ptn(shape, key, counter, np.int32(1), *(np.asarray(v) for v in (means, stddevs, minvals, maxvals)),
                    dtype=dtype)
    return compiled_ptn(b, shape, key, counter, means, stddevs, minvals, maxvals, dtype)


register(OP, ("shape", "seed", "means", "stddevs", "minvals", "maxvals"), stateless_ptn,
         attrs={"dtype": None, "S": None, "Tseed": None}, const_inputs=("shape",),
         typed=("means", "stddevs", "minvals", "maxvals"), xla_kernel=_int32_seed)  # TF: int32 seeds only


def _ndtr(b, x):
    """TF's _Ndtr (random_grad.py): the normal CDF through erf near 0 and erfc in the tails."""
    half_sqrt_2 = _c(b, 0.5 * np.sqrt(2.0), x)
    w = b.multiply(x, half_sqrt_2)
    z = b.abs(w)
    erf, erfc = b.tf_op("Erf", w)[0], b.tf_op("Erfc", z)[0]
    tail = b.select(b.compare(w, _c(b, 0, w), "GT"), b.subtract(_c(b, 2, z), erfc), erfc)
    y = b.select(b.compare(z, half_sqrt_2, "LT"), b.add(_c(b, 1, w), erf), tail)
    return b.multiply(_c(b, 0.5, y), y)


@register_gradient(OP)
def _ptn_grad(b, op, grad):
    """TF's implicit reparameterization gradient (Figurnov et al. 2018, random_grad.py): d sample / d mean = 1,
    / d stddev = the standardized sample, / d minval and / d maxval from the truncated CDF; summed over the
    sample dimensions and the parameter's broadcast dimensions."""
    sample = op.outputs[0]
    params = list(op.inputs[2:6])
    dims = list(sample.shape)
    dt = np.dtype(sample.dtype)

    def full(v):
        return b.broadcast_in_dim(v, dims, list(range(len(dims) - len(v.shape), len(dims))))

    mean, sd, lo, hi = (full(v) for v in params)
    lo_s = b.divide(b.subtract(lo, mean), sd)
    hi_s = b.divide(b.subtract(hi, mean), sd)
    x_s = b.divide(b.subtract(sample, mean), sd)
    cdf = b.divide(b.subtract(_ndtr(b, x_s), _ndtr(b, lo_s)), b.subtract(_ndtr(b, hi_s), _ndtr(b, lo_s)))
    info = np.finfo(dt)
    cdf = b.clamp(b.scalar(info.tiny, dt), cdf, b.scalar(1 - info.eps, dt))
    sq = b.multiply(x_s, x_s)
    half = _c(b, 0.5, x_s)
    d_hi = b.exponential(b.add(b.multiply(half, b.subtract(sq, b.multiply(hi_s, hi_s))), b.log(cdf)))
    d_lo = b.exponential(b.add(b.multiply(half, b.subtract(sq, b.multiply(lo_s, lo_s))),
                               b.log_plus_one(b.negate(cdf))))
    out = []
    for p, d in zip(params, (None, x_s, d_lo, d_hi)):
        g = grad if d is None else b.multiply(grad, d)
        rank = len(p.shape)
        lead = [i for i in range(len(dims)) if i < len(dims) - rank or p.shape[i - len(dims) + rank] == 1]
        if lead:
            g = b.reduce(g, b.scalar(0, dt), lead, "add")
        out.append(b.reshape(g, list(p.shape)))
    return [None, None, *out]


# -- the stateful V1 kernel: ParameterizedTruncatedNormal(shape, means, stdevs, minvals, maxvals; seed, seed2) --

STATEFUL = "ParameterizedTruncatedNormal"
_DESIRED_BATCH = 1000  # kDesiredBatchSize: scalar parameters are resampled in batches of this size


def v1_batches(dims, param_ranks) -> tuple[int, int, int]:
    """(batches, samples per batch, blocks reserved) of TF's V1 kernel: shape[0] batches of the other
    dimensions' product, or, with scalar parameters, batches of 1000; each batch reserves
    2 * kMaxIterations * (samples + 3) / 4 Philox blocks. TF's CPU kernel runs the batches in shards,
    each shard's stream skipped to its first batch's reservation; minixla computes one shard (the
    stream continuing from batch to batch), which is what TF does for small outputs (the goldens)."""
    n = int(np.prod(dims, dtype=np.int64))
    if not dims:
        raise op_error(STATEFUL, "Input shape should be a vector, got shape []")
    if all(r == 0 for r in param_ranks):
        per = _DESIRED_BATCH
        batches = -(-n // per)
    else:
        batches, per = dims[0], int(np.prod(dims[1:], dtype=np.int64))
    return batches, per, batches * 2 * _MAX_ITERATIONS * (per + 3) // 4


def stateful_ptn(b, shape, means, stdevs, minvals, maxvals, offset, seed=0, seed2=0, dtype=None, T=None):
    from minixla.frontend.ops.raw_misc_ops import _kc

    dims = _dims(STATEFUL, shape)
    params = [means, stdevs, minvals, maxvals]
    dt = np.dtype(getattr(dtype, "as_numpy_dtype", dtype)) if dtype is not None else np.dtype(means.dtype)
    if any(len(v.shape) > 1 for v in params):
        raise op_error(STATEFUL, "Input means, stdevs, minvals and maxvals should be scalars or vectors")
    batches, per, _ = v1_batches(dims, [len(v.shape) for v in params])
    n = int(np.prod(dims, dtype=np.int64))
    for v, what in zip(params, ("means", "stdevs", "minvals", "maxvals")):
        if len(v.shape) == 1 and v.shape[0] not in (1, batches):
            raise op_error(STATEFUL, f"Input {what} should have length 1 or shape[0], got shape: {list(v.shape)}")
    if n == 0:
        return b.full(dims, 0, dt)
    t = _F64 if dt == _F64 else np.dtype(np.float32)
    if type(b).__name__ == "EagerBuilder":
        _check_v1(params, batches)
    flat = [b.convert(v, t) if len(v.shape) == 1 and v.shape[0] == batches else
            b.broadcast_in_dim(b.reshape(b.convert(v, t), []), [batches], []) for v in params]
    key, counter = _kc(b, seed, seed2, offset)
    out = _loop(b, flat, key, counter, t, batches, per, n, dt, skip=0)
    return b.reshape(out, dims)


def _check_v1(params, batches):
    mean, sd, lo, hi = (np.broadcast_to(np.asarray(v).reshape(-1), (batches,)) for v in params)
    bad = ~((sd > 0) & (lo < hi) & (np.isfinite(lo) | np.isfinite(hi)))
    if np.any(bad):
        raise op_error(STATEFUL, "Invalid parameters")


register(STATEFUL, ("shape", "means", "stdevs", "minvals", "maxvals", "offset"), stateful_ptn,
         attrs={"seed": 0, "seed2": 0, "dtype": None, "T": None}, const_inputs=("shape",),
         typed=("means", "stdevs", "minvals", "maxvals"), stateful=True)


@register_gradient(STATEFUL)
def _stateful_ptn_grad(b, op, grad):
    """TF registers no gradient for the stateful kernel: None for every input (not the loop's derivative)."""
    return [None] * 6
