"""The fuzzer's numeric edge cases: ops whose StableHLO result is defined but easy to get
wrong in a lowering, drawn on values of the generator's pool (tools/fuzz.py).

* integer division and remainder (by zero: x / 0 = -1, x % 0 = x; INT_MIN / -1), integer
  power (negative exponents), shifts by counts at and past the bit width (0, or the sign);
* bitcast_convert between same-width types (from argument floats only: the bits of a
  computed float would turn a tolerable rounding difference into an exact mismatch);
* numpy-style broadcasting (size-1 dims growing), reshapes to and from scalars and
  trailing 1s, scalar predicates and clamp bounds;
* reductions with multiply, a non-identity init, boolean and/or/xor; integer and
  batched dot_general against random constants;
* the bool element type under add/multiply/maximum/minimum (or/and/or/and).

Each maker takes (rng, builder, pool, arguments) and returns (op name, value) or None.
"""

from __future__ import annotations

from collections.abc import Callable

import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)
BOOL = np.dtype(bool)
FLOATS = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
INTS = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)]
INT_BINARY = ["divide", "remainder", "power", "shift_left", "shift_right_arithmetic", "shift_right_logical"]
BOOL_BINARY = ["add", "multiply", "maximum", "minimum"]


def kind(dt) -> str:
    """"bool", "float" (bf16 included, whose numpy kind is "V"), "uint" or "int"."""
    dt = np.dtype(dt)
    if dt == BOOL:
        return "bool"
    if dt.kind == "f" or dt == BF16:
        return "float"
    return "uint" if dt.kind == "u" else "int"


def _pick(rng, pool, pred: Callable = lambda v: True):
    choices = [v for v in pool if pred(v)]
    return choices[int(rng.integers(len(choices)))] if choices else None


def _constant(rng, b, shape, dt):
    k = kind(dt)
    if k == "bool":
        a = rng.random(shape) < 0.5
    elif k in ("int", "uint"):
        a = rng.integers(0 if k == "uint" else -5, 6, shape)
    else:
        a = np.round(rng.standard_normal(shape) * 2, 2)
    return b.constant(np.asarray(a).astype(dt))


def _int_binary(rng, b, pool, args, x, dt, shape):
    if kind(dt) not in ("int", "uint"):
        return None
    name = str(rng.choice(INT_BINARY))
    y = _pick(rng, pool, lambda v: tuple(v.shape) == shape and np.dtype(v.dtype) == dt)
    if rng.random() < 0.5:  # the edges: zero divisors, -1, counts at and past the bit width
        bits = dt.itemsize * 8
        edges = [0, 1, bits - 1, bits, bits + 3] if name.startswith("shift") else [0, -1, 1, 2] if kind(
            dt) == "int" else [0, 1, 2]
        y = b.full(shape, int(rng.choice(edges)), dt)
    return name, b.binary(name, x, y)


def _bool_binary(rng, b, pool, args, x, dt, shape):
    if kind(dt) != "bool":
        return None
    y = _pick(rng, pool, lambda v: tuple(v.shape) == shape and np.dtype(v.dtype) == dt)
    name = str(rng.choice(BOOL_BINARY))
    return name, b.binary(name, x, y)


def _bitcast(rng, b, pool, args, x, dt, shape):
    if kind(dt) == "bool" or kind(dt) == "float" and not any(x is a for a in args):
        return None
    same = [t for t in FLOATS + INTS if t.itemsize == dt.itemsize and t != dt]
    return "bitcast_convert", b.bitcast_convert(x, same[int(rng.integers(len(same)))])


def _broadcast(rng, b, pool, args, x, dt, shape):
    if len(shape) >= 3:
        return None
    out = [int(rng.choice([1, 2, 3])) if d == 1 and rng.random() < 0.6 else d for d in shape]
    return "broadcast_in_dim", b.broadcast_in_dim(x, (int(rng.integers(1, 4)), *out), list(range(1, len(shape) + 1)))


def _reshape(rng, b, pool, args, x, dt, shape):
    size = int(np.prod(shape)) if shape else 1
    options = [(size, 1, 1), (1, size, 1)] + ([()] if size == 1 else [])
    return "reshape", b.reshape(x, options[int(rng.integers(len(options)))])


def _scalar_of(b, x):
    """The first element of non-empty `x` as a scalar."""
    flat = b.reshape(x, (int(np.prod(x.shape)),))
    return b.reshape(b.slice(flat, [0], [1]), ())


def _scalar_select(rng, b, pool, args, x, dt, shape):
    p = _pick(rng, pool, lambda v: kind(v.dtype) == "bool" and int(np.prod(v.shape)) > 0)
    if p is None:
        return None
    y = _pick(rng, pool, lambda v: tuple(v.shape) == shape and np.dtype(v.dtype) == dt)
    return "select", b.select(_scalar_of(b, p), x, y)


def _scalar_clamp(rng, b, pool, args, x, dt, shape):
    if kind(dt) == "bool":
        return None
    lo, hi = (int(rng.integers(-3, 1)), int(rng.integers(1, 5))) if kind(dt) != "uint" else (1, 7)
    return "clamp", b.clamp(b.scalar(lo, dt), x, b.scalar(hi, dt))


def _reduce(rng, b, pool, args, x, dt, shape):
    if not shape:
        return None
    k = kind(dt)
    dims = sorted({int(d) for d in rng.integers(0, len(shape), size=int(rng.integers(1, len(shape) + 1)))})
    if k == "bool":
        combiner = str(rng.choice(["and", "or", "xor"]))
        init = combiner == "and"
    else:
        combiner = str(rng.choice(["multiply", "add", "maximum", "minimum"]))
        init = 1 if combiner == "multiply" or rng.random() < 0.5 else 0  # a non-identity init counts once
        if k == "float" and combiner in ("maximum", "minimum") and rng.random() < 0.5:
            init = -np.inf if combiner == "maximum" else np.inf
    return "reduce", b.reduce(x, b.scalar(init, dt), dims, combiner)


def _dot(rng, b, pool, args, x, dt, shape):
    if kind(dt) == "bool" or len(shape) not in (1, 2, 3):
        return None
    n = int(rng.integers(0, 4))
    if len(shape) == 3:  # batched: (B, M, K) x (B, K, N)
        w = _constant(rng, b, (shape[0], shape[2], n), dt)
        return "dot_general", b.dot_general(x, w, ((2,), (1,)), ((0,), (0,)))
    w = _constant(rng, b, (shape[-1], n), dt)
    return "dot_general", b.dot_general(x, w, ((len(shape) - 1,), (0,)), ((), ()))


MAKERS = [_int_binary, _int_binary, _bool_binary, _bitcast, _broadcast, _reshape, _scalar_select, _scalar_clamp,
          _reduce, _dot]


def step(rng: np.random.Generator, b, pool: list, args: list):
    """One random op of this module on a value of `pool` (None when it does not fit)."""
    maker = MAKERS[int(rng.integers(len(MAKERS)))]
    x = pool[int(rng.integers(len(pool)))]
    return maker(rng, b, pool, args, x, np.dtype(x.dtype), tuple(x.shape))
