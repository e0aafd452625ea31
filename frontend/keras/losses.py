"""`tf.keras.losses`: the cross-entropies and mean squared error, averaged over the batch."""

from __future__ import annotations

from minixla.frontend.api import core as api
from minixla.frontend.api import nn as api_nn


class Loss:
    def __init__(self, reduction: str = "sum_over_batch_size", name: str | None = None):
        self.reduction = reduction
        self.name = name

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.call(y_true, y_pred)
        if sample_weight is not None:
            losses = api.multiply(losses, api.cast(sample_weight, losses.dtype))
        if self.reduction == "none":
            return losses
        total = api.reduce_sum(losses)
        if self.reduction == "sum":
            return total
        return api.divide(total, api.cast(api.size(losses), total.dtype))


class SparseCategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, **kw):
        super().__init__(**kw)
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        logits = api.convert_to_tensor(y_pred)
        labels = api.cast(api.reshape(y_true, [-1]) if api.convert_to_tensor(y_true).ndim > 1 else y_true,
                          "int64")
        if not self.from_logits:  # probabilities: clip as Keras does, then back to log space
            logits = api.log(api.clip_by_value(logits, 1e-7, 1 - 1e-7))
        return api_nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


class CategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, **kw):
        super().__init__(**kw)
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        logits = api.convert_to_tensor(y_pred)
        if not self.from_logits:
            logits = api.log(api.clip_by_value(logits, 1e-7, 1 - 1e-7))
        return api_nn.softmax_cross_entropy_with_logits(labels=api.cast(y_true, logits.dtype), logits=logits)


class MeanSquaredError(Loss):
    def call(self, y_true, y_pred):
        y_pred = api.convert_to_tensor(y_pred)
        return api.reduce_mean(api.square(api.subtract(y_pred, api.cast(y_true, y_pred.dtype))), -1)
