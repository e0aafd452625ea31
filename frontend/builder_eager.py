"""`EagerBuilder`: the builder whose values are numpy arrays.

Each op runs at once through the reference interpreter's pure numpy kernels
(`backends/interpreter/kernels`), so eager TF ops have exactly the semantics
the compiled code has. Types were already checked by `Builder`.
"""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.kernels import contraction as ct
from minixla.backends.interpreter.kernels import conversions as cv
from minixla.backends.interpreter.kernels import elementwise as ew
from minixla.backends.interpreter.kernels import linalg as la
from minixla.backends.interpreter.kernels import reduction as rd
from minixla.backends.interpreter.kernels import structural as st
from minixla.backends.interpreter.kernels.rng import rng_bit_generator
from minixla.backends.interpreter.ops_fft import fft as fft_kernel
from minixla.backends.interpreter.ops_elementwise import BINARY as BINARY_KERNELS
from minixla.backends.interpreter.ops_elementwise import UNARY as UNARY_KERNELS
from minixla.backends.interpreter.regions import ufunc_for

from minixla.backends.mpi.runtime import allreduce_array
from minixla.frontend.builder import Builder


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


def _gather(args, attrs, results, body):
    od, cd, obd, sbd, sim, ivd = attrs["dn"]
    return st.gather(args[0], args[1], offset_dims=od, collapsed_slice_dims=cd, operand_batching_dims=obd,
                     start_indices_batching_dims=sbd, start_index_map=sim, index_vector_dim=ivd,
                     slice_sizes=attrs["slice_sizes"])


def _scatter(args, attrs, results, body):
    x, idx, upd = args
    uwd, iwd, ibd, sbd, sdod, ivd = attrs["dn"]
    targets, ok = st.scatter_targets(x.shape, idx, upd.shape, update_window_dims=uwd, inserted_window_dims=iwd,
                                     input_batching_dims=ibd, scatter_indices_batching_dims=sbd,
                                     scatter_dims_to_operand_dims=sdod, index_vector_dim=ivd)
    name = attrs["combiner"]
    values = upd.reshape(-1)[ok]
    if name == "replace":
        flat = x.reshape(-1).copy()
        flat[targets[ok]] = values
        return flat.reshape(x.shape)
    eager = EagerBuilder()
    return st.scatter_apply([x], targets[ok], [values], lambda a, v: body(eager, a, v),
                            ufunc_for("hlo." + name, x.dtype))[0]


def _convolution(args, attrs, results, body):
    ib, if_, isp, ki, ko, ksp, ob, of, osp = attrs["dn"]
    return ct.convolution(args[0], args[1], window_strides=attrs["strides"], padding=attrs["padding"],
                          lhs_dilation=attrs["lhs_dilation"], rhs_dilation=attrs["rhs_dilation"],
                          window_reversal=(False,) * len(isp), input_batch_dimension=ib, input_feature_dimension=if_,
                          input_spatial_dimensions=isp, kernel_input_feature_dimension=ki,
                          kernel_output_feature_dimension=ko, kernel_spatial_dimensions=ksp,
                          output_batch_dimension=ob, output_feature_dimension=of, output_spatial_dimensions=osp,
                          feature_group_count=attrs["fgc"], batch_group_count=attrs["bgc"],
                          result_dtype=results[0].dtype)


def _select_and_scatter(args, attrs, results, body):
    operand, source, init = args
    direction, name = attrs["select"], attrs["combiner"]
    kernel = BINARY_KERNELS[name]
    return rd.select_and_scatter(operand, source, init, window_dimensions=attrs["window"],
                                 window_strides=attrs["strides"], padding=attrs["padding"],
                                 select=lambda a, b: ew.compare(a, b, direction),
                                 scatter=lambda a, v: [kernel(a[0], v[0])],
                                 scatter_ufunc=ufunc_for("hlo." + name, operand.dtype))


def _sort(args, attrs, results, body):
    dim = attrs["dimension"]
    if args[0].ndim == 0:
        return [a.copy() for a in args]
    simple = getattr(body, "simple", None)
    if simple is not None and not (args[simple[0]].dtype.kind == "f" and np.isnan(args[simple[0]]).any()):
        order = rd.argsort_stable(args[simple[0]], dim, simple[1])
        return [np.take_along_axis(a, order, axis=dim) for a in args]
    eager = EagerBuilder()
    return rd.sort(args, dim, lambda lhs, rhs: body(eager, [np.asarray(v) for v in lhs],
                                                     [np.asarray(v) for v in rhs]))


def _while(args, attrs, results, body):
    eager, values = EagerBuilder(), list(args)
    while bool(np.asarray(attrs["cond"](eager, values)).reshape(())):
        values = [np.asarray(v) for v in body(eager, values)]
    return values


def _if(args, attrs, results, body):
    fn = body if bool(np.asarray(args[0]).reshape(())) else attrs["false_fn"]
    return [np.asarray(v) for v in fn(EagerBuilder(), list(args[1:]))]


def _case(args, attrs, results, body):
    fns = attrs["branches"]
    i = int(np.asarray(args[0]).reshape(()))
    return [np.asarray(v) for v in fns[i if 0 <= i < len(fns) else len(fns) - 1](EagerBuilder(), list(args[1:]))]


def _complex(re, im, dtype):
    """Parts stored as they are (re + 1j * im would turn an infinite part into NaNs)."""
    out = np.empty(re.shape, dtype)
    out.real, out.imag = re, im
    return out


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
    "all_reduce": lambda a, at, r, b: allreduce_array(a[0], at["combiner"]),
    "reduce_window": _reduce_window,
    "dot_general": _dot,
    "gather": _gather,
    "scatter": _scatter,
    "convolution": _convolution,
    "select_and_scatter": _select_and_scatter,
    "sort": _sort,
    "while": _while,
    "if": _if,
    "case": _case,
    "complex": lambda a, at, r, b: _complex(a[0], a[1], r[0].dtype),
    "real": lambda a, at, r, b: np.real(a[0]).copy(),
    "imag": lambda a, at, r, b: np.imag(a[0]).copy(),
    "fft": lambda a, at, r, b: fft_kernel(a[0], at["type"], at["length"], r[0].shape, r[0].dtype),
    "rng_bit_generator": lambda a, at, r, b: list(rng_bit_generator(at["algorithm"], a[0], r[1].shape, r[1].dtype)),
    "cholesky": lambda a, at, r, b: la.cholesky(a[0], at["lower"]),
    "triangular_solve": lambda a, at, r, b: la.triangular_solve(a[0], a[1], **at),
}
for _name, _k in UNARY_KERNELS.items():
    KERNELS.setdefault(_name, (lambda k: lambda a, at, r, b: k(a[0]))(_k))
for _name, _k in BINARY_KERNELS.items():
    KERNELS.setdefault(_name, (lambda k: lambda a, at, r, b: k(a[0], a[1]))(_k))


class EagerBuilder(Builder):
    """Computes immediately; values are numpy arrays."""

    def _constant(self, array: np.ndarray) -> np.ndarray:
        return array

    def tf_op(self, name: str, *inputs, **attrs) -> list:
        """Host ops (no decomposition) run their numpy implementation."""
        from minixla.frontend.ops.registry import get

        opdef = get(name)
        if opdef.compilable:
            return super().tf_op(name, *inputs, **attrs)
        res = opdef.host(*[[np.asarray(v) for v in x] if isinstance(x, list) else np.asarray(x) for x in inputs],
                         **opdef.full_attrs(attrs))
        return [np.asarray(r) for r in res] if isinstance(res, tuple) else [np.asarray(res)]

    def _apply(self, op, operands, attrs, results, body=None):
        if op == "broadcast_in_dim":  # a read-only view, not a copy: the next kernel reads it once
            return [_broadcast_view(np.asarray(operands[0]), results[0].shape, attrs["dims"])]
        with np.errstate(all="ignore"):
            out = KERNELS[op]([np.asarray(o) for o in operands], attrs, results, body)
        outs = out if isinstance(out, list) else [out]
        return [np.asarray(o).astype(r.dtype, copy=False).reshape(r.shape) for o, r in zip(outs, results)]


def _broadcast_view(x: np.ndarray, shape, dims) -> np.ndarray:
    """hlo.broadcast_in_dim as a zero-copy numpy view. A Tensor made from such a view copies it
    (tensor.py), so users never hold a read-only view; kernels only read their operands."""
    view_shape = [1] * len(shape)
    for src, dst in enumerate(dims):
        view_shape[dst] = x.shape[src]
    return np.broadcast_to(x.reshape(view_shape), tuple(shape))
