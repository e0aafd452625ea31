"""tf.nn.fractional_max_pool / fractional_avg_pool: pooling with windows of k or k + 1 rows and
columns (k = floor(1 / ratio)) whose boundaries are drawn at random, as TF's
GeneratePoolingSequence (a shuffled list of k and k + 1, or the pseudo-random ceil(alpha (i + u) - 1)).
The boundaries are tensors, so each window is a mask over the rows (then the columns): static
shapes, one program for any draw, and the gradient of the masked max / mean is TF's (the argmax;
the mean's 1 / count). TF's random stream is not replayed: the draws differ, the rules do not."""

from __future__ import annotations

import numpy as np

tf = None  # the public `tf` module, set by install()


def _sequence(n, m, pseudo_random, seed):
    """The m + 1 window boundaries over n positions (int64)."""
    if m < 1:
        raise ValueError(f"pooling_ratio leaves an output of size {m} from an input of size {n}")
    if n % m == 0:
        return tf.constant(np.arange(m + 1) * (n // m), tf.int64)
    k = n // m
    if pseudo_random:
        alpha = n / m
        top = min((k + 2) / alpha - 1, (n + 1 - k) / alpha - (m - 1))
        u = tf.random.uniform([], 0, top, tf.float64, seed=seed)
        inner = tf.cast(tf.math.ceil(alpha * (tf.range(1, m, dtype=tf.float64) + u) - 1), tf.int64)
        return tf.concat([tf.zeros([1], tf.int64), inner, tf.constant([n], tf.int64)], 0)  # TF: the last is n
    diff = tf.constant(np.array([k + 1] * (n % m) + [k] * (m - n % m), np.int64))
    diff = tf.gather(diff, tf.argsort(tf.random.uniform([m], seed=seed)))
    return tf.concat([tf.zeros([1], tf.int64), tf.cumsum(diff)], 0)


def _windows(seq, n, overlapping):
    """[m, n] bool: position r is in window i (the next boundary too when overlapping)."""
    r = tf.range(n, dtype=tf.int64)[None, :]
    lo, hi = seq[:-1, None], seq[1:, None]
    return tf.logical_and(r >= lo, r <= hi if overlapping else r < hi)


def _fractional(kind, value, pooling_ratio, pseudo_random, overlapping, seed):
    x = tf.convert_to_tensor(value)
    if x.shape.rank != 4:
        raise ValueError(f"value must be 4-dimensional, got {x.shape}")
    ratio = [float(r) for r in (pooling_ratio if isinstance(pooling_ratio, (list, tuple)) else
                                [1.0, pooling_ratio, pooling_ratio, 1.0])]
    if len(ratio) == 2:
        ratio = [1.0] + ratio + [1.0]
    if len(ratio) != 4 or ratio[0] != 1 or ratio[3] != 1:
        raise ValueError(f"pooling_ratio must be [1, row, col, 1] (pooling over batch or channels is not "
                         f"supported), got {pooling_ratio}")
    if min(ratio[1:3]) < 1:
        raise ValueError(f"pooling_ratio must be >= 1, got {pooling_ratio}")
    seed = seed or None
    b, h, w, c = x.shape.as_list()
    oh, ow = int(h / ratio[1]), int(w / ratio[2])
    rows = _sequence(h, oh, pseudo_random, seed)
    cols = _sequence(w, ow, pseudo_random, None if seed is None else seed + 1)
    row_win, col_win = _windows(rows, h, overlapping), _windows(cols, w, overlapping)
    if kind == "max":
        low = tf.constant(-np.inf, x.dtype)
        y = tf.reduce_max(tf.where(row_win[None, :, :, None, None], x[:, None], low), 2)  # [b, oh, w, c]
        y = tf.reduce_max(tf.where(col_win[None, None, :, :, None], y[:, :, None], low), 3)  # [b, oh, ow, c]
    else:
        zero = tf.zeros([], x.dtype)
        y = tf.reduce_sum(tf.where(row_win[None, :, :, None, None], x[:, None], zero), 2)
        y = tf.reduce_sum(tf.where(col_win[None, None, :, :, None], y[:, :, None], zero), 3)
        count = (tf.reduce_sum(tf.cast(row_win, x.dtype), 1)[:, None]
                 * tf.reduce_sum(tf.cast(col_win, x.dtype), 1)[None, :])
        y = y / count[None, :, :, None]
    return y, rows, cols


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    return _fractional("max", value, pooling_ratio, pseudo_random, overlapping, seed)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    return _fractional("avg", value, pooling_ratio, pseudo_random, overlapping, seed)


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for fn in (fractional_max_pool, fractional_avg_pool):
        setattr(tf_module.nn, fn.__name__, fn)
