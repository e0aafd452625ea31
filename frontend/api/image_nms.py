"""`tf.image` non-max suppression: greedy selection by score, suppressing boxes whose overlap
with a selected one exceeds the threshold (or, soft-NMS, decaying their scores).

One loop (`tf.while_loop` over max_output_size steps, static shapes) does the work, so the
padded form (`non_max_suppression_padded`, NonMaxSuppressionV4's contract: indices padded with
0 plus the count) compiles under `jit_compile=True`. The unpadded forms return as many indices
as were selected -- a data-dependent shape, so they run eagerly (under tf.function they raise
a clear error pointing at the padded form).
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.errors import InvalidArgumentError

tf = None  # the public `tf` module, set by install()


def _iou(boxes):
    """Pairwise intersection over union of [y1, x1, y2, x2] boxes, each box's corners in any
    order (NonMaxSuppressionV3's kernel)."""
    y1, x1, y2, x2 = tf.unstack(boxes, axis=-1)
    return _overlap(tf.minimum(y1, y2), tf.minimum(x1, x2), tf.maximum(y1, y2), tf.maximum(x1, x2), 0.0)


def _iou_first_box_orientation(boxes):
    """TF 2's non_max_suppression_padded: the corner order of box 0 is taken for every box, and
    the union gets an epsilon of 1e-8."""
    y1, x1, y2, x2 = tf.unstack(boxes, axis=-1)
    flip_y, flip_x = y1[0] > y2[0], x1[0] > x2[0]
    return _overlap(tf.where(flip_y, y2, y1), tf.where(flip_x, x2, x1), tf.where(flip_y, y1, y2),
                    tf.where(flip_x, x1, x2), 1e-8)


def _overlap(ymin, xmin, ymax, xmax, eps):
    area = (ymax - ymin) * (xmax - xmin)
    ih = tf.maximum(tf.minimum(ymax[:, None], ymax[None, :]) - tf.maximum(ymin[:, None], ymin[None, :]), 0.0)
    iw = tf.maximum(tf.minimum(xmax[:, None], xmax[None, :]) - tf.maximum(xmin[:, None], xmin[None, :]), 0.0)
    inter = ih * iw
    union = area[:, None] + area[None, :] - inter + eps
    return tf.where(union > 0, tf.math.divide_no_nan(inter, union), tf.zeros_like(inter))


def _greedy(overlaps, scores, max_output_size, threshold, score_threshold, soft_nms_sigma=0.0):
    """(indices [max_output_size] padded with 0, their scores, count): pick the best remaining
    score above score_threshold; then drop (or, with soft_nms_sigma > 0, decay by
    exp(-iou^2 / (2 sigma)) up to the threshold) every box overlapping it."""
    scores = tf.convert_to_tensor(scores)
    n = scores.shape[0]
    k = int(max_output_size)
    if k < 0:
        raise InvalidArgumentError(None, None, "max_output_size must be non-negative")
    neg = tf.constant(-np.inf, scores.dtype)
    threshold = tf.cast(threshold, scores.dtype)
    score_threshold = tf.cast(score_threshold, scores.dtype)
    live = tf.where(scores > score_threshold, scores, neg)
    positions = tf.range(n)

    def body(i, live, picked, picked_scores, count):
        best = tf.cast(tf.math.argmax(live), tf.int32) if n else tf.constant(0)
        best_score = tf.gather(live, best) if n else neg
        ok = best_score > score_threshold
        row = tf.gather(overlaps, best, axis=1) if n else tf.zeros([0], scores.dtype)
        if soft_nms_sigma > 0:
            decay = tf.where(row <= threshold, tf.exp(row * row * (-0.5 / soft_nms_sigma)), tf.zeros_like(row))
            decayed = live * decay
            after = tf.where(decayed > score_threshold, decayed, neg)
        else:
            after = tf.where(row > threshold, neg, live)
        after = tf.where(tf.equal(positions, best), neg, after)
        live = tf.where(ok, after, live)
        onehot = tf.equal(tf.range(k), i)
        picked = tf.where(tf.logical_and(onehot, ok), best, picked)
        picked_scores = tf.where(tf.logical_and(onehot, ok), best_score, picked_scores)
        return i + 1, live, picked, picked_scores, count + tf.cast(ok, tf.int32)

    _, _, picked, picked_scores, count = tf.while_loop(
        lambda i, *_: i < k, body,
        [tf.constant(0), live, tf.zeros([k], tf.int32), tf.zeros([k], scores.dtype), tf.constant(0)])
    return picked, picked_scores, count


def _unpadded(what, *values):
    count = values[-1]
    if not hasattr(count, "numpy") or getattr(count, "_graph", None) is not None:
        raise NotImplementedError(
            f"tf.image.{what} returns a data-dependent number of indices, which minixla's static shapes "
            "cannot express inside tf.function; use tf.image.non_max_suppression_padded("
            "..., pad_to_max_output_size=True) there")
    c = int(count.numpy())
    return tuple(v[:c] for v in values[:-1])


def _check_boxes(boxes, scores):
    boxes, scores = tf.convert_to_tensor(boxes), tf.convert_to_tensor(scores)
    if boxes.shape.rank != 2 or boxes.shape[-1] != 4:
        raise ValueError(f"boxes must be 2-D [num_boxes, 4], got shape {boxes.shape}")
    if scores.shape.rank != 1 or scores.shape[0] != boxes.shape[0]:
        raise ValueError(f"scores must be 1-D [num_boxes={boxes.shape[0]}], got shape {scores.shape}")
    return boxes, scores


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    boxes, scores = _check_boxes(boxes, scores)
    picked, _, count = _greedy(_iou(boxes), scores, max_output_size, iou_threshold, score_threshold)
    return _unpadded("non_max_suppression", picked, count)[0]


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    boxes, scores = _check_boxes(boxes, scores)
    picked, picked_scores, count = _greedy(_iou(boxes), scores, max_output_size, iou_threshold, score_threshold,
                                           float(soft_nms_sigma))
    return _unpadded("non_max_suppression_with_scores", picked, picked_scores, count)


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    overlaps, scores = tf.convert_to_tensor(overlaps), tf.convert_to_tensor(scores)
    if overlaps.shape.rank != 2 or overlaps.shape[0] != overlaps.shape[1]:
        raise ValueError(f"overlaps must be square [num_boxes, num_boxes], got shape {overlaps.shape}")
    picked, _, count = _greedy(overlaps, scores, max_output_size, overlap_threshold, score_threshold)
    return _unpadded("non_max_suppression_overlaps", picked, count)[0]


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """(selected indices, number valid); padded with 0 to max_output_size when asked."""
    boxes, scores = _check_boxes(boxes, scores)
    overlaps = _iou(boxes) if canonicalized_coordinates else _iou_first_box_orientation(boxes)
    picked, _, count = _greedy(overlaps, scores, max_output_size, iou_threshold, score_threshold)
    if pad_to_max_output_size:
        return picked, count
    return _unpadded("non_max_suppression_padded(pad_to_max_output_size=False)", picked, count)[0], count


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for fn in (non_max_suppression, non_max_suppression_with_scores, non_max_suppression_overlaps,
               non_max_suppression_padded):
        setattr(tf_module.image, fn.__name__, fn)
