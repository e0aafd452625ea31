"""Error texts of the P1 nn / image / random APIs against TF 2.21's (recorded with real TensorFlow on
the reference machine, whose CPU kernels are oneDNN's: e.g. DepthwiseConv2dNative's depth check). Where
TF's oneDNN Conv2DBackpropInput aborts with an opaque "could not create a primitive descriptor", we raise
the Eigen kernel's InvalidArgumentError texts instead."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf

X4 = np.ones((1, 5, 5, 2), np.float32)

CASES = {
    "depthwise_depth": (lambda: tf.nn.depthwise_conv2d(tf.constant(X4), tf.ones([3, 3, 3, 1]), [1, 1, 1, 1], "SAME"),
                        tf.errors.InvalidArgumentError,
                        "input depth must be evenly divisible by filter depth: 2 vs 3 [Op:DepthwiseConv2dNative]"),
    "transpose_size": (lambda: tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 4]), tf.ones([3, 3, 2, 4]), [1, 5, 5, 2], 1,
                                                      "SAME"),
                       tf.errors.InvalidArgumentError,
                       "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 3, computed = "
                       "5 spatial_dim: 1 input: 5 filter: 3 output: 3 stride: 1 dilation: 1 [Op:Conv2DBackpropInput]"),
    "transpose_depth": (lambda: tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 4]), tf.ones([3, 3, 2, 3]), [1, 3, 3, 2], 1,
                                                       "SAME"),
                        tf.errors.InvalidArgumentError,
                        "Conv2DCustomBackpropInput: Filter and out_backprop must have the same out_depth: 3 vs 4 "
                        "[Op:Conv2DBackpropInput]"),
    "conv1d_depth": (lambda: tf.nn.conv1d(tf.ones([1, 5, 3]), tf.ones([2, 2, 4]), 1, "SAME"),
                     tf.errors.InvalidArgumentError,
                     "input depth must be evenly divisible by filter depth: 3 vs 2 [Op:Conv2D]"),
    "flip_rank": (lambda: tf.image.flip_left_right(tf.ones([3, 3])), ValueError,
                  "'image' (shape (3, 3)) must be at least three-dimensional."),
    "crop_offset": (lambda: tf.image.crop_to_bounding_box(tf.constant(X4), -1, 0, 2, 2), ValueError,
                    "offset_height must be >= 0."),
    "crop_big": (lambda: tf.image.crop_to_bounding_box(tf.constant(X4), 0, 0, 6, 2), ValueError,
                 "height must be >= target + offset."),
    "avg_loss_rank0": (lambda: tf.nn.compute_average_loss(tf.constant(1.0)), ValueError,
                       "Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. Received "
                       "per_example_loss=1.0 with rank 0"),
    "dropout_rate": (lambda: tf.nn.experimental.stateless_dropout(tf.constant(X4), 1.5, [1, 2]), ValueError,
                     "`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=1.5"),
    "dropout_int": (lambda: tf.nn.experimental.stateless_dropout(tf.constant([1, 2]), 0.5, [1, 2]), ValueError,
                    "`x.dtype` must be a floating point tensor as `x` will be scaled. Received: "
                    "x_dtype=<dtype: 'int32'>"),
    "categorical_rank": (lambda: tf.random.stateless_categorical(tf.ones([3]), 2, [1, 2]),
                         tf.errors.InvalidArgumentError,
                         "logits should be a matrix, got shape [3] [Op:StatelessMultinomial]"),
    "trunc_dtype": (lambda: tf.random.stateless_truncated_normal([2], [1, 2], dtype=tf.int32), TypeError,
                    "Cannot convert 0.0 to EagerTensor of dtype int32"),
    "uniform_int_nomax": (lambda: tf.random.uniform([2], dtype=tf.int32), ValueError,
                          "Must specify maxval for integer dtype tf.int32"),
    "resize_rank": (lambda: tf.image.resize(tf.ones([3, 3]), [2, 2]), ValueError,
                    "'images' must have either 3 or 4 dimensions."),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_text_matches_tensorflow(name):
    fn, err, text = CASES[name]
    with pytest.raises(err) as info:
        fn()
    assert str(info.value).splitlines()[0] == text


def test_op_errors_point_at_the_user_line():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.nn.depthwise_conv2d(tf.constant(X4), tf.ones([3, 3, 3, 1]), [1, 1, 1, 1], "SAME")
    assert "test_nn_conv_image.py" in str(info.value)


def test_conv_errors_under_jit():
    f = tf.function(lambda x, k: tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "SAME"), jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="input depth must be evenly divisible"):
        f(tf.constant(X4), tf.ones([3, 3, 3, 1]))
