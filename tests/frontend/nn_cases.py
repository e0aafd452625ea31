"""tf.nn cases (frontend/api/nn_extras.py and the modules it installs), recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/nn_cases.py --out tests/golden/nn` and replayed by
tests/frontend/test_nn_goldens.py. Same format as op_cases.py; numpy only. Inputs are small and
random (no ties, so max-type gradients pick the same element as TF's kernels)."""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(14)


def _f(*shape, lo=-1.0, hi=1.0):
    return R.uniform(lo, hi, shape).astype(np.float32)


X1 = _f(2, 7, 3)  # NWC
X2 = _f(2, 6, 6, 3)  # NHWC
X3 = _f(1, 4, 5, 4, 2)  # NDHWC
W3 = _f(2, 2, 2, 2, 3)
W3T = _f(2, 3, 2, 4, 2)  # conv3d_transpose: [d, h, w, out, in]
Y3T = _f(1, 2, 3, 2, 2)
W1T = _f(3, 4, 3)  # conv1d_transpose: [w, out, in]
Y1T = _f(2, 4, 3)
W2 = _f(3, 3, 3, 4)
W2T = _f(3, 3, 5, 3)  # atrous transpose [h, w, out, in]
DW = _f(3, 3, 3, 2)
PW = _f(1, 1, 6, 4)
G_DW = _f(2, 3, 3, 6)  # depthwise out_backprop, strides 2 SAME on 6x6
F_MORPH = _f(2, 3, 3)
SCORES = _f(5, 6)
TARGETS = np.array([0, 3, 5, 2, 1], np.int32)
POS = R.uniform(0.1, 4.0, (3, 4)).astype(np.float32)
LABELS01 = R.uniform(0, 1, (3, 4)).astype(np.float32)
MEAN, VAR = _f(3), R.uniform(0.5, 2, 3).astype(np.float32)
BETA, GAMMA = _f(3), _f(3)
SPARSE = np.where(R.uniform(size=(4, 5)) < 0.4, 0, _f(4, 5)).astype(np.float32)
FREQ = R.uniform(0.5, 2, (4, 1)).astype(np.float32)


CTC_LOGITS = _f(7, 3, 5, lo=-2, hi=2)  # [T, B, C]
CTC_LABELS = np.array([[1, 2, 2, 0], [3, 1, 4, 2], [4, 0, 0, 0]], np.int32)  # repeats need a blank between
CTC_LABEL_LEN = np.array([3, 4, 1], np.int32)
CTC_LOGIT_LEN = np.array([7, 7, 5], np.int32)
ISO = _f(3, 7)


def _ctc(tf, logits, **kw):
    return tf.nn.ctc_loss(tf.constant(CTC_LABELS), logits, tf.constant(CTC_LABEL_LEN), tf.constant(CTC_LOGIT_LEN),
                          **kw)


CELL_X, CELL_H, CELL_W, CELL_U = _f(2, 3), _f(2, 3), _f(3, 3), _f(3, 3)


def _wrapped_cell(tf, wrap, x, h, w, u):
    """One step of a tanh cell (a Keras layer defined here: minixla and TF both take it) in `wrap`."""

    class Cell(tf.keras.layers.Layer):
        state_size = 3
        output_size = 3

        def call(self, inputs, states):
            out = tf.tanh(tf.matmul(inputs, w) + tf.matmul(states[0], u))
            return out, [out]

    out, state = wrap(tf, Cell())(x, [h])
    return out, state[0]


EMB_W, EMB_B, EMB_X = _f(10, 4), _f(10), _f(3, 4)
EMB_LABELS = np.array([[2, 7], [0, 5], [9, 1]], np.int64)
SAMPLED = (np.array([1, 3, 4, 6], np.int64), R.uniform(0.2, 1.0, (3, 2)).astype(np.float32),
           R.uniform(0.2, 1.0, 4).astype(np.float32))


def _sampled_loss(tf, loss, w, b, x, **kw):
    values = tuple(tf.constant(v) for v in SAMPLED)
    return loss(w, b, tf.constant(EMB_LABELS), x, 4, 10, num_true=2, sampled_values=values, **kw)


def _numpy_depth_to_space(x, b):
    n, h, w, c = x.shape
    return x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))


def _crelu(x):
    return np.maximum(np.concatenate([x, -x], -1), 0)


def _wce(z, x, q):
    return q * z * -np.log(1 / (1 + np.exp(-x))) + (1 - z) * -np.log(1 - 1 / (1 + np.exp(-x)))


def _with_s2b_pool(tf, x):
    def op(y, n, padding):
        return tf.nn.max_pool2d(y, 2, 1, padding)

    return tf.nn.with_space_to_batch(x, [2, 2], "VALID", op)


def _xla(tf, fn):
    return tf.function(fn, jit_compile=True)


def _in_top_k(tf, p):
    return tf.cast(tf.nn.in_top_k(tf.constant(TARGETS), p, 2), tf.float32) * tf.reduce_sum(p)


CASES = {
    # pools
    "nn_max_pool1d": (lambda tf, x: tf.nn.max_pool1d(x, 3, 2, "SAME"), [X1], None),
    "nn_avg_pool1d": (lambda tf, x: tf.nn.avg_pool1d(x, 2, 2, "VALID"), [X1], None),
    "nn_max_pool3d": (lambda tf, x: tf.nn.max_pool3d(x, 2, 2, "SAME"), [X3], None),
    "nn_avg_pool3d": (lambda tf, x: tf.nn.avg_pool3d(x, [2, 3, 2], [1, 2, 2], "SAME"), [X3], None),
    "nn_pool_avg": (lambda tf, x: tf.nn.pool(x, [2, 2], "AVG", strides=[2, 1], padding="SAME"), [X2], None),
    "nn_pool_max_dilated": (lambda tf, x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID", dilations=[2, 2]), [X2],
                            None),
    "nn_max_pool_with_argmax": (lambda tf, x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME"), [X2[:, :5, :5]],
                                None),
    "nn_max_pool_with_argmax_batch": (
        lambda tf, x: tf.nn.max_pool_with_argmax(x, 3, 2, "VALID", include_batch_in_index=True), [X2], None),
    # convolutions
    "nn_conv3d": (lambda tf, x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME"), [X3, W3], None),
    "nn_conv1d_transpose": (lambda tf, y, w: tf.nn.conv1d_transpose(y, w, [2, 8, 4], 2, "SAME"), [Y1T, W1T], None),
    "nn_conv3d_transpose": (lambda tf, y, w: tf.nn.conv3d_transpose(y, w, [1, 4, 5, 4, 4], [1, 2, 2, 2, 1], "SAME"),
                            [Y3T, W3T], None),
    "nn_conv3d_transpose_valid": (
        lambda tf, y, w: tf.nn.conv3d_transpose(y, w, [1, 3, 5, 3, 4], 1, "VALID"), [Y3T, W3T], None),
    "nn_conv_transpose_1d": (lambda tf, y, w: tf.nn.conv_transpose(y, w, [2, 9, 4], 2, "VALID"), [Y1T, W1T], None),
    "nn_atrous_conv2d": (lambda tf, x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), [X2, W2], None),
    "nn_atrous_conv2d_transpose": (
        lambda tf, y, w: tf.nn.atrous_conv2d_transpose(y, w, [2, 6, 6, 5], 2, "SAME"), [X2, W2T], None),
    "nn_separable_conv2d": (lambda tf, x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "VALID"),
                            [X2, DW, PW], None),
    "nn_separable_conv2d_dilated": (
        lambda tf, x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME", dilations=[2, 2]), [X2, DW, PW],
        None),
    "nn_depthwise_backprop_input": (
        lambda tf, w, g: tf.nn.depthwise_conv2d_backprop_input([2, 6, 6, 3], w, g, [1, 2, 2, 1], "SAME"),
        [DW, G_DW], None),
    "nn_depthwise_backprop_filter": (
        lambda tf, x, g: tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 3, 2], g, [1, 2, 2, 1], "SAME"),
        [X2, G_DW], None),
    "nn_dilation2d": (lambda tf, x, f: tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]),
                      [X2, F_MORPH], None),
    "nn_dilation2d_strided_rate": (
        lambda tf, x, f: tf.nn.dilation2d(x, f, [1, 2, 1, 1], "VALID", "NHWC", [1, 1, 2, 1]), [X2, F_MORPH], None),
    "nn_erosion2d": (lambda tf, x, f: tf.nn.erosion2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]),
                     [X2, F_MORPH], None),
    # rearrangements
    "nn_depth_to_space": (lambda tf, x: tf.nn.depth_to_space(x, 2), [_f(2, 2, 3, 8)],
                          None),
    "nn_space_to_depth": (lambda tf, x: tf.nn.space_to_depth(x, 3), [X2], None),
    "nn_space_to_batch": (lambda tf, x: tf.nn.space_to_batch(x, [2, 3], [[1, 1], [0, 3]]), [X2], None),
    "nn_with_space_to_batch": (_with_s2b_pool, [X2], None),
    "tf_batch_to_space": (lambda tf, x: tf.batch_to_space(x, [2, 2], [[0, 1], [1, 0]]), [_f(8, 2, 3, 2)], None),
    # activations, normalization, statistics, losses
    "nn_crelu": (lambda tf, x: tf.nn.crelu(x), [SCORES], _crelu(SCORES)),
    "nn_lrn": (lambda tf, x: tf.nn.lrn(x, 2, 1.5, 0.3, 0.75), [X2[..., :3]], None),
    "nn_local_response_normalization": (lambda tf, x: tf.nn.local_response_normalization(x),
                                        [_f(1, 2, 2, 12)], None),
    "nn_batch_norm_global": (
        lambda tf, x, m, v, b, g: tf.nn.batch_norm_with_global_normalization(x, m, v, b, g, 1e-3, True),
        [X2, MEAN, VAR, BETA, GAMMA], None),
    "nn_sufficient_statistics": (lambda tf, x: tf.nn.sufficient_statistics(x, [0, 2])[:3], [X2], None),
    "nn_sufficient_statistics_shift": (lambda tf, x, s: tf.nn.sufficient_statistics(x, [1], s, True)[1:3],
                                       [SCORES, _f(6)], None),
    "nn_normalize_moments": (
        lambda tf, m, v, s: tf.nn.normalize_moments(tf.constant(5.0), m, v, s), [_f(4), POS[0], _f(4)], None),
    "nn_weighted_moments": (lambda tf, x, w: tf.nn.weighted_moments(x, [0], w), [SPARSE, FREQ], None),
    "nn_weighted_cross_entropy": (lambda tf, z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 2.5),
                                  [LABELS01, POS - 2], _wce(LABELS01, POS - 2, 2.5)),
    "nn_log_poisson_loss": (lambda tf, t, x: tf.nn.log_poisson_loss(t, x), [POS, LABELS01], None),
    "nn_log_poisson_loss_full": (lambda tf, t, x: tf.nn.log_poisson_loss(t, x, compute_full_loss=True),
                                 [POS, LABELS01], None),
    "nn_zero_fraction": (lambda tf, x: tf.nn.zero_fraction(x), [SPARSE], np.float32(np.mean(SPARSE == 0))),
    "nn_scale_regularization_loss": (lambda tf, a, b: tf.nn.scale_regularization_loss([a, b]), [POS, LABELS01],
                                     None),
    "nn_in_top_k": (_in_top_k, [SCORES], None),
    "nn_approx_max_k": (lambda tf, x: tf.nn.approx_max_k(x, 3), [SCORES], None),
    # TF's ApproxTopK has no CPU kernel outside XLA (approx_max_k on the last axis falls back to top_k)
    "nn_approx_min_k": (lambda tf, x: _xla(tf, lambda y: tf.nn.approx_min_k(y, 2))(x), [SCORES], None),
    "nn_approx_max_k_axis0": (lambda tf, x: _xla(tf, lambda y: tf.nn.approx_max_k(y, 2, reduction_dimension=0))(x),
                              [SCORES], None),
    # CTC and label helpers
    "nn_ctc_loss": (lambda tf, x: _ctc(tf, x), [CTC_LOGITS], None),
    "nn_ctc_loss_blank_last": (lambda tf, x: tf.nn.ctc_loss(tf.constant(CTC_LABELS - 1 + (CTC_LABELS == 0)), x,
                                                          tf.constant(CTC_LABEL_LEN), tf.constant(CTC_LOGIT_LEN),
                                                          blank_index=-1), [CTC_LOGITS], None),
    "nn_ctc_loss_batch_major": (lambda tf, x: _ctc(tf, x, logits_time_major=False),
                                [CTC_LOGITS.transpose(1, 0, 2).copy()], None),
    "nn_ctc_unique_labels": (lambda tf: tf.nn.ctc_unique_labels(tf.constant([[3, 1, 3, 2, 1, 0], [2, 2, 5, 0, 0, 0]])),
                             [], None),
    "nn_collapse_repeated": (lambda tf, x, n: tf.nn.collapse_repeated(x, n),
                             [np.array([[1, 1, 2, 2, 3, 3], [4, 4, 4, 0, 0, 0], [5, 6, 6, 5, 5, 7]], np.int32),
                              np.array([5, 3, 4], np.int32)], None),
    "nn_isotonic_regression": (lambda tf, x: tf.nn.isotonic_regression(x), [ISO], None),
    "nn_isotonic_regression_increasing_axis0": (
        lambda tf, x: tf.nn.isotonic_regression(x, decreasing=False, axis=0), [ISO.T.copy()], None),
    # RNN cell wrappers
    "nn_rnn_residual_wrapper": (lambda tf, *a: _wrapped_cell(tf, lambda tf, c: tf.nn.RNNCellResidualWrapper(c), *a),
                                [CELL_X, CELL_H, CELL_W, CELL_U], None),
    "nn_rnn_residual_wrapper_fn": (
        lambda tf, *a: _wrapped_cell(tf, lambda tf, c: tf.nn.RNNCellResidualWrapper(c, lambda i, o: i * o), *a),
        [CELL_X, CELL_H, CELL_W, CELL_U], None),
    "nn_rnn_device_wrapper": (
        lambda tf, *a: _wrapped_cell(tf, lambda tf, c: tf.nn.RNNCellDeviceWrapper(c, "/cpu:0"), *a),
        [CELL_X, CELL_H, CELL_W, CELL_U], None),
    "nn_rnn_dropout_wrapper_keep_all": (
        lambda tf, *a: _wrapped_cell(tf, lambda tf, c: tf.nn.RNNCellDropoutWrapper(c, 1.0, 1.0, 1.0), *a),
        [CELL_X, CELL_H, CELL_W, CELL_U], None),
    # candidate sampling and sampled losses
    "nn_all_candidate_sampler": (lambda tf: tf.nn.all_candidate_sampler(tf.constant(EMB_LABELS), 2, 10, True), [],
                                 None),
    "nn_compute_accidental_hits": (
        lambda tf: tf.nn.compute_accidental_hits(tf.constant(EMB_LABELS), tf.constant([1, 3, 7, 6, 1, 9], tf.int64), 2),
        [], None),
    "nn_nce_loss": (lambda tf, w, b, x: _sampled_loss(tf, tf.nn.nce_loss, w, b, x), [EMB_W, EMB_B, EMB_X], None),
    "nn_nce_loss_remove_hits": (lambda tf, w, b, x: _sampled_loss(tf, tf.nn.nce_loss, w, b, x,
                                                                  remove_accidental_hits=True),
                                [EMB_W, EMB_B, EMB_X], None),
    "nn_sampled_softmax_loss": (lambda tf, w, b, x: _sampled_loss(tf, tf.nn.sampled_softmax_loss, w, b, x),
                                [EMB_W, EMB_B, EMB_X], None),
    "nn_sampled_softmax_loss_keep_hits": (
        lambda tf, w, b, x: _sampled_loss(tf, tf.nn.sampled_softmax_loss, w, b, x, remove_accidental_hits=False),
        [EMB_W, EMB_B, EMB_X], None),
    "nn_depth_to_space_numpy": (lambda tf, x: tf.nn.depth_to_space(x, 2), [X2[..., :2].repeat(2, -1)],
                                _numpy_depth_to_space(X2[..., :2].repeat(2, -1), 2)),
}
