"""Reductions, arg-reductions and scans (category 5).

Reduction axes are compile-time constants (`reduction_indices`, as in
tf2xla). Half-precision inputs accumulate in f32 and convert back, as
tf2xla's XlaReductionOp does.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import axes, is_float, register

_HALF = ("float16", "bfloat16")


def _min_value(dt) -> float | int | bool:
    dt = np.dtype(dt)
    if dt == np.bool_:
        return False
    return -np.inf if is_float(dt) else np.iinfo(dt).min


def _max_value(dt) -> float | int | bool:
    dt = np.dtype(dt)
    if dt == np.bool_:
        return True
    return np.inf if is_float(dt) else np.iinfo(dt).max


def _keep(b, r, x, dims, keep_dims):
    if not keep_dims:
        return r
    return b.reshape(r, [1 if d in dims else n for d, n in enumerate(x.shape)])


def _reduction(combiner: str, init, op: str):
    def rule(b, input, reduction_indices, keep_dims=False):
        dims = axes(op, reduction_indices, len(input.shape))
        x = input
        acc_dt = np.dtype(np.float32) if np.dtype(x.dtype).name in _HALF else np.dtype(x.dtype)
        xc = b.convert(x, acc_dt)
        r = b.reduce(xc, b.scalar(init(acc_dt), acc_dt), dims, combiner)
        return _keep(b, b.convert(r, x.dtype), x, dims, keep_dims)

    return rule


def mean(b, input, reduction_indices, keep_dims=False):
    """sum / count, computed in the accumulation type."""
    x = input
    dims = axes("Mean", reduction_indices, len(x.shape))
    acc_dt = np.dtype(np.float32) if np.dtype(x.dtype).name in _HALF else np.dtype(x.dtype)
    total = b.reduce(b.convert(x, acc_dt), b.scalar(0, acc_dt), dims, "add")
    count = int(np.prod([x.shape[d] for d in set(dims)], dtype=np.int64))
    r = b.divide(total, b.full(total.shape, count, acc_dt))
    return _keep(b, b.convert(r, x.dtype), x, dims, keep_dims)


register("Sum", ("input", "reduction_indices"), _reduction("add", lambda dt: 0, "Sum"),
         attrs={"keep_dims": False}, const_inputs=("reduction_indices",))
register("Prod", ("input", "reduction_indices"), _reduction("multiply", lambda dt: 1, "Prod"),
         attrs={"keep_dims": False}, const_inputs=("reduction_indices",))
register("Max", ("input", "reduction_indices"), _reduction("maximum", _min_value, "Max"),
         attrs={"keep_dims": False}, const_inputs=("reduction_indices",))
register("Min", ("input", "reduction_indices"), _reduction("minimum", _max_value, "Min"),
         attrs={"keep_dims": False}, const_inputs=("reduction_indices",))
register("All", ("input", "reduction_indices"), _reduction("and", lambda dt: True, "All"),
         attrs={"keep_dims": False}, const_inputs=("reduction_indices",))
register("Any", ("input", "reduction_indices"), _reduction("or", lambda dt: False, "Any"),
         attrs={"keep_dims": False}, const_inputs=("reduction_indices",))
register("Mean", ("input", "reduction_indices"), mean, attrs={"keep_dims": False},
         const_inputs=("reduction_indices",))


def euclidean_norm(b, input, reduction_indices, keep_dims=False):
    x = input
    dims = axes("EuclideanNorm", reduction_indices, len(x.shape))
    r = b.sqrt(b.reduce(b.multiply(x, x), b.scalar(0, x.dtype), dims, "add"))
    return _keep(b, r, x, dims, keep_dims)


# TF 2.21 has no XLA kernel for EuclideanNorm: jit_compile=True refuses it as TF does (priority list: **no**)
register("EuclideanNorm", ("input", "reduction_indices"), euclidean_norm, attrs={"keep_dims": False},
         const_inputs=("reduction_indices",), xla_kernel=False)


def _arg_reduction(is_min: bool, op: str):
    direction = "LT" if is_min else "GT"

    def rule(b, input, dimension, output_type=np.int64):
        x = input
        (axis,) = axes(op, dimension, len(x.shape))[:1] or [0]
        out_dt = np.dtype(output_type)
        index = b.iota(x.shape, axis, out_dt)
        floaty = is_float(x.dtype)

        def body(bb, accs, vals):
            lv, li = accs
            rv, ri = vals
            pick = bb.compare(lv, rv, direction)
            if floaty:  # NaN wins, as in numpy/TF
                pick = bb.or_(pick, bb.compare(lv, lv, "NE"))
            value = bb.select(pick, lv, rv)
            idx = bb.select(pick, li, ri)
            tie = bb.compare(lv, rv, "EQ")
            return [value, bb.select(tie, bb.minimum(li, ri), idx)]

        init = (_max_value if is_min else _min_value)(x.dtype)
        _, idx = b.reduce_multi([x, index], [b.scalar(init, x.dtype), b.scalar(0, out_dt)], [axis], body)
        return idx

    return rule


register("ArgMax", ("input", "dimension"), _arg_reduction(False, "ArgMax"), attrs={"output_type": np.int64},
         const_inputs=("dimension",), typed=("input",))
register("ArgMin", ("input", "dimension"), _arg_reduction(True, "ArgMin"), attrs={"output_type": np.int64},
         const_inputs=("dimension",), typed=("input",))


def cumulative(combiner: str, op: str):
    """Scan as a reduce_window over a window as long as the axis (tf2xla's lowering)."""

    def rule(b, x, axis, exclusive=False, reverse=False):
        (ax,) = axes(op, axis, len(x.shape))
        n = x.shape[ax]
        init = 0 if combiner == "add" else 1
        if reverse:
            x = b.reverse(x, [ax])
        window = [n if d == ax else 1 for d in range(len(x.shape))]
        pads = [((n if exclusive else n - 1), (-1 if exclusive else 0)) if d == ax else (0, 0)
                for d in range(len(x.shape))]
        r = b.reduce_window(x, b.scalar(init, x.dtype), window, [1] * len(x.shape), pads, combiner)
        return b.reverse(r, [ax]) if reverse else r

    return rule


register("Cumsum", ("x", "axis"), cumulative("add", "Cumsum"), attrs={"exclusive": False, "reverse": False},
         const_inputs=("axis",))
register("Cumprod", ("x", "axis"), cumulative("multiply", "Cumprod"), attrs={"exclusive": False, "reverse": False},
         const_inputs=("axis",))
