"""`tf.keras.regularizers`: L1, L2, L1L2, OrthogonalRegularizer; by name ('l1', 'l2', 'l1_l2')."""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api


class Regularizer:
    def __call__(self, x):
        return api.constant(0.0)

    def get_config(self) -> dict:
        return {}


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        x = api.convert_to_tensor(x)
        total = api.constant(np.zeros((), x.dtype.np))
        if self.l1:
            total = api.add(total, api.multiply(np.asarray(self.l1, x.dtype.np), api.reduce_sum(api.abs(x))))
        if self.l2:
            total = api.add(total, api.multiply(np.asarray(self.l2, x.dtype.np), api.reduce_sum(api.square(x))))
        return total

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    def __init__(self, l1=0.01):
        super().__init__(l1=l1)


class L2(L1L2):
    def __init__(self, l2=0.01):
        super().__init__(l2=l2)


class OrthogonalRegularizer(Regularizer):
    """factor * mean |off-diagonal of normalized W^T W| (Keras 3's rows/columns mode)."""

    def __init__(self, factor=0.01, mode="rows"):
        self.factor, self.mode = float(factor), mode

    def __call__(self, x):
        x = api.convert_to_tensor(x)
        if self.mode == "columns":
            x = api.transpose(x)
        x = api.divide(x, api.sqrt(api.maximum(api.reduce_sum(api.square(x), 1, keepdims=True), 1e-12)))
        n = x.shape[0]
        prod = api.matmul(x, x, transpose_b=True)
        off = api.multiply(prod, np.float32(1) - np.eye(n, dtype=np.float32))
        return api.multiply(self.factor, api.divide(api.reduce_sum(api.abs(off)), float(n * (n - 1))))


l1, l2, l1_l2 = L1, L2, L1L2
_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": L1L2, "L1": L1, "L2": L2, "L1L2": L1L2,
            "orthogonal_regularizer": OrthogonalRegularizer, "OrthogonalRegularizer": OrthogonalRegularizer}


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}")
        return _BY_NAME[identifier]()
    if isinstance(identifier, dict):
        return _BY_NAME[identifier["class_name"]](**identifier.get("config", {}))
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}")
