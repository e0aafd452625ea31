"""Op cases shared by tests/frontend/test_ops.py and tests/golden/record_tf_goldens.py.

Each case: name -> (function of tf, list of numpy inputs, numpy reference).
The reference is an independent numpy computation (not our kernels); the
same table drives the golden recorder when TensorFlow is installed.
"""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(0)


def f32(*shape, lo=-2.0, hi=2.0):
    return R.uniform(lo, hi, shape).astype(np.float32)


def i32(*shape, lo=-5, hi=6):
    return R.integers(lo, hi, shape).astype(np.int32)


A, B = f32(2, 3), f32(2, 3)
ROW = f32(3)
POS = f32(2, 3, lo=0.1, hi=3.0)
UNIT = f32(2, 3, lo=-0.9, hi=0.9)
IA, IB = i32(2, 3), i32(2, 3, lo=1, hi=4) * np.where(R.random((2, 3)) < 0.5, -1, 1).astype(np.int32)
M1, M2 = f32(2, 3), f32(3, 4)
X4 = f32(1, 4, 4, 2)


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _erf(x):
    import math
    return np.vectorize(math.erf)(x.astype(np.float64)).astype(np.float32)


CASES = {
    "add_bcast": (lambda tf, a, b: tf.add(a, b), [A, ROW], A + ROW),
    "subtract": (lambda tf, a, b: tf.subtract(a, b), [A, B], A - B),
    "multiply": (lambda tf, a, b: tf.multiply(a, b), [A, B], A * B),
    "divide": (lambda tf, a, b: tf.divide(a, b), [A, POS], A / POS),
    "floordiv_f": (lambda tf, a, b: tf.math.floordiv(a, b), [A, POS], np.floor_divide(A, POS)),
    "floordiv_i": (lambda tf, a, b: tf.math.floordiv(a, b), [IA, IB], np.floor_divide(IA, IB)),
    "floormod_i": (lambda tf, a, b: tf.math.floormod(a, b), [IA, IB], np.mod(IA, IB)),
    "floormod_f": (lambda tf, a, b: tf.math.floormod(a, b), [A, POS], np.mod(A, POS)),
    "pow": (lambda tf, a, b: tf.pow(a, b), [POS, A], np.power(POS, A)),
    "maximum": (lambda tf, a, b: tf.maximum(a, b), [A, B], np.maximum(A, B)),
    "minimum": (lambda tf, a, b: tf.minimum(a, b), [A, B], np.minimum(A, B)),
    "squared_difference": (lambda tf, a, b: tf.math.squared_difference(a, b), [A, B], (A - B) ** 2),
    "add_n": (lambda tf, a, b: tf.add_n([a, b, a]), [A, B], A + B + A),
    "equal": (lambda tf, a, b: tf.equal(a, b), [IA, IB], IA == IB),
    "not_equal": (lambda tf, a, b: tf.not_equal(a, b), [IA, IB], IA != IB),
    "less": (lambda tf, a, b: tf.less(a, b), [A, B], A < B),
    "less_equal": (lambda tf, a, b: tf.less_equal(a, b), [IA, IB], IA <= IB),
    "greater": (lambda tf, a, b: tf.greater(a, b), [A, B], A > B),
    "greater_equal": (lambda tf, a, b: tf.greater_equal(a, b), [IA, IB], IA >= IB),
    "logical_and": (lambda tf, a, b: tf.logical_and(a > 0, b > 0), [A, B], (A > 0) & (B > 0)),
    "logical_or": (lambda tf, a, b: tf.logical_or(a > 0, b > 0), [A, B], (A > 0) | (B > 0)),
    "logical_not": (lambda tf, a: tf.logical_not(a > 0), [A], ~(A > 0)),
    "abs": (lambda tf, a: tf.abs(a), [A], np.abs(A)),
    "negative": (lambda tf, a: tf.negative(a), [A], -A),
    "sign": (lambda tf, a: tf.sign(a), [IA], np.sign(IA)),
    "square": (lambda tf, a: tf.square(a), [A], A * A),
    "sqrt": (lambda tf, a: tf.sqrt(a), [POS], np.sqrt(POS)),
    "rsqrt": (lambda tf, a: tf.math.rsqrt(a), [POS], 1 / np.sqrt(POS)),
    "exp": (lambda tf, a: tf.exp(a), [A], np.exp(A)),
    "log": (lambda tf, a: tf.math.log(a), [POS], np.log(POS)),
    "reciprocal": (lambda tf, a: tf.math.reciprocal(a), [POS], 1 / POS),
    "sin": (lambda tf, a: tf.sin(a), [A], np.sin(A)),
    "cos": (lambda tf, a: tf.cos(a), [A], np.cos(A)),
    "tanh": (lambda tf, a: tf.tanh(a), [A], np.tanh(A)),
    "floor": (lambda tf, a: tf.floor(a), [A], np.floor(A)),
    "ceil": (lambda tf, a: tf.math.ceil(a), [A], np.ceil(A)),
    "round": (lambda tf, a: tf.round(a), [np.array([0.5, 1.5, 2.5, -0.5, -1.7], np.float32)],
              np.array([0., 2., 2., -0., -2.], np.float32)),
    "sigmoid": (lambda tf, a: tf.sigmoid(a), [A], 1 / (1 + np.exp(-A))),
    "softplus": (lambda tf, a: tf.math.softplus(a), [A], np.log1p(np.exp(A))),
    "is_nan": (lambda tf, a: tf.math.is_nan(a), [np.array([1.0, np.nan, np.inf], np.float32)],
               np.array([False, True, False])),
    "asin": (lambda tf, a: tf.math.asin(a), [UNIT], np.arcsin(UNIT)),
    "acos": (lambda tf, a: tf.math.acos(a), [UNIT], np.arccos(UNIT)),
    "erf": (lambda tf, a: tf.math.erf(a), [A], _erf(A)),
    "reduce_sum": (lambda tf, a: tf.reduce_sum(a, axis=1), [A], A.sum(1)),
    "reduce_sum_all": (lambda tf, a: tf.reduce_sum(a), [A], A.sum()),
    "reduce_mean": (lambda tf, a: tf.reduce_mean(a, axis=0, keepdims=True), [A], A.mean(0, keepdims=True)),
    "reduce_max": (lambda tf, a: tf.reduce_max(a, axis=-1), [A], A.max(-1)),
    "reduce_min": (lambda tf, a: tf.reduce_min(a), [A], A.min()),
    "reduce_prod": (lambda tf, a: tf.reduce_prod(a, 1), [A], A.prod(1)),
    "reduce_all": (lambda tf, a: tf.reduce_all(a > -1.5, 1), [A], (A > -1.5).all(1)),
    "reduce_any": (lambda tf, a: tf.reduce_any(a > 1.5, 0), [A], (A > 1.5).any(0)),
    "reduce_logsumexp": (lambda tf, a: tf.reduce_logsumexp(a, 1), [A], np.log(np.exp(A).sum(1))),
    "argmax0": (lambda tf, a: tf.argmax(a, 0), [A], A.argmax(0)),
    "argmax1": (lambda tf, a: tf.math.argmax(a, axis=1), [A], A.argmax(1)),
    "argmin": (lambda tf, a: tf.argmin(a, 1, output_type=tf.int32), [A], A.argmin(1).astype(np.int32)),
    "cumsum": (lambda tf, a: tf.cumsum(a, axis=1), [A], np.cumsum(A, 1)),
    "cumsum_excl_rev": (lambda tf, a: tf.cumsum(a, axis=1, exclusive=True, reverse=True), [A],
                        np.cumsum(A[:, ::-1], 1)[:, ::-1] - A),
    "reshape": (lambda tf, a: tf.reshape(a, [3, -1]), [A], A.reshape(3, 2)),
    "transpose": (lambda tf, a: tf.transpose(a), [A], A.T),
    "expand_dims": (lambda tf, a: tf.expand_dims(a, 1), [A], A[:, None]),
    "squeeze": (lambda tf, a: tf.squeeze(a), [f32(1, 3, 1)], None),
    "concat": (lambda tf, a, b: tf.concat([a, b], axis=1), [A, B], np.concatenate([A, B], 1)),
    "stack": (lambda tf, a, b: tf.stack([a, b], axis=1), [A, B], np.stack([A, B], 1)),
    "unstack": (lambda tf, a: tf.unstack(a, axis=1)[2], [A], A[:, 2]),
    "split": (lambda tf, a: tf.split(a, [1, 2], axis=1)[1], [A], A[:, 1:]),
    "tile": (lambda tf, a: tf.tile(a, [2, 3]), [A], np.tile(A, (2, 3))),
    "broadcast_to": (lambda tf, a: tf.broadcast_to(a, [4, 3]), [ROW], np.broadcast_to(ROW, (4, 3))),
    "pad": (lambda tf, a: tf.pad(a, [[1, 0], [2, 1]], constant_values=7.0), [A],
            np.pad(A, [(1, 0), (2, 1)], constant_values=7)),
    "pad_reflect": (lambda tf, a: tf.pad(a, [[1, 1], [2, 2]], mode="REFLECT"), [A],
                    np.pad(A, [(1, 1), (2, 2)], mode="reflect")),
    "slice": (lambda tf, a: tf.slice(a, [0, 1], [2, 2]), [A], A[0:2, 1:3]),
    "getitem": (lambda tf, a: a[1, ::-2], [A], A[1, ::-2]),
    "getitem_newaxis": (lambda tf, a: a[:, None, 1:], [A], A[:, None, 1:]),
    "where": (lambda tf, a, b: tf.where(a > b, a, b), [A, B], np.where(A > B, A, B)),
    "clip_by_value": (lambda tf, a: tf.clip_by_value(a, -1.0, 0.5), [A], np.clip(A, -1, 0.5)),
    "matmul": (lambda tf, a, b: tf.matmul(a, b), [M1, M2], M1.astype(np.float64) @ M2),
    "matmul_tb": (lambda tf, a, b: tf.matmul(a, b, transpose_b=True), [A, B], A.astype(np.float64) @ B.T),
    "batch_matmul": (lambda tf, a, b: tf.matmul(a, b), [f32(2, 2, 3), f32(3, 4)],
                     None),
    "cast_f2i": (lambda tf, a: tf.cast(a * 3, tf.int32), [A], np.trunc(A * 3).astype(np.int32)),
    "zeros_like": (lambda tf, a: tf.zeros_like(a), [A], np.zeros_like(A)),
    "ones": (lambda tf, a: tf.ones([2, 2]) + a[0, 0], [A], np.ones((2, 2), np.float32) + A[0, 0]),
    "fill": (lambda tf, a: tf.fill([2, 3], 4.0) * a, [A], 4 * A),
    "range": (lambda tf, a: tf.cast(tf.range(1, 7, 2), tf.float32) + a[0], [A], np.arange(1, 7, 2) + A[0]),
    "eye": (lambda tf, a: tf.eye(3) + a[:1], [A], np.eye(3, dtype=np.float32) + A[:1]),
    "one_hot": (lambda tf, a: tf.one_hot(a, 4), [np.array([0, 3, 1], np.int32)], np.eye(4, dtype=np.float32)[[0, 3, 1]]),
    "identity": (lambda tf, a: tf.identity(a), [A], A),
    "shape": (lambda tf, a: tf.shape(a), [A], np.array([2, 3], np.int32)),
    "size": (lambda tf, a: tf.size(a), [A], np.array(6, np.int32)),
    "relu": (lambda tf, a: tf.nn.relu(a), [A], np.maximum(A, 0)),
    "relu6": (lambda tf, a: tf.nn.relu6(a * 4), [A], np.clip(A * 4, 0, 6)),
    "leaky_relu": (lambda tf, a: tf.nn.leaky_relu(a), [A], np.where(A > 0, A, 0.2 * A)),
    "elu": (lambda tf, a: tf.nn.elu(a), [A], np.where(A > 0, A, np.expm1(A))),
    "silu": (lambda tf, a: tf.nn.silu(a), [A], A / (1 + np.exp(-A))),
    "gelu": (lambda tf, a: tf.nn.gelu(a), [A], 0.5 * A * (1 + _erf(A / np.sqrt(2)))),
    "softmax": (lambda tf, a: tf.nn.softmax(a), [A], _softmax(A)),
    "log_softmax": (lambda tf, a: tf.nn.log_softmax(a), [A], np.log(_softmax(A))),
    "softmax_xent": (lambda tf, a, b: tf.nn.softmax_cross_entropy_with_logits(b, a), [A, _softmax(B)],
                     -(_softmax(B) * np.log(_softmax(A))).sum(-1)),
    "sparse_xent": (lambda tf, a, l: tf.nn.sparse_softmax_cross_entropy_with_logits(l, a),
                    [A, np.array([2, 0], np.int32)], -np.log(_softmax(A))[[0, 1], [2, 0]]),
    "sigmoid_xent": (lambda tf, a, b: tf.nn.sigmoid_cross_entropy_with_logits(b, a), [A, (B > 0).astype(np.float32)],
                     np.maximum(A, 0) - A * (B > 0) + np.log1p(np.exp(-np.abs(A)))),
    "bias_add": (lambda tf, a, b: tf.nn.bias_add(a, b), [A, ROW], A + ROW),
    "moments_mean": (lambda tf, a: tf.nn.moments(a, [0])[1], [A], A.var(0)),
    "max_pool": (lambda tf, x: tf.nn.max_pool2d(x, 2, 2, "VALID"), [X4],
                 X4.reshape(1, 2, 2, 2, 2, 2).max(axis=(2, 4))),
    "avg_pool_same": (lambda tf, x: tf.nn.avg_pool2d(x, 3, 2, "SAME"), [X4], None),
    # indexing, sorting, einsum (frontend/ops/index_ops.py)
    "gather": (lambda tf, p, i: tf.gather(p, i), [A, np.array([1, 0, 1], np.int32)], A[[1, 0, 1]]),
    "gather_axis1": (lambda tf, p, i: tf.gather(p, i, axis=1), [A, np.array([[2, 0], [1, 1]], np.int32)],
                     np.take(A, [[2, 0], [1, 1]], axis=1)),
    "gather_nd": (lambda tf, p, i: tf.gather_nd(p, i), [A, np.array([[1, 2], [0, 0]], np.int32)],
                  A[[1, 0], [2, 0]]),
    "gather_nd_rows": (lambda tf, p, i: tf.gather_nd(p, i), [A, np.array([[1], [0]], np.int32)], A[[1, 0]]),
    "embedding_lookup": (lambda tf, p, i: tf.nn.embedding_lookup(p, i), [M2, np.array([[2, 0]], np.int32)],
                         M2[[[2, 0]]]),
    "sort": (lambda tf, a: tf.sort(a), [A], np.sort(A, -1)),
    "sort_desc_axis0": (lambda tf, a: tf.sort(a, axis=0, direction="DESCENDING"), [A], -np.sort(-A, 0)),
    "argsort": (lambda tf, a: tf.argsort(a), [A], np.argsort(A, -1, kind="stable").astype(np.int32)),
    "argsort_ties": (lambda tf, a: tf.argsort(a, direction="DESCENDING"), [np.array([1, 3, 1, 3], np.int32)],
                     np.array([1, 3, 0, 2], np.int32)),
    "top_k_values": (lambda tf, a: tf.math.top_k(a, 2).values, [A], -np.sort(-A, -1)[:, :2]),
    "top_k_indices": (lambda tf, a: tf.math.top_k(a, 2).indices, [A],
                      np.argsort(-A, -1, kind="stable")[:, :2].astype(np.int32)),
    "einsum_matmul": (lambda tf, a, b: tf.einsum("ij,jk->ik", a, b), [M1, M2], M1.astype(np.float64) @ M2),
    "einsum_batch_t": (lambda tf, a, b: tf.einsum("bij,bkj->bki", a, b), [f32(2, 3, 4), f32(2, 5, 4)], None),
    "einsum_outer": (lambda tf, a, b: tf.einsum("i,j->ij", a, b), [ROW, ROW[:2]], np.outer(ROW, ROW[:2])),
    "einsum_sum": (lambda tf, a: tf.einsum("ij->j", a), [A], A.sum(0)),
    "einsum_dot_sumout": (lambda tf, a, b: tf.einsum("ij,ik->", a, b), [A, B], A.sum(1) @ B.sum(1)),
    # control flow (frontend/control_flow.py)
    "cond": (lambda tf, a, b: tf.cond(tf.reduce_sum(a) > tf.reduce_sum(b), lambda: a - b, lambda: a * b), [A, B],
             A - B if A.sum() > B.sum() else A * B),
    "while_loop": (lambda tf, a: tf.while_loop(lambda i, x: i < 4, lambda i, x: (i + 1, x * 0.5 + a), [0, a])[1],
                   [A], A + 0.5 * A + 0.25 * A + 0.125 * A + 0.0625 * A),
    "running_example": (lambda tf, x, y: tf.reduce_mean(tf.multiply(x ** 2, 3) + y), [A, B],
                        np.mean(A.astype(np.float64) ** 2 * 3 + B)),
}


# Stateless random ops, tf.gather with batch_dims, tf.einsum with '...'. Their
# inputs come from a generator of their own so that the cases above keep theirs.
_R2 = np.random.default_rng(2027)


def _f32b(*shape):
    return _R2.uniform(-2.0, 2.0, shape).astype(np.float32)


def _idx(hi, *shape, dtype=np.int32):
    return _R2.integers(0, hi, shape).astype(dtype)


def _einsum_case(equation: str, *operands: np.ndarray) -> tuple:
    """An op case for tf.einsum(equation, ...), its numpy oracle computed in float64."""
    return (lambda tf, *xs: tf.einsum(equation, *xs), list(operands),
            np.einsum(equation, *(x.astype(np.float64) for x in operands)))


def _gather_bd(params, indices, axis, batch_dims):
    """TF's definition of gather with batch_dims: np.take along `axis` within each batch row."""
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    return np.stack([_gather_bd(p, i, axis - 1, batch_dims - 1) for p, i in zip(params, indices)])


_SEED_A = np.array([1, 2], np.int32)
_SEED_B = np.array([2**40 + 3, -7], np.int64)
_SEED_C = np.array([-1, 0], np.int32)
_SEED_D = np.array([0, 2**62 - 1], np.int64)
_GP1, _GI1 = _f32b(2, 5), np.array([[4, 0, 4], [1, 3, 1]], np.int32)
_GP2, _GI2 = _f32b(2, 3, 4), np.array([[[3, 0], [1, 1], [2, 3]], [[0, 0], [3, 2], [1, 0]]], np.int32)
_GP3, _GI3 = _f32b(2, 3, 4, 2), _idx(4, 2, 3, 5, dtype=np.int64)
_GP4, _GI4 = _f32b(3, 4, 2), _idx(4, 3, 2, 2)
_GP5, _GI5, _GI6 = _f32b(2, 3, 4), np.array([[2, 2], [0, 1]], np.int32), np.array([[3, 3, 0], [1, 2, 3]], np.int32)
_GPI, _GII = _R2.integers(-50, 50, (2, 4, 3)).astype(np.int32), np.array([[3, 3, 0], [1, 2, 1]], np.int32)
_E1, _E2 = _f32b(2, 2, 3, 4), _f32b(2, 2, 4, 3)
_EB1, _EB2 = _f32b(2, 1, 3, 4), _f32b(1, 3, 4, 2)
_ER1, _ER2 = _f32b(3, 4), _f32b(2, 4, 5)
_ET1, _ET2 = _f32b(3, 4, 2), _f32b(4, 5, 1)
_ES1, _ES2 = _f32b(4, 1, 3), _f32b(5, 3)
_EO1, _EO2 = _f32b(2, 3, 4, 5), _f32b(2, 5)
_EF1, _EF2 = _E1.astype(np.float64), _E2.astype(np.float64)

CASES.update({
    # tf.random stateless generators (frontend/api_random.py): TF's eager Philox stream, in every mode
    "rng_uniform_f32": (lambda tf, s: tf.random.stateless_uniform([3, 5], seed=s), [_SEED_A], None),
    "rng_uniform_f64_range": (lambda tf, s: tf.random.stateless_uniform([2, 5], s, minval=-2.0, maxval=3.0,
                                                                         dtype=tf.float64), [_SEED_B], None),
    "rng_uniform_f16": (lambda tf, s: tf.random.stateless_uniform([7], s, minval=1.0, maxval=2.5,
                                                                   dtype=tf.float16), [_SEED_C], None),
    "rng_uniform_bf16": (lambda tf, s: tf.cast(tf.random.stateless_uniform([2, 3], s, dtype=tf.bfloat16),
                                               tf.float32), [_SEED_A], None),
    "rng_uniform_int32": (lambda tf, s: tf.random.stateless_uniform([4, 3], s, minval=-5, maxval=17,
                                                                     dtype=tf.int32), [_SEED_C], None),
    "rng_uniform_int64": (lambda tf, s: tf.random.stateless_uniform([5], s, minval=-2**40, maxval=2**40 + 5,
                                                                     dtype=tf.int64), [_SEED_D], None),
    "rng_uniform_full_uint32": (lambda tf, s: tf.random.stateless_uniform([2, 3], s, minval=None, maxval=None,
                                                                           dtype=tf.uint32), [_SEED_A], None),
    "rng_uniform_full_int64": (lambda tf, s: tf.random.stateless_uniform([3], s, minval=None, maxval=None,
                                                                          dtype=tf.int64), [_SEED_B], None),
    "rng_normal_f32": (lambda tf, s: tf.random.stateless_normal([3, 5], seed=s), [_SEED_A], None),
    "rng_normal_f64_mean_std": (lambda tf, s: tf.random.stateless_normal([7], s, mean=1.5, stddev=0.25,
                                                                          dtype=tf.float64), [_SEED_B], None),
    "rng_normal_f16": (lambda tf, s: tf.random.stateless_normal([2, 3], s, dtype=tf.float16), [_SEED_D], None),
    "rng_split_i32": (lambda tf, s: tf.random.experimental.stateless_split(s, num=3), [_SEED_A], None),
    "rng_split_i64": (lambda tf, s: tf.random.experimental.stateless_split(s), [_SEED_B], None),
    "rng_fold_in_i32": (lambda tf, s: tf.random.experimental.stateless_fold_in(s, 17), [_SEED_C], None),
    "rng_fold_in_i64": (lambda tf, s, d: tf.random.experimental.stateless_fold_in(s, d),
                        [_SEED_D, np.array(-12345678901, np.int64)], None),
    "rng_split_then_normal": (lambda tf, s: tf.random.stateless_normal(
        [4], tf.random.experimental.stateless_split(s, 2)[1]), [_SEED_C], None),
    # tf.gather with batch_dims (and axis)
    "gather_bd1": (lambda tf, p, i: tf.gather(p, i, axis=1, batch_dims=1), [_GP1, _GI1],
                   _gather_bd(_GP1, _GI1, 1, 1)),
    "gather_bd1_default_axis": (lambda tf, p, i: tf.gather(p, i, batch_dims=1), [_GP5, _GI5],
                                _gather_bd(_GP5, _GI5, 1, 1)),
    "gather_bd1_axis2": (lambda tf, p, i: tf.gather(p, i, axis=2, batch_dims=1), [_GP5, _GI6],
                         _gather_bd(_GP5, _GI6, 2, 1)),
    "gather_bd1_neg_axis": (lambda tf, p, i: tf.gather(p, i, axis=-2, batch_dims=1), [_GP4, _GI4],
                            _gather_bd(_GP4, _GI4, 1, 1)),
    "gather_bd2": (lambda tf, p, i: tf.gather(p, i, axis=2, batch_dims=2), [_GP2, _GI2],
                   _gather_bd(_GP2, _GI2, 2, 2)),
    "gather_bd2_neg_i64": (lambda tf, p, i: tf.gather(p, i, axis=-2, batch_dims=-1), [_GP3, _GI3],
                           _gather_bd(_GP3, _GI3, 2, 2)),
    "gather_bd1_int": (lambda tf, p, i: tf.gather(p, i, axis=1, batch_dims=1), [_GPI, _GII],
                       _gather_bd(_GPI, _GII, 1, 1)),
    # tf.einsum with '...' (broadcasting size-1 batch dimensions, implicit output)
    "einsum_ell_batch_matmul": _einsum_case("...ij,...jk->...ik", _E1, _E2),
    "einsum_ell_bcast1": _einsum_case("...ij,...jk->...ik", _EB1, _EB2),
    "einsum_ell_ranks": _einsum_case("...ij,...jk->...ik", _ER1, _ER2),
    # implicit output: TF keeps '...' only when one operand has it (TF refuses "...ij,...jk" with
    # non-empty ellipsis dimensions, numpy does not: tests/frontend/test_gather_einsum.py)
    "einsum_ell_implicit": _einsum_case("...ij,jk", _EB1, _EB2[0, 0]),
    "einsum_ell_implicit_sum": _einsum_case("b...d,bd", _EO1, _EO2),
    "einsum_ell_implicit_one": _einsum_case("...ji", _E1),
    "einsum_ell_trailing": _einsum_case("ij...,jk...->ik...", _ET1, _ET2),
    "einsum_ell_dot": _einsum_case("...i,...i->...", _ES1, _ES2),
    "einsum_ell_middle": _einsum_case("b...d,bd->b...", _EO1, _EO2),
    "einsum_ell_transpose": _einsum_case("...ij->...ji", _E1),
    "einsum_ell_f64": _einsum_case("...ij,...jk->...ik", _EF1, _EF2),
})

# P1 math/shape/linalg (wt-p1math)
_PX = f32(3, 4)
_PV = f32(5)
_PB = f32(2, 3, 3)
_PI = i32(3, 4)
_PZ = np.array([[0.0, 1.5, 0.0], [-2.0, 0.0, 3.0]], np.float32)
_SEG_IDS = np.array([0, 2, 0, 1], np.int32)
_SND_I = np.array([[1], [3]], np.int32)
_SND_U = f32(2, 3)
_TSN_I = np.array([[0, 1], [2, 3]], np.int32)
_TSN_U = f32(2)


def _np_norm_axis(x, axis):
    return np.sqrt((x.astype(np.float64) ** 2).sum(axis)).astype(np.float32)


def _np_band(x, lo, up):
    m, n = x.shape[-2:]
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    keep = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return np.where(keep, x, 0).astype(x.dtype)


def _np_clip_global(ts, c):
    g = np.sqrt(sum((t.astype(np.float64) ** 2).sum() for t in ts))
    return np.concatenate([(t * c / max(g, c)).astype(np.float32).reshape(-1) for t in ts] + [np.float32([g])])


CASES.update({
    "p1_linspace": (lambda tf: tf.linspace(-1.0, 2.0, 7), [], np.linspace(-1.0, 2.0, 7, dtype=np.float32)),
    "p1_linspace_nd_axis": (lambda tf, a, b: tf.linspace(a, b, 4, axis=-1), [_PV, _PV + 3.0],
                            np.linspace(_PV, _PV + 3.0, 4, axis=-1).astype(np.float32)),
    "p1_linspace_one": (lambda tf, a, b: tf.linspace(a, b, 1), [_PV, _PV + 1.0], _PV[None]),
    "p1_roll": (lambda tf, x: tf.roll(x, 1, 0), [_PX], np.roll(_PX, 1, 0)),
    "p1_roll_multi": (lambda tf, x: tf.roll(x, [2, -1, 3], [1, 0, 1]), [_PX], np.roll(_PX, (5, -1), (1, 0))),
    "p1_repeat_scalar": (lambda tf, x: tf.repeat(x, 2, axis=1), [_PX], np.repeat(_PX, 2, 1)),
    "p1_repeat_vec": (lambda tf, x: tf.repeat(x, [2, 0, 1], axis=0), [_PX], np.repeat(_PX, [2, 0, 1], 0)),
    "p1_repeat_flat": (lambda tf, x: tf.repeat(x, 2), [_PI], np.repeat(_PI, 2)),
    # (list results joined into one tensor: tests/frontend/test_ops.py compares one array per case)
    "p1_meshgrid_xy": (lambda tf, a, b: tf.stack(tf.meshgrid(a, b)), [_PV, ROW], np.stack(np.meshgrid(_PV, ROW))),
    "p1_meshgrid_ij": (lambda tf, a, b: tf.stack(tf.meshgrid(a, b, indexing="ij")), [_PV, ROW],
                       np.stack(np.meshgrid(_PV, ROW, indexing="ij"))),
    "p1_identity_n": (lambda tf, a, b: (lambda r: r[0] + tf.cast(r[1], tf.float32))(tf.identity_n([a * 2.0, b])),
                      [_PX, _PI], _PX * 2 + _PI),
    "p1_ensure_shape": (lambda tf, x: tf.ensure_shape(x, [3, None]) + 1.0, [_PX], _PX + 1),
    "p1_broadcast_static_shape": (lambda tf, a, b: tf.broadcast_to(a, tf.broadcast_static_shape(a.shape, b.shape)),
                                  [ROW, _PX[:2, :3]], np.broadcast_to(ROW, (2, 3))),
    "p1_bitcast_same": (lambda tf, x: tf.bitcast(x, tf.int32), [_PX], _PX.view(np.int32)),
    "p1_bitcast_narrow": (lambda tf, x: tf.bitcast(x, tf.uint8), [_PX], _PX.view(np.uint8).reshape(3, 4, 4)),
    "p1_bitcast_wide": (lambda tf, x: tf.bitcast(x, tf.float32), [_PX.view(np.uint16).reshape(3, 4, 2)], _PX),
    "p1_reduce_variance": (lambda tf, x: tf.math.reduce_variance(x, axis=1), [_PX], _PX.var(1)),
    "p1_reduce_variance_all": (lambda tf, x: tf.math.reduce_variance(x, keepdims=True), [_PX],
                               _PX.var(keepdims=True)),
    "p1_reduce_std": (lambda tf, x: tf.math.reduce_std(x, axis=[0]), [_PX], _PX.std(0)),
    "p1_count_nonzero": (lambda tf, x: tf.math.count_nonzero(x), [_PZ], np.int64(3)),
    "p1_count_nonzero_axis": (lambda tf, x: tf.math.count_nonzero(x, axis=1, keepdims=True, dtype=tf.int32),
                              [_PI], np.count_nonzero(_PI, 1, keepdims=True).astype(np.int32)),
    "p1_norm": (lambda tf, x: tf.norm(x), [_PX], _np_norm_axis(_PX, None)),
    "p1_norm_axis": (lambda tf, x: tf.linalg.norm(x, axis=1, keepdims=True), [_PX],
                     _np_norm_axis(_PX, 1)[:, None]),
    "p1_norm_ord1": (lambda tf, x: tf.norm(x, ord=1, axis=0), [_PX], np.abs(_PX).sum(0)),
    "p1_norm_inf_matrix": (lambda tf, x: tf.norm(x, ord=np.inf, axis=[-2, -1]), [_PB],
                           np.abs(_PB).sum(-1).max(-1)),
    "p1_norm_fro": (lambda tf, x: tf.norm(x, ord="fro", axis=[1, 2]), [_PB],
                    np.sqrt((_PB ** 2).sum((1, 2)))),
    "p1_l2_normalize_linalg": (lambda tf, x: tf.linalg.l2_normalize(x), [_PX], _PX / np.sqrt((_PX ** 2).sum())),
    "p1_clip_by_norm": (lambda tf, x: tf.clip_by_norm(x, 1.5, axes=[1]), [_PX],
                        _PX * 1.5 / np.maximum(np.sqrt((_PX ** 2).sum(1, keepdims=True)), 1.5)),
    "p1_clip_by_global_norm": (lambda tf, a, b: (lambda r: tf.concat([tf.reshape(r[0][0], [-1]), r[0][1],
                                                                      tf.reshape(r[1], [1])], 0))(
        tf.clip_by_global_norm([a, b], 2.0)), [_PX, _PV], _np_clip_global([_PX, _PV], 2.0)),
    "p1_global_norm": (lambda tf, a, b: tf.linalg.global_norm([a, b]), [_PX, _PV],
                       np.float32(np.sqrt((_PX ** 2).sum() + (_PV ** 2).sum()))),
    "p1_unsorted_segment_sum": (lambda tf, x, s: tf.math.unsorted_segment_sum(x, s, 3), [f32(4, 2), _SEG_IDS],
                                None),
    "p1_scatter_nd": (lambda tf, i, u: tf.scatter_nd(i, u, [4, 3]), [_SND_I, _SND_U],
                      np.stack([np.zeros(3), _SND_U[0], np.zeros(3), _SND_U[1]]).astype(np.float32)),
    "p1_tensor_scatter_nd_update": (lambda tf, x, i, u: tf.tensor_scatter_nd_update(x, i, u), [_PX, _TSN_I, _TSN_U],
                                    None),
    "p1_tensor_scatter_nd_add": (lambda tf, x, i, u: tf.tensor_scatter_nd_add(x, i, u), [_PX, _SND_I[:, :1] - 1,
                                                                                          f32(2, 4)], None),
    "p1_band_part": (lambda tf, x: tf.linalg.band_part(x, 1, 0), [_PX], _np_band(_PX, 1, 0)),
    "p1_band_part_upper": (lambda tf, x: tf.linalg.band_part(x, 0, -1), [_PB], _np_band(_PB, 0, -1)),
    "p1_diag": (lambda tf, d: tf.linalg.diag(d), [_PX], _PX[..., :, None] * np.eye(4, dtype=np.float32)),
    "p1_diag_part": (lambda tf, x: tf.linalg.diag_part(x), [_PX], np.diagonal(_PX, 0, -2, -1)),
    "p1_diag_part_batch": (lambda tf, x: tf.linalg.diag_part(x), [_PB], np.diagonal(_PB, 0, -2, -1)),
    "p1_trace": (lambda tf, x: tf.linalg.trace(x), [_PB], np.trace(_PB, 0, -2, -1)),
    "p1_matvec": (lambda tf, a, b: tf.linalg.matvec(a, b), [_PX, f32(4)], None),
    "p1_matvec_t": (lambda tf, a, b: tf.linalg.matvec(a, b, transpose_a=True), [_PB, f32(2, 3)], None),
    "p1_tensordot_int": (lambda tf, a, b: tf.tensordot(a, b, 1), [_PX, f32(4, 2)], None),
    "p1_tensordot_axes": (lambda tf, a, b: tf.tensordot(a, b, [[0, 2], [1, 0]]), [_PB, f32(3, 2, 5)], None),
    "p1_adjoint": (lambda tf, x: tf.linalg.adjoint(x), [_PB], np.swapaxes(_PB, -1, -2)),
})

# P1 nn/random/image (wt-p1nn)
_PR = np.random.default_rng(2611)


def _pf(*shape, lo=-1.0, hi=1.0):
    return _PR.uniform(lo, hi, shape).astype(np.float32)


_P1X = _pf(2, 9, 3)
_P1W = _pf(3, 3, 4)
_P1IMG = _pf(2, 6, 5, 3)
_P1K = _pf(3, 3, 3, 4)
_P1DW = _pf(3, 3, 3, 2)
_P1T = _pf(2, 3, 3, 4)
_P1TK = _pf(3, 3, 2, 4)
_P1V = _pf(1, 4, 5, 4, 2)
_P1VK = _pf(2, 3, 2, 2, 3)
_P1LOSS = _pf(6, lo=0.0, hi=3.0)
_P1SW = _pf(6, lo=0.0, hi=1.0)
_P1LOGITS = np.array([[0.0, 1.0, 2.0, -1.0], [3.0, -np.inf, 0.5, 0.5], [-2.0, -2.0, -2.0, 4.0]], np.float32)
_P1SEED = np.array([7, 11], np.int32)
_P1SEED64 = np.array([-3, 2**40], np.int64)


def _np_l2n(x, axis):
    return x / np.sqrt(np.maximum((x.astype(np.float64) ** 2).sum(axis, keepdims=True), 1e-12))


CASES.update({
    "p1_conv1d_same": (lambda tf, x, w: tf.nn.conv1d(x, w, 1, "SAME"), [_P1X, _P1W], None),
    "p1_conv1d_valid_s2_d": (lambda tf, x, w: tf.nn.conv1d(x, w, 2, "VALID"), [_P1X, _P1W], None),
    "p1_conv1d_dil2": (lambda tf, x, w: tf.nn.conv1d(x, w, 1, "SAME", dilations=2), [_P1X, _P1W], None),
    "p1_convolution_1d": (lambda tf, x, w: tf.nn.convolution(x, w, padding="SAME"), [_P1X, _P1W], None),
    "p1_convolution_2d_s2": (lambda tf, x, k: tf.nn.convolution(x, k, strides=2, padding="SAME"), [_P1IMG, _P1K],
                             None),
    "p1_convolution_2d_dil": (lambda tf, x, k: tf.nn.convolution(x, k, padding="VALID", dilations=2), [_P1IMG, _P1K],
                              None),
    "p1_depthwise_same": (lambda tf, x, k: tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "SAME"), [_P1IMG, _P1DW], None),
    "p1_depthwise_valid_s2": (lambda tf, x, k: tf.nn.depthwise_conv2d(x, k, [1, 2, 2, 1], "VALID"), [_P1IMG, _P1DW],
                              None),
    "p1_depthwise_dil": (lambda tf, x, k: tf.nn.depthwise_conv2d(x, k[:, :, :, :1], [1, 1, 1, 1], "SAME",
                                                                 dilations=[2, 2]), [_P1IMG, _P1DW], None),
    "p1_conv2d_transpose_same_s2": (lambda tf, x, k: tf.nn.conv2d_transpose(x, k, [2, 6, 6, 2], 2, "SAME"),
                                    [_P1T, _P1TK], None),
    "p1_conv2d_transpose_valid_s2": (lambda tf, x, k: tf.nn.conv2d_transpose(x, k, [2, 7, 8, 2], 2, "VALID"),
                                     [_P1T, _P1TK], None),
    "p1_conv2d_transpose_s1": (lambda tf, x, k: tf.nn.conv2d_transpose(x, k, [2, 3, 3, 2], 1, "SAME"),
                               [_P1T, _P1TK], None),
    "p1_l2_normalize": (lambda tf, x: tf.nn.l2_normalize(x, axis=-1), [_P1X], _np_l2n(_P1X, -1)),
    "p1_l2_normalize_all": (lambda tf, x: tf.math.l2_normalize(x), [_P1W], _np_l2n(_P1W, None)),
    "p1_l2_normalize_axes": (lambda tf, x: tf.linalg.l2_normalize(x, axis=[0, 2], epsilon=1e-3), [_P1X], None),
    "p1_avg_loss": (lambda tf, x: tf.nn.compute_average_loss(x), [_P1LOSS], _P1LOSS.sum() / 6),
    "p1_avg_loss_weight_gbs": (lambda tf, x, w: tf.nn.compute_average_loss(x, sample_weight=w, global_batch_size=8),
                               [_P1LOSS, _P1SW], None),
    "rng_p1_trunc_normal_f32": (lambda tf, s: tf.random.stateless_truncated_normal([7, 9], s), [_P1SEED], None),
    "rng_p1_trunc_normal_f64": (lambda tf, s: tf.random.stateless_truncated_normal([5], s, mean=1.0, stddev=2.0,
                                                                                   dtype=tf.float64), [_P1SEED64],
                                None),
    "rng_p1_trunc_normal_f16": (lambda tf, s: tf.random.stateless_truncated_normal([3, 3], s, dtype=tf.float16),
                                [_P1SEED], None),
    "rng_p1_categorical": (lambda tf, l, s: tf.random.stateless_categorical(l, 6, s), [_P1LOGITS, _P1SEED], None),
    "rng_p1_categorical_i32": (lambda tf, l, s: tf.random.stateless_categorical(l, 5, s, dtype=tf.int32),
                               [_P1LOGITS[::-1].copy(), np.array([-5, 123456], np.int32)], None),
    "rng_p1_stateless_dropout": (lambda tf, x, s: tf.nn.experimental.stateless_dropout(x, 0.4, s), [_P1X, _P1SEED],
                                 None),
    "rng_p1_stateless_dropout_ns": (lambda tf, x, s: tf.nn.experimental.stateless_dropout(
        x, 0.25, s, noise_shape=[2, 1, 3]), [_P1X, _P1SEED64], None),
    "p1_flip_left_right": (lambda tf, x: tf.image.flip_left_right(x), [_P1IMG], _P1IMG[:, :, ::-1]),
    "p1_flip_up_down": (lambda tf, x: tf.image.flip_up_down(x[0]), [_P1IMG], _P1IMG[0, ::-1]),
    "p1_crop_to_bbox": (lambda tf, x: tf.image.crop_to_bounding_box(x, 1, 2, 4, 3), [_P1IMG], _P1IMG[:, 1:5, 2:5]),
    "p1_resize_bilinear_up": (lambda tf, x: tf.image.resize(x, [9, 7]), [_P1IMG], None),
    "p1_resize_bilinear_down": (lambda tf, x: tf.image.resize(x[1], [4, 3], method="bilinear"), [_P1IMG], None),
    "p1_resize_nearest": (lambda tf, x: tf.image.resize(x, [8, 3], method="nearest"), [_P1IMG], None),
})

# P1 control flow/autodiff (wt-p1ctl)
_CX = (np.arange(6, dtype=np.float32).reshape(3, 2) * 0.5 - 1.0)
_CW = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], np.float32)


def _scan_np(x, reverse=False):
    return np.cumsum(x[::-1], 0)[::-1] if reverse else np.cumsum(x, 0)


def _scan_init_np(x):
    acc, out = np.ones(x.shape[1:], np.float32), []
    for r in x:
        acc = acc * r + 2.0
        out.append(acc)
    return np.stack(out)


def _jac_sin_matmul(tf, x, w):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.matmul(tf.sin(x), w)
    return t.jacobian(y, x)


CASES.update({
    "p1_switch_case_0": (lambda tf, i, x: tf.switch_case(i, [lambda: x * 2.0, lambda: tf.sin(x), lambda: -x]),
                         [np.array(0, np.int32), _CX], _CX * 2),
    "p1_switch_case_1": (lambda tf, i, x: tf.switch_case(i, [lambda: x * 2.0, lambda: tf.sin(x), lambda: -x]),
                         [np.array(1, np.int32), _CX], np.sin(_CX)),
    "p1_switch_case_oob": (lambda tf, i, x: tf.switch_case(i, [lambda: x * 2.0, lambda: tf.sin(x)],
                                                           default=lambda: x * x),
                           [np.array(5, np.int32), _CX], _CX * _CX),
    "p1_case": (lambda tf, x: tf.case([(tf.reduce_sum(x) > 100.0, lambda: x * 0.0),
                                       (tf.reduce_sum(x) > -100.0, lambda: tf.exp(x))], default=lambda: x),
                [_CX], np.exp(_CX)),
    "p1_map_fn": (lambda tf, x: tf.map_fn(lambda r: tf.sin(r) * r, x), [_CX], np.sin(_CX) * _CX),
    "p1_map_fn_nested": (lambda tf, x, w: tf.map_fn(lambda t: tf.reduce_sum(t[0] * t[1]), (x, tf.transpose(w)),
                                                    fn_output_signature=tf.float32),
                         [_CX, _CW], np.sum(_CX * _CW.T, 1)),
    "p1_scan": (lambda tf, x: tf.scan(lambda a, r: a + r, x), [_CX], _scan_np(_CX)),
    "p1_scan_reverse": (lambda tf, x: tf.scan(lambda a, r: a + r, x, reverse=True), [_CX], _scan_np(_CX, True)),
    "p1_scan_init": (lambda tf, x: tf.scan(lambda a, r: a * r + 2.0, x, initializer=tf.ones([2])), [_CX],
                     _scan_init_np(_CX)),
    "p1_jacobian": (_jac_sin_matmul, [_CX, _CW],
                    np.einsum("ac,kb,ck->abck", np.eye(3, dtype=np.float32), _CW, np.cos(_CX))),
})
