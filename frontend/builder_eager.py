"""`EagerBuilder`: the builder whose values are numpy arrays.

Each op runs at once through the reference interpreter's pure numpy kernels
(`backends/interpreter/kernels`), so eager TF ops have exactly the semantics
the compiled code has. Types were already checked by `Builder`.
"""

from __future__ import annotations

import numpy as np

from backends.interpreter.kernels import contraction as ct
from backends.interpreter.kernels import conversions as cv
from backends.interpreter.kernels import elementwise as ew
from backends.interpreter.kernels import reduction as rd
from backends.interpreter.kernels import structural as st
from backends.interpreter.ops_elementwise import BINARY as BINARY_KERNELS
from backends.interpreter.ops_elementwise import UNARY as UNARY_KERNELS
from backends.interpreter.regions import ufunc_for

from .builder import Builder


def _reduce(args, attrs, results, body):
    n = attrs["n"]
    xs, inits = args[:n], args[n:]
    eager = EagerBuilder()

    def combine(accs, vals):
        return body(eager, [np.asarray(a) for a in accs], [np.asarray(v) for v in vals])

    ufunc = None
    if n == 1 and getattr(body, "combiner", None):
        ufunc = ufunc_for("hlo." + body.combiner, xs[0].dtype)
    return rd.reduce(xs, inits, attrs["dims"], combine, ufunc)


def _reduce_window(args, attrs, results, body):
    x, init = args
    rank = x.ndim
    kernel = BINARY_KERNELS[attrs["combiner"]]
    return rd.reduce_window([x], [init], window_dimensions=attrs["window"], window_strides=attrs["strides"],
                            base_dilations=(1,) * rank, window_dilations=(1,) * rank, padding=attrs["padding"],
                            combine=lambda a, b: [kernel(a[0], b[0])])


def _dot(args, attrs, results, body):
    return ct.dot_general(args[0], args[1], lhs_batching=attrs["lb"], rhs_batching=attrs["rb"],
                          lhs_contracting=attrs["lc"], rhs_contracting=attrs["rc"], result_dtype=results[0].dtype)


#: op -> kernel(args, attrs, result specs, body) -> array or list of arrays
KERNELS = {
    "iota": lambda a, at, r, b: st.iota(r[0].shape, at["dimension"], r[0].dtype),
    "compare": lambda a, at, r, b: ew.compare(a[0], a[1], at["direction"], at["compare_type"]),
    "select": lambda a, at, r, b: ew.select(*a),
    "clamp": lambda a, at, r, b: ew.clamp(*a),
    "convert": lambda a, at, r, b: cv.convert(a[0], r[0].dtype),
    "bitcast_convert": lambda a, at, r, b: cv.bitcast_convert(a[0], r[0].dtype),
    "broadcast_in_dim": lambda a, at, r, b: st.broadcast_in_dim(a[0], r[0].shape, at["dims"]),
    "reshape": lambda a, at, r, b: a[0].reshape(r[0].shape).copy(),
    "transpose": lambda a, at, r, b: np.transpose(a[0], at["perm"]).copy(),
    "slice": lambda a, at, r, b: st.slice_(a[0], at["start"], at["limit"], at["strides"]),
    "dynamic_slice": lambda a, at, r, b: st.dynamic_slice(a[0], [int(s) for s in a[1:]], at["sizes"]),
    "dynamic_update_slice": lambda a, at, r, b: st.dynamic_update_slice(a[0], a[1], [int(s) for s in a[2:]]),
    "concatenate": lambda a, at, r, b: st.concatenate(a, at["dimension"]),
    "pad": lambda a, at, r, b: st.pad(a[0], a[1], at["low"], at["high"], at["interior"]),
    "reverse": lambda a, at, r, b: st.reverse(a[0], at["dims"]),
    "reduce": _reduce,
    "reduce_window": _reduce_window,
    "dot_general": _dot,
}
for _name, _k in UNARY_KERNELS.items():
    KERNELS.setdefault(_name, (lambda k: lambda a, at, r, b: k(a[0]))(_k))
for _name, _k in BINARY_KERNELS.items():
    KERNELS.setdefault(_name, (lambda k: lambda a, at, r, b: k(a[0], a[1]))(_k))


class EagerBuilder(Builder):
    """Computes immediately; values are numpy arrays."""

    def _constant(self, array: np.ndarray) -> np.ndarray:
        return array

    def _apply(self, op, operands, attrs, results, body=None):
        with np.errstate(all="ignore"):
            out = KERNELS[op]([np.asarray(o) for o in operands], attrs, results, body)
        outs = out if isinstance(out, list) else [out]
        return [np.asarray(o).astype(r.dtype, copy=False).reshape(r.shape) for o, r in zip(outs, results)]
