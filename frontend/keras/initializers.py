"""`tf.keras.initializers`: numpy-drawn initial values from one process-wide generator.

`keras.utils.set_random_seed(s)` reseeds it, so the same seed gives the same
weights; the draws are not TensorFlow's (tests set weights explicitly when
they compare with real Keras).
"""

from __future__ import annotations

import math

import numpy as np
from minixla.frontend.keras import random as _random

_RNG = [np.random.default_rng(0)]


def set_random_seed(seed: int) -> None:
    _RNG[0] = np.random.default_rng(seed)
    _random.reset_global_seed(seed)


def rng() -> np.random.Generator:
    return _RNG[0]


def compute_fans(shape):
    """Keras' fan_in/fan_out: kernels are (*receptive, in, out)."""
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    def __call__(self, shape, dtype=None):
        raise NotImplementedError

    def get_config(self) -> dict:
        return {}


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return np.full(tuple(shape), self.value, np.dtype(dtype or "float32"))


class Zeros(Constant):
    def __init__(self):
        super().__init__(0.0)


class Ones(Constant):
    def __init__(self):
        super().__init__(1.0)


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def _rng(self):
        return np.random.default_rng(self.seed) if self.seed is not None else rng()

    def __call__(self, shape, dtype=None):
        return (self._rng().standard_normal(tuple(shape)) * self.stddev + self.mean).astype(dtype or "float32")


class RandomUniform(RandomNormal):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None):
        return self._rng().uniform(self.minval, self.maxval, tuple(shape)).astype(dtype or "float32")


def _truncated(generator, shape, stddev, mean=0.0):
    out = generator.standard_normal(shape)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = generator.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out * stddev + mean


class TruncatedNormal(RandomNormal):
    def __call__(self, shape, dtype=None):
        return _truncated(self._rng(), tuple(shape), self.stddev, self.mean).astype(dtype or "float32")


class VarianceScaling(RandomNormal):
    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid value for argument `mode`. Expected one of {{'fan_in', 'fan_out', "
                             f"'fan_avg'}}. Received: mode={mode}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = compute_fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1.0, n)
        if self.distribution == "truncated_normal":
            out = _truncated(self._rng(), tuple(shape), math.sqrt(scale) / 0.87962566103423978)
        elif self.distribution in ("untruncated_normal", "normal"):
            out = self._rng().standard_normal(tuple(shape)) * math.sqrt(scale)
        else:
            limit = math.sqrt(3.0 * scale)
            out = self._rng().uniform(-limit, limit, tuple(shape))
        return out.astype(dtype or "float32")


def _scaling(scale, mode, distribution):
    class _Named(VarianceScaling):
        def __init__(self, seed=None):
            super().__init__(scale, mode, distribution, seed)

    return _Named


GlorotUniform = type("GlorotUniform", (_scaling(1.0, "fan_avg", "uniform"),), {})
GlorotNormal = type("GlorotNormal", (_scaling(1.0, "fan_avg", "truncated_normal"),), {})
HeUniform = type("HeUniform", (_scaling(2.0, "fan_in", "uniform"),), {})
HeNormal = type("HeNormal", (_scaling(2.0, "fan_in", "truncated_normal"),), {})
LecunUniform = type("LecunUniform", (_scaling(1.0, "fan_in", "uniform"),), {})
LecunNormal = type("LecunNormal", (_scaling(1.0, "fan_in", "truncated_normal"),), {})


class Orthogonal(RandomNormal):
    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        a = self._rng().standard_normal((max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        q = q.T if rows < cols else q
        return (self.gain * q[:rows, :cols]).reshape(shape).astype(dtype or "float32")


class Identity(Initializer):
    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. Received: "
                             f"shape={tuple(shape)} of rank {len(shape)}.")
        return (self.gain * np.eye(*shape)).astype(dtype or "float32")


_CLASSES = {c.__name__: c for c in (Constant, Zeros, Ones, RandomNormal, RandomUniform, TruncatedNormal,
                                    VarianceScaling, GlorotUniform, GlorotNormal, HeUniform, HeNormal,
                                    LecunUniform, LecunNormal, Orthogonal, Identity)}
_ALIASES = {"zeros": Zeros, "ones": Ones, "constant": Constant, "random_normal": RandomNormal,
            "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal,
            "variance_scaling": VarianceScaling, "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
            "he_uniform": HeUniform, "he_normal": HeNormal, "lecun_uniform": LecunUniform,
            "lecun_normal": LecunNormal, "orthogonal": Orthogonal, "identity": Identity}
NAMES = set(_CLASSES) | set(_ALIASES)


def get(identifier):
    """A callable `(shape, dtype) -> array` from a name, class, instance, or function."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        cls = _ALIASES.get(identifier) or _CLASSES.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")
        return cls()
    if isinstance(identifier, dict):
        return _CLASSES[identifier["class_name"]](**identifier.get("config", {}))
    if isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")


# function-style names kept from the first Keras-lite
glorot_uniform = GlorotUniform()
he_normal = HeNormal()
zeros = Zeros()
ones = Ones()
