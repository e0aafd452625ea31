"""`tf.nn.ctc_loss` (dense labels) and the label helpers, over existing ops.

The CTC forward algorithm runs in log space over the blank-interleaved labels (2 L + 1 states),
one step per frame, unrolled over the static number of frames: the gradient is autodiff of those
steps (GradientTape sees every op; a while loop's reverse pass would recompute states, O(T^2)),
and equals TF's softmax - state posteriors. Impossible states hold a large negative finite
number instead of -inf, so that no 0 * inf reaches the gradient.
"""

from __future__ import annotations

import numpy as np

tf = None  # the public `tf` module, set by install()

_NEG = -1e30  # log of "impossible"


def _logsumexp(*terms):
    m = tf.stop_gradient(terms[0])
    for t in terms[1:]:
        m = tf.maximum(m, tf.stop_gradient(t))
    return m + tf.math.log(tf.add_n([tf.exp(t - m) for t in terms]))


def _shift(alpha, k):
    """alpha[:, s - k] (NEG for s < k)."""
    return tf.concat([tf.fill([alpha.shape[0], k], tf.constant(_NEG, alpha.dtype)), alpha[:, :-k]], 1)


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
             name=None):
    """-log p(labels | logits) per batch entry. `unique` (a speed-up in TF) does not change the result."""
    if isinstance(labels, getattr(tf, "SparseTensor", ())):
        raise NotImplementedError("tf.nn.ctc_loss with SparseTensor labels is not implemented in minixla")
    logits = tf.convert_to_tensor(logits)
    if not logits_time_major:
        logits = tf.transpose(logits, [1, 0, 2])
    labels = tf.cast(labels, tf.int32)
    label_length = tf.cast(label_length, tf.int32)
    logit_length = tf.cast(logit_length, tf.int32)
    t_max, batch, classes = logits.shape.as_list()
    if labels.shape.rank != 2 or labels.shape[0] != batch:
        raise ValueError(f"labels must be [batch, max_label_length] with batch {batch}, got {labels.shape}")
    blank = 0 if blank_index is None else int(blank_index) % classes
    if blank != 0:  # move the blank class to 0, as TF's ctc_loss_dense
        logits = tf.concat([logits[:, :, blank:blank + 1], logits[:, :, :blank], logits[:, :, blank + 1:]], 2)
        labels = tf.where(labels < blank, labels + 1, labels)
    n_lab = labels.shape[1]
    states = 2 * n_lab + 1
    ext = tf.concat([tf.reshape(tf.stack([tf.zeros_like(labels), labels], 2), [batch, 2 * n_lab]),
                     tf.zeros([batch, 1], tf.int32)], 1)  # [B, S]: blank, l1, blank, l2, ..., blank
    skip = np.zeros(states, bool)
    skip[3::2] = True
    prev2 = tf.concat([tf.fill([batch, 2], -1), ext[:, :-2]], 1)
    can_skip = tf.logical_and(tf.constant(skip)[None, :], tf.not_equal(ext, prev2))
    valid = tf.range(states)[None, :] < 2 * label_length[:, None] + 1
    log_probs = tf.nn.log_softmax(logits)  # [T, B, C]
    per_state = tf.gather(tf.transpose(log_probs, [1, 0, 2]), ext, axis=2, batch_dims=1)  # [B, T, S]
    neg = tf.constant(_NEG, logits.dtype)
    first = tf.range(states)[None, :] < 2
    alpha = tf.where(tf.logical_and(first, valid), per_state[:, 0], neg)
    for t in range(1, t_max):
        step = _logsumexp(alpha, _shift(alpha, 1), tf.where(can_skip, _shift(alpha, 2), neg)) + per_state[:, t]
        step = tf.where(valid, step, neg)
        alpha = tf.where((t < logit_length)[:, None], step, alpha)
    last = 2 * label_length
    end = tf.gather(alpha, last[:, None], batch_dims=1)[:, 0]
    before = tf.gather(alpha, tf.maximum(last - 1, 0)[:, None], batch_dims=1)[:, 0]
    before = tf.where(label_length > 0, before, neg)
    return -_logsumexp(end, before)


def ctc_unique_labels(labels, name=None):
    """Per row: the distinct labels in order of first appearance (zero-padded, int64) and each
    label's index among them -- tf.unique per row, with static shapes (pairwise comparisons)."""
    x = tf.convert_to_tensor(labels)
    if x.shape.rank != 2:
        raise ValueError(f"labels must be [batch, max_label_length], got {x.shape}")
    n = x.shape[1]
    same = tf.equal(x[:, :, None], x[:, None, :])  # [B, i, j]
    earlier = tf.constant(np.tril(np.ones((n, n), bool), -1))
    is_first = tf.logical_not(tf.reduce_any(tf.logical_and(same, earlier[None]), 2))  # [B, n]
    rank = tf.cumsum(tf.cast(is_first, tf.int32), 1) - 1
    firsts = tf.logical_and(same, is_first[:, None, :])  # j is the first occurrence of x[i]
    idx = tf.reduce_sum(tf.where(firsts, rank[:, None, :], 0), 2)
    slot = tf.logical_and(tf.equal(rank[:, :, None], tf.range(n)[None, None, :]), is_first[:, :, None])  # [B, i, k]
    y = tf.reduce_sum(tf.where(slot, tf.cast(x, tf.int64)[:, :, None], tf.zeros([], tf.int64)), 1)
    return y, tf.cast(idx, x.dtype)


def collapse_repeated(labels, seq_length, name=None):
    """Runs of a repeated label merged into one, per row: (labels [batch, new max length], new
    lengths). The kept labels are moved left by a one-hot compaction; the width (the longest new
    row) is known only at run time, so the last step is a host `Where`: this runs eagerly and in
    tf.function, but not under jit_compile (TF's XLA pads the dynamic width; ours cannot)."""
    x = tf.convert_to_tensor(labels)
    n = tf.convert_to_tensor(seq_length)
    width = x.shape[1]
    differs = tf.concat([tf.ones_like(x[:, :1], tf.bool), tf.not_equal(x[:, 1:], x[:, :-1])], 1)
    keep = tf.logical_and(differs, tf.range(width)[None, :] < tf.cast(n, tf.int32)[:, None])
    new_len = tf.reduce_sum(tf.cast(keep, tf.int32), 1)
    slot = tf.cumsum(tf.cast(keep, tf.int32), 1) - 1
    moved = tf.logical_and(keep[:, :, None], tf.equal(slot[:, :, None], tf.range(width)[None, None, :]))
    packed = tf.reduce_sum(tf.where(moved, x[:, :, None], tf.zeros([], x.dtype)), 1)  # [batch, width]
    columns = tf.where(tf.range(width) < tf.reduce_max(new_len))[:, 0]
    return tf.gather(packed, columns, axis=1), tf.cast(new_len, n.dtype)


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """(the isotonic fit along axis, segment ids): y_i = min_{j<=i} max_{k>=i} mean(x_j..x_k) for a
    decreasing fit (max/min swapped for an increasing one), all block means from one cumsum; the
    gradient of each output is its block's mean, as TF's."""
    x = tf.convert_to_tensor(inputs)
    rank = x.shape.rank
    axis = axis % rank
    perm = [d for d in range(rank) if d != axis] + [axis]
    xt = tf.transpose(x, perm)
    n = xt.shape[-1]
    c = tf.concat([tf.zeros_like(xt[..., :1]), tf.cumsum(xt, -1)], -1)
    j = np.arange(n)[:, None]
    k = np.arange(n)[None, :]
    count = tf.constant(np.maximum(k - j + 1, 1).astype(x.dtype.as_numpy_dtype))
    means = (c[..., None, 1:] - c[..., :n, None]) / count  # [..., j, k]: mean of x_j..x_k (j <= k)
    inner, outer = (tf.reduce_max, tf.reduce_min) if decreasing else (tf.reduce_min, tf.reduce_max)
    far = tf.constant(np.inf if decreasing else -np.inf, x.dtype)  # ignored by the outer reduction
    i = np.arange(n)[:, None, None]
    tail = tf.constant((k[None] >= i) & (k[None] >= j[None]))  # [i, j, k]: k >= i and k >= j
    best = inner(tf.where(tail, means[..., None, :, :], -far), -1)  # [..., i, j]
    y = outer(tf.where(tf.constant(j[:, 0][None, :] <= i[:, :, 0]), best, far), -1)
    change = tf.concat([tf.zeros_like(y[..., :1], tf.int32), tf.cast(tf.not_equal(y[..., 1:], y[..., :-1]), tf.int32)],
                       -1)
    segments = tf.cumsum(change, -1)
    back = list(np.argsort(perm))
    return tf.transpose(y, back), tf.transpose(segments, back)


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for fn in (ctc_loss, ctc_unique_labels, collapse_repeated, isotonic_regression):
        setattr(tf_module.nn, fn.__name__, fn)
