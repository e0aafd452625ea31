"""TF's resource-based random kernels (StatefulUniform, StatefulUniformInt, StatefulUniformFullInt,
StatefulStandardNormalV2, StatefulTruncatedNormal, RngReadAndSkip, RngSkip), with the state made a value.

TF keeps a Philox state in an int64[3] variable (counter low, counter high, key). Each kernel draws as the
stateless V2 kernels do from (key, counter) and advances the 128-bit counter by 256 * n (n = the number of
samples, or RngSkip's delta: TF's UpdateMemWithPhiloxRandom). Here the rule takes the state's value as its
`resource` input and returns the new state as an extra last output; the raw-op wrapper
(frontend/api/raw_functional.py) reads and assigns the Variable, as tf.random.Generator does.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops import random_ops
from minixla.frontend.ops.conv3d_random_ops import truncated_normal
from minixla.frontend.ops.registry import op_error, register, shape_text

_U64 = np.dtype(np.uint64)


def _words(b, op, state):
    if tuple(state.shape) != (3,):
        raise op_error(op, f"The size of the RNG state must be 3 for the Philox algorithm, got shape "
                           f"{shape_text(state.shape)}")
    u = b.bitcast_convert(b.convert(state, np.int64), _U64)
    return [b.slice(u, [k], [k + 1]) for k in range(3)]


def _skip(b, lo, hi, key, delta):
    """(lo, hi, key) with the 128-bit counter advanced by `delta` (a u64[1]), as int64[3]."""
    new_lo = b.add(lo, delta)
    carry = b.convert(b.compare(new_lo, lo, "LT"), _U64)
    return b.bitcast_convert(b.concatenate([new_lo, b.add(hi, carry), key], 0), np.int64)


def _stateful(op, draw):
    def rule(b, resource, algorithm, shape, *rest, dtype=np.float32, shape_dtype=None):
        random_ops._check_alg(op, algorithm)
        lo, hi, key = _words(b, op, resource)
        dims = random_ops._shape(op, shape)
        dt = np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
        values = draw(b, dims, key, b.concatenate([lo, hi], 0), algorithm, *rest, dtype=dt)
        n = int(np.prod(dims, dtype=np.int64))
        return values, _skip(b, lo, hi, key, b.constant(np.array([(256 * n) % 2 ** 64], _U64)))
    return rule


def _uniform_int(b, shape, key, counter, alg, minval, maxval, dtype=None):
    return random_ops.uniform_int(b, shape, key, counter, alg, minval, maxval)


_OPS = {"StatefulUniform": (random_ops.uniform, np.float32),
        "StatefulStandardNormalV2": (random_ops.normal, np.float32),
        "StatefulTruncatedNormal": (truncated_normal, np.float32),
        "StatefulUniformFullInt": (random_ops.uniform_full_int, np.uint64)}
for _name, (_draw, _dt) in _OPS.items():
    register(_name, ("resource", "algorithm", "shape"), _stateful(_name, _draw),
             attrs={"dtype": _dt, "shape_dtype": None}, const_inputs=("algorithm", "shape"), typed=(), stateful=True)
register("StatefulUniformInt", ("resource", "algorithm", "shape", "minval", "maxval"),
         _stateful("StatefulUniformInt", _uniform_int), attrs={"dtype": None, "shape_dtype": None},
         const_inputs=("algorithm", "shape"), typed=("minval", "maxval"), stateful=True)


def rng_read_and_skip(b, resource, alg, delta):
    """(the old state, the state advanced by 256 * delta)."""
    random_ops._check_alg("RngReadAndSkip", alg)
    lo, hi, key = _words(b, "RngReadAndSkip", resource)
    d = b.multiply(b.reshape(b.convert(delta, _U64), [1]), b.constant(np.array([256], _U64)))
    return b.convert(resource, np.int64), _skip(b, lo, hi, key, d)


def rng_skip(b, resource, algorithm, delta):
    return rng_read_and_skip(b, resource, algorithm, delta)[1]


register("RngReadAndSkip", ("resource", "alg", "delta"), rng_read_and_skip, const_inputs=("alg",), typed=(),
         stateful=True)
register("RngSkip", ("resource", "algorithm", "delta"), rng_skip, const_inputs=("algorithm",), typed=(),
         stateful=True)
