"""The rest of `tf.random` (issue #14): `split`, `fold_in`, `Algorithm`, the global generator,
`categorical`, `shuffle`, `gamma`, `poisson`, the stateless gamma / poisson / binomial /
parameterized truncated normal, `experimental.stateless_shuffle`, and (random_samplers.py) the
candidate samplers.

Stateful ops follow random_stateful.py: TF's seed rules (`get_seed`), and a kernel's Philox generator
is key = seed, counter = (offset, seed2), the offset advancing per call by what TF's kernel reserves
(eager: per (op, dtype, seeds) kernel; tf.function: a counter Variable per op). The draws themselves
are ops/random_extra_ops.py; where TF has no XLA kernel (gamma, poisson, binomial) they are host ops,
and so is the parameterized truncated normal (TF's eager kernel: TF-XLA's own draws differ anyway).
"""

from __future__ import annotations

import enum

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.api import core as api
from minixla.frontend.api import random_stateful as _rs
from minixla.frontend.api.indexing import gather
from minixla.frontend.api.random_stateless import _alg
from minixla.frontend.api.random_stateless import _key_counter as _seed_key_counter
from minixla.frontend.api.random_stateless import stateless_fold_in, stateless_split
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.execute import execute
from minixla.frontend.graph import current_graph, init_scope
from minixla.frontend.ops import random_extra_ops  # noqa: F401  (registers the kernels)

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


class Algorithm(enum.Enum):
    """`tf.random.Algorithm` (random_ops_util.Algorithm)."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def split(seed, num=2, alg="auto_select"):
    return stateless_split(seed, num, alg)


def fold_in(seed, data, alg="auto_select"):
    return stateless_fold_in(seed, data, alg)


_GLOBAL = {"generator": None}


def get_global_generator():
    """TF's global Generator: made from a non-deterministic state on first use (in init_scope)."""
    if _GLOBAL["generator"] is None:
        with init_scope():
            _GLOBAL["generator"] = _rs.Generator.from_non_deterministic_state()
    return _GLOBAL["generator"]


def set_global_generator(generator):
    _GLOBAL["generator"] = generator


def _key_counter(op: str, dt, seed, blocks: int):
    """(key, counter) of a stateful kernel that reserves `blocks` Philox blocks per call."""
    s1, s2 = _rs.get_seed(seed)
    if s1 is None:
        s1, s2 = (int(v) for v in np.random.default_rng().integers(1, 2 ** 63, 2))
    key = api.constant(np.array([s1], np.uint64))
    if current_graph() is None:
        k = (op, dt.name, s1, s2)
        off = _rs._KERNELS.get(k, 0)
        _rs._KERNELS[k] = (off + blocks) % 2 ** 64
        return key, api.constant(np.array([off, s2], np.uint64))
    with init_scope():
        var = _rs.api_variable(np.int64(0))
    off = var.read_value()
    var.assign_add(np.int64(blocks))
    counter = api.concat([api.cast(api.reshape(off, [1]), dtypes.uint64), api.constant(np.array([s2], np.uint64))],
                         0)
    return key, counter


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    dt = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dt not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dt!r}. Accepted dtypes are (tf.int32, tf.int64).")
    logits = api.convert_to_tensor(logits)
    ns = int(np.asarray(num_samples.numpy() if hasattr(num_samples, "numpy") else num_samples))
    rows = logits.shape[0] if logits.shape.rank == 2 else 0
    # MultinomialOp reserves 256 blocks per double (2 words) of ceil4(num_samples) per row
    key, counter = _key_counter(f"Multinomial:{dt.name}", logits.dtype, seed, 256 * rows * ((ns + 3) // 4 * 4) * 2)
    return execute("MinixlaMultinomialV2", [logits, np.asarray(ns, np.int32), key, counter, np.asarray(1, np.int32)],
                   {"output_dtype": dt.np})


def shuffle(value, seed=None, name=None):
    """`tf.random.shuffle`: RandomShuffle's Fisher-Yates over the leading dimension (n - 1 words)."""
    value = api.convert_to_tensor(value)
    if value.shape.rank == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0 for 'RandomShuffle'")
    n = int(value.shape[0])
    if n <= 1 or int(np.prod(value.shape.as_list())) <= 1:  # the kernel copies; the seed is still taken
        _rs.get_seed(seed)
        return api.identity(value)
    key, counter = _key_counter("RandomShuffle", value.dtype, seed, (n - 1 + 3) // 4)
    perm = execute("MinixlaShuffleIndicesV2", [key, counter, np.asarray(1, np.int32)], {"n": n})
    return gather(value, perm)


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """`tf.random.experimental.stateless_shuffle`: RandomShuffle's permutation on the seed's (key, counter)."""
    value = api.convert_to_tensor(value)
    if value.shape.rank == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0 for 'StatelessShuffle'")
    n = int(value.shape[0])
    key, counter = _seed_key_counter(seed)
    perm = execute("MinixlaShuffleIndicesV2", [key, counter, np.asarray(_alg(alg), np.int32)],
                   {"n": n, "stateless": True})
    return gather(value, perm)


def _shape_list(shape):
    if hasattr(shape, "numpy"):
        shape = shape.numpy()
    return [int(d) for d in np.asarray(shape).reshape(-1)]


def _float_dtype(dt, what="dtype"):
    dt = dtypes.as_dtype(dt)
    if dt not in (dtypes.float16, dtypes.float32, dtypes.float64):
        raise TypeError(f"Value passed to parameter '{what}' has DataType {dt.name} not in list of allowed values: "
                        f"half, float32, float64")
    return dt


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """TF's StatelessRandomGammaV3 on the seed's (key, counter), then max(tiny, x / beta)."""
    dt = _float_dtype(dtype)
    alpha = api.cast(alpha, dt)
    beta = api.cast(1 if beta is None else beta, dt)
    alpha = api.broadcast_to(alpha, np.broadcast_shapes(tuple(alpha.shape.as_list()), tuple(beta.shape.as_list())))
    key, counter = _seed_key_counter(seed)
    rnd = execute("StatelessRandomGammaV3", [np.asarray(_shape_list(shape), np.int32), key, counter,
                                             np.asarray(1, np.int32), alpha], {"dtype": dt.np})
    return api.maximum(api.cast(np.finfo(dt.np).tiny, dt), api.divide(rnd, beta))


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """TF's RandomGamma: samples of shape `shape + broadcast(alpha, beta).shape`, max(tiny, x / beta)."""
    dt = _float_dtype(dtype)
    alpha = api.cast(alpha, dt)
    beta = api.cast(1 if beta is None else beta, dt)
    alpha = api.broadcast_to(alpha, np.broadcast_shapes(tuple(alpha.shape.as_list()), tuple(beta.shape.as_list())))
    dims = _shape_list(shape) + alpha.shape.as_list()
    n = int(np.prod(dims, dtype=np.int64))
    key, counter = _key_counter("RandomGamma", dt, seed, 256 * n)
    rnd = execute("StatelessRandomGammaV3", [np.asarray(dims, np.int32), key, counter, np.asarray(1, np.int32),
                                             alpha], {"dtype": dt.np})
    return api.maximum(api.cast(np.finfo(dt.np).tiny, dt), api.divide(rnd, beta))


_POISSON_OUT = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def _poisson_dtype(dtype):
    dt = dtypes.as_dtype(dtype)
    if dt not in _POISSON_OUT:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dt.name} not in list of allowed values: "
                        f"half, float32, float64, int32, int64")
    return dt


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    dt = _poisson_dtype(dtype)
    lam = api.convert_to_tensor(lam)
    if lam.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise TypeError(f"Value passed to parameter 'lam' has DataType {lam.dtype.name} not in list of allowed "
                        f"values: half, float32, float64, int32, int64")
    key, counter = _seed_key_counter(seed)
    return execute("MinixlaRandomPoissonV2", [np.asarray(_shape_list(shape), np.int32), key, counter,
                                              np.asarray(1, np.int32), lam], {"dtype": dt.np})


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """TF's RandomPoissonV2: samples of shape `shape + lam.shape`."""
    dt = _poisson_dtype(dtype)
    lam = api.convert_to_tensor(lam, dtype=dt if dt.is_floating else None)
    dims = _shape_list(shape) + lam.shape.as_list()
    n = int(np.prod(dims, dtype=np.int64))
    key, counter = _key_counter(f"RandomPoissonV2:{dt.name}", lam.dtype, seed, 256 * n)  # a kernel per dtype
    return execute("MinixlaRandomPoissonV2", [np.asarray(dims, np.int32), key, counter, np.asarray(1, np.int32),
                                              lam], {"dtype": dt.np})


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """TF's StatelessRandomBinomial: inversion below count * p = 10, BTRS above (host op)."""
    dt = dtypes.as_dtype(output_dtype)
    if dt not in _POISSON_OUT:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dt.name} not in list of allowed values: "
                        f"half, float32, float64, int32, int64")
    probs = api.convert_to_tensor(probs, dtype_hint=dtypes.float32)
    counts = api.convert_to_tensor(counts, dtype_hint=probs.dtype)
    if probs.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64) or counts.dtype != probs.dtype:
        raise TypeError(f"counts and probs must be floating tensors of one dtype, got {counts.dtype.name} and "
                        f"{probs.dtype.name}")
    key, counter = _seed_key_counter(seed)
    return execute("MinixlaRandomBinomialV2", [np.asarray(_shape_list(shape), np.int32), key, counter,
                                               np.asarray(1, np.int32), counts, probs], {"dtype": dt.np})


_C_NAME = {"float16": "half", "float32": "float", "float64": "double"}  # TF's DataTypeString


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0, maxvals=2.0,
                                             name=None):
    """TF's StatelessParameterizedTruncatedNormal (eager CPU kernel, one shard; a host op here)."""
    means = api.convert_to_tensor(means)
    if means.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
        raise TypeError(f"Value passed to parameter 'means' has DataType {means.dtype.name} not in list of allowed "
                        f"values: half, float32, float64")
    rest = [api.convert_to_tensor(v) for v in (stddevs, minvals, maxvals)]
    for i, v in enumerate(rest, 1):
        if v.dtype != means.dtype:
            raise InvalidArgumentError(f"cannot compute StatelessParameterizedTruncatedNormal as input #{i + 1}"
                                       f"(zero-based) was expected to be a {_C_NAME.get(means.dtype.name)} tensor but "
                                       f"is a {_C_NAME.get(v.dtype.name, v.dtype.name)} tensor")
    key, counter = _seed_key_counter(seed)
    return execute("MinixlaParameterizedTruncatedNormalV2",
                   [np.asarray(_shape_list(shape), np.int32), key, counter, np.asarray(1, np.int32), means, *rest],
                   {"dtype": means.dtype.np})



def install(tf) -> None:
    r = tf.random
    r.Algorithm = Algorithm
    r.split, r.fold_in = split, fold_in
    r.get_global_generator, r.set_global_generator = get_global_generator, set_global_generator
    ex = r.experimental
    ex.get_global_generator, ex.set_global_generator = get_global_generator, set_global_generator
    ex.Algorithm, ex.Generator, ex.create_rng_state = Algorithm, r.Generator, r.create_rng_state
    ex.stateless_shuffle = stateless_shuffle
    r.categorical, r.shuffle = categorical, shuffle
    r.stateless_gamma, r.gamma = stateless_gamma, gamma
    r.stateless_poisson, r.poisson = stateless_poisson, poisson
    r.stateless_binomial = stateless_binomial
    r.stateless_parameterized_truncated_normal = stateless_parameterized_truncated_normal
