"""`keras.random.SeedGenerator`: a seed held in a variable, advanced on every draw.

Dropout and friends draw with stateless ops from this state, so a compiled
training step gives a fresh mask on each call (the state is a variable the
executable updates) and a fixed seed gives a reproducible sequence.
"""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.api import random_stateless
from minixla.frontend.graph import init_scope
from minixla.frontend.variables import Variable

_GLOBAL = [None]
_SEED = [1337]


def reset_global_seed(seed: int) -> None:
    _SEED[0] = int(seed)
    _GLOBAL[0] = None


class SeedGenerator:
    def __init__(self, seed=None, name: str | None = None):
        seed = _SEED[0] if seed is None else int(seed)
        with init_scope():
            self.state = Variable(np.array([seed, 0], np.int64), trainable=False, name=name or "seed_generator")

    def next(self):
        seed = self.state.read_value()
        self.state.assign_add(np.array([0, 1], np.int64))
        return seed


def global_seed_generator() -> SeedGenerator:
    if _GLOBAL[0] is None:
        _GLOBAL[0] = SeedGenerator(name="global_seed_generator")
    return _GLOBAL[0]


def uniform(shape, minval=0.0, maxval=1.0, dtype="float32", seed=None):
    gen = seed if isinstance(seed, SeedGenerator) else global_seed_generator()
    return random_stateless.stateless_uniform(shape, gen.next(), minval, maxval, dtype)


def normal(shape, mean=0.0, stddev=1.0, dtype="float32", seed=None):
    gen = seed if isinstance(seed, SeedGenerator) else global_seed_generator()
    return random_stateless.stateless_normal(shape, gen.next(), mean, stddev, dtype)


def static_shape(x):
    """The shape as Python ints when known (XLA needs a constant shape for random ops)."""
    dims = x.shape.as_list()
    return dims if all(d is not None for d in dims) else api.shape(x)


def dropout(x, rate: float, seed: SeedGenerator | None = None, noise_shape=None):
    x = api.convert_to_tensor(x)
    shape = noise_shape if noise_shape is not None else static_shape(x)
    keep = api.greater_equal(uniform(shape, dtype=x.dtype, seed=seed), np.asarray(rate, x.dtype.np))
    return api.where(keep, api.divide(x, np.asarray(1.0 - rate, x.dtype.np)), api.zeros_like(x))
