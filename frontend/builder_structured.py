"""Builder methods for the structured hlo ops autodiff needs beyond the basics:
gather/scatter, convolution, select_and_scatter, sort, while, if and rng_bit_generator.

They follow `builder.py`'s pattern (check operands, infer the result type
once, hand off to `_apply`) and reach `Builder` through the `StructuredOps` mixin when that module
loads. Attributes are plain tuples/ints so a primitive's attributes survive a
round trip through `repr` (the `XlaHlo` graph op of `autodiff.graph_builder`).
Region bodies are builder callables: `body(b, ...) -> list of values`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from minixla.frontend.builder_types import COMBINERS, ShapeError, Spec, _combiner_body, _ints


def _index_batch(indices, ivd: int, what: str, operands) -> tuple[int, list[int]]:
    shape = list(indices.shape)
    if not 0 <= ivd <= len(shape):
        raise ShapeError(what, f"index_vector_dim {ivd} out of range for indices of rank {len(shape)}", operands)
    if ivd == len(shape):
        return 1, shape
    return shape[ivd], shape[:ivd] + shape[ivd + 1:]


def gather(self, x, indices, offset_dims: Sequence[int], collapsed_slice_dims: Sequence[int],
           start_index_map: Sequence[int], index_vector_dim: int, slice_sizes: Sequence[int],
           operand_batching_dims: Sequence[int] = (), start_indices_batching_dims: Sequence[int] = ()):
    """`hlo.gather` (StableHLO semantics; out-of-range starts are clamped)."""
    dn = (_ints(offset_dims), _ints(collapsed_slice_dims), _ints(operand_batching_dims),
          _ints(start_indices_batching_dims), _ints(start_index_map), int(index_vector_dim))
    sizes = _ints(slice_sizes)
    if np.dtype(indices.dtype).kind not in "iu":
        raise ShapeError("gather", "start_indices must be integers", [x, indices])
    if len(sizes) != len(x.shape) or any(not 0 <= s <= n for s, n in zip(sizes, x.shape)):
        raise ShapeError("gather", f"slice_sizes {list(sizes)} do not fit the operand", [x, indices])
    vec, batch = _index_batch(indices, dn[5], "gather", [x, indices])
    if vec != len(dn[4]):
        raise ShapeError("gather", f"start_index_map needs {vec} entries", [x, indices])
    offsets = [s for d, s in enumerate(sizes) if d not in dn[1] + dn[2]]
    if len(offsets) != len(dn[0]):
        raise ShapeError("gather", f"offset_dims needs {len(offsets)} entries", [x, indices])
    out, b, o = [], iter(batch), iter(offsets)
    for d in range(len(batch) + len(offsets)):
        out.append(next(o) if d in dn[0] else next(b))
    return self._one("gather", [x, indices], {"dn": dn, "slice_sizes": sizes}, Spec(tuple(out), np.dtype(x.dtype)))


def _named_body(combiner: str) -> Callable:
    if combiner == "replace":
        def body(b, accs, vals):
            return [vals[0]]

        body.combiner = "replace"
        return body
    if combiner not in COMBINERS:
        raise ValueError(f"unknown combiner {combiner!r}")
    return _combiner_body(combiner)


def scatter(self, x, indices, updates, update_window_dims: Sequence[int], inserted_window_dims: Sequence[int],
            scatter_dims_to_operand_dims: Sequence[int], index_vector_dim: int, combiner: str = "add",
            input_batching_dims: Sequence[int] = (), scatter_indices_batching_dims: Sequence[int] = ()):
    """`hlo.scatter` of one operand; `combiner` names the update computation ("add", ..., or "replace")."""
    dn = (_ints(update_window_dims), _ints(inserted_window_dims), _ints(input_batching_dims),
          _ints(scatter_indices_batching_dims), _ints(scatter_dims_to_operand_dims), int(index_vector_dim))
    if np.dtype(updates.dtype) != np.dtype(x.dtype):
        raise ShapeError("scatter", "updates must have the operand's element type", [x, indices, updates])
    vec, batch = _index_batch(indices, dn[5], "scatter", [x, indices, updates])
    scatter_dims = [n for d, n in enumerate(updates.shape) if d not in dn[0]]
    if vec != len(dn[4]) or scatter_dims != batch:
        raise ShapeError("scatter", "updates' scatter dimensions must match the indices", [x, indices, updates])
    return self._apply("scatter", [x, indices, updates], {"dn": dn, "combiner": combiner},
                       [Spec(tuple(x.shape), np.dtype(x.dtype))], _named_body(combiner))[0]


def convolution(self, lhs, rhs, strides: Sequence[int], padding: Sequence[tuple[int, int]],
                lhs_dilation: Sequence[int] | None = None, rhs_dilation: Sequence[int] | None = None,
                dn: tuple | None = None, feature_group_count: int = 1, batch_group_count: int = 1):
    """`hlo.convolution`; `dn` = (in_batch, in_feature, in_spatial, k_in, k_out, k_spatial,
    out_batch, out_feature, out_spatial), default NHWC x HWIO -> NHWC."""
    nsp = len(lhs.shape) - 2
    if dn is None:
        sp = tuple(range(1, nsp + 1))
        dn = (0, nsp + 1, sp, nsp, nsp + 1, tuple(range(nsp)), 0, nsp + 1, sp)
    dn = tuple(tuple(int(v) for v in f) if isinstance(f, (tuple, list)) else int(f) for f in dn)
    strides = _ints(strides)
    pads = tuple((int(lo), int(hi)) for lo, hi in padding)
    ld = _ints(lhs_dilation) if lhs_dilation is not None else (1,) * nsp
    rd = _ints(rhs_dilation) if rhs_dilation is not None else (1,) * nsp
    ib, if_, isp, ki, ko, ksp, ob, of, osp = dn
    if not len(strides) == len(pads) == len(ld) == len(rd) == len(isp) == nsp or len(rhs.shape) != nsp + 2:
        raise ShapeError("convolution", f"needs {nsp} spatial entries and operands of rank {nsp + 2}", [lhs, rhs])
    fgc, bgc = int(feature_group_count), int(batch_group_count)
    if lhs.shape[if_] != rhs.shape[ki] * fgc or lhs.shape[ib] % bgc:
        raise ShapeError("convolution", f"input features {lhs.shape[if_]} / groups {fgc} must equal kernel input "
                                        f"features {rhs.shape[ki]}", [lhs, rhs])
    out = [0] * (nsp + 2)
    out[ob], out[of] = lhs.shape[ib] // bgc, rhs.shape[ko]
    for s in range(nsp):
        n, k = lhs.shape[isp[s]], rhs.shape[ksp[s]]
        padded = (0 if n == 0 else (n - 1) * ld[s] + 1) + pads[s][0] + pads[s][1]
        span = 0 if k == 0 else (k - 1) * rd[s] + 1
        out[osp[s]] = 0 if padded < span else (padded - span) // strides[s] + 1
    attrs = {"strides": strides, "padding": pads, "lhs_dilation": ld, "rhs_dilation": rd, "dn": dn,
             "fgc": fgc, "bgc": bgc}
    return self._one("convolution", [lhs, rhs], attrs, Spec(tuple(out), np.dtype(lhs.dtype)))


def select_and_scatter(self, operand, source, init, window: Sequence[int], strides: Sequence[int],
                       padding: Sequence[tuple[int, int]], select: str = "GE", combiner: str = "add"):
    """`hlo.select_and_scatter`: per window pick the element `select` prefers (GE: the first max) and
    combine the window's `source` value into it (the max-pool gradient)."""
    window, strides = _ints(window), _ints(strides)
    pads = tuple((int(lo), int(hi)) for lo, hi in padding)
    want = []
    for n, w, s, (lo, hi) in zip(operand.shape, window, strides, pads):
        want.append(0 if n + lo + hi < w else (n + lo + hi - w) // s + 1)
    if not len(window) == len(strides) == len(pads) == len(operand.shape) or tuple(want) != tuple(source.shape):
        raise ShapeError("select_and_scatter", f"source shape must be the window output shape {want}",
                         [operand, source])
    return self._one("select_and_scatter", [operand, source, init],
                     {"window": window, "strides": strides, "padding": pads, "select": select,
                      "combiner": combiner}, Spec(tuple(operand.shape), np.dtype(operand.dtype)))


def sort(self, xs: Sequence, dimension: int, comparator: Callable | None = None, key: int = 0,
         descending: bool = False) -> list:
    """Stable `hlo.sort` of `xs` along `dimension`; by default by `xs[key]` (LT, or GT if `descending`);
    `comparator(b, lhs_list, rhs_list) -> pred` for anything else."""
    xs = list(xs)
    dimension = int(dimension) % max(len(xs[0].shape), 1)
    if any(tuple(x.shape) != tuple(xs[0].shape) for x in xs):
        raise ShapeError("sort", "inputs must share a shape", xs)
    if comparator is None:
        direction = "GT" if descending else "LT"

        def comparator(b, lhs, rhs):
            return b.compare(lhs[key], rhs[key], direction)

        comparator.simple = (key, descending)
    return self._apply("sort", xs, {"dimension": dimension, "n": len(xs)},
                       [Spec(tuple(x.shape), np.dtype(x.dtype)) for x in xs], comparator)


def while_loop(self, cond: Callable, body: Callable, inits: Sequence) -> list:
    """`hlo.while`: `cond(b, values) -> pred scalar`, `body(b, values) -> values` (no captures)."""
    inits = list(inits)
    specs = [Spec(tuple(v.shape), np.dtype(v.dtype)) for v in inits]
    return self._apply("while", inits, {"n": len(inits), "cond": cond}, specs, body)


def rng_bit_generator(self, state, algorithm: str, shape: Sequence[int], dtype) -> list:
    """`hlo.rng_bit_generator`: (new state, random bits of `shape`/`dtype`) from a ui64 state
    ([key, counter...], the interpreter's and CPU backend's shared layout)."""
    if len(state.shape) != 1 or np.dtype(state.dtype) != np.uint64:
        raise ShapeError("rng_bit_generator", "initial_state must be a 1-d tensor of ui64", [state])
    allowed = {"THREE_FRY": (2,), "PHILOX": (2, 3), "DEFAULT": (2, 3)}.get(algorithm)
    if allowed is None or state.shape[0] not in allowed:
        raise ShapeError("rng_bit_generator", f"{algorithm} needs a state of {allowed} words", [state])
    specs = [Spec(tuple(state.shape), np.dtype(np.uint64)), Spec(_ints(shape), np.dtype(dtype))]
    return self._apply("rng_bit_generator", [state], {"algorithm": algorithm}, specs)


def conditional(self, pred, operands: Sequence, true_fn: Callable, false_fn: Callable) -> list:
    """`hlo.if`: `true_fn(b, operands)` or `false_fn(b, operands)`, each returning a list of values."""
    operands = list(operands)
    if tuple(pred.shape) != () or np.dtype(pred.dtype) != np.bool_:
        raise ShapeError("if", "pred must be a boolean scalar", [pred])
    specs_in = [Spec(tuple(o.shape), np.dtype(o.dtype)) for o in operands]
    outs = [list(fn(self._spec_builder(), specs_in)) for fn in (true_fn, false_fn)]
    t_specs = [Spec(tuple(o.shape), np.dtype(o.dtype)) for o in outs[0]]
    if t_specs != [Spec(tuple(o.shape), np.dtype(o.dtype)) for o in outs[1]]:
        raise ShapeError("if", "both branches must return the same types", operands)
    return self._apply("if", [pred, *operands], {"n": len(operands), "false_fn": false_fn}, t_specs, true_fn)


def case(self, index, operands: Sequence, branch_fns: Sequence[Callable]) -> list:
    """`hlo.case`: `branch_fns[index](b, operands)` (an out-of-range index runs the last branch)."""
    operands, branch_fns = list(operands), tuple(branch_fns)
    if tuple(index.shape) != () or np.dtype(index.dtype) != np.int32:
        raise ShapeError("case", "index must be an i32 scalar", [index])
    specs_in = [Spec(tuple(o.shape), np.dtype(o.dtype)) for o in operands]
    outs = [[Spec(tuple(o.shape), np.dtype(o.dtype)) for o in fn(self._spec_builder(), specs_in)] for fn in branch_fns]
    if any(o != outs[0] for o in outs[1:]):
        raise ShapeError("case", "all branches must return the same types", operands)
    return self._apply("case", [index, *operands], {"n": len(operands), "branches": branch_fns}, outs[0])



def cholesky(self, a, lower: bool = True):
    """`hlo.cholesky` of a batch of matrices [..., n, n] (the other triangle of the result is zero)."""
    if len(a.shape) < 2 or a.shape[-1] != a.shape[-2]:
        raise ShapeError("cholesky", "needs a batch of square matrices", [a])
    return self._one("cholesky", [a], {"lower": bool(lower)}, Spec(tuple(a.shape), np.dtype(a.dtype)))


def triangular_solve(self, a, b, left_side: bool = True, lower: bool = True, unit_diagonal: bool = False,
                     transpose_a: str = "NO_TRANSPOSE"):
    """`hlo.triangular_solve`: x with op(a) x = b (left_side) or x op(a) = b; equal batch dims."""
    n = a.shape[-1] if len(a.shape) >= 2 else -1
    if (len(a.shape) < 2 or a.shape[-2] != n or len(b.shape) != len(a.shape) or tuple(b.shape[:-2]) != tuple(a.shape[:-2])
            or b.shape[-2 if left_side else -1] != n or np.dtype(a.dtype) != np.dtype(b.dtype)):
        raise ShapeError("triangular_solve", "needs square matrices a matching b's batch and solved dimension", [a, b])
    return self._one("triangular_solve", [a, b], {"left_side": bool(left_side), "lower": bool(lower),
                                                  "unit_diagonal": bool(unit_diagonal), "transpose_a": transpose_a},
                     Spec(tuple(b.shape), np.dtype(b.dtype)))


class StructuredOps:
    """The structured ops as methods; `Builder` (frontend/builder.py) inherits them."""

    gather = gather
    scatter = scatter
    convolution = convolution
    select_and_scatter = select_and_scatter
    sort = sort
    while_loop = while_loop
    conditional = conditional
    rng_bit_generator = rng_bit_generator
    case = case
    cholesky = cholesky
    triangular_solve = triangular_solve
