"""P1 math/shape/linalg APIs (frontend/api_p1_math.py): TF 2.21's error texts for bad shapes (checked against
real TF) and must-be-constant arguments under jit_compile=True. Values and gradients: tests/frontend/test_goldens.py
(the `p1_*` cases of frontend/op_cases.py)."""

import numpy as np
import pytest

from minixla.frontend import tf

X = np.ones((3, 4), np.float32)

ERRORS = {
    "ensure_shape": (lambda x: tf.ensure_shape(x, [2, 4]),
                     "Shape of tensor input [3,4] is not compatible with expected shape [2,4]. [Op:EnsureShape]"),
    "roll": (lambda x: tf.roll(x, [1, 2], [0]), "shift and axis must have the same size [Op:Roll]"),
    "scatter_nd": (lambda x: tf.scatter_nd(tf.constant([[1], [0]]), tf.ones([3, 2]), [4, 2]),
                   "Dimensions [0,1) of indices[shape=[2,1]] must match dimensions [0,1) of updates[shape=[3,2]] "
                   "[Op:ScatterNd]"),
    "tensor_scatter": (lambda x: tf.tensor_scatter_nd_update(x, tf.constant([[1, 0]]), tf.ones([2])),
                       "Outer dimensions of indices and update must match. Indices shape: [1,2], updates shape:[2] "
                       "[Op:TensorScatterUpdate]"),
    "band_part": (lambda x: tf.linalg.band_part(x, 5, 0),
                  "num_lower must be negative or less or equal to number of rows (3) got: 5 [Op:MatrixBandPart]"),
    "segment_sum": (lambda x: tf.math.unsorted_segment_sum(x, tf.constant([0, 1]), 2),
                    "data.shape = [3,4] does not start with segment_ids.shape = [2] [Op:UnsortedSegmentSum]"),
    "diag_part": (lambda x: tf.linalg.diag_part(x[0]),
                  "input must be at least 2-dim, received shape: [4] [Op:MatrixDiagPartV3]"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_text(name):
    fn, text = ERRORS[name]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn(tf.constant(X))
    assert str(info.value).splitlines()[0] == text
    assert "test_math_linalg.py" in str(info.value)  # the user's source line


def test_linspace_num_argument_is_specialized_under_jit():
    f = tf.function(lambda n: tf.linspace(0.0, 1.0, n), jit_compile=True)
    np.testing.assert_array_equal(f(tf.constant(3)).numpy(), np.float32([0, 0.5, 1]))
    assert f(tf.constant(5)).shape == (5,)


def test_linspace_num_computed_is_not_constant():
    f = tf.function(lambda x: tf.linspace(0.0, 1.0, tf.cast(tf.reduce_sum(x), tf.int32)), jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be a compile-time constant"):
        f(tf.constant([1.0, 2.0]))


def test_broadcast_static_shape():
    assert tf.broadcast_static_shape(tf.TensorShape([1, 3]), tf.TensorShape([2, 1])).as_list() == [2, 3]


@pytest.mark.parametrize("jit", [False, True])
def test_eye_with_batch_shape(jit):
    """tf.eye(n, m, batch_shape=b) has shape b + [n, m] (it ignored batch_shape before)."""
    fn = lambda: tf.eye(2, 3, batch_shape=[4, 1], dtype=tf.int32)  # noqa: E731
    got = (tf.function(fn, jit_compile=True) if jit else fn)().numpy()
    np.testing.assert_array_equal(got, np.broadcast_to(np.eye(2, 3, dtype=np.int32), (4, 1, 2, 3)))
