"""What `fit`/`evaluate`/`predict` accept as data: numpy arrays (batched here, optionally
shuffled each epoch), `tf.data.Dataset`s (already batched), and Python generators of batches.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from minixla.frontend.keras.initializers import rng
from minixla.frontend.tensor import Tensor
from minixla.frontend.variables import Variable


def unpack_x_y_sample_weight(data):
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
                     f"found: {data}")


def _as_array(v):
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return type(v)(_as_array(x) for x in v)
    if isinstance(v, dict):
        return {k: _as_array(x) for k, x in v.items()}
    arr = np.asarray(v.numpy() if isinstance(v, (Tensor, Variable)) else v)
    if arr.dtype.kind in "USO":  # strings (or Python objects) cannot be model inputs or labels
        kind = "str" if arr.dtype.kind in "US" else "object"
        raise ValueError(f"Invalid dtype: {kind}{arr.dtype.itemsize * 8 if kind == 'str' else ''} "
                         f"(model inputs, labels and sample weights must be numeric arrays; got {arr.dtype})")
    if arr.dtype == np.float64:
        arr = arr.astype(np.float32)  # Keras' floatx
    return arr


def to_tensors(data):
    return _as_array(data)


def _leaves(v) -> list:
    if v is None:
        return []
    if isinstance(v, (list, tuple)):
        return [a for x in v for a in _leaves(x)]
    if isinstance(v, dict):
        return [a for x in v.values() for a in _leaves(x)]
    return [v]


def _take(v, index):
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return type(v)(_take(x, index) for x in v)
    if isinstance(v, dict):
        return {k: _take(x, index) for k, x in v.items()}
    return v[index]


def train_validation_split(arrays, validation_split: float):
    """Keras' split: the last `validation_split` fraction (before any shuffling) validates."""
    if hasattr(arrays[0], "element_spec") or not hasattr(arrays[0], "__len__") and not isinstance(
            arrays[0], (np.ndarray, Tensor)):
        raise ValueError("`validation_split` is only supported for Tensors or NumPy arrays, found: "
                         f"{type(arrays[0]).__name__}")
    arrays = tuple(_as_array(a) for a in arrays)
    n = len(_leaves(arrays[0])[0])
    split = math.floor(n * (1.0 - validation_split))
    if split == 0 or split == n:
        raise ValueError(f"Training data contains {n} samples, which is not sufficient to split it into a "
                         f"validation and training set as specified by `validation_split={validation_split}`.")
    train = tuple(_take(a, slice(0, split)) for a in arrays)
    val = tuple(_take(a, slice(split, None)) for a in arrays)
    return train, (val if val[2] is not None else val[:2])


class DataHandler:
    """Yields `(step, batch)` for one epoch at a time."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, steps=None, shuffle=False,
                 class_weight=None):
        self.steps_arg = steps
        self.dataset = None
        if hasattr(x, "element_spec") or (hasattr(x, "__iter__") and hasattr(x, "__next__")):
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as input.")
            if batch_size is not None and hasattr(x, "element_spec"):
                raise ValueError("The `batch_size` argument must not be specified for the given input type. "
                                 "Received input: a tf.data.Dataset")
            self.dataset = x
            self.steps = steps if steps is not None else _cardinality(x)
            self._iterator = None  # an infinite dataset is read on across epochs, as Keras does
            if steps is None and _cardinality(x) is None and getattr(x, "_cardinality", None) == -1:
                raise ValueError("When passing an infinitely repeating dataset, please specify a `steps_per_epoch` "
                                 "value so that epoch level callbacks continue to work.")
            return
        self.x, self.y, self.sw = _as_array(x), _as_array(y), _as_array(sample_weight)
        leaves = _leaves(self.x) + _leaves(self.y) + _leaves(self.sw)
        if not leaves:
            raise ValueError("Unrecognized data type: x=None")
        sizes = {len(a) if a.ndim else 1 for a in leaves}
        if len(sizes) > 1:
            raise ValueError("Data cardinality is ambiguous. Make sure all arrays contain the same number of "
                             f"samples.'x' sizes: {[len(a) for a in _leaves(self.x)]}\n'y' sizes: "
                             f"{[len(a) for a in _leaves(self.y)]}")
        if class_weight is not None and self.y is not None:
            labels = self.y.reshape(len(self.y), -1)
            labels = labels.argmax(1) if labels.shape[1] > 1 else labels[:, 0].round().astype(int)
            weights = np.array([class_weight.get(int(c), 1.0) for c in labels], np.float32)
            self.sw = weights if self.sw is None else self.sw * weights
        self.n = sizes.pop()
        self.batch_size = int(batch_size or 32)
        self.shuffle = shuffle
        full = math.ceil(self.n / self.batch_size)
        self.steps = min(steps, full) if steps is not None else full

    def epoch(self):
        if self.dataset is not None:
            infinite = getattr(self.dataset, "_cardinality", None) == -1
            if self._iterator is None or not infinite:
                self._iterator = iter(self.dataset)
            for step in itertools.count():
                if self.steps is not None and step >= self.steps:
                    break
                element = next(self._iterator, None)
                if element is None:
                    break
                yield step, _as_array(element)
            return
        order = np.arange(self.n)
        if self.shuffle:
            order = rng().permutation(self.n)
        for step in range(self.steps):
            index = order[step * self.batch_size:(step + 1) * self.batch_size]
            if not self.shuffle:
                index = slice(step * self.batch_size, min((step + 1) * self.batch_size, self.n))
            batch = (_take(self.x, index), _take(self.y, index), _take(self.sw, index))
            yield step, batch if batch[2] is not None else (batch[:2] if batch[1] is not None else batch[:1])


def _cardinality(ds):
    card = getattr(ds, "cardinality", None)
    if card is None:
        return None
    n = int(np.asarray(card()))
    return n if n >= 0 else None
