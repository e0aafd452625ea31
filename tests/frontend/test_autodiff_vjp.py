"""Every VJP rule against central finite differences, in float64, on random inputs.

Each case is builder code `f(b, *xs)`; the gradient of `sum(w * f(xs))` comes
from recording `f` on a RecordingBuilder and running `backprop`, and must
match the finite differences of the same function evaluated eagerly.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend.autodiff.backprop import VJPS, backprop
from minixla.frontend.autodiff.tape import RecordingBuilder, RValue, Tape, new_key
from minixla.frontend.builder_eager import EagerBuilder

F64 = np.float64
RNG = np.random.default_rng(1)


def u(*shape, lo=-1.5, hi=1.5):
    return RNG.uniform(lo, hi, shape)


def _idx(b, v):
    return b.constant(np.array(v, dtype=np.int32))


def _sum0(b, x):
    return b.scalar(0, x.dtype)


def _loop(b, x):
    def cond(bb, v):
        return bb.compare(v[0], bb.scalar(3, np.int32), "LT")

    def body(bb, v):
        return [bb.add(v[0], bb.scalar(1, np.int32)), bb.multiply(bb.sine(v[1]), v[2]), v[2]]

    return b.while_loop(cond, body, [b.scalar(0, np.int32), x, b.full(x.shape, 1.3, x.dtype)])[1]


def _if(b, x, y):
    pred = b.compare(b.reduce(x, _sum0(b, x), [0, 1], "add"), b.scalar(100.0, x.dtype), "LT")
    return b.conditional(pred, [x, y], lambda bb, o: [bb.multiply(o[0], bb.exponential(o[1]))],
                         lambda bb, o: [o[1]])[0]


NHWC = (0, 3, (1, 2), 2, 3, (0, 1), 0, 3, (1, 2))

CASES = {
    # elementwise unary
    "abs": (lambda b, x: b.abs(x), [u(3, 4)]),
    "negate": (lambda b, x: b.negate(x), [u(3, 4)]),
    "exponential": (lambda b, x: b.exponential(x), [u(3, 4)]),
    "exponential_minus_one": (lambda b, x: b.exponential_minus_one(x), [u(3, 4)]),
    "log": (lambda b, x: b.log(x), [u(3, 4, lo=0.5, hi=2)]),
    "log_plus_one": (lambda b, x: b.log_plus_one(x), [u(3, 4, lo=-0.5, hi=2)]),
    "sqrt": (lambda b, x: b.sqrt(x), [u(3, 4, lo=0.5, hi=2)]),
    "rsqrt": (lambda b, x: b.rsqrt(x), [u(3, 4, lo=0.5, hi=2)]),
    "tanh": (lambda b, x: b.tanh(x), [u(3, 4)]),
    "logistic": (lambda b, x: b.logistic(x), [u(3, 4)]),
    "sine": (lambda b, x: b.sine(x), [u(3, 4)]),
    "cosine": (lambda b, x: b.cosine(x), [u(3, 4)]),
    # elementwise binary
    "add": (lambda b, x, y: b.add(x, y), [u(3, 4), u(3, 4)]),
    "subtract": (lambda b, x, y: b.subtract(x, y), [u(3, 4), u(3, 4)]),
    "multiply": (lambda b, x, y: b.multiply(x, y), [u(3, 4), u(3, 4)]),
    "divide": (lambda b, x, y: b.divide(x, y), [u(3, 4), u(3, 4, lo=0.5, hi=2)]),
    "remainder": (lambda b, x, y: b.remainder(x, y), [u(3, 4, lo=0.1, hi=0.9) + 3, u(3, 4, lo=1.05, hi=1.45)]),
    "power": (lambda b, x, y: b.power(x, y), [u(3, 4, lo=0.5, hi=2), u(3, 4)]),
    "maximum": (lambda b, x, y: b.maximum(x, y), [u(3, 4), u(3, 4)]),
    "minimum": (lambda b, x, y: b.minimum(x, y), [u(3, 4), u(3, 4)]),
    "atan2": (lambda b, x, y: b.atan2(x, y), [u(3, 4), u(3, 4, lo=0.5, hi=2)]),
    "select": (lambda b, x, y: b.select(b.compare(x, y, "GT"), b.multiply(x, x), y), [u(3, 4), u(3, 4)]),
    "clamp": (lambda b, x, lo: b.clamp(lo, x, b.scalar(0.7, x.dtype)), [u(3, 4), u(3, 4, lo=-0.6, hi=-0.1)]),
    "convert": (lambda b, x: b.convert(b.multiply(b.convert(x, np.float32), b.full(x.shape, 3, np.float32)), F64),
                [u(3, 4)]),
    # data movement
    "broadcast_in_dim": (lambda b, x: b.broadcast_in_dim(x, [4, 2, 3], [2, 0]), [u(3, 1)]),
    "reshape": (lambda b, x: b.reshape(x, [2, 6]), [u(3, 4)]),
    "transpose": (lambda b, x: b.transpose(x, [2, 0, 1]), [u(2, 3, 4)]),
    "slice": (lambda b, x: b.slice(x, [1, 0], [3, 4], [1, 2]), [u(3, 4)]),
    "dynamic_slice": (lambda b, x: b.dynamic_slice(x, [b.scalar(1, np.int32), b.scalar(2, np.int32)], [2, 2]),
                      [u(3, 4)]),
    "dynamic_update_slice": (lambda b, x, y: b.dynamic_update_slice(x, y, [b.scalar(1, np.int32),
                                                                           b.scalar(1, np.int32)]),
                             [u(3, 4), u(2, 2)]),
    "concatenate": (lambda b, x, y: b.concatenate([x, y, x], 1), [u(2, 3), u(2, 2)]),
    "pad": (lambda b, x, v: b.pad(x, b.reshape(v, []), [1, -1], [2, 0], [1, 0]), [u(3, 4), u(1)]),
    "reverse": (lambda b, x: b.reverse(x, [0, 1]), [u(3, 4)]),
    "gather": (lambda b, x: b.gather(x, _idx(b, [[2, 1], [0, 0], [2, 1]]), offset_dims=[1],
                                     collapsed_slice_dims=[0], start_index_map=[0, 1], index_vector_dim=1,
                                     slice_sizes=[1, 2]), [u(3, 4)]),
    "scatter_add": (lambda b, x, y: b.scatter(x, _idx(b, [[1], [1], [0]]), y, update_window_dims=[1],
                                              inserted_window_dims=[0], scatter_dims_to_operand_dims=[0],
                                              index_vector_dim=1), [u(3, 4), u(3, 4)]),
    "scatter_replace": (lambda b, x, y: b.scatter(x, _idx(b, [[2], [0]]), y, update_window_dims=[1],
                                                  inserted_window_dims=[0], scatter_dims_to_operand_dims=[0],
                                                  index_vector_dim=1, combiner="replace"), [u(3, 4), u(2, 4)]),
    # contractions
    "dot_general": (lambda b, x, y: b.dot_general(x, y, ([2], [1]), ([0], [0])), [u(2, 3, 4), u(2, 4, 5)]),
    "dot_general_transposed": (lambda b, x, y: b.dot_general(x, y, ([0], [1])), [u(4, 3), u(2, 4)]),
    "convolution": (lambda b, x, w: b.convolution(x, w, [2, 1], [(1, 1), (0, 2)], None, [1, 2], NHWC),
                    [u(2, 5, 6, 3), u(3, 2, 3, 4)]),
    "convolution_lhs_dilated": (lambda b, x, w: b.convolution(x, w, [1, 1], [(0, 0), (1, 0)], [2, 1], None, NHWC),
                                [u(1, 3, 4, 2), u(2, 2, 2, 3)]),
    # reductions
    "reduce_add": (lambda b, x: b.reduce(x, _sum0(b, x), [0, 2], "add"), [u(2, 3, 4)]),
    "reduce_max": (lambda b, x: b.reduce(x, b.scalar(-np.inf, x.dtype), [1], "maximum"), [u(3, 4)]),
    "reduce_min": (lambda b, x: b.reduce(x, b.scalar(np.inf, x.dtype), [0], "minimum"), [u(3, 4)]),
    "reduce_multiply": (lambda b, x: b.reduce(x, b.scalar(1, x.dtype), [1], "multiply"), [u(3, 4, lo=0.5, hi=1.5)]),
    "reduce_window_add": (lambda b, x: b.reduce_window(x, _sum0(b, x), [2, 3], [2, 1], [(1, 0), (1, 1)], "add"),
                          [u(5, 4)]),
    "reduce_window_max": (lambda b, x: b.reduce_window(x, b.scalar(-np.inf, x.dtype), [1, 2, 2, 1], [1, 2, 2, 1],
                                                       [(0, 0), (0, 1), (0, 1), (0, 0)], "maximum"), [u(2, 5, 5, 2)]),
    "select_and_scatter": (lambda b, x, s: b.select_and_scatter(x, s, _sum0(b, x), [2, 2], [2, 2],
                                                                [(0, 0), (0, 0)]), [u(4, 4), u(2, 2)]),
    "sort": (lambda b, x, y: b.sort([x, y], 1, key=0)[1], [u(3, 5), u(3, 5)]),
    "sort_descending": (lambda b, x: b.sort([x], 0, descending=True)[0], [u(4, 3)]),
    # linear algebra (vjp_linalg.py): well-conditioned triangles; cholesky of x x^T + 2 (symmetric, as its
    # gradient is: TF's symmetrized rule is the gradient for symmetric perturbations)
    "triangular_solve": (lambda b, a, r: b.triangular_solve(a, r), [u(3, 3) + 4 * np.eye(3), u(3, 2)]),
    "triangular_solve_right_upper_unit_transposed": (
        lambda b, a, r: b.triangular_solve(a, r, left_side=False, lower=False, unit_diagonal=True,
                                           transpose_a="TRANSPOSE"), [u(2, 3, 3), u(2, 4, 3)]),
    "cholesky": (lambda b, x: b.cholesky(b.add(b.dot_general(x, x, ([1], [1])), b.constant(2 * np.eye(3)))),
                 [u(3, 3)]),
    "cholesky_upper": (lambda b, x: b.cholesky(b.add(b.dot_general(x, x, ([1], [1])), b.constant(2 * np.eye(3))),
                                               lower=False), [u(3, 3)]),
    # control flow
    "while": (_loop, [u(3, 4)]),
    "if": (_if, [u(3, 4), u(3, 4)]),
}


def _value(f, xs, w):
    out = f(EagerBuilder(), *xs)
    return float(np.sum(np.asarray(out, dtype=F64) * w))


def _grads(f, xs, w):
    tape = Tape()
    b = RecordingBuilder(EagerBuilder(), [tape])
    wrapped = [RValue(x, new_key()) for x in xs]
    tape.tracked.update(v.key for v in wrapped)
    out = b.wrap(f(b, *wrapped))
    cts = backprop(RecordingBuilder(EagerBuilder(), []), tape.records, {out.key: RValue(w.astype(out.dtype), None)})
    return [np.asarray(cts[v.key].v) if v.key in cts else np.zeros_like(v.v) for v in wrapped]


def _numeric(f, xs, w, eps=1e-6):
    grads = []
    for i, x in enumerate(xs):
        g = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            hi, lo = [a.copy() for a in xs], [a.copy() for a in xs]
            hi[i][idx] += eps
            lo[i][idx] -= eps
            g[idx] = (_value(f, hi, w) - _value(f, lo, w)) / (2 * eps)
        grads.append(g)
    return grads


@pytest.mark.parametrize("name", sorted(CASES))
def test_vjp_matches_finite_differences(name):
    f, xs = CASES[name]
    xs = [np.array(x, dtype=F64) for x in xs]
    shape = np.asarray(f(EagerBuilder(), *xs)).shape
    w = RNG.uniform(0.5, 1.5, shape)
    tol = 1e-3 if name == "convert" else 1e-6
    eps = 1e-2 if name == "convert" else 1e-6  # a linear map through float32: big steps are exact
    for got, want in zip(_grads(f, xs, w), _numeric(f, xs, w, eps)):
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_every_differentiable_core_op_has_a_rule():
    from minixla.frontend.autodiff.vjp_elementwise import BINARY_VJPS, UNARY_DERIVATIVES

    core = {"broadcast_in_dim", "reshape", "transpose", "slice", "dynamic_slice", "dynamic_update_slice",
            "concatenate", "pad", "reverse", "gather", "scatter", "dot_general", "convolution", "reduce",
            "reduce_window", "select_and_scatter", "select", "clamp", "convert", "sort", "while", "if"}
    assert core | set(UNARY_DERIVATIVES) | set(BINARY_VJPS) <= set(VJPS)


def test_non_differentiable_ops_are_not_recorded():
    tape = Tape()
    b = RecordingBuilder(EagerBuilder(), [tape])
    x = RValue(u(3), new_key())
    tape.tracked.add(x.key)
    for out in (b.compare(x, x, "LT"), b.floor(x), b.sign(x), b.convert(x, np.int32)):
        assert out.key is None
    assert tape.records == []
