"""`tf.random`: the stateless generators (`stateless_uniform`, `stateless_normal`,
`experimental.stateless_split`, `experimental.stateless_fold_in`).

As TF's Python layer: the seed goes through StatelessRandomGetKeyCounter,
then a V2 kernel draws in [0, 1) / N(0, 1) and the affine map to
[minval, maxval) / N(mean, stddev) is ordinary arithmetic, so gradients and
the HLO look like TF's. The numbers are TF's eager ones (ops/random_ops.py).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.api.core import _t, add, multiply, stack, subtract
from minixla.frontend.execute import execute
from minixla.frontend.ops.random_ops import AUTO_SELECT, PHILOX
from minixla.frontend.tensor import Tensor

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_INTS = (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)


def _alg(alg) -> int:
    """TF's `convert_alg_to_int`; only Philox (and auto_select, Philox on CPU) is implemented."""
    name = getattr(alg, "name", alg)
    if name is None or (isinstance(name, str) and name.lower() in ("auto_select", "philox")):
        return AUTO_SELECT if name is None or name.lower() == "auto_select" else PHILOX
    if isinstance(name, (int, np.integer)) and int(name) in (PHILOX, AUTO_SELECT):
        return int(name)
    raise ValueError(f"Argument `alg` got unsupported value {alg!r}: minixla implements the Philox algorithm "
                     f"only ('philox' or 'auto_select')")


def _shape(shape):
    if isinstance(shape, Tensor):
        return shape
    return np.asarray([int(d) for d in shape] if not np.isscalar(shape) else [int(shape)], np.int32)


def _key_counter(seed):
    seed = _t(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"seed must have dtype int32 or int64, got {seed.dtype.name}")
    return execute("StatelessRandomGetKeyCounter", [seed], {"Tseed": seed.dtype.np})


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    dt = dtypes.as_dtype(dtype)
    if dt not in _FLOATS + _INTS:
        raise ValueError(f"Argument `dtype` got invalid value {dt!r}. Accepted dtypes are "
                         f"{[d.name for d in _FLOATS + _INTS]}.")
    a = np.asarray(_alg(alg), np.int32)
    key, counter = _key_counter(seed)
    if dt.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dt!r}, argument `minval` and `maxval` must be both "
                             f"None or not None. Got `minval`={minval} and `maxval`={maxval}.")
        if minval is not None and dt in (dtypes.uint32, dtypes.uint64):
            raise ValueError(f"Argument `dtype` got invalid value {dt!r} when argument `minval` is not None. "
                             f"Please don't use unsigned integers in this case.")
        if minval is None:
            return execute("StatelessRandomUniformFullIntV2", [_shape(shape), key, counter, a], {"dtype": dt.np})
        return execute("StatelessRandomUniformIntV2",
                       [_shape(shape), key, counter, a, _t(minval, dt), _t(maxval, dt)], {"dtype": dt.np})
    lo, hi = _t(minval, dt), _t(1 if maxval is None else maxval, dt)
    rnd = execute("StatelessRandomUniformV2", [_shape(shape), key, counter, a], {"dtype": dt.np})
    return add(multiply(rnd, subtract(hi, lo)), lo)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    dt = dtypes.as_dtype(dtype)
    if dt not in _FLOATS:
        raise ValueError(f"Argument `dtype` got invalid value {dt!r}. Accepted dtypes are "
                         f"{[d.name for d in _FLOATS]}.")
    key, counter = _key_counter(seed)
    rnd = execute("StatelessRandomNormalV2", [_shape(shape), key, counter, np.asarray(_alg(alg), np.int32)],
                  {"dtype": dt.np})
    return add(multiply(rnd, _t(stddev, dt)), _t(mean, dt))


def stateless_split(seed, num=2, alg="auto_select"):
    """`num` new seeds ([num, 2], seed's dtype): a full-range integer draw, as TF does."""
    seed = _t(seed)
    return stateless_uniform([num, 2], seed, dtype=seed.dtype, minval=None, maxval=None, alg=alg)


def stateless_fold_in(seed, data, alg="auto_select"):
    """The seed [draw(seed), data]: TF's fold-in (one full-range draw of data's dtype)."""
    data = _t(data)
    first = stateless_uniform([], seed, dtype=data.dtype, minval=None, maxval=None, alg=alg)
    return stack([first, data])


experimental = SimpleNamespace(stateless_split=stateless_split, stateless_fold_in=stateless_fold_in)
