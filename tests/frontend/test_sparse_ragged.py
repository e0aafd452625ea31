"""tf.SparseTensor and tf.RaggedTensor as values: attributes, specs, flattening through tf.function
arguments and results (nest.py), and TF's errors for bad input. Results against TF are in
test_sparse_goldens.py."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf


def _st():
    return tf.SparseTensor([[0, 1], [1, 2]], [1.0, 2.0], [2, 3])


def test_sparse_tensor_attributes():
    sp = _st()
    assert sp.shape.as_list() == [2, 3] and sp.dtype == tf.float32
    assert sp.indices.dtype == tf.int64 and sp.dense_shape.dtype == tf.int64
    np.testing.assert_array_equal(sp.dense_shape.numpy(), [2, 3])
    assert repr(tf.SparseTensorSpec.from_value(sp)) == "SparseTensorSpec(TensorShape([2, 3]), tf.float32)"
    assert tf.SparseTensorSpec([None, 3]).is_compatible_with(sp)
    assert tf.sparse.SparseTensor is tf.SparseTensor


def test_sparse_tensor_does_not_convert_to_a_tensor():
    with pytest.raises(ValueError, match=r"(?s)Attempt to convert a value \(SparseTensor\(indices=.* with an unsupported type"):
        tf.convert_to_tensor(_st())


@pytest.mark.parametrize("indices, message", [
    ([[1, 0], [0, 1]], r"indices\[1\] = \[0,1\] is out of order"),
    ([[0, 1], [0, 1]], r"indices\[1\] = \[0,1\] is repeated"),
    ([[0, 5], [1, 1]], r"indices\[0\] = \[0,5\] is out of bounds: need 0 <= index < \[2,2\]"),
])
def test_to_dense_validates_indices(indices, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.sparse.to_dense(tf.SparseTensor(indices, [1.0, 2.0], [2, 2]))


def test_bad_ranks_are_value_errors():
    with pytest.raises(ValueError, match=r"must have rank 2"):
        tf.SparseTensor([0, 1], [1.0], [2])


def test_sparse_tensor_flattens_through_tf_function():
    traces = []

    @tf.function
    def f(sp, w):
        traces.append(1)
        return tf.sparse.sparse_dense_matmul(sp, w), sp.with_values(sp.values * 2.0)

    out, sp2 = f(_st(), tf.ones([3, 1]))
    np.testing.assert_array_equal(out.numpy(), [[1.0], [2.0]])
    assert isinstance(sp2, tf.SparseTensor) and sp2.shape.as_list() == [2, 3]
    np.testing.assert_array_equal(tf.sparse.to_dense(sp2).numpy(), [[0, 2, 0], [0, 0, 4]])
    f(tf.SparseTensor([[0, 0]], [5.0], [2, 3]), tf.ones([3, 1]))
    assert len(traces) == 2  # another number of entries: a new trace
    f(tf.SparseTensor([[1, 1]], [5.0], [2, 3]), tf.ones([3, 1]))
    assert len(traces) == 2


def test_ragged_tensor_basics():
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert rt.shape.as_list() == [3, None] and rt.dtype == tf.int32 and rt.ragged_rank == 1
    assert rt.to_list() == [[1, 2], [3], []]
    assert repr(rt) == "<tf.RaggedTensor [[1, 2], [3], []]>"
    assert int(rt.nrows()) == 3 and rt.nrows().dtype == tf.int64
    np.testing.assert_array_equal(rt.row_lengths().numpy(), [2, 1, 0])
    np.testing.assert_array_equal(rt.value_rowids().numpy(), [0, 0, 1])
    np.testing.assert_array_equal(rt[0].numpy(), [1, 2])
    assert repr(tf.RaggedTensorSpec.from_value(rt)) == "RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64)"


def test_invalid_row_splits_are_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match="do not form a valid RaggedTensor"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1, 3])


def test_ragged_tensor_flattens_through_tf_function():
    @tf.function
    def f(rt):
        return rt.to_tensor(shape=[3, 2]), rt * 2

    dense, doubled = f(tf.ragged.constant([[1, 2, 5], [3], []]))
    np.testing.assert_array_equal(dense.numpy(), [[1, 2], [3, 0], [0, 0]])
    assert isinstance(doubled, tf.RaggedTensor) and doubled.to_list() == [[2, 4, 10], [6], []]


def test_ragged_gradient_flows_to_values():
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = tf.RaggedTensor.from_row_lengths(v, [1, 2]).to_tensor(shape=[2, 1])
    np.testing.assert_array_equal(tape.gradient(out, v).numpy(), [1.0, 1.0, 0.0])


def test_sparse_mask_drops_the_masked_rows_of_indexed_slices():
    a = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([12, 26, 37]),
                         tf.constant([40, 2]))
    out = tf.sparse.mask(a, tf.constant([12, 37]))
    assert isinstance(out, tf.IndexedSlices)
    np.testing.assert_array_equal(out.indices.numpy(), [26])
    np.testing.assert_array_equal(out.values.numpy(), [[3.0, 4.0]])


def test_host_side_ops_need_known_indices_inside_tf_function():
    @tf.function
    def f(sp):
        return tf.sparse.slice(sp, [0, 0], [1, 3]).values

    with pytest.raises(tf.errors.InvalidArgumentError, match="tf.sparse.slice: the output size depends on the "
                                                             "indices"):
        f(_st())


def test_retain_with_a_known_mask_works_on_traced_indices():
    @tf.function
    def f(sp):
        return tf.sparse.to_dense(tf.sparse.retain(sp, [False, True]))

    np.testing.assert_array_equal(f(_st()).numpy(), [[0, 0, 0], [0, 0, 2]])


def test_string_and_bool_values_pad_with_their_zero():
    sp = tf.SparseTensor([[0, 0], [1, 1]], ["a", "b"], [2, 2])
    assert tf.sparse.to_dense(sp).numpy().tolist() == [[b"a", b""], [b"", b"b"]]
    assert tf.sparse.to_dense(sp, default_value="z").numpy().tolist() == [[b"a", b"z"], [b"z", b"b"]]
    assert tf.ragged.constant([[True], []]).to_tensor().numpy().tolist() == [[True], [False]]
    assert tf.ragged.constant([["a", "bc"], []]).to_tensor("z").numpy().tolist() == [[b"a", b"bc"], [b"z", b"z"]]
