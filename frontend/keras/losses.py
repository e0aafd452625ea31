"""`tf.keras.losses`: 17 losses with Keras 3's formulas, reductions and error texts.

Each loss function maps `(y_true, y_pred)` to one value per sample (reduced
over the last axis); a `Loss` object weights those by `sample_weight` and
reduces them (`sum_over_batch_size` by default: the sum over the number of
values).
"""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.api import nn as api_nn
from minixla.frontend.keras.layers.base import snake_case

EPSILON = 1e-7


def _pair(y_true, y_pred):
    y_pred = api.convert_to_tensor(y_pred)
    if not (y_pred.dtype.is_floating):
        y_pred = api.cast(y_pred, "float32")
    y_true = api.convert_to_tensor(y_true)
    if y_true.dtype.name == "string":
        raise ValueError(f"Labels must be numeric; received y_true of dtype {y_true.dtype.name}")
    return api.cast(y_true, y_pred.dtype), y_pred


def _dims(t):
    return t.shape.as_list()


def _same_shape(y_true, y_pred):
    a, b = _dims(y_true), _dims(y_pred)
    if len(a) != len(b) or any(x is not None and y is not None and x != y for x, y in zip(a, b)):
        raise ValueError(f"Arguments `target` and `output` must have the same shape. Received: "
                         f"target.shape={tuple(a)}, output.shape={tuple(b)}")


def _c(v, t):
    return np.asarray(v, t.dtype.np)


def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return api.reduce_mean(api.square(api.subtract(y_pred, y_true)), -1)


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return api.reduce_mean(api.abs(api.subtract(y_pred, y_true)), -1)


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    diff = api.abs(api.divide(api.subtract(y_true, y_pred), api.maximum(api.abs(y_true), _c(EPSILON, y_true))))
    return api.multiply(_c(100.0, diff), api.reduce_mean(diff, -1))


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    eps = _c(EPSILON, y_pred)
    a = api.log(api.add(api.maximum(y_pred, eps), 1.0))
    b = api.log(api.add(api.maximum(y_true, eps), 1.0))
    return api.reduce_mean(api.square(api.subtract(a, b)), -1)


def _bce_elementwise(y_true, y_pred, from_logits):
    if from_logits:
        return api_nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    eps = _c(EPSILON, y_pred)
    p = api.clip_by_value(y_pred, eps, _c(1 - EPSILON, y_pred))
    return api.negative(api.add(api.multiply(y_true, api.log(p)),
                                api.multiply(api.subtract(1.0, y_true), api.log(api.subtract(1.0, p)))))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    _same_shape(y_true, y_pred)
    if label_smoothing:
        y_true = api.add(api.multiply(y_true, _c(1 - label_smoothing, y_true)), _c(0.5 * label_smoothing, y_true))
    return api.reduce_mean(_bce_elementwise(y_true, y_pred, from_logits), axis)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    _same_shape(y_true, y_pred)
    if label_smoothing:
        y_true = api.add(api.multiply(y_true, _c(1 - label_smoothing, y_true)), _c(0.5 * label_smoothing, y_true))
    bce = _bce_elementwise(y_true, y_pred, from_logits)
    p = api.sigmoid(y_pred) if from_logits else y_pred
    p_t = api.add(api.multiply(y_true, p), api.multiply(api.subtract(1.0, y_true), api.subtract(1.0, p)))
    focal = api.pow(api.subtract(1.0, p_t), _c(gamma, p))
    if apply_class_balancing:
        weight = api.add(api.multiply(y_true, _c(alpha, p)), api.multiply(api.subtract(1.0, y_true),
                                                                          _c(1 - alpha, p)))
        focal = api.multiply(weight, focal)
    return api.reduce_mean(api.multiply(focal, bce), axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    _same_shape(y_true, y_pred)
    if label_smoothing:
        n = _dims(y_pred)[-1]
        y_true = api.add(api.multiply(y_true, _c(1 - label_smoothing, y_true)), _c(label_smoothing / n, y_true))
    if from_logits:
        return api_nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = api.divide(y_pred, api.reduce_sum(y_pred, axis, keepdims=True))
    p = api.clip_by_value(p, _c(EPSILON, p), _c(1 - EPSILON, p))
    return api.negative(api.reduce_sum(api.multiply(y_true, api.log(p)), axis))


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                                   axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    _same_shape(y_true, y_pred)
    if label_smoothing:
        n = _dims(y_pred)[-1]
        y_true = api.add(api.multiply(y_true, _c(1 - label_smoothing, y_true)), _c(label_smoothing / n, y_true))
    p = api_nn.softmax(y_pred, axis=axis) if from_logits else y_pred
    p = api.divide(p, api.reduce_sum(p, axis, keepdims=True))
    p = api.clip_by_value(p, _c(EPSILON, p), _c(1 - EPSILON, p))
    cce = api.negative(api.multiply(y_true, api.log(p)))
    weight = api.multiply(api.pow(api.subtract(1.0, p), _c(gamma, p)), _c(alpha, p))
    return api.reduce_sum(api.multiply(weight, cce), axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    y_pred = api.convert_to_tensor(y_pred)
    y_true = api.convert_to_tensor(y_true)
    if y_true.dtype.is_floating:
        y_true = api.cast(y_true, "int64")
    elif not y_true.dtype.is_integer:
        raise ValueError(f"Argument `target` (the labels) must be an integer tensor of class indices; received "
                         f"dtype {y_true.dtype.name}")
    t, o = _dims(y_true), _dims(y_pred)
    if len(t) == len(o) and t and t[-1] == 1:
        y_true = api.squeeze(y_true, [-1])
        t = t[:-1]
    if len(o) < 1 or len(t) != len(o) - 1 or any(a is not None and b is not None and a != b
                                                  for a, b in zip(t, o[:-1])):
        raise ValueError(f"Arguments `target` and `output` must have the same shape up until the last dimension: "
                         f"target.shape={tuple(_dims(y_true))}, output.shape={tuple(o)}")
    logits = y_pred
    if not from_logits:
        p = api.divide(y_pred, api.reduce_sum(y_pred, axis, keepdims=True))
        logits = api.log(api.clip_by_value(p, _c(EPSILON, p), _c(1 - EPSILON, p)))
    labels = y_true
    if ignore_class is not None:
        keep = api.not_equal(labels, ignore_class)
        labels = api.where(keep, labels, api.zeros_like(labels))
    out = api_nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    if ignore_class is not None:
        out = api.multiply(out, api.cast(keep, out.dtype))
    return out


def _hinge_labels(y_true):
    is_binary = api.reduce_all(api.logical_or(api.equal(y_true, 0.0), api.equal(y_true, 1.0)))
    return api.where(is_binary, api.subtract(api.multiply(2.0, y_true), 1.0), y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _hinge_labels(y_true)
    return api.reduce_mean(api.maximum(api.subtract(1.0, api.multiply(y_true, y_pred)), 0.0), -1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _hinge_labels(y_true)
    return api.reduce_mean(api.square(api.maximum(api.subtract(1.0, api.multiply(y_true, y_pred)), 0.0)), -1)


def categorical_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    pos = api.reduce_sum(api.multiply(y_true, y_pred), -1)
    neg = api.reduce_max(api.multiply(api.subtract(1.0, y_true), y_pred), -1)
    return api.maximum(api.add(api.subtract(neg, pos), 1.0), 0.0)


def huber(y_true, y_pred, delta=1.0):
    y_true, y_pred = _pair(y_true, y_pred)
    err = api.subtract(y_pred, y_true)
    abs_err = api.abs(err)
    d = _c(delta, err)
    quad = api.multiply(0.5, api.square(err))
    lin = api.subtract(api.multiply(d, abs_err), _c(0.5 * delta * delta, err))
    return api.reduce_mean(api.where(api.less_equal(abs_err, d), quad, lin), -1)


def log_cosh(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    x = api.subtract(y_pred, y_true)
    return api.reduce_mean(api.subtract(api.add(x, api.softplus(api.multiply(-2.0, x))),
                                        _c(np.log(2.0), x)), -1)


def kl_divergence(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    t = api.clip_by_value(y_true, _c(EPSILON, y_true), 1.0)
    p = api.clip_by_value(y_pred, _c(EPSILON, y_pred), 1.0)
    return api.reduce_sum(api.multiply(t, api.log(api.divide(t, p))), -1)


def poisson(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return api.reduce_mean(api.subtract(y_pred, api.multiply(y_true, api.log(api.add(y_pred, _c(EPSILON,
                                                                                               y_pred))))), -1)


def _l2_normalize(x, axis):
    sq = api.reduce_sum(api.square(x), axis, keepdims=True)
    return api.multiply(x, api.rsqrt(api.maximum(sq, _c(1e-12, x))))


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    return api.negative(api.reduce_sum(api.multiply(_l2_normalize(y_true, axis), _l2_normalize(y_pred, axis)),
                                       axis))


class Loss:
    def __init__(self, name: str | None = None, reduction: str = "sum_over_batch_size", dtype=None):
        if reduction not in ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight"):
            raise ValueError(f'Invalid value for argument `reduction`. Expected one of {{"sum", "none", "mean", '
                             f'"sum_over_batch_size", "mean_with_sample_weight"}}. Received: reduction={reduction}')
        self.name = name or _snake(type(self).__name__)
        self.reduction = reduction

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.call(y_true, y_pred)
        if sample_weight is not None:
            sw = api.cast(sample_weight, losses.dtype)
            ls, ws = _dims(losses), _dims(sw)
            while len(ws) > len(ls) and ws[-1] == 1:
                sw = api.squeeze(sw, [-1])
                ws = ws[:-1]
            while len(ws) < len(ls):
                sw = api.expand_dims(sw, -1)
                ws = ws + [1]
            losses = api.multiply(losses, sw)
        if self.reduction in ("none", None):
            return losses
        total = api.reduce_sum(losses)
        if self.reduction == "sum":
            return total
        if self.reduction == "mean_with_sample_weight" and sample_weight is not None:
            return api.divide_no_nan(total, api.reduce_sum(api.cast(sw, total.dtype))) \
                if hasattr(api, "divide_no_nan") else api.divide(total, api.reduce_sum(sw))
        return api.divide(total, api.cast(api.size(losses), total.dtype))

    def get_config(self) -> dict:
        return {"name": self.name, "reduction": self.reduction}


def _snake(name: str) -> str:
    return snake_case(name)


class LossFunctionWrapper(Loss):
    def __init__(self, fn, reduction="sum_over_batch_size", name=None, **fn_kwargs):
        super().__init__(name=name or getattr(fn, "__name__", None), reduction=reduction)
        self.fn, self.fn_kwargs = fn, fn_kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self.fn_kwargs)


def _loss_class(cls_name: str, fn, **defaults):
    def __init__(self, *args, reduction="sum_over_batch_size", name=None, dtype=None, **kw):
        params = dict(defaults)
        for key, value in zip(defaults, args):
            params[key] = value
        for key, value in kw.items():
            if key not in defaults:
                raise TypeError(f"{cls_name}.__init__() got an unexpected keyword argument '{key}'")
            params[key] = value
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name or _snake(cls_name), **params)

    return type(cls_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__": fn.__doc__})


MeanSquaredError = _loss_class("MeanSquaredError", mean_squared_error)
MeanAbsoluteError = _loss_class("MeanAbsoluteError", mean_absolute_error)
MeanAbsolutePercentageError = _loss_class("MeanAbsolutePercentageError", mean_absolute_percentage_error)
MeanSquaredLogarithmicError = _loss_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error)
BinaryCrossentropy = _loss_class("BinaryCrossentropy", binary_crossentropy, from_logits=False, label_smoothing=0.0,
                                 axis=-1)
BinaryFocalCrossentropy = _loss_class("BinaryFocalCrossentropy", binary_focal_crossentropy,
                                      apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                                      label_smoothing=0.0, axis=-1)
CategoricalCrossentropy = _loss_class("CategoricalCrossentropy", categorical_crossentropy, from_logits=False,
                                      label_smoothing=0.0, axis=-1)
CategoricalFocalCrossentropy = _loss_class("CategoricalFocalCrossentropy", categorical_focal_crossentropy,
                                           alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1)
SparseCategoricalCrossentropy = _loss_class("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                            from_logits=False, ignore_class=None, axis=-1)
Hinge = _loss_class("Hinge", hinge)
SquaredHinge = _loss_class("SquaredHinge", squared_hinge)
CategoricalHinge = _loss_class("CategoricalHinge", categorical_hinge)
Huber = _loss_class("Huber", huber, delta=1.0)
LogCosh = _loss_class("LogCosh", log_cosh)
KLDivergence = _loss_class("KLDivergence", kl_divergence)
Poisson = _loss_class("Poisson", poisson)
CosineSimilarity = _loss_class("CosineSimilarity", cosine_similarity, axis=-1)

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kl_divergence
logcosh = log_cosh

ALL_CLASSES = [MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
               BinaryCrossentropy, BinaryFocalCrossentropy, CategoricalCrossentropy, CategoricalFocalCrossentropy,
               SparseCategoricalCrossentropy, Hinge, SquaredHinge, CategoricalHinge, Huber, LogCosh, KLDivergence,
               Poisson, CosineSimilarity]
ALL_FUNCTIONS = [mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
                 mean_squared_logarithmic_error, binary_crossentropy, binary_focal_crossentropy,
                 categorical_crossentropy, categorical_focal_crossentropy, sparse_categorical_crossentropy, hinge,
                 squared_hinge, categorical_hinge, huber, log_cosh, kl_divergence, poisson, cosine_similarity]
_BY_NAME = {c.__name__: c for c in ALL_CLASSES}
_BY_NAME.update({f.__name__: f for f in ALL_FUNCTIONS})
_BY_NAME.update(mse=mse, mae=mae, mape=mape, msle=msle, kld=kld, logcosh=logcosh, kullback_leibler_divergence=kld)


def get(identifier):
    """A `Loss` object from a name, class, instance, or function `(y_true, y_pred) -> per-sample losses`."""
    if isinstance(identifier, Loss):
        return identifier
    if isinstance(identifier, str):
        obj = _BY_NAME.get(identifier)
        if obj is None:
            raise ValueError(f"Could not interpret loss identifier: {identifier}")
        return obj() if isinstance(obj, type) else LossFunctionWrapper(obj, name=identifier)
    if isinstance(identifier, type) and issubclass(identifier, Loss):
        return identifier()
    if callable(identifier):
        return LossFunctionWrapper(identifier)
    raise ValueError(f"Could not interpret loss identifier: {identifier}")
