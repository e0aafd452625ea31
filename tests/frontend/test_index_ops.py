"""Behaviour of the indexing ops beyond the op-case table: TF's errors and the
one-argument tf.where (data-dependent shape: host only, not compilable)."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf

COND = np.array([[True, False, True], [False, False, True]])


def test_where_one_arg_eager_and_function():
    want = np.argwhere(COND)
    got = tf.where(tf.constant(COND))
    assert got.dtype == tf.int64 and np.array_equal(got.numpy(), want)
    assert np.array_equal(tf.function(lambda c: tf.where(c))(tf.constant(COND)).numpy(), want)


def test_where_one_arg_is_not_compilable():
    f = tf.function(lambda c: tf.where(c), jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations.*Where"):
        f(tf.constant(COND))


def test_where_needs_both_x_and_y():
    with pytest.raises(ValueError, match="both be non-None or both be None"):
        tf.where(tf.constant(COND), x=tf.constant(1.0))


def test_gather_out_of_range_eager_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 7 is not in \[0, 2\) \[Op:GatherV2\]"):
        tf.gather(tf.constant(COND), tf.constant([0, 7]))


def test_top_k_errors_and_namedtuple():
    out = tf.math.top_k(tf.constant([1.0, 4.0, 2.0]), k=2)
    assert out.values.numpy().tolist() == [4.0, 2.0] and out.indices.numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least k columns"):
        tf.math.top_k(tf.constant([1.0]), k=2)


def test_einsum_shape_mismatch_names_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:Einsum\]"):
        tf.einsum("ij,jk->ik", tf.zeros([2, 3]), tf.zeros([4, 5]))
