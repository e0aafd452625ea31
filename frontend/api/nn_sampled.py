"""tf.nn.all_candidate_sampler and the sampled losses nce_loss / sampled_softmax_loss, as TF's
_compute_sampled_logits writes them: the true and sampled classes' logits from one embedding
lookup, minus log of the expected counts, with accidental hits (a sampled class that is one of
the row's true classes) pushed to -FLT_MAX by a static mask instead of TF's sparse scatter."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from minixla.frontend.execute import execute
from minixla.frontend.ops import nn_host_ops  # noqa: F401  (registers ComputeAccidentalHits)

tf = None  # the public `tf` module, set by install()

_FIELDS = ["sampled_candidates", "true_expected_count", "sampled_expected_count"]
CandidateSamplerResult = namedtuple("AllCandidateSampler", _FIELDS)
FixedUnigramResult = namedtuple("FixedUnigramCandidateSampler", _FIELDS)
LearnedUnigramResult = namedtuple("LearnedUnigramCandidateSampler", _FIELDS)
LogUniformResult = namedtuple("LogUniformCandidateSampler", _FIELDS)
UniformResult = namedtuple("UniformCandidateSampler", _FIELDS)


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Classes 0..num_sampled-1, each with expected count 1 (a test sampler, no randomness)."""
    true_classes = tf.convert_to_tensor(true_classes)
    if true_classes.shape.rank != 2 or true_classes.shape[1] != num_true:
        raise tf.errors.InvalidArgumentError(None, None, f"true_classes must be a matrix with num_true={num_true} "
                                                         f"columns, got {true_classes.shape}")
    if not getattr(true_classes, "is_symbolic", True):  # eager: TF's kernel checks the classes' range
        bad = [int(v) for v in true_classes.numpy().reshape(-1) if not 0 <= v < num_sampled]
        if bad:
            raise tf.errors.InvalidArgumentError(None, None, f"`true_candidate` out of range [0, {num_sampled}), "
                                                             f"received {bad[0]}")
    return CandidateSamplerResult(tf.range(num_sampled, dtype=tf.int64),
                                  tf.ones(true_classes.shape.as_list(), tf.float32),
                                  tf.ones([num_sampled], tf.float32))


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(), seed=None,
                                    name=None):
    """Classes drawn with probability unigrams ** distortion (reserved ids never). With `unique`,
    num_sampled distinct classes: the Gumbel top-k of log p is the same law as TF's draw-and-reject
    loop, and the number of draws that loop would have made (for the expected counts
    1 - (1 - p) ** tries) is drawn as one geometric count per new class. TF's stream is not replayed."""
    if vocab_file:
        raise NotImplementedError("fixed_unigram_candidate_sampler(vocab_file=...) is not implemented in minixla: "
                                  "pass unigrams")
    if num_shards != 1:
        raise NotImplementedError("fixed_unigram_candidate_sampler with num_shards > 1 is not implemented in minixla")
    weights = np.zeros(range_max, np.float64)
    counts = np.asarray(unigrams, np.float64)
    if len(counts) + num_reserved_ids != range_max:
        raise tf.errors.InvalidArgumentError(None, None, f"range is {range_max} must be equal to weights size  "
                                                         f"{len(counts) + num_reserved_ids}")
    weights[num_reserved_ids:] = counts ** distortion
    if unique and num_sampled > int((weights > 0).sum()):
        raise tf.errors.InvalidArgumentError(None, None, f"Sampler's range is too small: {int((weights > 0).sum())} "
                                                         f"classes for {num_sampled} unique samples")
    return _draw(FixedUnigramResult, tf.constant(weights / weights.sum()), true_classes, num_sampled, unique, seed)


def _draw(result, p, true_classes, num_sampled, unique, seed):
    """num_sampled classes by the probabilities p (float64 [range_max]) and the expected counts."""
    true_classes = tf.convert_to_tensor(true_classes)
    range_max = p.shape[0]
    log_p = tf.where(p > 0, tf.math.log(tf.where(p > 0, p, 1.0)), tf.constant(-np.inf, tf.float64))
    u = tf.random.uniform([num_sampled if not unique else range_max], dtype=tf.float64, seed=seed)
    tiny = np.finfo(np.float64).tiny
    if unique:
        gumbel = -tf.math.log(-tf.math.log(tf.maximum(u, tiny)))
        sampled = tf.math.top_k(log_p + gumbel, num_sampled).indices
        seen = tf.cumsum(tf.gather(p, sampled), exclusive=True)  # mass drawn before each new class
        v = tf.random.uniform([num_sampled], dtype=tf.float64, seed=None if seed is None else seed + 1)
        extra = tf.where(seen > 0, tf.floor(tf.math.log(tf.maximum(v, tiny)) / tf.math.log(tf.maximum(seen, tiny))),
                         tf.zeros_like(seen))
        tries = tf.reduce_sum(extra) + num_sampled
    else:  # inverse CDF
        cdf = tf.cumsum(p)[:-1]
        sampled = tf.reduce_sum(tf.cast(cdf[None, :] <= u[:, None], tf.int32), 1)
        tries = tf.constant(float(num_sampled), tf.float64)

    def expected(prob):
        plain = prob * num_sampled
        return tf.cast(tf.where(tf.equal(tries, num_sampled), plain, -tf.math.expm1(tries * tf.math.log1p(-prob))),
                       tf.float32)

    return result(tf.cast(sampled, tf.int64), expected(tf.gather(p, tf.cast(true_classes, tf.int32))),
                  expected(tf.gather(p, sampled)))


def _check(true_classes, num_true, num_sampled, unique, range_max):
    true_classes = tf.convert_to_tensor(true_classes)
    if true_classes.shape.rank != 2 or true_classes.shape[1] != num_true:
        raise tf.errors.InvalidArgumentError(None, None, f"true_classes must be a matrix with num_true={num_true} "
                                                         f"columns, got {true_classes.shape}")
    if unique and num_sampled > range_max:
        raise tf.errors.InvalidArgumentError(None, None, f"Sampler's range is too small: {range_max} classes for "
                                                         f"{num_sampled} unique samples")
    return true_classes


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    true_classes = _check(true_classes, num_true, num_sampled, unique, range_max)
    p = tf.constant(np.full(range_max, 1.0 / range_max))
    return _draw(UniformResult, p, true_classes, num_sampled, unique, seed)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Zipf-like classes: P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)."""
    true_classes = _check(true_classes, num_true, num_sampled, unique, range_max)
    k = np.arange(range_max, dtype=np.float64)
    p = tf.constant(np.log((k + 2) / (k + 1)) / np.log(range_max + 1))
    return _draw(LogUniformResult, p, true_classes, num_sampled, unique, seed)


_LEARNED: dict = {}  # sampler state (class counts) per (attributes, graph), as TF's kernel keeps it


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                      name=None):
    """Classes drawn by the counts of the true classes seen so far (each count starts at 1), then
    those counts updated with this call's true classes. The counts live in a variable per sampler
    (per attributes eagerly, per traced function in a tf.function), as TF's stateful kernel."""
    from minixla.frontend.graph import current_graph

    true_classes = _check(true_classes, num_true, num_sampled, unique, range_max)
    graph = current_graph()
    key = (num_true, num_sampled, bool(unique), range_max, seed, id(graph))
    if key not in _LEARNED:
        with tf.init_scope():  # the graph is kept with its counts, so that its id is not reused
            _LEARNED[key] = (graph, tf.Variable(np.ones(range_max, np.float64), trainable=False))
    counts = _LEARNED[key][1]
    weights = tf.identity(counts.read_value())
    out = _draw(LearnedUnigramResult, weights / tf.reduce_sum(weights), true_classes, num_sampled, unique, seed)
    ids = tf.reshape(tf.cast(true_classes, tf.int32), [-1, 1])
    counts.assign_add(tf.tensor_scatter_nd_add(tf.zeros([range_max], tf.float64), ids,
                                               tf.ones([ids.shape[0]], tf.float64)))
    return out


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(rows, positions, weights -FLT_MAX) of the sampled candidates that are true classes of a row."""
    out = execute("ComputeAccidentalHits", [tf.cast(true_classes, tf.int64), tf.cast(sampled_candidates, tf.int64)],
                  {"num_true": int(num_true), "seed": seed or 0, "seed2": 0})
    return tuple(out)


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                            subtract_log_q, remove_accidental_hits, seed=None):
    if isinstance(weights, (list, tuple)):
        if len(weights) != 1:
            raise NotImplementedError("sampled losses over a sharded (list of) weights are not implemented in "
                                      "minixla")
        weights = weights[0]
    inputs = tf.convert_to_tensor(inputs)
    labels = tf.reshape(tf.cast(labels, tf.int64), [-1, num_true])
    if sampled_values is None:  # TF's default: unique log-uniform classes
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True, num_classes, seed)
    sampled, true_expected, sampled_expected = (tf.stop_gradient(tf.convert_to_tensor(s)) for s in sampled_values)
    sampled = tf.cast(sampled, tf.int64)
    labels_flat = tf.reshape(labels, [-1])
    n_true = labels_flat.shape[0]
    all_ids = tf.concat([labels_flat, sampled], 0)
    all_w = tf.cast(tf.gather(weights, all_ids), inputs.dtype)
    all_b = tf.cast(tf.gather(biases, all_ids), inputs.dtype)
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    true_b, sampled_b = all_b[:n_true], all_b[n_true:]
    sampled_logits = tf.matmul(inputs, sampled_w, transpose_b=True) + sampled_b
    dim = true_w.shape[1]
    true_logits = tf.reduce_sum(inputs[:, None, :] * tf.reshape(true_w, [-1, num_true, dim]), 2)
    true_logits += tf.reshape(true_b, [-1, num_true])
    if remove_accidental_hits:
        hit = tf.reduce_any(tf.equal(labels[:, :, None], sampled[None, None, :]), 1)  # [batch, num_sampled]
        sampled_logits += tf.where(hit, tf.constant(-np.finfo(np.float32).max, inputs.dtype), 0)
    if subtract_log_q:
        true_logits -= tf.math.log(tf.cast(true_expected, inputs.dtype))
        sampled_logits -= tf.math.log(tf.cast(sampled_expected, inputs.dtype))
    out_logits = tf.concat([true_logits, sampled_logits], 1)
    out_labels = tf.concat([tf.ones_like(true_logits) / num_true, tf.zeros_like(sampled_logits)], 1)
    return out_logits, out_labels


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation: per example, the sum of the sigmoid cross entropies of the
    true (label 1/num_true) and sampled (label 0) logits."""
    logits, labels = _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                             sampled_values, True, remove_accidental_hits)
    return tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits), 1)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                         remove_accidental_hits=True, seed=None, name="sampled_softmax_loss"):
    """Softmax cross entropy over the true classes and the sampled ones only."""
    logits, labels = _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                             sampled_values, True, remove_accidental_hits, seed)
    return tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(labels), logits=logits)


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for fn in (all_candidate_sampler, fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
               log_uniform_candidate_sampler, uniform_candidate_sampler):
        if not hasattr(tf_module.random, fn.__name__):
            setattr(tf_module.random, fn.__name__, fn)
    for fn in (all_candidate_sampler, compute_accidental_hits, fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler, nce_loss,
               sampled_softmax_loss):
        setattr(tf_module.nn, fn.__name__, fn)
