"""Top-level tf.* cases (frontend/api/top_level.py), recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/toplevel_cases.py --out tests/golden/toplevel` and
replayed by test_toplevel_goldens.py (eager, tf.function, jit_compile=True, gradients). Same
format as op_cases.py; numpy only."""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(41)
SORTED = np.sort(R.standard_normal((2, 6)), axis=1).astype(np.float32)
QUERIES = np.concatenate([SORTED[:, 1:3], R.standard_normal((2, 3))], axis=1).astype(np.float32)
LENGTHS = np.array([1, 4, 0, 3], np.int32)
SEQ = R.standard_normal((3, 5, 2)).astype(np.float32)
SEQ_LENGTHS = np.array([2, 5, 1], np.int32)
SEQ_T = R.standard_normal((4, 2, 3)).astype(np.float32)
FLAT_INDEX = np.array([0, 5, 11, 7], np.int32)
VALUES = np.array([-1.0, 0.0, 0.4, 1.99, 2.0, 3.7, 5.0, 9.0], np.float32)
BIG = np.array([[-3e9, -1.5, 0.2, 255.7], [300.0, 3e9, -129.0, 127.9]], np.float32)
X = R.standard_normal((3, 4)).astype(np.float32)
Y = (R.uniform(0.5, 2.0, (3, 4)) * np.sign(R.standard_normal((3, 4)))).astype(np.float32)
BASE = R.standard_normal((5, 3)).astype(np.float32)
ROWS = np.array([[1], [3], [1], [0]], np.int32)
UPD = R.standard_normal((4, 3)).astype(np.float32)
ELEMS = R.standard_normal((4, 3)).astype(np.float32)
IDS = np.array([4, 1, 4, 7, 1, 1, 9], np.int32)
MASK = np.array([True, False, True, True], bool)
SPD = (lambda m: (m @ m.transpose(0, 2, 1) + 3 * np.eye(3)).astype(np.float32))(R.standard_normal((2, 3, 3)))
PARTS = np.array([2, 0, 2, 1], np.int32)
MASK2 = np.array([[True, False], [False, True], [True, True]], bool)


CASES = {
    "tl_searchsorted_left": (lambda tf, s, v: tf.searchsorted(s, v), [SORTED, QUERIES], None),
    "tl_searchsorted_right": (lambda tf, s, v: tf.searchsorted(s, v, side="right", out_type=tf.int64),
                              [SORTED, QUERIES], None),
    "tl_sequence_mask": (lambda tf, n: tf.sequence_mask(n, 5), [LENGTHS], np.arange(5) < LENGTHS[:, None]),
    "tl_sequence_mask_float": (lambda tf, n: tf.sequence_mask(n, 4, dtype=tf.float32), [LENGTHS], None),
    "tl_reverse_sequence": (lambda tf, x, n: tf.reverse_sequence(x, n, seq_axis=1, batch_axis=0),
                            [SEQ, SEQ_LENGTHS], None),
    "tl_reverse_sequence_axes": (lambda tf, x: tf.reverse_sequence(x, tf.constant([3, 1], tf.int64), seq_axis=0,
                                                                   batch_axis=1), [SEQ_T], None),
    "tl_unravel_index": (lambda tf, i: tf.unravel_index(i, [3, 4]), [FLAT_INDEX],
                         np.stack(np.unravel_index(FLAT_INDEX, (3, 4)))),
    "tl_histogram_fixed_width": (lambda tf, v: tf.histogram_fixed_width(v, [0.0, 5.0], nbins=5), [VALUES], None),
    "tl_histogram_fixed_width_bins": (lambda tf, v: tf.histogram_fixed_width_bins(v, [0.0, 5.0], nbins=5),
                                      [VALUES], None),
    "tl_saturate_cast_uint8": (lambda tf, x: tf.saturate_cast(x, tf.uint8), [BIG], None),
    "tl_saturate_cast_int32": (lambda tf, x: tf.saturate_cast(x, tf.int32), [BIG], None),
    "tl_saturate_cast_int8": (lambda tf, x: tf.saturate_cast(x, tf.int8), [BIG], None),
    "tl_saturate_cast_f16": (lambda tf, x: tf.saturate_cast(x * 1e-4, tf.float16), [BIG], None),
    "tl_realdiv": (lambda tf, x, y: tf.realdiv(x, y), [X, Y], X / Y),
    "tl_shape_n": (lambda tf, x, y: tf.shape_n([x, y[:2], y[0]]), [X, Y], None),
    "tl_tensor_scatter_nd_max": (lambda tf, b, u: tf.tensor_scatter_nd_max(b, ROWS, u), [BASE, UPD], None),
    "tl_tensor_scatter_nd_min": (lambda tf, b, u: tf.tensor_scatter_nd_min(b, ROWS, u), [BASE, UPD], None),
    "tl_tensor_scatter_nd_sub": (lambda tf, b, u: tf.tensor_scatter_nd_sub(b, ROWS, u), [BASE, UPD], None),
    "tl_foldl": (lambda tf, e: tf.foldl(lambda a, x: a * 0.5 + tf.sin(x), e), [ELEMS], None),
    "tl_foldl_init": (lambda tf, e: tf.foldl(lambda a, x: a + tf.reduce_sum(x * x), e, initializer=1.5), [ELEMS],
                      1.5 + (ELEMS.astype(np.float64) ** 2).sum()),
    "tl_foldr": (lambda tf, e: tf.foldr(lambda a, x: a * 0.5 + tf.sin(x), e), [ELEMS], None),
    "tl_vectorized_map": (lambda tf, e: tf.vectorized_map(lambda r: tf.reduce_sum(r * r) + r[0], e), [ELEMS],
                          None),
    "tl_grad_pass_through": (lambda tf, x: tf.grad_pass_through(tf.round)(x * 3.0), [X], None),
    "tl_recompute_grad": (lambda tf, x: tf.recompute_grad(lambda v: tf.sin(v) * v)(x), [X], np.sin(X) * X),
    "tl_guarantee_const": (lambda tf, x: tf.guarantee_const(x) * 2.0, [X], 2 * X),
    "tl_tuple": (lambda tf, x, y: tf.tuple([x * 2.0, y + 1.0]), [X, Y], None),
    "tl_math_aliases": (lambda tf, x, y: (tf.acos(tf.tanh(x)), tf.asin(tf.tanh(x)), tf.atan(x), tf.atan2(x, y),
                                          tf.cosh(x), tf.sinh(x), tf.tan(x * 0.5), tf.scalar_mul(2.5, x)),
                        [X, Y], None),
    "tl_initializers": (lambda tf, x: (tf.constant_initializer(1.5)([3, 4]) * x, tf.zeros_initializer()([3, 4]) + x,
                                       tf.ones_initializer()([3, 4]) * x), [X], None),
    "tl_unique": (lambda tf, i: tf.unique(i), [IDS], None),
    "tl_unique_with_counts": (lambda tf, i: tf.unique_with_counts(i, out_idx=tf.int64), [IDS], None),
    "tl_boolean_mask": (lambda tf, x, m: tf.boolean_mask(x, m, axis=1), [X, MASK], X[:, MASK]),
    "tl_boolean_mask_2d": (lambda tf, x, m: tf.boolean_mask(x * 2.0, m), [ELEMS[:3, :2], MASK2], None),
    "tl_dynamic_stitch": (lambda tf, a, b: tf.dynamic_stitch([[0, 2], [1, 3, 5]], [a[0, :2], b[1, :3]]), [X, Y],
                          None),
    "tl_dynamic_stitch_rows": (lambda tf, a, b: tf.dynamic_stitch([[2, 0], [1, 0]], [a[:2], b[1:]]), [X, Y], None),
    "tl_broadcast_dynamic_shape": (lambda tf, a, b: tf.broadcast_dynamic_shape(tf.shape(a)[None, 0] * 0 + [2, 1, 4],
                                                                               tf.shape(b)), [X, Y], None),
    "tl_dynamic_partition": (lambda tf, x, p: tf.dynamic_partition(x * 2.0, p, 3), [X[:, :4].T.copy(), PARTS], None),
    "tl_approx_top_k": (lambda tf, x: tf.approx_top_k(x, 2), [X], None),
    "tl_required_space_to_batch_paddings": (lambda tf, s: tf.required_space_to_batch_paddings(
        s, [2, 3], base_paddings=[[1, 0], [0, 2]]), [np.array([5, 7], np.int32)], None),
    "tl_matrix_square_root": (lambda tf, a: tf.linalg.sqrtm(a), [SPD], None),
    "tl_matrix_square_root_top": (lambda tf, a: tf.matrix_square_root(a[0]), [SPD], None),
    "tl_fingerprint": (lambda tf, i: tf.fingerprint(i), [np.arange(12, dtype=np.int32).reshape(4, 3)], None),
    "tl_fingerprint_float": (lambda tf, x: tf.fingerprint(x), [X], None),
}
