"""tf.sparse / tf.ragged cases, recorded from real TensorFlow by `record_tf_goldens.py --cases
tests/frontend/sparse_cases.py --out tests/golden/sparse` and replayed by
tests/frontend/test_sparse_goldens.py. Same format as op_cases.py; numpy only.

The inputs are the values (floating, so TF's gradient w.r.t. them is recorded) and dense tensors;
indices, shapes and row partitions are numpy constants built into the lambdas, and every case
returns dense tensors (to_dense, to_tensor, or the indices/values of a result).
"""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(14)

IDX = np.array([[0, 1], [1, 0], [1, 2], [2, 3]], np.int64)  # sorted, in a [3, 4] matrix
SHAPE = [3, 4]
V4 = R.standard_normal(4).astype(np.float32)
W4 = R.standard_normal(4).astype(np.float32)
IDX_B = np.array([[0, 1], [0, 3], [2, 3]], np.int64)
V3 = R.standard_normal(3).astype(np.float32)
UNSORTED = np.array([[2, 3], [0, 1], [1, 2], [1, 0]], np.int64)
IDX3 = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 2], [1, 1, 1]], np.int64)  # in [2, 2, 3]
DENSE = R.standard_normal((4, 2)).astype(np.float32)
DENSE_T = R.standard_normal((2, 3)).astype(np.float32)
SPARSE_DENSE = (R.standard_normal((3, 4)) * (R.uniform(size=(3, 4)) > 0.5)).astype(np.float32)
EMPTY_ROWS = np.array([[1, 0], [1, 2], [3, 1]], np.int64)  # rows 0, 2, 4 of [5, 3] are empty
DATA = R.standard_normal((5, 3)).astype(np.float32)
FLAT = R.standard_normal(6).astype(np.float32)
FLAT2 = R.standard_normal((6, 2)).astype(np.float32)
BATCH = R.standard_normal((3, 4)).astype(np.float32)


def _st(tf, v, idx=IDX, shape=SHAPE):
    return tf.SparseTensor(idx, v, shape)


def _dense(tf, sp):
    return tf.sparse.to_dense(sp)


def _parts(tf, sp):
    """indices and values of a result (its entries and their order, not only the dense sum)."""
    return tf.cast(sp.indices, "float32"), sp.values, tf.cast(sp.dense_shape, "float32")


CASES = {
    # -- SparseTensor -> dense ------------------------------------------------------------------
    "sp_to_dense": (lambda tf, v: _dense(tf, _st(tf, v)), [V4], None),
    "sp_to_dense_default": (lambda tf, v: tf.sparse.to_dense(_st(tf, v), default_value=-2.0), [V4], None),
    "sp_to_dense_3d": (lambda tf, v: _dense(tf, _st(tf, v, IDX3, [2, 2, 3])), [V4], None),
    "sp_from_dense": (lambda tf, x: _parts(tf, tf.sparse.from_dense(x)), [SPARSE_DENSE], None),
    "sp_from_dense_roundtrip": (lambda tf, x: _dense(tf, tf.sparse.from_dense(x)) * 2.0, [SPARSE_DENSE], None),
    "sp_reorder": (lambda tf, v: _parts(tf, tf.sparse.reorder(_st(tf, v, UNSORTED))), [V4], None),
    # -- arithmetic -----------------------------------------------------------------------------
    "sp_add_sparse": (lambda tf, v, w: _parts(tf, tf.sparse.add(_st(tf, v), _st(tf, w, IDX_B))), [V4, V3], None),
    "sp_add_sparse_dense": (lambda tf, v, w: _dense(tf, tf.sparse.add(_st(tf, v), _st(tf, w, IDX_B))),
                            [V4, V3], None),
    "sp_add_dense": (lambda tf, v, x: tf.sparse.add(_st(tf, v), x), [V4, BATCH], None),
    "sp_add_threshold": (lambda tf, v, w: _dense(tf, tf.sparse.add(_st(tf, v), _st(tf, w, IDX_B), threshold=0.5)),
                         [V4, V3], None),
    # TF's gradients of SparseSparseMaximum/Minimum fail (a TypeError): forward only, values as constants
    "sp_maximum": (lambda tf: _parts(tf, tf.sparse.maximum(_st(tf, V4), _st(tf, V3, IDX_B))), [], None),
    "sp_minimum": (lambda tf: _dense(tf, tf.sparse.minimum(_st(tf, V4), _st(tf, V3, IDX_B))), [], None),
    "sp_matmul": (lambda tf, v, b: tf.sparse.sparse_dense_matmul(_st(tf, v), b), [V4, DENSE], None),
    "sp_matmul_adjoint_a": (lambda tf, v, b: tf.sparse.sparse_dense_matmul(_st(tf, v), b, adjoint_a=True),
                            [V4, DENSE_T.T.copy()], None),
    "sp_matmul_adjoint_b": (lambda tf, v, b: tf.sparse.sparse_dense_matmul(_st(tf, v), b, adjoint_b=True),
                            [V4, DENSE.T.copy()], None),
    "sp_matmul_dense_sparse": (lambda tf, v, a: tf.sparse.sparse_dense_matmul(a, _st(tf, v)), [V4, DENSE_T], None),
    "sp_softmax": (lambda tf, v: _dense(tf, tf.sparse.softmax(_st(tf, v, IDX3, [2, 2, 3]))), [V4], None),
    "sp_mul_dense": (lambda tf, v, x: _dense(tf, _st(tf, v) * x), [V4, BATCH], None),
    # -- reductions -----------------------------------------------------------------------------
    "sp_reduce_sum_all": (lambda tf, v: tf.sparse.reduce_sum(_st(tf, v)), [V4], None),
    "sp_reduce_sum_0": (lambda tf, v: tf.sparse.reduce_sum(_st(tf, v), axis=0), [V4], None),
    "sp_reduce_sum_1_keepdims": (lambda tf, v: tf.sparse.reduce_sum(_st(tf, v), axis=1, keepdims=True), [V4], None),
    "sp_reduce_sum_3d": (lambda tf, v: tf.sparse.reduce_sum(_st(tf, v, IDX3, [2, 2, 3]), axis=[0, 2]), [V4], None),
    "sp_reduce_sum_sparse": (lambda tf, v: _parts(tf, tf.sparse.reduce_sum(_st(tf, v), axis=0,
                                                                          output_is_sparse=True)), [V4], None),
    "sp_reduce_max_1": (lambda tf, v: tf.sparse.reduce_max(_st(tf, v, IDX_B[:2], [2, 4]), axis=1), [V3[:2]], None),
    "sp_reduce_max_all": (lambda tf, v: tf.sparse.reduce_max(_st(tf, v)), [V4], None),
    # -- structure ------------------------------------------------------------------------------
    "sp_transpose": (lambda tf, v: _parts(tf, tf.sparse.transpose(_st(tf, v))), [V4], None),
    "sp_transpose_3d": (lambda tf, v: _dense(tf, tf.sparse.transpose(_st(tf, v, IDX3, [2, 2, 3]), [2, 0, 1])),
                        [V4], None),
    "sp_reshape": (lambda tf, v: _dense(tf, tf.sparse.reshape(_st(tf, v), [2, -1])), [V4], None),
    "sp_reshape_3d": (lambda tf, v: _parts(tf, tf.sparse.reshape(_st(tf, v), [2, 3, 2])), [V4], None),
    "sp_concat_0": (lambda tf, v, w: _parts(tf, tf.sparse.concat(0, [_st(tf, v), _st(tf, w, IDX_B)])), [V4, V3],
                    None),
    "sp_concat_1": (lambda tf, v, w: _parts(tf, tf.sparse.concat(1, [_st(tf, v), _st(tf, w, IDX_B)])), [V4, V3],
                    None),
    "sp_concat_expand": (lambda tf, v, w: _dense(tf, tf.sparse.concat(1, [_st(tf, v), _st(tf, w, IDX_B[:2], [1, 4])],
                                                                      expand_nonconcat_dims=True)), [V4, V3[:2]],
                         None),
    "sp_slice": (lambda tf, v: _parts(tf, tf.sparse.slice(_st(tf, v), [1, 0], [2, 3])), [V4], None),
    "sp_retain": (lambda tf, v: _parts(tf, tf.sparse.retain(_st(tf, v), np.array([True, False, True, False]))),
                  [V4], None),
    "sp_fill_empty_rows": (lambda tf, v: (lambda out: _parts(tf, out[0]) + (tf.cast(out[1], "float32"),))(
        tf.sparse.fill_empty_rows(_st(tf, v, EMPTY_ROWS, [5, 3]), -1.0)), [V3], None),
    "sp_expand_dims": (lambda tf, v: _dense(tf, tf.sparse.expand_dims(_st(tf, v), 1)), [V4], None),
    "sp_split": (lambda tf, v: [_dense(tf, s) for s in tf.sparse.split(sp_input=_st(tf, v), num_split=3, axis=1)],
                 [V4], None),
    "sp_reset_shape": (lambda tf, v: _parts(tf, tf.sparse.reset_shape(_st(tf, v))), [V4], None),
    "sp_map_values": (lambda tf, v: _dense(tf, tf.sparse.map_values(tf.math.square, _st(tf, v))), [V4], None),
    "sp_eye": (lambda tf, v: _dense(tf, tf.sparse.eye(3, 4)) * v[0], [V4], None),
    "sp_to_indicator": (lambda tf, v: tf.cast(tf.sparse.to_indicator(
        tf.SparseTensor(IDX, np.array([3, 0, 5, 1], np.int64), SHAPE), 6), "float32") * v[0], [V4], None),
    "sp_segment_sum": (lambda tf, x: tf.sparse.segment_sum(x, np.array([0, 2, 4, 1], np.int32),
                                                           np.array([0, 0, 1, 3], np.int32)), [DATA], None),
    "sp_segment_mean": (lambda tf, x: tf.sparse.segment_mean(x, np.array([0, 2, 4, 1], np.int32),
                                                             np.array([0, 0, 1, 3], np.int32)), [DATA], None),
    "sp_segment_sqrt_n": (lambda tf, x: tf.sparse.segment_sqrt_n(x, np.array([0, 2, 4, 1], np.int32),
                                                                 np.array([0, 0, 1, 1], np.int32), num_segments=3),
                          [DATA], None),
    "sp_bincount": (lambda tf, w: _parts(tf, tf.sparse.bincount(np.array([3, 1, 3, 0, 6], np.int32), weights=w)),
                    [V3[:2].repeat(3)[:5].copy()], None),
    "sp_bincount_rows": (lambda tf: tf.sparse.to_dense(tf.sparse.bincount(
        np.array([[1, 1, 4], [2, 0, 2]], np.int32), axis=-1, minlength=6)), [], None),
    "sp_bincount_binary": (lambda tf: tf.sparse.to_dense(tf.sparse.bincount(
        np.array([[1, 1, 4], [2, 0, 2]], np.int64), axis=-1, binary_output=True, maxlength=3)), [], None),
    "sp_sampled_addmm": (lambda tf, v, a, b: tf.sparse.sampled_addmm(
        np.array([[0, 1], [1, 0], [2, 1]], np.int64), v, np.array([3, 2], np.int64), a, b, beta=0.5, alpha=2.0)[1],
                         [V3, DATA[:3, :2].copy(), DENSE.T.copy()[:, :2]], None),
    "sp_cross": (lambda tf: (lambda sp: (sp.indices, sp.values, sp.dense_shape))(tf.sparse.cross([
        tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([b"a", b"b", b"c"]), [2, 2]),
        tf.constant([[b"x"], [b"y"]]), tf.constant(np.array([[7, 8], [9, 10]], np.int64))])), [], None),
    "sp_cross_hashed": (lambda tf: tf.sparse.to_dense(tf.sparse.cross_hashed([
        tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([b"a", b"b", b"a longer feature string " * 4]),
                        [2, 2]),
        tf.constant([[b"x"], [b"y"]]), tf.constant(np.array([[7, -8], [9, 10]], np.int64))], num_buckets=1000)),
                        [], None),
    "sp_cross_hashed_raw": (lambda tf: tf.sparse.cross_hashed([
        tf.constant([[b"abc", b"defghijklmnopqrstuvw"]]), tf.constant(np.array([[3]], np.int64))],
        hash_key=12345).values, [], None),
    # -- RaggedTensor ---------------------------------------------------------------------------
    "rg_from_row_lengths": (lambda tf, v: tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1]).to_tensor(), [FLAT],
                            None),
    "rg_from_row_splits": (lambda tf, v: tf.RaggedTensor.from_row_splits(v, [0, 1, 4, 6]).to_tensor(-1.0), [FLAT],
                           None),
    "rg_from_value_rowids": (lambda tf, v: tf.RaggedTensor.from_value_rowids(v, [0, 0, 2, 2, 2, 3], nrows=5)
                             .to_tensor(), [FLAT], None),
    "rg_inner_dims": (lambda tf, v: tf.RaggedTensor.from_row_lengths(v, [3, 1, 2]).to_tensor(), [FLAT2], None),
    "rg_to_tensor_shape": (lambda tf, v: tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1]).to_tensor(
        default_value=7.0, shape=[3, 2]), [FLAT], None),
    "rg_from_tensor_lengths": (lambda tf, x: tf.RaggedTensor.from_tensor(x, lengths=[1, 4, 0]).to_tensor(9.0),
                               [BATCH], None),
    "rg_from_tensor_padding": (lambda tf: tf.RaggedTensor.from_tensor(
        tf.constant([[1, 2, 0, 0], [3, 0, 4, 0], [0, 0, 0, 0]]), padding=0).to_tensor() * 1, [], None),
    "rg_parts": (lambda tf, v: (lambda rt: (rt.values, tf.cast(rt.row_splits, "float32"),
                                            tf.cast(rt.row_lengths(), "float32"), tf.cast(rt.nrows(), "float32")))(
        tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1])), [FLAT], None),
    "rg_nested": (lambda tf, v: tf.RaggedTensor.from_nested_row_lengths(v, [[2, 1], [1, 3, 2]]).to_tensor(),
                  [FLAT], None),
    "rg_constant": (lambda tf: tf.ragged.constant([[1, 2], [], [3, 4, 5]]).to_tensor(), [], None),
    "rg_constant_nested": (lambda tf: tf.ragged.constant([[[1.0, 2.0], [3.0]], [[4.0]]]).to_tensor(-1.0), [], None),
    "rg_constant_inner": (lambda tf: tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1).to_tensor(),
                          [], None),
    "rg_range": (lambda tf: tf.ragged.range([0, 2, 5], [3, 3, 9], 2).to_tensor(), [], None),
    "rg_range_limits": (lambda tf: tf.ragged.range([3, 0, 2]).to_tensor(-1), [], None),
    "rg_stack_0": (lambda tf, v: tf.ragged.stack([tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1]),
                                                  tf.RaggedTensor.from_row_lengths(v[:3], [1, 2])]).to_tensor(),
                   [FLAT], None),
    "rg_stack_1": (lambda tf, v: tf.ragged.stack([tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1]),
                                                  tf.RaggedTensor.from_row_lengths(v[2:], [1, 1, 0, 2])], axis=1)
                   .to_tensor(), [FLAT], None),
    "rg_boolean_mask": (lambda tf, x: tf.ragged.boolean_mask(x, np.array([[True, False, True, True],
                                                                          [False, False, False, False],
                                                                          [False, True, False, True]])).to_tensor(),
                        [BATCH], None),
    "rg_boolean_mask_ragged": (lambda tf, v: tf.ragged.boolean_mask(
        tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1]),
        tf.RaggedTensor.from_row_lengths(np.array([True, False, True, True, False, True]), [2, 0, 3, 1])
    ).to_tensor(), [FLAT], None),
    "rg_row_splits_to_segment_ids": (lambda tf: tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5, 6]), [], None),
    "rg_segment_ids_to_row_splits": (lambda tf: tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2, 4]), [], None),
    "rg_segment_ids_to_row_splits_n": (lambda tf: tf.ragged.segment_ids_to_row_splits([1, 1], num_segments=4),
                                       [], None),
    "rg_map_flat_values": (lambda tf, v: tf.ragged.map_flat_values(
        tf.math.square, tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1])).to_tensor(), [FLAT], None),
    "rg_stack_dynamic_partitions": (lambda tf, v: tf.ragged.stack_dynamic_partitions(
        v, np.array([2, 0, 2, 0, 1, 2], np.int32), 4).to_tensor(), [FLAT], None),
    "rg_cross": (lambda tf: (lambda rt: (rt.values, rt.row_splits))(tf.ragged.cross([
        tf.ragged.constant([[b"a", b"b"], [b"c"]]), tf.constant([[b"x"], [b"y"]])])), [], None),
    "rg_cross_hashed": (lambda tf: tf.ragged.cross_hashed([
        tf.ragged.constant([[b"a", b"b"], [b"c"]]), tf.constant([[b"x"], [b"y"]])], num_buckets=50).to_tensor(), [],
                        None),
    "rg_to_sparse": (lambda tf, v: _parts(tf, tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1]).to_sparse()),
                     [FLAT], None),
    "rg_to_sparse_nested": (lambda tf, v: tf.sparse.to_dense(tf.RaggedTensor.from_nested_row_lengths(
        v, [[2, 1], [1, 3, 2]]).to_sparse()), [FLAT], None),
    "rg_from_sparse": (lambda tf, v: tf.RaggedTensor.from_sparse(tf.SparseTensor(
        np.array([[0, 0], [0, 1], [2, 0], [3, 0]], np.int64), v, [5, 4])).to_tensor(-1.0), [V4], None),
    "rg_slice_rows": (lambda tf, v: tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1])[1:3].to_tensor(), [FLAT],
                      None),
    "rg_uniform_row_length": (lambda tf, v: tf.RaggedTensor.from_uniform_row_length(v, 2).to_tensor(), [FLAT],
                              None),
    "rg_merge_dims": (lambda tf, v: tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1]).merge_dims(0, 1), [FLAT],
                      None),
    "rg_merge_dims_nested": (lambda tf, v: tf.RaggedTensor.from_nested_row_lengths(v, [[2, 1], [1, 3, 2]])
                             .merge_dims(0, 1).to_tensor(), [FLAT], None),
    "rg_arith": (lambda tf, v: (tf.RaggedTensor.from_row_lengths(v, [2, 0, 3, 1]) * 2.0 + 1.0).to_tensor(), [FLAT],
                 None),
}
