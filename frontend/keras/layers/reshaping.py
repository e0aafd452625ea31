"""Reshaping layers: Flatten, Reshape, Permute, RepeatVector, ZeroPadding1D/2D/3D, Cropping1D/2D,
UpSampling1D/2D (nearest)."""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.keras.layers.base import Layer, _dims


class Flatten(Layer):
    def __init__(self, data_format=None, **kw):
        super().__init__(**kw)

    def call(self, x):
        dims = _dims(x)
        rest = dims[1:]
        if all(d is not None for d in rest):
            return api.reshape(x, [-1, int(np.prod(rest))] if rest else [-1, 1])
        return api.reshape(x, api.stack([api.shape(x)[0], -1]))


class Reshape(Layer):
    def __init__(self, target_shape, **kw):
        super().__init__(**kw)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, x):
        dims = _dims(x)
        known = int(np.prod([d for d in dims[1:]])) if all(d is not None for d in dims[1:]) else None
        target = [d for d in self.target_shape]
        if known is not None:
            if -1 in target:
                rest = int(np.prod([d for d in target if d != -1]))
                if rest == 0 or known % rest:
                    raise self._error(dims)
                target = [known // rest if d == -1 else d for d in target]
            if int(np.prod(target)) != known:
                raise self._error(dims)
        return api.reshape(x, [-1] + target)

    def _error(self, dims):
        return ValueError(f"The total size of the tensor must be unchanged. Received: input_shape="
                          f"{tuple(dims[1:])}, target_shape={self.target_shape}")


class Permute(Layer):
    def __init__(self, dims, **kw):
        super().__init__(**kw)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={self.dims}")

    def call(self, x):
        return api.transpose(x, [0] + list(self.dims))


class RepeatVector(Layer):
    def __init__(self, n, **kw):
        super().__init__(**kw)
        self.n = int(n)

    def call(self, x):
        return api.tile(api.expand_dims(x, 1), [1, self.n, 1])


def _pairs(padding, n):
    if isinstance(padding, int):
        return [(padding, padding)] * n
    out = []
    for p in padding:
        out.append((p, p) if isinstance(p, int) else tuple(p))
    return out


class _ZeroPadding(Layer):
    rank = 2

    def __init__(self, padding=1, data_format=None, **kw):
        super().__init__(**kw)
        self.padding = _pairs(padding, self.rank)

    def call(self, x):
        return api.pad(x, [[0, 0]] + [list(p) for p in self.padding] + [[0, 0]])


ZeroPadding1D = type("ZeroPadding1D", (_ZeroPadding,), {"rank": 1})
ZeroPadding2D = type("ZeroPadding2D", (_ZeroPadding,), {"rank": 2})
ZeroPadding3D = type("ZeroPadding3D", (_ZeroPadding,), {"rank": 3})


class _Cropping(Layer):
    rank = 2

    def __init__(self, cropping=1, data_format=None, **kw):
        super().__init__(**kw)
        self.cropping = _pairs(cropping, self.rank)

    def call(self, x):
        dims = _dims(x)
        index = [slice(None)] + [slice(a, d - b) for (a, b), d in zip(self.cropping, dims[1:])] + [slice(None)]
        return x[tuple(index)]


Cropping1D = type("Cropping1D", (_Cropping,), {"rank": 1})
Cropping2D = type("Cropping2D", (_Cropping,), {"rank": 2})


class UpSampling2D(Layer):
    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kw):
        super().__init__(**kw)
        if interpolation != "nearest":
            raise NotImplementedError("UpSampling2D: only interpolation='nearest' is supported")
        self.size = (int(size), int(size)) if isinstance(size, int) else tuple(int(s) for s in size)

    def call(self, x):
        _, h, w, c = _dims(x)
        sh, sw = self.size
        y = api.tile(api.reshape(x, [-1, h, 1, w, 1, c]), [1, 1, sh, 1, sw, 1])
        return api.reshape(y, [-1, h * sh, w * sw, c])


class UpSampling1D(Layer):
    def __init__(self, size=2, **kw):
        super().__init__(**kw)
        self.size = int(size)

    def call(self, x):
        _, steps, c = _dims(x)
        return api.reshape(api.tile(api.reshape(x, [-1, steps, 1, c]), [1, 1, self.size, 1]),
                           [-1, steps * self.size, c])
