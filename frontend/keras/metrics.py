"""`tf.keras.metrics`: stateful metrics whose state lives in variables.

`update_state` assigns to those variables, so metrics update inside the
compiled training step; `result()` reads them; `reset_state()` zeroes them
(eagerly, between epochs).
"""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.api import indexing
from minixla.frontend.graph import init_scope
from minixla.frontend.keras import losses as L
from minixla.frontend.keras.layers.base import snake_case
from minixla.frontend.variables import Variable


class Metric:
    def __init__(self, name: str | None = None, dtype=None):
        self.name = name or snake_case(type(self).__name__)
        self.dtype = np.dtype(dtype or "float32")
        self._variables: list[Variable] = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None):
        value = np.zeros(shape, dtype or self.dtype)
        if initializer == "ones":
            value = np.ones(shape, dtype or self.dtype)
        with init_scope():
            v = Variable(value, trainable=False, name=f"{self.name}/{name}")
        v._initial = value.copy()
        self._variables.append(v)
        return v

    add_weight = add_variable

    @property
    def variables(self) -> list[Variable]:
        return list(self._variables)

    def reset_state(self) -> None:
        for v in self._variables:
            v.assign(v._initial)

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype.name}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


def _f32(x):
    return api.cast(x, "float32")


class Sum(Metric):
    def __init__(self, name="sum", dtype=None):
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values = _f32(values)
        if sample_weight is not None:
            values = api.multiply(values, _f32(sample_weight))
        self.total.assign_add(api.reduce_sum(values))

    def result(self):
        return self.total.read_value()


class Mean(Metric):
    """Weighted mean; values of rank > 1 are first averaged to one value per sample."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        values, sample_weight = samplewise(_f32(values), sample_weight)
        self.total.assign_add(api.reduce_sum(values))
        if sample_weight is not None:
            self.count.assign_add(api.reduce_sum(sample_weight))
        else:
            dims = values.shape.as_list()
            self.count.assign_add(_f32(api.shape(values)[0]) if dims else np.float32(1))

    def result(self):
        return _safe_div(self.total.read_value(), self.count.read_value())


def samplewise(values, sample_weight):
    """Keras' reduce_to_samplewise_values: weight, then average each sample's values to one."""
    if sample_weight is not None:
        sw = _f32(sample_weight)
        v_rank, w_rank = len(values.shape.as_list()), len(sw.shape.as_list())
        if v_rank == w_rank + 1 and values.shape.as_list()[-1] == 1:
            sw = api.expand_dims(sw, -1) if w_rank == 1 else sw
            if w_rank != 1:
                values = api.squeeze(values, [-1])
        elif w_rank == v_rank + 1 and sw.shape.as_list()[-1] == 1:
            sw = api.squeeze(sw, [-1])
        v_rank, w_rank = len(values.shape.as_list()), len(sw.shape.as_list())
        if v_rank > w_rank:
            values = api.reduce_mean(values, list(range(w_rank, v_rank)))
        sw = api.broadcast_to(sw, api.shape(values)) if sw.shape.as_list() != values.shape.as_list() else sw
        values = api.multiply(values, sw)
        if w_rank > 1:
            sw = api.reduce_mean(sw, list(range(1, w_rank)))
        sample_weight = sw
    v_rank = len(values.shape.as_list())
    if v_rank > 1:
        values = api.reduce_mean(values, list(range(1, v_rank)))
    return values, sample_weight


def _safe_div(a, b):
    return api.where(api.equal(b, 0.0), api.zeros_like(a), api.divide(a, api.where(api.equal(b, 0.0),
                                                                                   api.ones_like(b), b)))


class MeanMetricWrapper(Mean):
    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name or fn.__name__, dtype)
        self.fn, self.fn_kwargs = fn, kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self.fn(y_true, y_pred, **self.fn_kwargs), sample_weight)


# ---- accuracy functions (per sample) ------------------------------------------------------------
def accuracy(y_true, y_pred):
    y_pred = api.convert_to_tensor(y_pred)
    y_true = api.cast(y_true, y_pred.dtype)
    return _f32(api.equal(y_true, y_pred))


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = _f32(y_pred)
    return _f32(api.equal(_f32(y_true), _f32(api.greater(y_pred, np.float32(threshold)))))


def categorical_accuracy(y_true, y_pred):
    return _f32(api.equal(api.argmax(y_true, -1), api.argmax(y_pred, -1)))


def sparse_categorical_accuracy(y_true, y_pred):
    y_pred = api.convert_to_tensor(y_pred)
    y_true = api.convert_to_tensor(y_true)
    t, p = y_true.shape.as_list(), y_pred.shape.as_list()
    if len(t) == len(p) and t[-1] == 1:
        y_true = api.squeeze(y_true, [-1])
    return _f32(api.equal(api.cast(y_true, "int64"), api.argmax(y_pred, -1)))


def _in_top_k(labels, predictions, k):
    labels = api.cast(labels, "int32")
    target = indexing.gather(predictions, labels, batch_dims=1)
    greater = api.reduce_sum(_f32(api.greater(predictions, api.expand_dims(target, -1))), -1)
    return api.less(greater, np.float32(k))


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    return _f32(_in_top_k(api.argmax(y_true, -1), _f32(y_pred), k))


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    y_true = api.convert_to_tensor(y_true)
    if len(y_true.shape.as_list()) == 2:
        y_true = api.reshape(y_true, [-1])
    return _f32(_in_top_k(y_true, _f32(y_pred), k))


def _wrapper(cls_name, fn, default_name, **defaults):
    def __init__(self, name=None, dtype=None, **kw):
        MeanMetricWrapper.__init__(self, fn, name or default_name, dtype, **{**defaults, **kw})

    return type(cls_name, (MeanMetricWrapper,), {"__init__": __init__})


def _cosine_similarity(y_true, y_pred, axis=-1):
    return api.negative(L.cosine_similarity(y_true, y_pred, axis))


Accuracy = _wrapper("Accuracy", accuracy, "accuracy")
BinaryAccuracy = _wrapper("BinaryAccuracy", binary_accuracy, "binary_accuracy", threshold=0.5)
CategoricalAccuracy = _wrapper("CategoricalAccuracy", categorical_accuracy, "categorical_accuracy")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", sparse_categorical_accuracy, "sparse_categorical_accuracy")
TopKCategoricalAccuracy = _wrapper("TopKCategoricalAccuracy", top_k_categorical_accuracy, "top_k_categorical_accuracy", k=5)
SparseTopKCategoricalAccuracy = _wrapper("SparseTopKCategoricalAccuracy", sparse_top_k_categorical_accuracy, "sparse_top_k_categorical_accuracy", k=5)
MeanSquaredError = _wrapper("MeanSquaredError", L.mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", L.mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", L.mean_absolute_percentage_error, "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", L.mean_squared_logarithmic_error, "mean_squared_logarithmic_error")
CosineSimilarity = _wrapper("CosineSimilarity", _cosine_similarity, "cosine_similarity", axis=-1)
LogCoshError = _wrapper("LogCoshError", L.log_cosh, "logcosh")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", L.binary_crossentropy, "binary_crossentropy", from_logits=False, label_smoothing=0.0)
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", L.categorical_crossentropy, "categorical_crossentropy", from_logits=False, label_smoothing=0.0)
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy", L.sparse_categorical_crossentropy, "sparse_categorical_crossentropy", from_logits=False)
KLDivergence = _wrapper("KLDivergence", L.kl_divergence, "kl_divergence")
Poisson = _wrapper("Poisson", L.poisson, "poisson")
Hinge = _wrapper("Hinge", L.hinge, "hinge")
SquaredHinge = _wrapper("SquaredHinge", L.squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper("CategoricalHinge", L.categorical_hinge, "categorical_hinge")


class RootMeanSquaredError(Mean):
    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _f32(y_pred)
        super().update_state(api.square(api.subtract(y_pred, _f32(y_true))), sample_weight)

    def result(self):
        return api.sqrt(super().result())


# ---- confusion-matrix metrics ----------------------------------------------------------------------
class _Confusion(Metric):
    """Counts of true/false positives/negatives at one or more thresholds (Keras' binary metrics)."""

    def __init__(self, thresholds, name, dtype=None, default=0.5):
        super().__init__(name, dtype)
        self.init_thresholds = thresholds
        ts = [default] if thresholds is None else list(thresholds) if isinstance(thresholds, (list, tuple)) \
            else [thresholds]
        self.thresholds = np.asarray(ts, np.float32)
        self._scalar = not isinstance(thresholds, (list, tuple))

    def _counts(self, y_true, y_pred, sample_weight):
        pred = api.reshape(_f32(y_pred), [-1, 1])
        true = api.reshape(_f32(y_true), [-1, 1])
        above = _f32(api.greater(pred, self.thresholds[None, :]))
        if sample_weight is None:
            w = api.ones_like(true)
        else:
            t = api.convert_to_tensor(y_true)
            sw = _f32(sample_weight)
            rank, w_rank = len(t.shape.as_list()), len(sw.shape.as_list())
            sw = api.reshape(sw, sw.shape.as_list() + [1] * (rank - w_rank)) if w_rank else sw
            w = api.reshape(api.multiply(api.ones_like(_f32(t)), sw), [-1, 1])
        pos, neg = api.multiply(true, w), api.multiply(api.subtract(1.0, true), w)
        tp = api.reduce_sum(api.multiply(above, pos), 0)
        fp = api.reduce_sum(api.multiply(above, neg), 0)
        fn = api.reduce_sum(api.multiply(api.subtract(1.0, above), pos), 0)
        tn = api.reduce_sum(api.multiply(api.subtract(1.0, above), neg), 0)
        return tp, fp, tn, fn

    def _out(self, t):
        return t[0] if self._scalar or len(self.thresholds) == 1 and self.init_thresholds is None else t


def _count_metric(cls_name, which, default_name):
    class _Count(_Confusion):
        def __init__(self, thresholds=None, name=None, dtype=None):
            super().__init__(thresholds, name or default_name, dtype)
            self.accumulator = self.add_variable((len(self.thresholds),), name="accumulator")

        def update_state(self, y_true, y_pred, sample_weight=None):
            self.accumulator.assign_add(self._counts(y_true, y_pred, sample_weight)[which])

        def result(self):
            return self._out(self.accumulator.read_value())

    _Count.__name__ = _Count.__qualname__ = cls_name
    return _Count


TruePositives = _count_metric("TruePositives", 0, "true_positives")
FalsePositives = _count_metric("FalsePositives", 1, "false_positives")
TrueNegatives = _count_metric("TrueNegatives", 2, "true_negatives")
FalseNegatives = _count_metric("FalseNegatives", 3, "false_negatives")


class Precision(_Confusion):
    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds, name or "precision", dtype)
        if top_k is not None:
            raise NotImplementedError(f"{type(self).__name__}(top_k=...) is not supported")
        self.class_id = class_id
        self.tp = self.add_variable((len(self.thresholds),), name="true_positives")
        self.other = self.add_variable((len(self.thresholds),), name="false_positives")

    def _slice(self, y_true, y_pred):
        if self.class_id is None:
            return y_true, y_pred
        return y_true[..., self.class_id], y_pred[..., self.class_id]

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = self._slice(api.convert_to_tensor(y_true), api.convert_to_tensor(y_pred))
        tp, fp, _, _ = self._counts(y_true, y_pred, sample_weight)
        self.tp.assign_add(tp)
        self.other.assign_add(fp)

    def result(self):
        tp = self.tp.read_value()
        return self._out(_safe_div(tp, api.add(tp, self.other.read_value())))


class Recall(Precision):
    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds, top_k, class_id, name or "recall", dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = self._slice(api.convert_to_tensor(y_true), api.convert_to_tensor(y_pred))
        tp, _, _, fn = self._counts(y_true, y_pred, sample_weight)
        self.tp.assign_add(tp)
        self.other.assign_add(fn)


class AUC(_Confusion):
    """ROC or PR area from counts at `num_thresholds` evenly spaced thresholds (Keras' interpolation)."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        if curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["ROC", "PR"]')
        eps = 1e-7
        inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        super().__init__([0.0 - eps] + inner + [1.0 + eps], name or "auc", dtype)
        self.curve, self.summation_method, self.from_logits = curve, summation_method, from_logits
        self.num_thresholds = num_thresholds
        n = num_thresholds
        self.tp = self.add_variable((n,), name="true_positives")
        self.fp = self.add_variable((n,), name="false_positives")
        self.tn = self.add_variable((n,), name="true_negatives")
        self.fn = self.add_variable((n,), name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = api.sigmoid(_f32(y_pred)) if self.from_logits else y_pred
        tp, fp, tn, fn = self._counts(y_true, y_pred, sample_weight)
        for var, val in ((self.tp, tp), (self.fp, fp), (self.tn, tn), (self.fn, fn)):
            var.assign_add(val)

    def result(self):
        tp, fp, tn, fn = (v.read_value() for v in (self.tp, self.fp, self.tn, self.fn))
        n = self.num_thresholds
        if self.curve == "PR" and self.summation_method == "interpolation":
            dtp = api.subtract(tp[: n - 1], tp[1:])
            p = api.add(tp, fp)
            dp = api.subtract(p[: n - 1], p[1:])
            slope = _safe_div(dtp, api.maximum(dp, 0.0))
            intercept = api.subtract(tp[1:], api.multiply(slope, p[1:]))
            both = api.logical_and(api.greater(p[: n - 1], 0.0), api.greater(p[1:], 0.0))
            ratio = api.where(both, _safe_div(p[: n - 1], api.maximum(p[1:], 0.0)), api.ones_like(p[1:]))
            inc = _safe_div(api.multiply(slope, api.add(dtp, api.multiply(intercept, api.log(ratio)))),
                            api.maximum(api.add(tp[1:], fn[1:]), 0.0))
            return api.reduce_sum(inc)
        recall = _safe_div(tp, api.add(tp, fn))
        if self.curve == "ROC":
            x, y = _safe_div(fp, api.add(fp, tn)), recall
        else:
            x, y = recall, _safe_div(tp, api.add(tp, fp))
        if self.summation_method == "interpolation":
            heights = api.divide(api.add(y[: n - 1], y[1:]), 2.0)
        elif self.summation_method == "minoring":
            heights = api.minimum(y[: n - 1], y[1:])
        else:
            heights = api.maximum(y[: n - 1], y[1:])
        return api.reduce_sum(api.multiply(api.subtract(x[: n - 1], x[1:]), heights))


class MeanIoU(Metric):
    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(name or "mean_io_u", dtype)
        self.num_classes, self.ignore_class = int(num_classes), ignore_class
        self.sparse_y_true, self.sparse_y_pred, self.axis = sparse_y_true, sparse_y_pred, axis
        self.total_cm = self.add_variable((self.num_classes, self.num_classes), name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.sparse_y_true:
            y_true = api.argmax(y_true, self.axis)
        if not self.sparse_y_pred:
            y_pred = api.argmax(y_pred, self.axis)
        t = api.reshape(api.cast(y_true, "int32"), [-1])
        p = api.reshape(api.cast(y_pred, "int32"), [-1])
        # Keras keeps the confusion matrix in integers: weights are truncated to integers
        w = api.ones_like(_f32(t)) if sample_weight is None else _f32(api.cast(api.reshape(
            api.multiply(api.ones_like(_f32(y_true)), _f32(sample_weight)), [-1]), "int32"))
        if self.ignore_class is not None:
            w = api.multiply(w, _f32(api.not_equal(t, self.ignore_class)))
        t1 = api.multiply(api.one_hot(t, self.num_classes), api.expand_dims(w, -1))
        p1 = api.one_hot(p, self.num_classes)
        self.total_cm.assign_add(api.matmul(t1, p1, transpose_a=True))

    def result(self):
        cm = self.total_cm.read_value()
        rows, cols = api.reduce_sum(cm, 1), api.reduce_sum(cm, 0)
        diag = api.reduce_sum(api.multiply(cm, np.eye(self.num_classes, dtype=np.float32)), 1)
        denom = api.subtract(api.add(rows, cols), diag)
        valid = _f32(api.not_equal(denom, 0.0))
        iou = _safe_div(diag, denom)
        return _safe_div(api.reduce_sum(iou), api.reduce_sum(valid))


class R2Score(Metric):
    """Coefficient of determination per output column, averaged (Keras' uniform_average)."""

    def __init__(self, name="r2_score", dtype=None, class_aggregation="uniform_average", num_regressors=0):
        super().__init__(name, dtype)
        self.class_aggregation = class_aggregation
        self._built = False

    def _build(self, n: int) -> None:
        self.sum, self.squared_sum, self.total_mse, self.count = (
            self.add_variable((n,), name=k) for k in ("sum", "squared_sum", "residual", "count"))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        t, p = _f32(y_true), _f32(y_pred)
        if len(t.shape.as_list()) == 1:
            t, p = api.expand_dims(t, 1), api.expand_dims(p, 1)
        if not self._built:
            self._build(t.shape.as_list()[1])
        sw = np.float32(1.0) if sample_weight is None else _f32(sample_weight)
        if sample_weight is not None and len(sw.shape.as_list()) == 1:
            sw = api.expand_dims(sw, 1)
        sw = api.multiply(api.ones_like(t), sw)
        weighted = api.multiply(t, sw)
        self.sum.assign_add(api.reduce_sum(weighted, 0))
        self.squared_sum.assign_add(api.reduce_sum(api.multiply(t, weighted), 0))
        self.total_mse.assign_add(api.reduce_sum(api.multiply(api.square(api.subtract(t, p)), sw), 0))
        self.count.assign_add(api.reduce_sum(sw, 0))

    def result(self):
        mean = api.divide(self.sum.read_value(), self.count.read_value())
        total = api.subtract(self.squared_sum.read_value(), api.multiply(self.sum.read_value(), mean))
        raw = api.subtract(1.0, api.divide(self.total_mse.read_value(), total))
        raw = api.where(api.is_inf(raw), api.zeros_like(raw), raw) if hasattr(api, "is_inf") else raw
        return raw if self.class_aggregation is None else api.reduce_mean(raw)


_BY_NAME = {
    "accuracy": Accuracy, "acc": Accuracy, "binary_accuracy": BinaryAccuracy,
    "categorical_accuracy": CategoricalAccuracy, "sparse_categorical_accuracy": SparseCategoricalAccuracy,
    "top_k_categorical_accuracy": TopKCategoricalAccuracy,
    "sparse_top_k_categorical_accuracy": SparseTopKCategoricalAccuracy, "mse": MeanSquaredError,
    "mean_squared_error": MeanSquaredError, "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
    "mape": MeanAbsolutePercentageError, "msle": MeanSquaredLogarithmicError, "auc": AUC, "precision": Precision,
    "recall": Recall, "binary_crossentropy": BinaryCrossentropy, "categorical_crossentropy": CategoricalCrossentropy,
    "sparse_categorical_crossentropy": SparseCategoricalCrossentropy, "kl_divergence": KLDivergence,
    "poisson": Poisson, "hinge": Hinge, "squared_hinge": SquaredHinge, "categorical_hinge": CategoricalHinge,
    "cosine_similarity": CosineSimilarity, "logcosh": LogCoshError, "root_mean_squared_error": RootMeanSquaredError,
    "r2_score": R2Score,
}


def _accuracy_for(loss):
    """Keras resolves 'accuracy' by the loss: sparse/categorical/binary accuracy."""
    fn = getattr(loss, "fn", None)
    if fn is L.sparse_categorical_crossentropy:
        return SparseCategoricalAccuracy(name="accuracy")
    if fn in (L.categorical_crossentropy, L.categorical_focal_crossentropy):
        return CategoricalAccuracy(name="accuracy")
    if fn in (L.binary_crossentropy, L.binary_focal_crossentropy, L.hinge, L.squared_hinge):
        return BinaryAccuracy(name="accuracy")
    return _ShapeResolvedAccuracy(name="accuracy")


class _ShapeResolvedAccuracy(MeanMetricWrapper):
    """'accuracy' with a loss that does not say: binary if y_pred has one column, sparse if y_true has
    one fewer dimension (or a last dimension of 1), else categorical."""

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(self._pick, name, dtype)

    @staticmethod
    def _pick(y_true, y_pred):
        y_true, y_pred = api.convert_to_tensor(y_true), api.convert_to_tensor(y_pred)
        t, p = y_true.shape.as_list(), y_pred.shape.as_list()
        if p[-1] == 1:
            return binary_accuracy(y_true, y_pred)
        if len(t) == len(p) - 1 or (len(t) == len(p) and t[-1] == 1):
            return sparse_categorical_accuracy(y_true, y_pred)
        return categorical_accuracy(y_true, y_pred)


def get(identifier, loss=None):
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        if identifier in ("accuracy", "acc"):
            return _accuracy_for(loss)
        cls = _BY_NAME.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret metric identifier: {identifier}")
        return cls(name=identifier)
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    if callable(identifier):
        return MeanMetricWrapper(identifier, name=getattr(identifier, "__name__", None))
    raise ValueError(f"Could not interpret metric identifier: {identifier}")
