"""The rest of `tf.random`'s kernels, reproducing TF 2.21's eager CPU kernels from the same Philox
stream as ops/random_ops.py.

Compiled (TF has XLA kernels for these, so jit_compile=True works; like the other stateful ops we
keep the eager stream there, not tf2xla's):

* MinixlaMultinomialV2 (`tf.random.categorical`): TF's MultinomialOp body on an explicit
  (key, counter), as StatelessMultinomial after GenerateKey (conv3d_random_ops.py);
* MinixlaShuffleIndicesV2 (`tf.random.shuffle`, `experimental.stateless_shuffle`): RandomShuffle's
  and StatelessShuffle's Fisher-Yates permutation, `i <-> i + word_i % (n - i)` with one Philox
  word per step, unrolled for the static n (the stateless one is refused under jit, as by TF).

Host ops (a host Philox; TF 2.21 has no XLA kernel for the first four, so jit_compile=True fails
with TF's "Detected unsupported operations"): StatelessRandomGammaV3 (also `tf.random.gamma`) and its
gradient RandomGammaGrad, MinixlaRandomPoissonV2 (`stateless_poisson`, `poisson`),
MinixlaRandomBinomialV2 (`stateless_binomial`) and MinixlaParameterizedTruncatedNormalV2
(`stateless_parameterized_truncated_normal`). The first three restart the stream for each output
(256 blocks apart, TF's kReservedSamplesPerOutput; binomial inversion 42) and run TF's rejection
loops in double, so they match TF up to the last ulp of libm's log/sin/lgamma.
"""

from __future__ import annotations

import math

import numpy as np

from minixla.frontend.builder import Spec
from minixla.frontend.errors import InternalError
from minixla.frontend.ops.random_ops import _unit64, _words
from minixla.frontend.ops.registry import is_float, op_error, register, register_gradient, shape_text

_M32 = 0xFFFFFFFF
_RESERVED = 256  # kReservedSamplesPerOutput
_MAX_ITERATIONS = 1000  # the truncated normal's kMaxIterations


# -- a host Philox-4x32-10 (TF's random::PhiloxRandom) ----------------------------------------

def _philox(key: int, ctr: int) -> tuple[int, int, int, int]:
    """One output block for 64-bit key and 128-bit counter (word 0 = lowest 32 bits)."""
    c = [(ctr >> (32 * i)) & _M32 for i in range(4)]
    k0, k1 = key & _M32, key >> 32
    for r in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & _M32, (p0 >> 32) ^ c[3] ^ k1, p0 & _M32]
        if r < 9:
            k0, k1 = (k0 + 0x9E3779B9) & _M32, (k1 + 0xBB67AE85) & _M32
    return tuple(c)


class _Stream:
    """A PhiloxRandom copy skipped to block `start`: `block()` returns the next 4 words."""

    def __init__(self, key: int, counter: int, start: int):
        self.key, self.ctr = key, (counter + start) & ((1 << 128) - 1)

    def block(self):
        out = _philox(self.key, self.ctr)
        self.ctr = (self.ctr + 1) & ((1 << 128) - 1)
        return out


def _to_double(x0: int, x1: int) -> float:
    """Uint64ToDouble: 20 mantissa bits from x0, 32 from x1, in [0, 1)."""
    bits = (1023 << 52) | ((x0 & 0xFFFFF) << 32) | x1
    return float(np.array(bits, np.uint64).view(np.float64)) - 1.0


def _to_float(x: int) -> np.float32:
    return np.array(0x3F800000 | (x & 0x7FFFFF), np.uint32).view(np.float32) - np.float32(1)


def _uniform_block(s: _Stream, ct) -> list:
    """UniformDistribution<ct>: 2 doubles or 4 floats from one block."""
    w = s.block()
    if ct == np.float64:
        return [_to_double(w[0], w[1]), _to_double(w[2], w[3])]
    return [_to_float(v) for v in w]


def _normal_block(s: _Stream) -> list:
    """NormalDistribution<double>: Box-Muller on two doubles (sin first)."""
    return _normal_block_from(s.block())


class _Buffer:
    """TF's SampleBuffer / UNIFORM macro: a block's samples handed out last first."""

    def __init__(self, fill):
        self.fill, self.left = fill, []

    def __call__(self):
        if not self.left:
            self.left = list(self.fill())
        return self.left.pop()


def _log(x: float) -> float:
    """C's log: -inf at 0 and nan below (math.log raises)."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _log1p(x: float) -> float:
    return math.log1p(x) if x > -1 else (-math.inf if x == -1 else math.nan)


def _kc(key, counter) -> tuple[int, int]:
    k = int(np.asarray(key).reshape(-1)[0])
    c = [int(v) for v in np.asarray(counter).reshape(-1)]
    return k, c[0] | (c[1] << 64)


def _dims(op, shape) -> list[int]:
    dims = [int(d) for d in np.asarray(shape).reshape(-1)]
    if any(d < 0 for d in dims):
        raise op_error(op, f"Dimension {min(dims)} must be >= 0")
    return dims


def _split(op, dims, params, what):
    """(num_params, samples_per_param): `dims` must end with the parameters' shape."""
    ps = list(params.shape)
    if len(ps) > len(dims) or (ps and dims[len(dims) - len(ps):] != ps):
        raise op_error(op, "Shape passed in must end with broadcasted shape.")
    n = int(np.prod(dims, dtype=np.int64))
    k = int(params.size)
    if k == 0 and n:
        raise op_error(op, f"Input {what} should have non-zero element count, got: 0")
    return k, (n // k if k else 0)


# -- gamma ------------------------------------------------------------------------------------

def _gamma_one(alpha: float, s: _Stream) -> float:
    if alpha == 1.0:
        return -_log1p(-_uniform_block(s, np.float64)[1])
    normal, uniform = _Buffer(lambda: _normal_block(s)), _Buffer(lambda: _uniform_block(s, np.float64))
    small = alpha < 1
    d = alpha + (2.0 / 3 if small else -1.0 / 3)
    c = 1.0 / 3 / math.sqrt(d) if d > 0 else (math.inf if d == 0 else math.nan)  # C's IEEE results
    while True:
        x = normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or _log(u) < 0.5 * x * x + d * (1 - v + _log(v)):
            res = d * v
            if small:
                res *= uniform() ** (1 / alpha if alpha else math.inf)
            return res


def _gamma(shape, key, counter, alg, alpha, dtype=np.float32, shape_dtype=None):
    op = "StatelessRandomGammaV3"
    dims = _dims(op, shape)
    k, per = _split(op, dims, alpha, "alpha")
    kk, cc = _kc(key, counter)
    flat = alpha.reshape(-1).astype(np.float64)
    out = np.empty(k * per, np.float64)
    for idx in range(k * per):  # output idx: alpha-major; written sample-major, as TF's kernel
        a, j = divmod(idx, per)
        out[j * k + a] = _gamma_one(float(flat[a]), _Stream(kk, cc, _RESERVED * idx))
    return out.astype(dtype).reshape(dims)


register("StatelessRandomGammaV3", ("shape", "key", "counter", "alg", "alpha"), None, host=_gamma,
         attrs={"dtype": np.float32, "shape_dtype": None}, const_inputs=("shape",), typed=("alpha",),
         infer=lambda shape, key, counter, alg, alpha, dtype=np.float32, shape_dtype=None:
         Spec(tuple(int(d) for d in np.asarray(shape).reshape(-1)), np.dtype(dtype)))


def gamma_grad(b, alpha, sample, T=None):
    """d sample / d alpha of a Gamma(alpha, 1) sample by implicit differentiation (Eigen's
    gamma_sample_der_alpha): -(dP/da) / (dP/dx) with P the regularized lower incomplete gamma, dP/da
    IgammaGradA's series / continued fraction and dP/dx the Gamma(alpha) density; 0 at sample 0 and where
    the density underflows (the host kernel's values to a few ulp)."""
    from minixla.frontend.ops.registry import REGISTRY, broadcast_all

    if not is_float(alpha.dtype):
        raise op_error("RandomGammaGrad", f"alpha must be a floating tensor, got {np.dtype(alpha.dtype).name}")
    a, x = broadcast_all(b, "RandomGammaGrad", alpha, sample)
    dt = np.dtype(a.dtype)
    if dt.itemsize < 4:
        a, x = b.convert(a, np.float32), b.convert(x, np.float32)
    der = REGISTRY["IgammaGradA"].rule(b, a, x)
    one = b.full(a.shape, 1.0, a.dtype)
    log_pdf = b.subtract(b.subtract(b.multiply(b.subtract(a, one), b.log(x)), x), REGISTRY["Lgamma"].rule(b, a))
    pdf = b.exponential(log_pdf)
    zero = b.full(a.shape, 0.0, a.dtype)
    out = b.select(b.or_(b.compare(x, zero, "EQ"), b.compare(pdf, zero, "EQ")), zero, b.negate(b.divide(der, pdf)))
    return b.convert(out, dt)


register("RandomGammaGrad", ("alpha", "sample"), gamma_grad, attrs={"T": None})


@register_gradient("StatelessRandomGammaV3")
def _gamma_v3_grad(b, op, grad):
    """TF's gradient: reduce_sum(grad * RandomGammaGrad(alpha, sample)) over the sample dimensions."""
    alpha, sample = op.inputs[4], op.outputs[0]
    k = len(sample.shape) - len(alpha.shape)
    a = b.broadcast_in_dim(alpha, list(sample.shape), list(range(k, len(sample.shape))))
    partial = b.tf_op("RandomGammaGrad", a, sample)[0]
    prod = b.multiply(grad, partial)
    red = b.reduce(prod, b.scalar(0, np.dtype(prod.dtype)), list(range(k)), "add") if k else prod
    return [None, None, None, None, red]


# -- poisson ----------------------------------------------------------------------------------

def _poisson_one(rate: float, s: _Stream) -> float:
    """TF's PoissonFunctor (computed in double, whatever the rate's type): Knuth below 10, else
    Hormann's transformed rejection."""
    uniform = _Buffer(lambda: _uniform_block(s, np.float64))
    if rate < 10:
        exp_neg, prod, x = _exp(-rate), 1.0, 0.0
        while True:
            prod *= uniform()
            if prod <= exp_neg:
                return x
            x += 1
    log_rate = _log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if _log(v * inv_alpha / (a / (us * us) + b)) <= -rate + k * log_rate - math.lgamma(k + 1):
            return k


def _poisson(shape, key, counter, alg, lam, dtype=np.int32, Rtype=None):
    op = "MinixlaRandomPoissonV2"
    dims = _dims(op, shape)
    k, per = _split(op, dims, lam, "rate")
    kk, cc = _kc(key, counter)
    flat = lam.reshape(-1).astype(np.float64)
    out = np.empty(k * per, np.float64)
    for idx in range(k * per):
        a, j = divmod(idx, per)
        out[j * k + a] = _poisson_one(float(flat[a]), _Stream(kk, cc, _RESERVED * idx))
    return out.astype(dtype).reshape(dims)


register("MinixlaRandomPoissonV2", ("shape", "key", "counter", "alg", "lam"), None, host=_poisson,
         attrs={"dtype": np.int32, "Rtype": None}, const_inputs=("shape",), typed=("lam",),
         infer=lambda shape, key, counter, alg, lam, dtype=np.int32, Rtype=None:
         Spec(tuple(int(d) for d in np.asarray(shape).reshape(-1)), np.dtype(dtype)))


# -- binomial ---------------------------------------------------------------------------------

def _binomial_inversion(count: float, prob: float, s: _Stream) -> float:
    """Sum geometric variables until they exceed `count`."""
    uniform = _Buffer(lambda: _uniform_block(s, np.float64))
    geom_sum, num = 0.0, 0
    while True:
        geom_sum += math.ceil(_log(uniform()) / _log1p(-prob))
        if geom_sum > count:
            return float(num)
        num += 1


_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
         0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count: float, prob: float, s: _Stream) -> float:
    """Hormann's transformed rejection (BTRS), with TF's constants."""
    uniform = _Buffer(lambda: _uniform_block(s, np.float64))
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u, v = uniform(), uniform()
        u -= 0.5
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or k > count:
            continue
        v = _log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * _log((m + 1) / (r * (count - m + 1)))
                 + (count + 1) * _log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * _log(r * (count - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m) - _stirling_tail(k) - _stirling_tail(count - k))
        if v <= bound:
            return k


def _binomial_one(count, prob, idx: int, kk: int, cc: int) -> float:
    """RandomBinomialFunctor for one output: the tests in the parameters' type T, the draws in double;
    inversion reserves 42 blocks per output, BTRS 256."""
    t = type(prob)
    dcount = float(count)
    if dcount <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return dcount
    if prob != prob:
        return math.nan
    flip = prob > t(0.5)
    p = t(t(1) - prob) if flip else prob
    if t(count * p) >= t(10):
        x = _btrs(dcount, float(p), _Stream(kk, cc, 256 * idx))
    else:
        x = _binomial_inversion(dcount, float(p), _Stream(kk, cc, 42 * idx))
    return dcount - x if flip else x


def _binomial(shape, key, counter, alg, counts, probs, dtype=np.int32, T=None):
    op = "MinixlaRandomBinomialV2"
    dims = _dims(op, shape)
    try:
        bshape = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise op_error(op, f"counts and probs must have compatible batch dimensions: {shape_text(counts.shape)} vs. "
                           f"{shape_text(probs.shape)}") from None
    batches, per = _split(op, dims, np.empty(bshape), "counts")
    kk, cc = _kc(key, counter)
    cnt, prb = np.broadcast_to(counts, bshape).reshape(-1), np.broadcast_to(probs, bshape).reshape(-1)
    out = np.empty(batches * per, np.float64)
    with np.errstate(all="ignore"):
        for idx in range(batches * per):
            a, j = divmod(idx, per)
            out[j * batches + a] = _binomial_one(cnt[a], prb[a], idx, kk, cc)
    return out.astype(dtype).reshape(dims)


register("MinixlaRandomBinomialV2", ("shape", "key", "counter", "alg", "counts", "probs"), None, host=_binomial,
         attrs={"dtype": np.int32, "T": None}, const_inputs=("shape",), typed=("counts", "probs"),
         infer=lambda shape, key, counter, alg, counts, probs, dtype=np.int32, T=None:
         Spec(tuple(int(d) for d in np.asarray(shape).reshape(-1)), np.dtype(dtype)))


# -- parameterized truncated normal -------------------------------------------------------------

def _normal_block_t(s: _Stream, t) -> list:
    """NormalDistribution<t>: Box-Muller (sin first) on word pairs (floats) or double pairs."""
    w = s.block()
    if t == np.float64:
        return _normal_block_from(w)
    out = []
    for x0, x1 in ((w[0], w[1]), (w[2], w[3])):
        u1 = max(_to_float(x0), np.float32(1e-7))
        v1 = np.float32(2 * math.pi * float(_to_float(x1)))
        # libm's logf / sinf / cosf are correctly rounded: the double result rounded to float
        r = np.sqrt(np.float32(-2) * np.float32(_log(u1)))
        out += [np.float32(math.sin(v1)) * r, np.float32(math.cos(v1)) * r]
    return out


def _normal_block_from(w) -> list:
    u1 = max(_to_double(w[0], w[1]), 1e-7)
    v1 = 2 * math.pi * _to_double(w[2], w[3])
    r = math.sqrt(-2.0 * _log(u1))
    return [math.sin(v1) * r, math.cos(v1) * r]


def _exp(x: float) -> float:
    return math.exp(x) if x < 709.78 else math.inf


def _libm(fn, x, t):
    """libm's float function: the double result rounded to float (correctly rounded, as glibc's)."""
    return t(fn(float(x)))


def _ptn(shape, key, counter, alg, means, stddevs, minvals, maxvals, dtype=np.float32):
    """TruncatedNormalFunctorV2 in one shard: one sequential stream over the outputs (batch-major),
    a new block at each batch; normal rejection, uniform rejection or exponential rejection by TF's
    rule on the normalized bounds."""
    op = "StatelessParameterizedTruncatedNormal"
    dims = _dims(op, shape)
    params = [np.asarray(v) for v in (means, stddevs, minvals, maxvals)]
    try:
        bshape = np.broadcast_shapes(*(v.shape for v in params))
    except ValueError:
        raise op_error(op, "means, stddevs, minvals, maxvals must have compatible batch dimensions") from None
    batches, per = _split(op, dims, np.empty(bshape), "parameters")
    t = np.dtype(dtype).type if np.dtype(dtype) == np.float64 else np.float32
    flat = [np.broadcast_to(v, bshape).reshape(-1).astype(t) for v in params]
    kk, cc = _kc(key, counter)
    s = _Stream(kk, cc, 0)
    out = np.empty(batches * per, t)
    uniform = (lambda: _uniform_block(s, t)) if t == np.float64 else (lambda: [t(v) for v in _uniform_block(s, t)])
    with np.errstate(all="ignore"):
        for bi in range(batches if per else 0):
            mean, sd, lo, hi = (v[bi] for v in flat)
            if not (sd > 0 and lo < hi and (np.isfinite(lo) or np.isfinite(hi))):
                raise op_error(op, "Invalid parameters")
            if (np.isinf(lo) and lo < 0) or hi < mean:
                lo, hi, sd = hi, lo, -sd
            nmin, nmax = t((lo - mean) / sd), t((hi - mean) / sd)
            sqrt_f = np.sqrt(nmin * nmin + t(4))
            cutoff = t(2) * _libm(_exp, t(0.5) + (nmin * (nmin - sqrt_f)) / t(4), t) / (nmin + sqrt_f)
            diff = t(nmax - nmin)
            got, misses = [], [0]

            def miss(sampler, limit=_MAX_ITERATIONS):  # so many rejections in a row: TF's InternalError
                misses[0] += 1
                if misses[0] >= limit:
                    raise InternalError(f"TruncatedNormal {sampler} rejection sampler failed to accept a sample. "
                                        f"[Op:{op}]")

            def take(v):
                got.append(v)
                misses[0] = 0
                return len(got) == per

            if (nmin < t(-1.3) and nmax >= 0) or (nmax > t(1.3) and nmin <= 0):
                while len(got) < per:
                    for z in _normal_block_t(s, t):
                        if nmin <= z <= nmax:
                            if take(t(z) * sd + mean):
                                break
                        else:
                            miss("randn", _MAX_ITERATIONS + 1)
            elif diff < cutoff:
                plus = t(0) if nmin < 0 else nmin * nmin
                while len(got) < per:
                    z = [r * diff + nmin for r in uniform()]
                    g = [(plus - v * v) / t(2) for v in z]
                    for zi, gi, ui in zip(z, g, uniform()):
                        if ui <= _libm(_exp, gi, t):
                            if take(zi * sd + mean):
                                break
                        else:
                            miss("uniform")
            else:
                alpha = (nmin + np.sqrt(nmin * nmin + t(4))) / t(2)
                while len(got) < per:
                    r = uniform()
                    for i in range(0, len(r), 2):
                        z = -_libm(_log, r[i], t) / alpha + nmin
                        x = alpha - z if nmin < alpha else nmin - alpha
                        if r[i + 1] <= _libm(_exp, -x * x / t(2), t) and z < nmax:
                            if take(z * sd + mean):
                                break
                        else:
                            miss("exponential distribution")
            out[np.arange(per) * batches + bi] = got
    return out.astype(dtype).reshape(dims)


register("MinixlaParameterizedTruncatedNormalV2",
         ("shape", "key", "counter", "alg", "means", "stddevs", "minvals", "maxvals"), None, host=_ptn,
         attrs={"dtype": np.float32}, const_inputs=("shape",), typed=("means", "stddevs", "minvals", "maxvals"),
         infer=lambda shape, key, counter, alg, *p, dtype=np.float32:
         Spec(tuple(int(d) for d in np.asarray(shape).reshape(-1)), np.dtype(dtype)))


# -- compiled: categorical and shuffle ---------------------------------------------------------

def multinomial(b, logits, num_samples, key, counter, alg, output_dtype=np.int64, T=None):
    """TF's MultinomialOp on (key, counter): double CDF of exp(logit - max) over finite logits,
    one RandDouble() * total per sample, upper_bound; rows and samples read the stream in order."""
    op = "Multinomial"
    if len(logits.shape) != 2:
        raise op_error(op, f"logits should be a matrix, got shape {shape_text(logits.shape)}")
    ns = int(np.asarray(num_samples).reshape(()))
    if ns < 0:
        raise op_error(op, f"num_samples should be non-negative, got {ns}")
    rows, k = logits.shape
    if k <= 0:
        raise op_error(op, f"num_classes should be positive, got {k}")
    if rows * ns == 0:
        return b.full([rows, ns], 0, output_dtype)
    f64 = np.float64
    x = b.convert(logits, f64)
    fin = b.is_finite(x)
    lowest = float(np.finfo(np.dtype(logits.dtype) if np.dtype(logits.dtype).kind == "f" else np.float32).min)
    mx = b.reduce(b.select(fin, x, b.full(x.shape, lowest, f64)), b.scalar(-np.inf, f64), [1], "maximum")
    e = b.select(fin, b.exponential(b.subtract(x, b.broadcast_in_dim(mx, x.shape, [0]))), b.full(x.shape, 0, f64))
    cols, total = [], None
    for j in range(k):  # TF's running total, left to right
        col = b.reshape(b.slice(e, [0, j], [rows, j + 1]), [rows])
        total = col if total is None else b.add(total, col)
        cols.append(b.reshape(total, [rows, 1]))
    cdf = b.concatenate(cols, 1)
    w = b.reshape(_words(b, op, key, counter, alg, 2 * rows * ns), [rows * ns, 2])
    x0, x1 = (b.reshape(b.slice(w, [0, i], [rows * ns, i + 1]), [rows, ns]) for i in (0, 1))
    find = b.multiply(_unit64(b, x0, x1), b.broadcast_in_dim(total, [rows, ns], [0]))
    le = b.compare(b.broadcast_in_dim(cdf, [rows, ns, k], [0, 2]), b.broadcast_in_dim(find, [rows, ns, k], [0, 1]),
                   "LE")
    cnt = b.select(le, b.full(le.shape, 1, output_dtype), b.full(le.shape, 0, output_dtype))
    return b.reduce(cnt, b.scalar(0, output_dtype), [2], "add")


register("MinixlaMultinomialV2", ("logits", "num_samples", "key", "counter", "alg"), multinomial,
         attrs={"output_dtype": np.int64, "T": None}, const_inputs=("num_samples", "alg"), typed=("logits",))


def shuffle_indices(b, key, counter, alg, n=0, stateless=False):
    """RandomShuffle's permutation of range(n): for i < n - 1, swap i and i + word_i % (n - i)."""
    i32, u32 = np.dtype(np.int32), np.dtype(np.uint32)
    perm = b.constant(np.arange(n, dtype=np.int32))
    if n <= 1:
        return perm
    w = _words(b, "RandomShuffle", key, counter, alg, 4 * ((n - 1 + 3) // 4))
    for i in range(n - 1):
        wi = b.reshape(b.slice(w, [i], [i + 1]), [])
        j = b.add(b.convert(b.remainder(wi, b.scalar(n - i, u32)), i32), b.scalar(i, i32))
        pi = b.slice(perm, [i], [i + 1])
        pj = b.dynamic_slice(perm, [j], [1])
        perm = b.dynamic_update_slice(perm, pi, [j])
        perm = b.dynamic_update_slice(perm, pj, [b.scalar(i, i32)])
    return perm


register("MinixlaShuffleIndicesV2", ("key", "counter", "alg"), shuffle_indices, attrs={"n": 0, "stateless": False},
         const_inputs=("alg",), typed=(), xla_kernel=lambda attrs: not attrs.get("stateless"))
# TF 2.21 compiles RandomShuffle (its own XLA numbers) but has no XLA kernel for StatelessShuffle
