"""tf.nn.all_candidate_sampler and the sampled losses nce_loss / sampled_softmax_loss, as TF's
_compute_sampled_logits writes them: the true and sampled classes' logits from one embedding
lookup, minus log of the expected counts, with accidental hits (a sampled class that is one of
the row's true classes) pushed to -FLT_MAX by a static mask instead of TF's sparse scatter."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

tf = None  # the public `tf` module, set by install()

CandidateSamplerResult = namedtuple("AllCandidateSampler",
                                    ["sampled_candidates", "true_expected_count", "sampled_expected_count"])


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


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                            subtract_log_q, remove_accidental_hits):
    if isinstance(weights, (list, tuple)):
        if len(weights) != 1:
            raise NotImplementedError("sampled losses over a sharded (list of) weights are not implemented in "
                                      "minixla")
        weights = weights[0]
    if sampled_values is None:
        raise NotImplementedError("sampled losses without `sampled_values` (TF's log-uniform sampler) are not "
                                  "implemented in minixla: pass sampled_values, e.g. from all_candidate_sampler")
    inputs = tf.convert_to_tensor(inputs)
    labels = tf.reshape(tf.cast(labels, tf.int64), [-1, num_true])
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
                                             sampled_values, True, remove_accidental_hits)
    return tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(labels), logits=logits)


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for fn in (all_candidate_sampler, nce_loss, sampled_softmax_loss):
        setattr(tf_module.nn, fn.__name__, fn)
