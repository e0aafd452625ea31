"""`tf.keras.utils`: set_random_seed, to_categorical, normalize (numpy helpers, as in Keras)."""

from __future__ import annotations

import numpy as np
from minixla.frontend.keras.initializers import set_random_seed  # noqa: F401 (re-exported)


def to_categorical(x, num_classes=None):
    """One-hot rows for integer class ids (a trailing dimension of 1 is dropped, as Keras does)."""
    x = np.asarray(x, dtype="int64")
    shape = x.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    x = x.reshape(-1)
    if x.size and x.min() < 0:
        raise ValueError(f"to_categorical needs non-negative class ids; received {x.min()}")
    num_classes = int(x.max()) + 1 if num_classes is None else int(num_classes)
    out = np.zeros((x.size, num_classes), np.float32)
    out[np.arange(x.size), x] = 1.0
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    x = np.asarray(x, np.float32)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
