"""`tf.random` candidate samplers (uniform, log-uniform, learned / fixed unigram, all) and the
index shuffle (`tf.random_index_shuffle`, `tf.random.experimental.index_shuffle`).

Each is a stateful TF kernel (host op, no XLA kernel, as in TF) with TF's op-seed rules; a call
reserves 2048 * num_sampled 32-bit samples (512 * num_sampled Philox blocks) of the kernel's
stream. The learned sampler's weights are kernel state, kept with the kernel's counter (eager:
per (op, seeds); tf.function: per traced op), so `set_seed` resets them as it resets TF's kernels.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.api import core as api
from minixla.frontend.api import random_stateful as _rs
from minixla.frontend.api.random_extras import _key_counter
from minixla.frontend.execute import execute
from minixla.frontend.graph import current_graph
from minixla.frontend.ops import random_sampler_ops  # (also registers the kernels)

Sampled = namedtuple("Sampled", ["sampled_candidates", "true_expected_count", "sampled_expected_count"])


def _attrs(num_true, num_sampled, unique, **attrs):
    return {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique), **attrs}


def _kernel(op, attrs) -> str:
    """The eager kernel cache's key: TF keeps one kernel (one stream) per op and attribute values."""
    return f"{op}{sorted((k, v) for k, v in attrs.items() if k != 'state')}"


def _sample(op, true_classes, seed, attrs):
    true_classes = api.cast(true_classes, dtypes.int64)
    key, counter = _key_counter(_kernel(op, attrs), dtypes.int64, seed, 512 * attrs["num_sampled"])
    return Sampled(*execute(op, [true_classes, key, counter], attrs))


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    return _sample("MinixlaUniformCandidateSamplerV2", true_classes, seed,
                   _attrs(num_true, num_sampled, unique, range_max=int(range_max)))


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    return _sample("MinixlaLogUniformCandidateSamplerV2", true_classes, seed,
                   _attrs(num_true, num_sampled, unique, range_max=int(range_max)))


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                      name=None):
    """The sampler's weights (1 + how often each class was a true class) persist like TF's kernel."""
    op = "MinixlaLearnedUnigramCandidateSamplerV2"
    attrs = _attrs(num_true, num_sampled, unique, range_max=int(range_max), state=random_sampler_ops.PickerState())
    if current_graph() is None:  # the eager kernel's weights (the seeds as _key_counter will read them)
        s1, s2 = _rs.get_seed(seed) if _rs._STATE["seed"] is None or seed is not None else (None, None)
        if s1 is not None:
            attrs["state"] = _rs._KERNELS.setdefault(("weights", _kernel(op, attrs), s1, s2), attrs["state"])
    return _sample(op, true_classes, seed, attrs)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    return _sample("MinixlaFixedUnigramCandidateSamplerV2", true_classes, seed, _attrs(
        num_true, num_sampled, unique, range_max=int(range_max), vocab_file=vocab_file, distortion=float(distortion),
        num_reserved_ids=int(num_reserved_ids), num_shards=int(num_shards), shard=int(shard),
        unigrams=tuple(float(u) for u in np.asarray(unigrams, np.float64).reshape(-1))))


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    return _sample("MinixlaAllCandidateSamplerV2", true_classes, seed, _attrs(num_true, num_sampled, unique))


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """`tf.random_index_shuffle`: the `index`-th element of a seeded permutation of [0, max_index]
    (a Simon-cipher bijection, computed elementwise)."""
    index = api.convert_to_tensor(index)
    seed = api.convert_to_tensor(seed)
    return execute("RandomIndexShuffle", [index, seed, api.cast(max_index, index.dtype)], {"rounds": int(rounds)})


def index_shuffle(index, seed, max_index):
    """`tf.random.experimental.index_shuffle`: a [2] seed, padded in front to the op's [3] as TF does."""
    seed = api.convert_to_tensor(seed)
    if seed.shape.rank != 1:
        raise ValueError(f"seed must have shape [2], got {seed.shape}")
    seed = api.concat([api.constant(np.array([498247692], seed.dtype.np)), seed], 0)
    return random_index_shuffle(index, seed, max_index)


SAMPLERS = {f.__name__: f for f in (uniform_candidate_sampler, log_uniform_candidate_sampler,
                                    learned_unigram_candidate_sampler, fixed_unigram_candidate_sampler,
                                    all_candidate_sampler)}


#: the samplers TF 2.21 also exports in tf.nn
_ALSO_NN = ("learned_unigram_candidate_sampler", "fixed_unigram_candidate_sampler", "all_candidate_sampler")


def install(tf) -> None:
    """tf.random's candidate samplers and index shuffles (after random_extras.install)."""
    tf.random.experimental.index_shuffle, tf.random_index_shuffle = index_shuffle, random_index_shuffle
    for name, fn in SAMPLERS.items():
        setattr(tf.random, name, fn)
        if name in _ALSO_NN and not hasattr(tf.nn, name):  # the same functions in TF 2.21's tf.nn
            setattr(tf.nn, name, fn)
