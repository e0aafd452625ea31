"""The fuzzer's structured ops: control flow (while, if, case), gather/scatter, dynamic slices,
convolution, reduce_window and sort, drawn on values of the generator's pool.

Each maker takes (rng, builder, pool) and returns (op name, value) or None when the drawn value
does not fit. Programs stay deterministic where StableHLO leaves room: scatter's "replace" only
gets distinct indices, sort only sees NaN-free keys (NaN breaks the comparator's ordering), and
out-of-range start indices (which StableHLO clamps) are drawn on purpose.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from minixla.tools.fuzz_numeric import kind

I32 = np.dtype(np.int32)


def _kind(dt) -> str:
    k = kind(dt)  # bf16 is a float (its numpy kind is "V")
    return "int" if k == "uint" else k


def _pick(rng, pool, pred: Callable = lambda v: True):
    choices = [v for v in pool if pred(v)]
    return choices[int(rng.integers(len(choices)))] if choices else None


def _index(rng, b, pool, bound: int):
    """A scalar i32 start index: a constant in [-1, bound + 1] (clamped by the op), or one computed
    from an integer scalar of the pool."""
    scalar = _pick(rng, pool, lambda v: tuple(v.shape) == () and _kind(v.dtype) == "int")
    if scalar is not None and rng.random() < 0.5:
        return b.convert(scalar, I32)
    return b.scalar(int(rng.integers(-1, bound + 2)), I32)


def _nan_free(b, x):
    """x with NaN replaced by 0 (floats), so orderings are total."""
    if _kind(x.dtype) != "float":
        return x
    return b.select(b.compare(x, x, "EQ"), x, b.full(tuple(x.shape), 0, np.dtype(x.dtype)))


def dynamic_slice(rng, b, pool):
    x = _pick(rng, pool, lambda v: len(v.shape) > 0)
    if x is None:
        return None
    sizes = [int(rng.integers(0, d + 1)) for d in x.shape]
    starts = [_index(rng, b, pool, d) for d in x.shape]
    return "dynamic_slice", b.dynamic_slice(x, starts, sizes)


def dynamic_update_slice(rng, b, pool):
    x = _pick(rng, pool, lambda v: len(v.shape) > 0)
    if x is None:
        return None
    sizes = [int(rng.integers(0, d + 1)) for d in x.shape]
    update = b.reverse(b.slice(x, [0] * len(sizes), sizes), [0])
    starts = [_index(rng, b, pool, d) for d in x.shape]
    return "dynamic_update_slice", b.dynamic_update_slice(x, update, starts)


def gather(rng, b, pool):
    """Rows of x by indices (out-of-range ones clamped): torch.index_select's shape."""
    x = _pick(rng, pool, lambda v: len(v.shape) > 0 and v.shape[0] > 0)
    if x is None:
        return None
    n, rest = x.shape[0], tuple(x.shape[1:])
    k = int(rng.integers(0, 4))
    idx = b.constant(rng.integers(-1, n + 2, (k, 1)).astype(np.int32))
    return "gather", b.gather(x, idx, offset_dims=list(range(1, len(rest) + 1)), collapsed_slice_dims=[0],
                              start_index_map=[0], index_vector_dim=1, slice_sizes=(1, *rest))


def scatter(rng, b, pool):
    x = _pick(rng, pool, lambda v: len(v.shape) > 0 and v.shape[0] > 0)
    if x is None:
        return None
    n, rest, dt = x.shape[0], tuple(x.shape[1:]), np.dtype(x.dtype)
    combiner = str(rng.choice(["add", "maximum", "minimum", "replace"] if _kind(dt) != "bool" else ["replace"]))
    k = int(rng.integers(0, n + 1))
    rows = rng.permutation(n)[:k] if combiner == "replace" else rng.integers(0, n, k)  # "replace": no duplicates
    idx = b.constant(rows.reshape(k, 1).astype(np.int32))
    updates = b.iota((k, *rest), 0, dt) if _kind(dt) != "bool" else b.full((k, *rest), True, dt)
    return "scatter", b.scatter(x, idx, updates, update_window_dims=list(range(1, len(rest) + 1)),
                                inserted_window_dims=[0], scatter_dims_to_operand_dims=[0], index_vector_dim=1,
                                combiner=combiner)


def convolution(rng, b, pool):
    """A 1-d convolution of a float value flattened to (1, width, 1) with an iota kernel."""
    x = _pick(rng, pool, lambda v: _kind(v.dtype) == "float")
    if x is None:
        return None
    dt = np.dtype(x.dtype)
    width = int(np.prod(x.shape)) if x.shape else 1
    lhs = b.reshape(x, (1, width, 1))
    taps, out = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    kernel = b.binary("multiply", b.iota((taps, 1, out), 0, dt), b.full((taps, 1, out), 0.5, dt))
    pad = (int(rng.integers(0, 2)), int(rng.integers(0, 2)))
    return "convolution", b.convolution(lhs, kernel, strides=[int(rng.integers(1, 3))], padding=[pad],
                                        lhs_dilation=[int(rng.integers(1, 3))], rhs_dilation=[int(rng.integers(1, 3))])


def reduce_window(rng, b, pool):
    x = _pick(rng, pool, lambda v: len(v.shape) > 0 and _kind(v.dtype) != "bool")
    if x is None:
        return None
    dt, k = np.dtype(x.dtype), _kind(x.dtype)
    combiner = str(rng.choice(["add", "maximum", "minimum"]))
    init = {"add": 0, "maximum": -np.inf if k == "float" else np.iinfo(dt).min,
            "minimum": np.inf if k == "float" else np.iinfo(dt).max}[combiner]
    rank = len(x.shape)
    return "reduce_window", b.reduce_window(
        x, b.scalar(init, dt), [int(rng.integers(1, 3)) for _ in range(rank)],
        [int(rng.integers(1, 3)) for _ in range(rank)],
        [(int(rng.integers(0, 2)), int(rng.integers(0, 2))) for _ in range(rank)], combiner)


def sort(rng, b, pool):
    """A stable sort along one dimension, carrying an iota along (an argsort)."""
    x = _pick(rng, pool, lambda v: len(v.shape) > 0 and _kind(v.dtype) != "bool")
    if x is None:
        return None
    dim = int(rng.integers(len(x.shape)))
    keys = _nan_free(b, x)
    order = b.iota(tuple(x.shape), dim, I32)
    out = b.sort([keys, order], dim, descending=bool(rng.random() < 0.5))
    return "sort", out[int(rng.integers(2))]


def _step_value(b, x):
    """One loop step on x: halve-and-add for floats, +1 for ints, not for booleans."""
    dt, shape = np.dtype(x.dtype), tuple(x.shape)
    k = _kind(dt)
    if k == "float":
        return b.binary("add", b.binary("multiply", x, b.full(shape, 0.5, dt)), b.full(shape, 1, dt))
    if k == "int":
        return b.binary("add", x, b.full(shape, 1, dt))
    return b.unary("not", x)


def while_loop(rng, b, pool):
    x = _pick(rng, pool)
    trips = int(rng.integers(0, 4))

    def cond(cb, values):
        return cb.compare(values[0], cb.scalar(trips, I32), "LT")

    def body(bb, values):
        return [bb.binary("add", values[0], bb.scalar(1, I32)), _step_value(bb, values[1])]

    return "while", b.while_loop(cond, body, [b.scalar(0, I32), x])[1]


def _predicate(rng, b, pool):
    x = _pick(rng, pool, lambda v: _kind(v.dtype) != "bool")
    if x is None:
        return b.scalar(bool(rng.random() < 0.5), np.dtype(bool))
    dt = np.dtype(x.dtype)
    total = b.reduce(_nan_free(b, x), b.scalar(0, dt), list(range(len(x.shape))), "add") if x.shape else x
    return b.compare(total, b.scalar(0, dt), str(rng.choice(["GT", "LE"])))


def if_op(rng, b, pool):
    x = _pick(rng, pool)
    pred = _predicate(rng, b, pool)
    return "if", b.conditional(pred, [x], lambda tb, v: [_step_value(tb, v[0])], lambda fb, v: [v[0]])[0]


def case(rng, b, pool):
    x = _pick(rng, pool)
    index = _index(rng, b, pool, 2)
    branches = [lambda cb, v: [v[0]], lambda cb, v: [_step_value(cb, v[0])],
                lambda cb, v: [_step_value(cb, _step_value(cb, v[0]))]]
    return "case", b.case(index, [x], branches)[0]


MAKERS = [dynamic_slice, dynamic_update_slice, gather, scatter, convolution, reduce_window, sort, while_loop,
          if_op, case]


def step(rng, b, pool):
    """One structured op drawn from MAKERS (None when it does not fit the pool)."""
    return MAKERS[int(rng.integers(len(MAKERS)))](rng, b, pool)
