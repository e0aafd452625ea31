"""Stateless random ops (TF's V2 kernels): StatelessRandomGetKeyCounter,
StatelessRandomUniformV2, StatelessRandomNormalV2, StatelessRandomUniformIntV2,
StatelessRandomUniformFullIntV2.

They reproduce TF 2.21's *eager* CPU kernels bit for bit (the reference the
goldens use), eagerly and compiled alike, because every bit comes from one
`hlo.rng_bit_generator` PHILOX whose layout (4 uint32 words per 128-bit
counter block, counter = state[1] | state[2] << 64) is exactly TF's
`random::PhiloxRandom` stream:

* GetKeyCounter scrambles the seed as TF's `GenerateKey`: one Philox block of
  counter (seed0, seed1) under the fixed key 0x02461e29_3ec8f720 gives
  key = mix[0..1] and counter = (0, mix[2..3]);
* the distributions consume the stream as TF's `random_distributions.h`
  (Uint32ToFloat mantissa trick, Box-Muller with sin first, two words per
  64-bit value, `lo + bits % range` for integers).

TF's own XLA lowering (tf2xla) draws different numbers for the same seed
(captures/stateless_rng_alg.txt); we follow the eager kernels, so eager and
`jit_compile=True` agree here. Only Philox (alg 1, also what auto_select
picks on CPU) is supported.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import op_error, register

PHILOX, AUTO_SELECT = 1, 3
_SEED_KEY = (0x02461E29 << 32) | 0x3EC8F720  # TF's GenerateKey scrambling key (k0 = low word)
_U32, _U64 = np.dtype(np.uint32), np.dtype(np.uint64)


def _shape(op: str, shape) -> list[int]:
    dims = [int(d) for d in np.asarray(shape).reshape(-1)]
    if any(d < 0 for d in dims):
        raise op_error(op, f"Dimension {min(dims)} must be >= 0")
    return dims


def _check_alg(op: str, alg) -> None:
    a = int(np.asarray(alg).reshape(()))
    if a not in (PHILOX, AUTO_SELECT):
        raise op_error(op, f"Unsupported algorithm id: {a} (minixla implements Philox only)")


def _words(b, op: str, key, counter, alg, n: int):
    """The first `n` uint32 words of TF's Philox stream for (key, counter), as u32[n]."""
    _check_alg(op, alg)
    if tuple(key.shape) != (1,) or tuple(counter.shape) != (2,):
        raise op_error(op, f"key must have shape [1] and counter shape [2], got "
                           f"[{','.join(map(str, key.shape))}] and [{','.join(map(str, counter.shape))}]")
    state = b.concatenate([key, counter], 0)
    return b.rng_bit_generator(state, "PHILOX", [n], _U32)[1]


def _u64(b, lo, hi):
    """u64(lo) | u64(hi) << 32 for u32 operands."""
    h = b.shift_left(b.convert(hi, _U64), b.full(hi.shape, 32, _U64))
    return b.or_(b.convert(lo, _U64), h)


def _pairs(b, w, m: int):
    """Words 2i and 2i+1 of u32[2m] as two u32[m]."""
    w = b.reshape(w, [m, 2])
    return [b.reshape(b.slice(w, [0, k], [m, k + 1]), [m]) for k in (0, 1)]


def get_key_counter(b, seed, Tseed=None):
    if tuple(seed.shape) != (2,):
        raise op_error("StatelessRandomGetKeyCounter",
                       f"seed must have shape [2], not [{','.join(map(str, seed.shape))}]")
    s = b.bitcast_convert(b.convert(seed, np.int64), _U64)  # int32 seeds sign-extend, as in C++
    state = b.concatenate([b.constant(np.array([_SEED_KEY], _U64)), s], 0)
    mix = b.rng_bit_generator(state, "PHILOX", [4], _U32)[1]
    word = [b.slice(mix, [k], [k + 1]) for k in range(4)]
    key = _u64(b, word[0], word[1])
    counter = b.concatenate([b.constant(np.zeros(1, _U64)), _u64(b, word[2], word[3])], 0)
    return key, counter


register("StatelessRandomGetKeyCounter", ("seed",), get_key_counter, attrs={"Tseed": None}, typed=())


def _unit(b, w, dtype):
    """TF's UintNToFloat: the low mantissa bits of `w` (u32) with exponent 0, minus 1 -> [0, 1)."""
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        f = b.bitcast_convert(b.or_(b.and_(w, b.full(w.shape, 0x7FFFFF, _U32)),
                                    b.full(w.shape, 0x3F800000, _U32)), np.float32)
    elif dtype == np.float16:
        bits = b.convert(b.and_(w, b.full(w.shape, 0x3FF, _U32)), np.uint16)
        f = b.bitcast_convert(b.or_(bits, b.full(w.shape, 15 << 10, np.uint16)), np.float16)
    elif dtype.name == "bfloat16":
        bits = b.convert(b.and_(w, b.full(w.shape, 0x7F, _U32)), np.uint16)
        f = b.bitcast_convert(b.or_(bits, b.full(w.shape, 127 << 7, np.uint16)), dtype)
    else:
        raise op_error("StatelessRandomUniformV2", f"unsupported dtype {dtype.name}")
    return b.subtract(f, b.full(w.shape, 1, dtype))


def _unit64(b, x0, x1):
    """TF's Uint64ToDouble: 20 mantissa bits from x0, 32 from x1."""
    man = _u64(b, x1, b.and_(x0, b.full(x0.shape, 0xFFFFF, _U32)))
    f = b.bitcast_convert(b.or_(man, b.full(x0.shape, 1023 << 52, _U64)), np.float64)
    return b.subtract(f, b.full(x0.shape, 1, np.float64))


def uniform(b, shape, key, counter, alg, dtype=np.float32, Tshape=None):
    dims, dtype = _shape("StatelessRandomUniformV2", shape), np.dtype(dtype)
    n = int(np.prod(dims, dtype=np.int64))
    if dtype == np.float64:
        x0, x1 = _pairs(b, _words(b, "StatelessRandomUniformV2", key, counter, alg, 2 * n), n)
        return b.reshape(_unit64(b, x0, x1), dims)
    return b.reshape(_unit(b, _words(b, "StatelessRandomUniformV2", key, counter, alg, n), dtype), dims)


register("StatelessRandomUniformV2", ("shape", "key", "counter", "alg"), uniform,
         attrs={"dtype": np.float32, "Tshape": None}, const_inputs=("shape", "alg"), typed=())


def _box_muller(b, u1, v):
    """(sin(2 pi v) * r, cos(2 pi v) * r), r = sqrt(-2 log(max(u1, 1e-7))), TF's BoxMuller."""
    dt = np.dtype(u1.dtype)
    u1 = b.maximum(u1, b.full(u1.shape, 1e-7, dt))
    # `2.0f * M_PI * u` is a double product in C++, rounded once to the float type
    v1 = b.convert(b.multiply(b.full(v.shape, 2 * np.pi, np.float64), b.convert(v, np.float64)), dt)
    r = b.sqrt(b.multiply(b.full(u1.shape, -2, dt), b.log(u1)))
    return b.multiply(b.sine(v1), r), b.multiply(b.cosine(v1), r)


def normal(b, shape, key, counter, alg, dtype=np.float32, Tshape=None):
    dims, dtype = _shape("StatelessRandomNormalV2", shape), np.dtype(dtype)
    n = int(np.prod(dims, dtype=np.int64))
    m = -(-n // 2)  # Box-Muller makes pairs
    if dtype == np.float64:
        w = b.reshape(_words(b, "StatelessRandomNormalV2", key, counter, alg, 4 * m), [m, 4])
        x = [b.reshape(b.slice(w, [0, k], [m, k + 1]), [m]) for k in range(4)]
        z0, z1 = _box_muller(b, _unit64(b, x[0], x[1]), _unit64(b, x[2], x[3]))
    elif dtype in (np.float32, np.float16) or dtype.name == "bfloat16":
        x0, x1 = _pairs(b, _words(b, "StatelessRandomNormalV2", key, counter, alg, 2 * m), m)
        z0, z1 = _box_muller(b, _unit(b, x0, np.float32), _unit(b, x1, np.float32))
        z0, z1 = b.convert(z0, dtype), b.convert(z1, dtype)
    else:
        raise op_error("StatelessRandomNormalV2", f"unsupported dtype {dtype.name}")
    z = b.reshape(b.concatenate([b.reshape(z0, [m, 1]), b.reshape(z1, [m, 1])], 1), [2 * m])
    return b.reshape(b.slice(z, [0], [n]), dims)


register("StatelessRandomNormalV2", ("shape", "key", "counter", "alg"), normal,
         attrs={"dtype": np.float32, "Tshape": None}, const_inputs=("shape", "alg"), typed=())


def _int_bits(b, op, key, counter, alg, n: int, dtype):
    """n unsigned samples of dtype's width (two words, low first, for 64-bit types)."""
    if np.dtype(dtype).itemsize == 8:
        x0, x1 = _pairs(b, _words(b, op, key, counter, alg, 2 * n), n)
        return _u64(b, x0, x1)
    if np.dtype(dtype).itemsize != 4:
        raise op_error(op, f"unsupported dtype {np.dtype(dtype).name}")
    return _words(b, op, key, counter, alg, n)


def uniform_int(b, shape, key, counter, alg, minval, maxval, dtype=None, Tshape=None):
    op, dtype = "StatelessRandomUniformIntV2", np.dtype(minval.dtype)
    dims = _shape(op, shape)
    if tuple(minval.shape) != () or tuple(maxval.shape) != ():
        raise op_error(op, "minval and maxval must be scalars")
    if isinstance(minval, np.ndarray) and isinstance(maxval, np.ndarray) and not minval < maxval:
        raise op_error(op, f"Need minval < maxval: {minval} >= {maxval}")
    n = int(np.prod(dims, dtype=np.int64))
    udt = np.dtype(f"u{dtype.itemsize}")
    bits = _int_bits(b, op, key, counter, alg, n, dtype)
    lo = b.broadcast_in_dim(minval, [n], [])
    rng = b.subtract(b.bitcast_convert(b.broadcast_in_dim(maxval, [n], []), udt), b.bitcast_convert(lo, udt))
    out = b.add(lo, b.bitcast_convert(b.remainder(bits, rng), dtype))  # wraps like TF's SignedAdd
    return b.reshape(out, dims)


register("StatelessRandomUniformIntV2", ("shape", "key", "counter", "alg", "minval", "maxval"), uniform_int,
         attrs={"dtype": None, "Tshape": None}, const_inputs=("shape", "alg"), typed=("minval", "maxval"))


def uniform_full_int(b, shape, key, counter, alg, dtype=np.int32, Tshape=None):
    op, dtype = "StatelessRandomUniformFullIntV2", np.dtype(dtype)
    dims = _shape(op, shape)
    n = int(np.prod(dims, dtype=np.int64))
    return b.reshape(b.bitcast_convert(_int_bits(b, op, key, counter, alg, n, dtype), dtype), dims)


register("StatelessRandomUniformFullIntV2", ("shape", "key", "counter", "alg"), uniform_full_int,
         attrs={"dtype": np.int32, "Tshape": None}, const_inputs=("shape", "alg"), typed=())
