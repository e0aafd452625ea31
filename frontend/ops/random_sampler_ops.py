"""TF's candidate samplers (Uniform, LogUniform, LearnedUnigram, FixedUnigram, All): host ops, as
in TF (no XLA kernels), reproducing the CPU kernels (candidate_sampler_ops.cc, range_sampler.cc) on
the Philox stream of ops/random_extra_ops.py; and RandomIndexShuffle (no XLA kernel in TF either).

Each call reads a SimplePhilox over the kernel's (key, counter): Uniform64 / Uniform draw with TF's
exact rejection (ExactUniformInt), RandDouble / RandFloat from 2 / 1 words. With `unique`, samples
are redrawn until `num_sampled` distinct ones are found and the expected counts are
1 - (1 - p)^num_tries (float math), else p * num_sampled. LearnedUnigram's weights start at 1 and
count the true classes after every call: that state lives in `state` (one per eager kernel or traced
op, like TF's kernel).
"""

from __future__ import annotations

import math

import numpy as np

from minixla.frontend.builder import Spec
from minixla.frontend.ops.random_extra_ops import _kc, _philox, _to_double, _to_float
from minixla.frontend.ops.registry import op_error, register

_F32 = np.float32
_INT32_MAX = 2 ** 31 - 1


class _SimplePhilox:
    """SimplePhilox over a SingleSampleAdapter: one 32-bit word at a time, in block order."""

    def __init__(self, key: int, counter: int):
        self.key, self.ctr, self.words = key, counter, []

    def rand32(self) -> int:
        if not self.words:
            self.words = list(_philox(self.key, self.ctr))[::-1]
            self.ctr = (self.ctr + 1) & ((1 << 128) - 1)
        return self.words.pop()

    def rand64(self) -> int:
        lo = self.rand32()
        return lo | self.rand32() << 32

    def rand_double(self) -> float:
        x0 = self.rand32()
        return _to_double(x0, self.rand32())

    def rand_float(self):
        return _to_float(self.rand32())

    def uniform(self, n: int, bits: int = 32) -> int:
        """ExactUniformInt: mask for powers of two, else reject [0, (2^bits - 1) % n + 1)."""
        draw = self.rand32 if bits == 32 else self.rand64
        if n == 0:
            return draw() * 0
        if n & (n - 1) == 0:
            return draw() & (n - 1)
        rem = ((1 << bits) - 1) % n + 1
        while True:
            r = draw()
            if r >= rem:
                return r % n


def _f32(fn, x) -> np.float32:
    return _F32(fn(float(x)))


def _expected(p, batch: int, tries: int) -> np.float32:
    """ExpectedCountHelper in float."""
    p = _F32(p)
    if tries == batch:
        return _F32(p * _F32(batch))
    return -_f32(math.expm1, _F32(tries) * _f32(math.log1p, -p))


class _Uniform:
    def __init__(self, n):
        self.range, self.inv = n, _F32(1.0 / n)

    def sample(self, r):
        return r.uniform(self.range, 64)

    def prob(self, v):
        return self.inv


class _LogUniform:
    def __init__(self, n):
        self.range, self.log_range = n, math.log1p(n)

    def sample(self, r):
        return (int(math.exp(r.rand_double() * self.log_range)) - 1) % self.range

    def prob(self, v):
        return _F32(math.log((v + 2.0) / (v + 1.0)) / self.log_range)


class _Learned:
    """UnigramSampler's WeightedPicker: pick the leaf holding UnbiasedUniform(total) of the weights."""

    def __init__(self, weights):
        self.range, self.w = len(weights), weights

    def sample(self, r):
        total = int(self.w.sum())
        if total == 0:
            return -1
        return int(np.searchsorted(np.cumsum(self.w), r.uniform(total), side="right"))

    def prob(self, v):
        return _F32(_F32(self.w[v]) / _F32(self.w.sum()))


class _Fixed:
    """FixedUnigramSampler: weights w^distortion (reserved ids 0) drawn with Walker's alias table."""

    def __init__(self, weights, total):
        self.range, self.w, self.total = len(weights), weights, total
        n = len(weights)
        s = float(sum(float(w) for w in weights))
        pr = [float(_F32(w * _F32(n))) / s for w in weights]
        alt = [-1] * n
        high = [i for i in range(n) if pr[i] >= 1.0]
        low = [i for i in range(n) if pr[i] < 1.0]
        while high and low:
            lo, hi = low.pop(), high.pop()
            alt[lo] = hi
            pr[hi] = pr[hi] - (1.0 - pr[lo])
            (low if pr[hi] < 1.0 else high).append(hi)
        prob = [_F32(p) for p in pr]
        for i in high + low:
            prob[i], alt[i] = _F32(1.0), i
        self.prob_t, self.alt = prob, alt

    def sample(self, r):
        x = r.rand_float()
        i = r.uniform(self.range)
        return i if x < self.prob_t[i] else self.alt[i]

    def prob(self, v):
        return _F32(self.w[v] / self.total) if 0 <= v < self.range else _F32(0)


def _run(op, sampler, true_classes, key, counter, num_true, num_sampled, unique):
    if true_classes.ndim != 2:
        raise op_error(op, "true_classes must be a matrix")
    if true_classes.shape[1] != num_true:
        raise op_error(op, f"true_classes must have num_true columns, expected: {true_classes.shape[1]} was: "
                           f"{num_true}")
    if unique and num_sampled > sampler.range:
        raise op_error(op, "Sampler's range is too small.")
    true = true_classes.reshape(-1).astype(np.int64)
    for c in true:
        if not 0 <= c < sampler.range:
            raise op_error(op, f"`true_candidate` out of range [0, {sampler.range}), received {c}")
    r = _SimplePhilox(*_kc(key, counter))
    batch = []
    if unique:
        seen, tries = set(), 0
        while len(batch) < num_sampled:
            tries += 1
            v = sampler.sample(r)
            if v not in seen:
                seen.add(v)
                batch.append(v)
    else:
        batch = [sampler.sample(r) for _ in range(num_sampled)]
        tries = num_sampled
    sampled_count = np.array([_expected(sampler.prob(v), num_sampled, tries) for v in batch], np.float32)
    true_count = np.array([_expected(sampler.prob(v), num_sampled, tries) for v in true], np.float32)
    return (np.array(batch, np.int64), true_count.reshape(true_classes.shape), sampled_count)


def _check_range(op, range_max, unigram=False):
    if range_max <= 0:
        raise op_error(op, "range_max must be positive")
    if unigram and range_max >= _INT32_MAX:
        raise op_error(op, f"range_max must be less than {_INT32_MAX} for unigram samplers, got {range_max}")


def _uniform(true_classes, key, counter, num_true=1, num_sampled=1, unique=True, range_max=1):
    _check_range("UniformCandidateSampler", range_max)
    return _run("UniformCandidateSampler", _Uniform(range_max), true_classes, key, counter, num_true, num_sampled,
                unique)


def _log_uniform(true_classes, key, counter, num_true=1, num_sampled=1, unique=True, range_max=1):
    _check_range("LogUniformCandidateSampler", range_max)
    return _run("LogUniformCandidateSampler", _LogUniform(range_max), true_classes, key, counter, num_true,
                num_sampled, unique)


class PickerState:
    """A learned-unigram kernel's weights (callable, so that a traced op can carry it as an attribute)."""

    def __init__(self):
        self.weights = None

    def __call__(self):
        return self.weights


def _learned(true_classes, key, counter, num_true=1, num_sampled=1, unique=True, range_max=1, state=None):
    op = "LearnedUnigramCandidateSampler"
    _check_range(op, range_max, unigram=True)
    if state.weights is None:
        state.weights = np.ones(range_max, np.int64)
    w = state.weights
    out = _run(op, _Learned(w), true_classes, key, counter, num_true, num_sampled, unique)
    for v in true_classes.reshape(-1)[:max(0, min(true_classes.size, _INT32_MAX - int(w.sum())))]:
        w[int(v)] += 1  # ThreadUnsafeUnigramSampler::Update
    return out


def _fixed(true_classes, key, counter, num_true=1, num_sampled=1, unique=True, range_max=1, vocab_file="",
           distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=()):
    op = "FixedUnigramCandidateSampler"
    _check_range(op, range_max)
    if not vocab_file and not len(unigrams):
        raise op_error(op, "Must provide either vocab_file or unigrams.")
    if vocab_file and len(unigrams):
        raise op_error(op, "Must only provide one of vocab_file and unigrams.")
    weights = [_F32(0)] * sum(1 for i in range(num_reserved_ids) if i % num_shards == shard)
    if vocab_file:
        with open(vocab_file) as fh:
            unigrams = [float(line.rstrip("\n").split(",")[-1]) for line in fh if line.strip()]
    total, word = _F32(0), len(weights)
    d = _F32(distortion)
    for u in unigrams:
        if word % num_shards == shard:
            w = _F32(math.pow(float(_F32(u)), float(d)))
            total = _F32(total + w)
            weights.append(w)
        word += 1
    if len(weights) != range_max:
        raise op_error(op, f"range is {range_max} must be equal to weights size  {len(weights)}")
    return _run(op, _Fixed(weights, total), true_classes, key, counter, num_true, num_sampled, unique)


def _infer(true_classes, key, counter, num_sampled=1, **kw):
    shape = None if true_classes.shape is None else tuple(true_classes.shape)
    return (Spec((num_sampled,), np.dtype(np.int64)), Spec(shape, np.dtype(np.float32)),
            Spec((num_sampled,), np.dtype(np.float32)))


_ATTRS = {"num_true": 1, "num_sampled": 1, "unique": True, "range_max": 1}
_FIXED = {"vocab_file": "", "distortion": 1.0, "num_reserved_ids": 0, "num_shards": 1, "shard": 0, "unigrams": ()}
# Our own op names: TF's kernels take (seed, seed2) attributes, these the kernel's (key, counter) inputs
for _name, _host, _attrs in (("Uniform", _uniform, _ATTRS), ("LogUniform", _log_uniform, _ATTRS),
                             ("LearnedUnigram", _learned, {**_ATTRS, "state": None}),
                             ("FixedUnigram", _fixed, {**_ATTRS, **_FIXED}),
                             ("All", lambda t, k, c, num_true=1, num_sampled=1, unique=True: _all(t, num_true,
                                                                                                   num_sampled),
                              {"num_true": 1, "num_sampled": 1, "unique": True})):
    register(f"Minixla{_name}CandidateSamplerV2", ("true_classes", "key", "counter"), None, host=_host,
             attrs=dict(_attrs), typed=(), infer=_infer, stateful=True)


def _all(true_classes, num_true, num_sampled):
    """AllSampler: candidates 0..num_sampled-1, every expected count 1 (the true classes' too)."""
    if true_classes.ndim != 2:
        raise op_error("AllCandidateSampler", "true_classes must be a matrix")
    if true_classes.shape[1] != num_true:
        raise op_error("AllCandidateSampler", f"true_classes must have num_true columns, expected: "
                                              f"{true_classes.shape[1]} was: {num_true}")
    for c in true_classes.reshape(-1):
        if not 0 <= c < num_sampled:
            raise op_error("AllCandidateSampler", f"`true_candidate` out of range [0, {num_sampled}), received {c}")
    return (np.arange(num_sampled, dtype=np.int64), np.ones(true_classes.shape, np.float32),
            np.ones(num_sampled, np.float32))


# -- RandomIndexShuffle (a host op: TF 2.21 has no XLA kernel for it) ----------------------------

def _block_bits(max_index: int) -> int:
    """TF's block size: ceil(log2(max_index)) rounded up to even, at least 16."""
    bits = int(math.ceil(math.log2(max_index)))
    return max(bits + bits % 2, 16)


def _index_shuffle(index, seed, max_index, rounds=4, dtype=None, Tseed=None):
    """A Simon-cipher permutation of [0, max_index] (TF's random_index_shuffle.cc): `rounds` Feistel
    rounds on w = block / 2 bit words keyed by the seed's 3 words (as uint32), cycle-walking while the
    result exceeds max_index. Vectorized over the indices (numpy uint64 lanes)."""
    op = "RandomIndexShuffle"
    top = int(np.asarray(max_index).reshape(-1)[0])
    size = index.size
    if seed.shape not in ((3,), (size, 3)):
        raise op_error(op, f"Seed must be a vector of size [3] or a matrix of size [{size}, 3] but got "
                           f"[{','.join(map(str, seed.shape))}].")
    if rounds < 4 or rounds % 2:
        raise op_error(op, f"Rounds must be >= 4 and even, got {rounds}")
    if top == 0:
        return np.zeros_like(index)
    w = _block_bits(top) // 2
    u = np.uint64
    mask = u((1 << w) - 1)

    def rot(x, r):
        return ((x << u(r)) | (x >> u(w - r))) & mask

    def f(x):
        return (rot(x, 1) & rot(x, 8)) ^ rot(x, 2)

    words = np.broadcast_to(seed.astype(np.uint32).astype(np.uint64).reshape(-1, 3), (size, 3))
    keys = [words[:, i] & mask for i in range(3)]
    c, z = u(0xFFFFFFFC & int(mask)), 0x7369F885192C0EF5 & int(mask)
    for _ in range(3, rounds):
        keys.append(c ^ u(z & 1) ^ keys[-3] ^ rot(keys[-1], w - 3) ^ rot(keys[-1], w - 4))
        z >>= 1

    def encrypt(v, ks):
        left, right = (v >> u(w)) & mask, v & mask
        for i in range(0, rounds, 2):
            left = left ^ f(right) ^ ks[i]
            right = right ^ f(left) ^ ks[i + 1]
        return (left << u(w)) | right

    out = encrypt(index.reshape(-1).astype(np.uint64), keys)
    todo = np.nonzero(out > u(top))[0]
    while todo.size:  # cycle-walking, on the indices still outside [0, max_index]
        out[todo] = encrypt(out[todo], [k[todo] for k in keys])
        todo = todo[out[todo] > u(top)]
    return out.astype(index.dtype).reshape(index.shape)


register("RandomIndexShuffle", ("index", "seed", "max_index"), None, host=_index_shuffle,
         attrs={"rounds": 4, "dtype": None, "Tseed": None}, typed=(),
         infer=lambda index, seed, max_index, **kw: Spec(None if index.shape is None else tuple(index.shape),
                                                         np.dtype(index.dtype)))
