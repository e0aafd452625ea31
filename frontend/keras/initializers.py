"""Weight initializers (numpy, one process-wide generator: `keras.utils.set_random_seed`)."""

from __future__ import annotations

import numpy as np

_RNG = [np.random.default_rng(0)]


def set_random_seed(seed: int) -> None:
    _RNG[0] = np.random.default_rng(seed)


def _fans(shape):
    if len(shape) < 2:
        return shape[0] if shape else 1, shape[0] if shape else 1
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


def glorot_uniform(shape, dtype):
    fan_in, fan_out = _fans(shape)
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return _RNG[0].uniform(-limit, limit, shape).astype(dtype)


def he_normal(shape, dtype):
    fan_in, _ = _fans(shape)
    return (_RNG[0].standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(dtype)


def zeros(shape, dtype):
    return np.zeros(shape, dtype)


def ones(shape, dtype):
    return np.ones(shape, dtype)


_BY_NAME = {"glorot_uniform": glorot_uniform, "he_normal": he_normal, "zeros": zeros, "ones": ones}


def get(init):
    if callable(init):
        return init
    if init not in _BY_NAME:
        raise ValueError(f"Unknown initializer: '{init}'")
    return _BY_NAME[init]
