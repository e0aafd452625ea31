"""tf.raw_ops cases (gradient kernels, older op names, small ops), recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/raw_cases.py --out tests/golden/raw` and replayed by
tests/frontend/test_raw_goldens.py. Same format as op_cases.py; numpy only. Every case calls
`tf.raw_ops.X(...)` with keywords, so one lambda runs on real TF and on minixla; compile-time
constant inputs (shapes, sizes, axes) are Python values closed over by the lambda.
"""

from __future__ import annotations

import re

import numpy as np

R = np.random.default_rng(14)
F = np.float32


def _n(*shape):
    return R.standard_normal(shape).astype(F)


X = np.array([[-2.0, -0.5, 0.0, 0.5], [1.0, 3.0, 6.0, 7.5]], F)
G = _n(2, 4)
Y01 = R.uniform(0.1, 0.9, (2, 4)).astype(F)
YPOS = R.uniform(0.5, 2.0, (2, 4)).astype(F)
IMG = _n(2, 5, 5, 3)
POOL_G = _n(2, 2, 2, 3)
POOL_G_SAME = _n(2, 3, 3, 3)
CONV_X = _n(2, 6, 6, 3)
CONV_W = _n(3, 3, 3, 4)
CONV_G = _n(2, 2, 2, 4)
CONV_G_SAME = _n(2, 6, 6, 4)
DW_W = _n(3, 3, 3, 2)
DW_G = _n(2, 2, 2, 6)
C3_X = _n(1, 4, 4, 4, 2)
C3_W = _n(2, 2, 2, 2, 3)
C3_G = _n(1, 3, 3, 3, 3)
M34 = _n(3, 4)
B234 = _n(2, 3, 4)
B245 = _n(2, 4, 5)
V3 = _n(4, 3)
W3 = _n(4, 3)

_POOL = {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"}
_POOL_SAME = {"ksize": [1, 3, 3, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}


def _varint(v: int) -> bytes:
    out = b""
    while True:
        byte, v = v & 0x7F, v >> 7
        out += bytes([byte | (0x80 if v else 0)])
        if not v:
            return out


def _proto(**fields) -> bytes:
    """A serialized xla dimension-numbers proto: f<k>=[...] a packed repeated int64, f<k>=n a scalar."""
    out = b""
    for key, value in sorted(fields.items(), key=lambda kv: int(kv[0][1:])):
        num = int(key[1:])
        if isinstance(value, list):
            body = b"".join(_varint(v) for v in value)
            out += _varint(num << 3 | 2) + _varint(len(body)) + body
        else:
            out += _varint(num << 3) + _varint(value)
    return out


DOT_DN = _proto(f1=[2], f2=[1], f3=[0], f4=[0])  # batch 0, contract lhs 2 with rhs 1
GATHER_DN = _proto(f1=[1], f2=[0], f3=[0], f4=1)  # rows of a matrix
CONV_DN = _proto(f7=0, f8=3, f11=[1, 2], f3=2, f4=3, f6=[0, 1], f9=0, f10=3, f12=[1, 2])  # NHWC, HWIO


def _xla(tf, op: str, **kwargs):
    """An Xla* op by its TF name: TF keeps them out of tf.raw_ops (gen_xla_ops has them); minixla's RawOp
    calls any recorded OpDef with the same keywords."""
    if tf.__name__ == "tensorflow":
        from tensorflow.compiler.tf2xla.ops import gen_xla_ops

        return getattr(gen_xla_ops, re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower().replace("v_2", "v2"))(**kwargs)
    from minixla.frontend.raw_ops import RawOp

    # the tf dialect stores string attributes, not bytes: the proto goes as latin-1 text (raw_xla_ops reads both)
    return RawOp(op)(**{k: v.decode("latin-1") if isinstance(v, bytes) else v for k, v in kwargs.items()})


def _bn_y(tf, op, x, s, o, training):
    """y only: TF's gradient ignores the statistics' cotangents."""
    return getattr(tf.raw_ops, op)(x=x, scale=s, offset=o, mean=np.zeros(3, F), variance=np.ones(3, F),
                                   epsilon=0.01, is_training=training)[0]


def _bn_grad(tf, op, g, x, s, training):
    """FusedBatchNormGrad* from the forward op's reserve spaces (the batch statistics when training)."""
    fwd = getattr(tf.raw_ops, op.replace("Grad", ""))(x=x, scale=s, offset=np.zeros(3, F), mean=np.zeros(3, F),
                                                      variance=np.ones(3, F), epsilon=0.01, is_training=training)
    extra = {"reserve_space_3": fwd[5]} if op.endswith("V3") else {}
    return getattr(tf.raw_ops, op)(y_backprop=g, x=x, scale=s, reserve_space_1=fwd[3], reserve_space_2=fwd[4],
                                   epsilon=0.01, is_training=training, **extra)[:3]


RGB = np.concatenate([R.uniform(0, 1, (2, 3, 4, 3)), np.array([[[[0.5, 0.5, 0.5], [0.0, 0.0, 0.0], [1.0, 0.2, 0.2],
                                                                  [0.3, 0.9, 0.3]]]] * 2).reshape(2, 1, 4, 3)],
                     1).astype(F)
HSV = np.stack([R.uniform(0, 1, (2, 4, 4)), R.uniform(0, 1, (2, 4, 4)), R.uniform(0.1, 1, (2, 4, 4))], -1).astype(F)


_A = R.standard_normal((2, 4, 4))
SPD = (_A @ _A.transpose(0, 2, 1) + 4 * np.eye(4)).astype(F)
GEN = np.array([[[0.1, 2.0, -1.0], [1.5, 0.3, 0.7], [-2.0, 1.0, 0.5]],
                [[3.0, 0.5, 0.2], [0.1, -2.0, 1.0], [0.4, 0.3, 1.5]]], F)  # the first needs row swaps
TRI = np.stack([R.uniform(0.1, 1, (2, 5)), R.uniform(3, 4, (2, 5)), R.uniform(0.1, 1, (2, 5))], 1).astype(F)
LOWER = (np.tril(R.standard_normal((2, 4, 4))) + 3 * np.eye(4)).astype(F)


def _jit(tf, fn, *args):
    """TF has XLA kernels only for the SegmentXxxV2 ops: run them compiled, also "eagerly"."""
    return tf.function(fn, jit_compile=True)(*args)


VOL = _n(1, 4, 5, 4, 2)
VOL_G = _n(1, 2, 2, 2, 2)
_POOL3D = {"ksize": [1, 2, 2, 2, 1], "strides": [1, 2, 2, 2, 1], "padding": "VALID"}


def _max_pool_grad_grad(tf, x, g, **kw):
    return tf.raw_ops.MaxPoolGradGrad(orig_input=x, orig_output=tf.raw_ops.MaxPool(input=x, **kw), grad=g, **kw)


def _max_pool_grad(tf, x, g, **kw):
    return tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=tf.raw_ops.MaxPool(input=x, **kw), grad=g, **kw)


CASES = {
    # -- gradient kernels --------------------------------------------------------------------
    "raw_relu_grad": (lambda tf, g, x: tf.raw_ops.ReluGrad(gradients=g, features=x), [G, X], None),
    "raw_relu6_grad": (lambda tf, g, x: tf.raw_ops.Relu6Grad(gradients=g, features=x), [G, X], None),
    "raw_elu_grad": (lambda tf, g, x: tf.raw_ops.EluGrad(gradients=g, outputs=tf.raw_ops.Elu(features=x)), [G, X],
                     None),
    "raw_selu_grad": (lambda tf, g, x: tf.raw_ops.SeluGrad(gradients=g, outputs=tf.raw_ops.Selu(features=x)),
                      [G, X], None),
    "raw_leaky_relu_grad": (lambda tf, g, x: tf.raw_ops.LeakyReluGrad(gradients=g, features=x, alpha=0.3), [G, X],
                            None),
    "raw_softplus_grad": (lambda tf, g, x: tf.raw_ops.SoftplusGrad(gradients=g, features=x), [G, X], None),
    "raw_softsign_grad": (lambda tf, g, x: tf.raw_ops.SoftsignGrad(gradients=g, features=x), [G, X], None),
    "raw_sigmoid_grad": (lambda tf, y, g: tf.raw_ops.SigmoidGrad(y=y, dy=g), [Y01, G], None),
    "raw_tanh_grad": (lambda tf, y, g: tf.raw_ops.TanhGrad(y=y, dy=g), [Y01, G], None),
    "raw_sqrt_grad": (lambda tf, y, g: tf.raw_ops.SqrtGrad(y=y, dy=g), [YPOS, G], None),
    "raw_rsqrt_grad": (lambda tf, y, g: tf.raw_ops.RsqrtGrad(y=y, dy=g), [YPOS, G], None),
    "raw_reciprocal_grad": (lambda tf, y, g: tf.raw_ops.ReciprocalGrad(y=y, dy=g), [YPOS, G], None),
    "raw_bias_add_grad": (lambda tf, g: tf.raw_ops.BiasAddGrad(out_backprop=g), [IMG], IMG.sum((0, 1, 2))),
    "raw_bias_add_grad_nchw": (lambda tf, g: tf.raw_ops.BiasAddGrad(out_backprop=g, data_format="NCHW"), [IMG],
                               IMG.sum((0, 2, 3))),
    "raw_l2_loss": (lambda tf, t: tf.raw_ops.L2Loss(t=t), [M34], np.sum(M34 ** 2) / 2),
    "raw_max_pool_grad": (lambda tf, x, g: _max_pool_grad(tf, x, g, **_POOL), [IMG, POOL_G], None),
    "raw_max_pool_grad_same": (lambda tf, x, g: _max_pool_grad(tf, x, g, **_POOL_SAME), [IMG, POOL_G_SAME], None),
    "raw_max_pool_grad_v2": (lambda tf, x, g: tf.raw_ops.MaxPoolGradV2(
        orig_input=x, orig_output=tf.raw_ops.MaxPool(input=x, **_POOL), grad=g, ksize=[1, 2, 2, 1],
        strides=[1, 2, 2, 1], padding="VALID"), [IMG, POOL_G], None),
    "raw_avg_pool_grad": (lambda tf, g: tf.raw_ops.AvgPoolGrad(orig_input_shape=[2, 5, 5, 3], grad=g, **_POOL),
                          [POOL_G], None),
    "raw_avg_pool_grad_same": (lambda tf, g: tf.raw_ops.AvgPoolGrad(orig_input_shape=[2, 5, 5, 3], grad=g,
                                                                    **_POOL_SAME), [POOL_G_SAME], None),
    "raw_conv2d_backprop_filter": (lambda tf, x, g: tf.raw_ops.Conv2DBackpropFilter(
        input=x, filter_sizes=[3, 3, 3, 4], out_backprop=g, strides=[1, 2, 2, 1], padding="VALID"),
        [CONV_X, CONV_G], None),
    "raw_conv2d_backprop_filter_same": (lambda tf, x, g: tf.raw_ops.Conv2DBackpropFilter(
        input=x, filter_sizes=[3, 3, 3, 4], out_backprop=g, strides=[1, 1, 1, 1], padding="SAME"),
        [CONV_X, CONV_G_SAME], None),
    "raw_depthwise_backprop_input": (lambda tf, w, g: tf.raw_ops.DepthwiseConv2dNativeBackpropInput(
        input_sizes=[2, 6, 6, 3], filter=w, out_backprop=g, strides=[1, 2, 2, 1], padding="VALID"),
        [DW_W, DW_G], None),
    "raw_depthwise_backprop_filter": (lambda tf, x, g: tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(
        input=x, filter_sizes=[3, 3, 3, 2], out_backprop=g, strides=[1, 2, 2, 1], padding="VALID"),
        [CONV_X, DW_G], None),
    "raw_conv3d_backprop_input": (lambda tf, w, g: tf.raw_ops.Conv3DBackpropInputV2(
        input_sizes=[1, 4, 4, 4, 2], filter=w, out_backprop=g, strides=[1, 1, 1, 1, 1], padding="VALID"),
        [C3_W, C3_G], None),
    "raw_conv3d_backprop_filter": (lambda tf, x, g: tf.raw_ops.Conv3DBackpropFilterV2(
        input=x, filter_sizes=[2, 2, 2, 2, 3], out_backprop=g, strides=[1, 1, 1, 1, 1], padding="VALID"),
        [C3_X, C3_G], None),
    "raw_broadcast_gradient_args": (lambda tf: tf.raw_ops.BroadcastGradientArgs(s0=[2, 1, 3], s1=[1, 3]), [], None),
    "raw_broadcast_gradient_args_ones": (lambda tf: tf.raw_ops.BroadcastGradientArgs(s0=[1, 4, 1], s1=[5, 1, 1]),
                                         [], None),
    "raw_concat_offset": (lambda tf: tf.raw_ops.ConcatOffset(concat_dim=1, shape=[[2, 3, 5], [2, 7, 5], [2, 1, 5]]),
                          [], None),
    # -- older names and small ops ---------------------------------------------------------------
    "raw_add": (lambda tf, a, c: tf.raw_ops.Add(x=a, y=c), [M34, M34[:1]], M34 + M34[:1]),
    "raw_mod_f": (lambda tf, a, c: tf.raw_ops.Mod(x=a, y=c), [np.array([7.5, -7.5, 7.5, -7.5], F),
                                                            np.array([2.0, 2.0, -2.0, -2.0], F)], None),
    "raw_mod_i": (lambda tf, a, c: tf.raw_ops.Mod(x=a, y=c), [np.array([7, -7, 7, -7], np.int32),
                                                            np.array([2, 2, -2, -2], np.int32)], None),
    "raw_select_rows": (lambda tf, c, a, e: tf.raw_ops.Select(condition=c, x=a, y=e),
                        [np.array([True, False, True]), M34, -M34], None),
    "raw_select_same": (lambda tf, c, a, e: tf.raw_ops.Select(condition=c, x=a, y=e), [M34 > 0, M34, -M34], None),
    "raw_batch_matmul": (lambda tf, a, c: tf.raw_ops.BatchMatMul(x=a, y=c), [B234, B245], B234 @ B245),
    "raw_batch_matmul_adj": (lambda tf, a, c: tf.raw_ops.BatchMatMul(x=a, y=c, adj_x=True),
                             [B234.transpose(0, 2, 1).copy(), B245], B234 @ B245),
    "raw_batch_matmul_v3": (lambda tf, a, c: tf.raw_ops.BatchMatMulV3(x=a, y=c, Tout=tf.float32), [B234, B245],
                            B234 @ B245),
    "raw_concat": (lambda tf, a, c: tf.raw_ops.Concat(concat_dim=1, values=[a, c]), [M34, M34], None),
    "raw_gather": (lambda tf, p, i: tf.raw_ops.Gather(params=p, indices=i), [M34, np.array([2, 0, 2], np.int32)],
                   M34[[2, 0, 2]]),
    "raw_reverse": (lambda tf, a: tf.raw_ops.Reverse(tensor=a, dims=[True, False, True]), [B234], B234[::-1, :, ::-1]),
    "raw_max_pool_v2": (lambda tf, x: tf.raw_ops.MaxPoolV2(input=x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                                          padding="VALID"), [IMG], None),
    "raw_bias_add_v1": (lambda tf, x, c: tf.raw_ops.BiasAddV1(value=x, bias=c), [M34, M34[0]], M34 + M34[0]),
    "raw_diag": (lambda tf, d: tf.raw_ops.Diag(diagonal=d), [M34[:2, :3]], None),
    "raw_diag_part": (lambda tf, a: tf.raw_ops.DiagPart(input=a), [_n(2, 3, 2, 3)], None),
    "raw_matrix_diag": (lambda tf, d: tf.raw_ops.MatrixDiag(diagonal=d), [M34], None),
    "raw_matrix_diag_part": (lambda tf, a: tf.raw_ops.MatrixDiagPart(input=a), [B234], None),
    "raw_matrix_set_diag": (lambda tf, a, d: tf.raw_ops.MatrixSetDiag(input=a, diagonal=d), [B234, _n(2, 3)], None),
    "raw_matrix_set_diag_tall": (lambda tf, a, d: tf.raw_ops.MatrixSetDiag(input=a, diagonal=d), [B245, _n(2, 4)],
                                 None),
    "raw_matrix_set_diag_v3": (lambda tf, a, d: tf.raw_ops.MatrixSetDiagV3(input=a, diagonal=d, k=0),
                               [B234, _n(2, 3)], None),
    "raw_lin_space": (lambda tf, a, c: tf.raw_ops.LinSpace(start=a, stop=c, num=7),
                      [np.array(-1.5, F), np.array(2.0, F)], None),
    "raw_cross": (lambda tf, a, c: tf.raw_ops.Cross(a=a, b=c), [V3, W3], np.cross(V3, W3)),
    "raw_shape_n": (lambda tf, a, c: tf.raw_ops.ShapeN(input=[a, c]), [M34, B234], None),
    "raw_identity_n": (lambda tf, a, c: tf.raw_ops.IdentityN(input=[a, c]), [M34, B234], None),
    "raw_placeholder_with_default": (lambda tf, a: tf.raw_ops.PlaceholderWithDefault(input=a, shape=[3, 4]) * 2.0,
                                     [M34], M34 * 2),
    "raw_ensure_shape": (lambda tf, a: tf.raw_ops.EnsureShape(input=a, shape=[3, None]) * 2.0, [M34], M34 * 2),
    "raw_check_numerics": (lambda tf, a: tf.raw_ops.CheckNumerics(tensor=a, message="bad") * 2.0, [M34], M34 * 2),
    "raw_invert_permutation": (lambda tf: tf.raw_ops.InvertPermutation(x=[2, 0, 3, 1]), [], None),
    "raw_bucketize": (lambda tf, a: tf.raw_ops.Bucketize(input=a, boundaries=[-1.0, 0.0, 0.5, 2.0]),
                      [np.array([-3.0, -1.0, 0.2, 0.5, 1.0, 5.0], F)], None),
    "raw_approximate_equal": (lambda tf, a, c: tf.raw_ops.ApproximateEqual(x=a, y=c, tolerance=0.01),
                              [np.array([1.0, 2.0, 3.0], F), np.array([1.005, 2.5, 2.9999], F)], None),
    "raw_xlog1py": (lambda tf, a, c: tf.raw_ops.Xlog1py(x=a, y=c),
                    [np.array([0.0, 1.0, 2.0, 0.0], F), np.array([-1.0, 0.5, 3.0, 2.0], F)], None),
    "raw_asinh": (lambda tf, a: tf.raw_ops.Asinh(x=a), [np.array([-3.0, -0.5, 0.0, 0.25, 2.0, 40.0], F)], None),
    "raw_acosh": (lambda tf, a: tf.raw_ops.Acosh(x=a), [np.array([1.5, 2.0, 3.5, 40.0], F)], None),
    "raw_atanh": (lambda tf, a: tf.raw_ops.Atanh(x=a), [np.array([-0.9, -0.3, 0.0, 0.4, 0.8], F)], None),
    "raw_cumulative_logsumexp": (lambda tf, a: tf.raw_ops.CumulativeLogsumexp(x=a, axis=1), [M34], None),
    "raw_cumulative_logsumexp_rev": (lambda tf, a: tf.raw_ops.CumulativeLogsumexp(x=a, axis=0, reverse=True), [M34], None),
    "raw_in_top_k": (lambda tf, p: tf.raw_ops.InTopKV2(predictions=p, targets=np.array([0, 3, 1], np.int32), k=2),
                     [M34], None),
    "raw_unsorted_segment_max": (lambda tf, d: tf.raw_ops.UnsortedSegmentMax(
        data=d, segment_ids=np.array([1, 0, 1], np.int32), num_segments=3), [M34], None),
    "raw_unsorted_segment_min": (lambda tf, d: tf.raw_ops.UnsortedSegmentMin(
        data=d, segment_ids=np.array([1, 0, 1], np.int32), num_segments=2), [M34], None),
    "raw_unsorted_segment_prod": (lambda tf, d: tf.raw_ops.UnsortedSegmentProd(
        data=d, segment_ids=np.array([1, 0, 1], np.int32), num_segments=3), [M34], None),
    # -- array rearrangements, searches, formats, segments, bits ------------------------------------
    "raw_strided_slice_grad": (lambda tf, g: tf.raw_ops.StridedSliceGrad(
        shape=[5, 6], begin=[1, 5], end=[5, 0], strides=[2, -2], dy=g), [_n(2, 3)], None),
    "raw_strided_slice_grad_shrink": (lambda tf, g: tf.raw_ops.StridedSliceGrad(
        shape=[3, 4], begin=[1, 0], end=[2, 4], strides=[1, 1], dy=g, shrink_axis_mask=1), [_n(4)], None),
    "raw_mirror_pad_grad": (lambda tf, g: tf.raw_ops.MirrorPadGrad(input=g, paddings=[[1, 2], [2, 0]], mode="REFLECT"),
                            [_n(6, 6)], None),
    "raw_mirror_pad_grad_sym": (lambda tf, g: tf.raw_ops.MirrorPadGrad(input=g, paddings=[[2, 1], [0, 3]],
                                                                       mode="SYMMETRIC"), [_n(6, 7)], None),
    "raw_space_to_depth": (lambda tf, x: tf.raw_ops.SpaceToDepth(input=x, block_size=2), [_n(2, 4, 6, 3)], None),
    "raw_depth_to_space": (lambda tf, x: tf.raw_ops.DepthToSpace(input=x, block_size=2), [_n(2, 2, 3, 8)], None),
    "raw_space_to_batch_nd": (lambda tf, x: tf.raw_ops.SpaceToBatchND(input=x, block_shape=[2, 3],
                                                                      paddings=[[1, 1], [0, 2]]), [_n(2, 4, 4, 3)], None),
    "raw_batch_to_space_nd": (lambda tf, x: tf.raw_ops.BatchToSpaceND(input=x, block_shape=[2, 3],
                                                                      crops=[[1, 1], [0, 2]]), [_n(12, 3, 2, 3)], None),
    "raw_space_to_batch": (lambda tf, x: tf.raw_ops.SpaceToBatch(input=x, paddings=[[0, 0], [1, 1]], block_size=2),
                           [_n(1, 4, 2, 2)], None),
    "raw_batch_to_space": (lambda tf, x: tf.raw_ops.BatchToSpace(input=x, crops=[[0, 0], [1, 1]], block_size=2),
                           [_n(4, 2, 2, 2)], None),
    "raw_reverse_sequence": (lambda tf, x: tf.raw_ops.ReverseSequence(
        input=x, seq_lengths=np.array([4, 0, 2], np.int64), seq_dim=1, batch_dim=0), [_n(3, 5, 2)], None),
    "raw_reverse_sequence_t": (lambda tf, x: tf.raw_ops.ReverseSequence(
        input=x, seq_lengths=np.array([1, 3], np.int32), seq_dim=0, batch_dim=2), [_n(4, 3, 2)], None),
    "raw_lower_bound": (lambda tf, s, v: tf.raw_ops.LowerBound(sorted_inputs=s, values=v),
                        [np.array([[0.0, 1.0, 1.0, 3.0], [-2.0, 0.0, 5.0, 9.0]], F),
                         np.array([[1.0, -1.0, 4.0], [5.0, 10.0, -3.0]], F)], None),
    "raw_upper_bound": (lambda tf, s, v: tf.raw_ops.UpperBound(sorted_inputs=s, values=v),
                        [np.array([[0.0, 1.0, 1.0, 3.0], [-2.0, 0.0, 5.0, 9.0]], F),
                         np.array([[1.0, -1.0, 4.0], [5.0, 10.0, -3.0]], F)], None),
    "raw_matrix_diag_v2": (lambda tf, d: tf.raw_ops.MatrixDiagV2(diagonal=d, k=0, num_rows=-1, num_cols=-1,
                                                                 padding_value=0.0), [M34], None),
    "raw_matrix_diag_part_v2": (lambda tf, a: tf.raw_ops.MatrixDiagPartV2(input=a, k=0, padding_value=0.0), [B234],
                                None),
    "raw_data_format_dim_map": (lambda tf, x: tf.raw_ops.DataFormatDimMap(x=x),
                                [np.array([0, 1, 2, 3, -1, -4], np.int32)], None),
    "raw_data_format_vec_permute": (lambda tf, x: tf.raw_ops.DataFormatVecPermute(x=x),
                                    [np.array([2, 5, 7, 3], np.int32)], None),
    "raw_data_format_vec_permute_2d": (lambda tf, x: tf.raw_ops.DataFormatVecPermute(x=x, src_format="NCHW",
                                                                                     dst_format="NHWC"),
                                       [np.array([[0, 0], [1, 1], [2, 3], [4, 5]], np.int32)], None),
    "raw_segment_sum_v2": (lambda tf, d: _jit(tf, lambda x: tf.raw_ops.SegmentSumV2(
        data=x, segment_ids=np.array([0, 0, 2], np.int32), num_segments=4), d), [M34], None),
    "raw_segment_max_v2": (lambda tf, d: _jit(tf, lambda x: tf.raw_ops.SegmentMaxV2(
        data=x, segment_ids=np.array([0, 0, 2], np.int32), num_segments=4), d), [M34], None),
    "raw_segment_min_v2": (lambda tf, d: _jit(tf, lambda x: tf.raw_ops.SegmentMinV2(
        data=x, segment_ids=np.array([0, 1, 1], np.int32), num_segments=3), d), [M34], None),
    "raw_segment_prod_v2": (lambda tf, d: _jit(tf, lambda x: tf.raw_ops.SegmentProdV2(
        data=x, segment_ids=np.array([0, 0, 2], np.int32), num_segments=3), d), [M34], None),
    "raw_population_count": (lambda tf, x: tf.raw_ops.PopulationCount(x=x),
                             [np.array([0, 1, 7, -1, 255, 1 << 30, -(1 << 31)], np.int32)], None),
    "raw_population_count_u8": (lambda tf, x: tf.raw_ops.PopulationCount(x=x), [np.array([0, 3, 128, 255], np.uint8)],
                                None),
    # -- Xla* ops (XLA kernels only: run compiled) ---------------------------------------------------
    "raw_xla_pad": (lambda tf, x, v: _jit(tf, lambda a, c: _xla(tf, "XlaPad",
        input=a, padding_value=c, padding_low=[1, -1], padding_high=[0, 2], padding_interior=[1, 0]), x, v),
        [M34, np.array(9.0, F)], None),
    "raw_xla_dot": (lambda tf, a, c: _jit(tf, lambda x, y: _xla(tf, "XlaDot",
        lhs=x, rhs=y, dimension_numbers=DOT_DN, precision_config=b""), a, c), [B234, B245], B234 @ B245),
    "raw_xla_dot_v2": (lambda tf, a, c: _jit(tf, lambda x, y: _xla(tf, "XlaDotV2",
        lhs=x, rhs=y, dimension_numbers=DOT_DN, precision_config=b"", preferred_element_type=tf.float32), a, c),
        [B234, B245], B234 @ B245),
    "raw_xla_gather": (lambda tf, a: _jit(tf, lambda x: _xla(tf, "XlaGather",
        operand=x, start_indices=np.array([[2], [0]], np.int32), slice_sizes=[1, 4], dimension_numbers=GATHER_DN,
        indices_are_sorted=False), a), [M34], M34[[2, 0]]),
    "raw_xla_conv": (lambda tf, x, w: _jit(tf, lambda a, c: _xla(tf, "XlaConvV2",
        lhs=a, rhs=c, window_strides=[2, 1], padding=[[1, 0], [0, 1]], lhs_dilation=[1, 1], rhs_dilation=[1, 2],
        feature_group_count=1, dimension_numbers=CONV_DN, precision_config=b"", preferred_element_type=tf.float32),
        x, w), [CONV_X, CONV_W], None),
    "raw_xla_sort": (lambda tf, a: _jit(tf, lambda x: _xla(tf, "XlaSort", input=x), a), [M34], np.sort(M34, -1)),
    "raw_xla_key_value_sort": (lambda tf, k, v: _jit(tf, lambda x, y: _xla(tf, "XlaKeyValueSort", keys=x, values=y),
                                                     k, v), [M34, B234[0]], None),
    "raw_xla_broadcast_helper": (lambda tf, a, c: _jit(tf, lambda x, y: _xla(tf, "XlaBroadcastHelper",
        lhs=x, rhs=y, broadcast_dims=[1]), a, c), [M34[0], B234], None),
    "raw_xla_einsum": (lambda tf, a, c: _jit(tf, lambda x, y: _xla(tf, "XlaEinsum", a=x, b=y, equation="ij,jk->ik"),
                                             a, c), [M34, V3], M34 @ V3),
    "raw_xla_optimization_barrier": (lambda tf, a, c: _jit(tf, lambda x, y: _xla(tf, "XlaOptimizationBarrier",
        input=[x * 2.0, y]), a, c), [M34, B234], None),
    # -- pools, LRN ---------------------------------------------------------------------------------
    "raw_max_pool_grad_grad": (lambda tf, x, g: _max_pool_grad_grad(tf, x, g, **_POOL), [IMG, _n(2, 5, 5, 3)], None),
    "raw_max_pool_grad_grad_same": (lambda tf, x, g: _max_pool_grad_grad(tf, x, g, **_POOL_SAME),
                                    [IMG, _n(2, 5, 5, 3)], None),
    "raw_max_pool3d": (lambda tf, x: tf.raw_ops.MaxPool3D(input=x, **_POOL3D), [VOL], None),
    "raw_avg_pool3d": (lambda tf, x: tf.raw_ops.AvgPool3D(input=x, ksize=[1, 2, 3, 2, 1], strides=[1, 1, 2, 2, 1],
                                                          padding="SAME"), [VOL], None),
    "raw_max_pool3d_grad": (lambda tf, x, g: tf.raw_ops.MaxPool3DGrad(
        orig_input=x, orig_output=tf.raw_ops.MaxPool3D(input=x, **_POOL3D), grad=g, **_POOL3D), [VOL, VOL_G], None),
    "raw_avg_pool3d_grad": (lambda tf, g: tf.raw_ops.AvgPool3DGrad(orig_input_shape=[1, 4, 5, 4, 2], grad=g, **_POOL3D),
                            [VOL_G], None),
    "raw_lrn": (lambda tf, x: tf.raw_ops.LRN(input=x, depth_radius=2, bias=1.5, alpha=0.3, beta=0.75),
                [_n(2, 3, 3, 6)], None),
    "raw_lrn_grad": (lambda tf, g, x: tf.raw_ops.LRNGrad(
        input_grads=g, input_image=x, output_image=tf.raw_ops.LRN(input=x, depth_radius=2, bias=1.5, alpha=0.3,
                                                                  beta=0.75),
        depth_radius=2, bias=1.5, alpha=0.3, beta=0.75), [_n(2, 3, 3, 6), _n(2, 3, 3, 6)], None),
    # -- updates, creation, counting -------------------------------------------------------------------
    "raw_tensor_strided_slice_update": (lambda tf, x, v: tf.raw_ops.TensorStridedSliceUpdate(
        input=x, begin=[0, 3], end=[3, 1], strides=[1, -1], value=v), [M34, _n(3, 2)], None),
    "raw_tensor_strided_slice_update_shrink": (lambda tf, x, v: tf.raw_ops.TensorStridedSliceUpdate(
        input=x, begin=[1, 0], end=[2, 4], strides=[1, 1], value=v, shrink_axis_mask=1), [M34, _n(4)], None),
    "raw_empty": (lambda tf: tf.raw_ops.Empty(shape=[2, 3], dtype=tf.float32, init=True), [], np.zeros((2, 3), F)),
    "raw_to_bool": (lambda tf, a: tf.raw_ops.ToBool(input=a), [np.array(-2.5, F)], None),
    "raw_to_bool_tensor": (lambda tf, a: tf.raw_ops.ToBool(input=a), [M34], None),
    "raw_broadcast_args": (lambda tf: tf.raw_ops.BroadcastArgs(s0=[2, 1, 4], s1=[3, 1]), [], None),
    "raw_bincount": (lambda tf, w: tf.raw_ops.Bincount(arr=np.array([1, 1, 3, 0, 4], np.int32), size=6, weights=w),
                     [np.array([0.5, 1.0, 2.0, 3.0, -1.0], F)], None),
    "raw_dense_bincount": (lambda tf, w: tf.raw_ops.DenseBincount(
        input=np.array([[1, 1, 3], [0, 2, 2]], np.int32), size=4, weights=w),
        [np.array([[0.5, 1.0, 2.0], [3.0, -1.0, 1.5]], F)], None),
    "raw_dense_bincount_binary": (lambda tf: tf.raw_ops.DenseBincount(
        input=np.array([1, 1, 3, 0], np.int32), size=5, weights=np.zeros([0], np.int32), binary_output=True), [],
        None),
    "raw_sparse_to_dense": (lambda tf, v, d: tf.raw_ops.SparseToDense(
        sparse_indices=np.array([[0, 1], [2, 0], [2, 2]], np.int32), output_shape=[3, 3], sparse_values=v,
        default_value=d), [np.array([5.0, 6.0, 7.0], F), np.array(-1.0, F)], None),
    "raw_sparse_to_dense_1d": (lambda tf, v, d: tf.raw_ops.SparseToDense(
        sparse_indices=np.array([[0], [3]], np.int64), output_shape=[5], sparse_values=v, default_value=d),
        [np.array([2.0, -3.0], F), np.array(0.5, F)], None),
    "raw_tridiagonal_mat_mul": (lambda tf, u, m, d, r: tf.raw_ops.TridiagonalMatMul(superdiag=u, maindiag=m,
                                                                                    subdiag=d, rhs=r),
                                [_n(2, 1, 4), _n(2, 1, 4), _n(2, 1, 4), _n(2, 4, 3)], None),
    # -- special functions ----------------------------------------------------------------------------
    "raw_lgamma": (lambda tf, a: tf.raw_ops.Lgamma(x=a), [np.array([0.1, 0.5, 1.0, 2.5, 7.0, 30.0, -0.5, -2.7], F)],
                   None),
    "raw_digamma": (lambda tf, a: tf.raw_ops.Digamma(x=a), [np.array([0.1, 0.5, 1.0, 2.5, 7.0, 30.0, -0.5, -2.7], F)],
                    None),
    "raw_erfc": (lambda tf, a: tf.raw_ops.Erfc(x=a), [np.array([-3.0, -1.2, -0.5, 0.0, 0.3, 1.0, 2.0, 4.5], F)], None),
    "raw_erfc_f64": (lambda tf, a: tf.raw_ops.Erfc(x=a), [np.array([-3.0, -1.2, -0.5, 0.0, 0.3, 1.0, 2.0, 9.0])],
                     None),
    "raw_next_after": (lambda tf, a, c: tf.raw_ops.NextAfter(x1=a, x2=c),
                       [np.array([1.0, 1.0, 0.0, -0.0, 3.5, -2.0], F), np.array([2.0, 0.0, 1.0, -1.0, 3.5, 5.0], F)],
                       None),
    # -- image ---------------------------------------------------------------------------------------
    "raw_resize_bilinear": (lambda tf, x: tf.raw_ops.ResizeBilinear(images=x, size=[7, 3]), [_n(2, 4, 5, 2)], None),
    "raw_resize_bilinear_half": (lambda tf, x: tf.raw_ops.ResizeBilinear(images=x, size=[3, 8], half_pixel_centers=True),
                                 [_n(1, 4, 5, 2)], None),
    "raw_resize_bilinear_align": (lambda tf, x: tf.raw_ops.ResizeBilinear(images=x, size=[7, 9], align_corners=True),
                                  [_n(1, 4, 5, 2)], None),
    "raw_resize_bilinear_grad": (lambda tf, g, x: tf.raw_ops.ResizeBilinearGrad(grads=g, original_image=x,
                                                                                half_pixel_centers=True),
                                 [_n(2, 7, 3, 2), _n(2, 4, 5, 2)], None),
    "raw_resize_nearest": (lambda tf, x: tf.raw_ops.ResizeNearestNeighbor(images=x, size=[7, 3]), [_n(2, 4, 5, 2)],
                           None),
    "raw_resize_nearest_half": (lambda tf, x: tf.raw_ops.ResizeNearestNeighbor(images=x, size=[3, 8],
                                                                               half_pixel_centers=True),
                                [_n(1, 4, 5, 2)], None),
    "raw_resize_nearest_align_int": (lambda tf, x: tf.raw_ops.ResizeNearestNeighbor(images=x, size=[7, 9],
                                                                                    align_corners=True),
                                     [np.arange(40, dtype=np.int32).reshape(1, 4, 5, 2)], None),
    "raw_extract_image_patches": (lambda tf, x: tf.raw_ops.ExtractImagePatches(
        images=x, ksizes=[1, 2, 3, 1], strides=[1, 2, 1, 1], rates=[1, 1, 1, 1], padding="VALID"), [_n(2, 5, 5, 3)],
        None),
    "raw_extract_image_patches_same": (lambda tf, x: tf.raw_ops.ExtractImagePatches(
        images=x, ksizes=[1, 3, 2, 1], strides=[1, 2, 2, 1], rates=[1, 2, 1, 1], padding="SAME"), [_n(1, 6, 5, 2)],
        None),
    # -- batch norm, fake quant, products -------------------------------------------------------------
    "raw_fused_batch_norm_v3": (lambda tf, x, s, o: tf.raw_ops.FusedBatchNormV3(
        x=x, scale=s, offset=o, mean=np.zeros(3, F), variance=np.ones(3, F), epsilon=0.01)[:3],
        [_n(2, 3, 4, 3), _n(3), _n(3)], None),
    "raw_fused_batch_norm_avg": (lambda tf, x, m, v: tf.raw_ops.FusedBatchNorm(
        x=x, scale=np.ones(3, F), offset=np.zeros(3, F), mean=m, variance=v, exponential_avg_factor=0.25)[:3],
        [_n(2, 3, 4, 3), _n(3), np.abs(_n(3)) + 1], None),
    "raw_fused_batch_norm_inference": (lambda tf, x, s, o, m, v: tf.raw_ops.FusedBatchNormV2(
        x=x, scale=s, offset=o, mean=m, variance=v, is_training=False)[0],
        [_n(2, 3, 4, 3), _n(3), _n(3), _n(3), np.abs(_n(3)) + 0.5], None),
    "raw_fused_batch_norm_y": (lambda tf, x, s, o: _bn_y(tf, "FusedBatchNormV3", x, s, o, True),
                               [_n(2, 3, 4, 3), _n(3), _n(3)], None),
    "raw_fused_batch_norm_y_inference": (lambda tf, x, s, o: _bn_y(tf, "FusedBatchNorm", x, s, o, False),
                                         [_n(2, 3, 4, 3), _n(3), _n(3)], None),
    "raw_fake_quant_args": (lambda tf, x: tf.raw_ops.FakeQuantWithMinMaxArgs(inputs=x, min=-1.3, max=2.1, num_bits=4),
                            [np.linspace(-2, 3, 23).astype(F)], None),
    "raw_fake_quant_args_narrow": (lambda tf, x: tf.raw_ops.FakeQuantWithMinMaxArgs(inputs=x, narrow_range=True),
                                   [np.linspace(-7, 7, 19).astype(F)], None),
    "raw_fake_quant_args_grad": (lambda tf, g, x: tf.raw_ops.FakeQuantWithMinMaxArgsGradient(
        gradients=g, inputs=x, min=-1.3, max=2.1, num_bits=4), [_n(23), np.linspace(-2, 3, 23).astype(F)], None),
    "raw_fake_quant_vars": (lambda tf, x, lo, hi: tf.raw_ops.FakeQuantWithMinMaxVars(inputs=x, min=lo, max=hi),
                            [np.linspace(-2, 3, 23).astype(F), np.array(-1.3, F), np.array(2.1, F)], None),
    "raw_fake_quant_vars_grad": (lambda tf, g, x, lo, hi: tf.raw_ops.FakeQuantWithMinMaxVarsGradient(
        gradients=g, inputs=x, min=lo, max=hi, num_bits=5),
        [_n(23), np.linspace(-2, 3, 23).astype(F), np.array(-1.3, F), np.array(2.1, F)], None),
    "raw_fake_quant_per_channel": (lambda tf, x, lo, hi: tf.raw_ops.FakeQuantWithMinMaxVarsPerChannel(
        inputs=x, min=lo, max=hi), [np.linspace(-2, 3, 24).astype(F).reshape(8, 3), np.array([-1.3, -0.5, 0.0], F),
                                    np.array([2.1, 0.7, 1.0], F)], None),
    "raw_fake_quant_per_channel_grad": (lambda tf, g, x, lo, hi: tf.raw_ops.FakeQuantWithMinMaxVarsPerChannelGradient(
        gradients=g, inputs=x, min=lo, max=hi), [_n(8, 3), np.linspace(-2, 3, 24).astype(F).reshape(8, 3),
                                                 np.array([-1.3, -0.5, 0.0], F), np.array([2.1, 0.7, 1.0], F)], None),
    "raw_sparse_mat_mul": (lambda tf, a, c: tf.raw_ops.SparseMatMul(a=a, b=c, transpose_b=True, a_is_sparse=True),
                           [M34, _n(5, 4)], None),
    "raw_approx_top_k": (lambda tf, x: tf.raw_ops.ApproxTopK(input=x, k=2), [M34], None),
    "raw_approx_top_k_min": (lambda tf, x: _jit(tf, lambda a: tf.raw_ops.ApproxTopK(
        input=a, k=2, reduction_dimension=0, is_max_k=False), x), [M34], None),
    "raw_xla_conv_v1": (lambda tf, x, w: _jit(tf, lambda a, c: _xla(tf, "XlaConv",
        lhs=a, rhs=c, window_strides=[1, 2], padding=[[0, 1], [1, 1]], lhs_dilation=[2, 1], rhs_dilation=[1, 1],
        feature_group_count=1, dimension_numbers=CONV_DN, precision_config=b""), x, w), [CONV_X, CONV_W], None),
    "raw_fused_batch_norm_grad_v3": (lambda tf, g, x, s: _bn_grad(tf, "FusedBatchNormGradV3", g, x, s, True),
                                     [_n(2, 3, 4, 3), _n(2, 3, 4, 3), _n(3)], None),
    "raw_fused_batch_norm_grad_inference": (lambda tf, g, x, s: _bn_grad(tf, "FusedBatchNormGrad", g, x, s, False),
                                            [_n(2, 3, 4, 3), _n(2, 3, 4, 3), _n(3)], None),
    "raw_adjust_contrast": (lambda tf, x: tf.raw_ops.AdjustContrastv2(images=x, contrast_factor=1.7),
                            [_n(2, 3, 4, 3)], None),
    "raw_xla_reduce_precision": (lambda tf, x: _jit(tf, lambda a: _xla(tf, "XlaReducePrecision", operand=a,
                                                                        exponent_bits=5, mantissa_bits=10), x),
                                 [np.array([1.0, 1.0009766, 1.00048828, 1.0014648, 70000.0, -70000.0, 1e-6, -1e-8,
                                            3.14159, np.inf, np.nan, 65504.0, 6.1e-5], F)], None),
    "raw_xla_reduce_precision_bf16": (lambda tf, x: _jit(tf, lambda a: _xla(tf, "XlaReducePrecision", operand=a,
                                                                             exponent_bits=8, mantissa_bits=7), x),
                                      [_n(3, 4) * 100], None),
    "raw_conv": (lambda tf, x, w: tf.raw_ops.Conv(input=x, filter=w, strides=[1, 2, 1, 1], padding="SAME"),
                 [CONV_X, CONV_W], None),
    "raw_conv_batch_dims": (lambda tf, x, w: tf.raw_ops.Conv(input=x, filter=w, strides=[1, 1, 1, 1],
                                                             padding="VALID", batch_dims=2, dilations=[1, 2, 1, 1]),
                            [_n(2, 2, 6, 6, 3), CONV_W], None),
    "raw_conv_groups": (lambda tf, x, w: _jit(tf, lambda a, c: tf.raw_ops.Conv(
        input=a, filter=c, strides=[1, 1, 1, 1], padding="VALID", groups=3), x, w), [_n(2, 5, 5, 6), _n(2, 2, 2, 6)],
        None),
    "raw_rgb_to_hsv": (lambda tf, x: tf.raw_ops.RGBToHSV(images=x), [RGB[:, :3].copy()], None),
    # grey, black and tied channels: kinks where TF's gradient picks its own branch (forward only)
    "raw_rgb_to_hsv_ties": (lambda tf, x: tf.stop_gradient(tf.raw_ops.RGBToHSV(images=x)), [RGB], None),
    "raw_hsv_to_rgb": (lambda tf, x: tf.raw_ops.HSVToRGB(images=x), [HSV], None),
    "raw_adjust_saturation": (lambda tf, x: tf.raw_ops.AdjustSaturation(images=x, scale=np.float32(1.6)), [RGB], None),
    "raw_adjust_hue": (lambda tf, x: tf.raw_ops.AdjustHue(images=x, delta=np.float32(0.3)), [RGB], None),
    "raw_adjust_hue_neg": (lambda tf, x: tf.raw_ops.AdjustHue(images=x, delta=np.float32(-0.45)), [RGB], None),
    "raw_zeta": (lambda tf, x, q: tf.raw_ops.Zeta(x=x, q=q), [np.array([1.5, 2.0, 3.0, 4.5, 10.0, 0.5, 1.0], F),
                                                            np.array([0.5, 1.0, 2.0, 0.3, 5.0, 1.0, 2.0], F)], None),
    "raw_zeta_broadcast": (lambda tf, x, q: tf.raw_ops.Zeta(x=x, q=q), [np.array([[2.0], [3.5]], F),
                                                                        np.array([0.5, 1.0, 4.0], F)], None),
    "raw_polygamma": (lambda tf, a, x: tf.raw_ops.Polygamma(a=a, x=x),
                      [np.array([0.0, 1.0, 2.0, 3.0, 1.0, 0.5, -1.0], F),
                       np.array([0.7, 1.5, 2.0, 4.0, 0.2, 1.0, 1.0], F)], None),
    "raw_erfinv": (lambda tf, x: tf.raw_ops.Erfinv(x=x), [np.array([-0.999, -0.9, -0.3, 0.0, 0.2, 0.7, 0.995], F)],
                   None),
    "raw_erfinv_f64": (lambda tf, x: tf.raw_ops.Erfinv(x=x), [np.array([-0.999999, -0.9, -0.3, 0.0, 0.2, 0.7, 1.0])],
                       None),
    "raw_ndtri": (lambda tf, x: tf.raw_ops.Ndtri(x=x), [np.array([0.001, 0.05, 0.3, 0.5, 0.8, 0.99], F)], None),
    "raw_betainc": (lambda tf, a, c, x: tf.raw_ops.Betainc(a=a, b=c, x=x),
                    [np.array([0.5, 1.0, 2.0, 5.0, 0.3, 3.0, 1.0], F), np.array([0.5, 2.0, 3.0, 1.5, 0.7, 3.0, -1.0], F),
                     np.array([0.2, 0.5, 0.9, 0.4, 0.05, 0.999, 0.5], F)], None),
    "raw_igamma": (lambda tf, a, x: tf.raw_ops.Igamma(a=a, x=x),
                   [np.array([0.5, 1.0, 2.0, 5.0, 3.0, 0.3, 10.0, -1.0], F), np.array([0.2, 1.5, 1.0, 7.0, 0.0, 2.0,
                                                                                      4.0, 1.0], F)], None),
    "raw_igammac": (lambda tf, a, x: tf.raw_ops.Igammac(a=a, x=x),
                    [np.array([0.5, 1.0, 2.0, 5.0, 3.0, 0.3, 10.0, -1.0], F), np.array([0.2, 1.5, 1.0, 7.0, 0.0, 2.0,
                                                                                       4.0, 1.0], F)], None),
    "raw_igamma_grad_a": (lambda tf, a, x: tf.raw_ops.IgammaGradA(a=a, x=x),
                          [np.array([0.5, 1.0, 2.0, 5.0, 0.3, 10.0], F), np.array([0.2, 1.5, 1.0, 7.0, 2.0, 4.0], F)],
                          None),
    # -- linear algebra --------------------------------------------------------------------------------
    "raw_cholesky": (lambda tf, a: tf.raw_ops.Cholesky(input=a), [SPD], np.linalg.cholesky(SPD)),
    "raw_triangular_solve": (lambda tf, m, r: tf.raw_ops.MatrixTriangularSolve(matrix=m, rhs=r), [LOWER, _n(2, 4, 3)],
                             None),
    "raw_triangular_solve_upper_adjoint": (lambda tf, m, r: tf.raw_ops.MatrixTriangularSolve(
        matrix=m, rhs=r, lower=False, adjoint=True), [LOWER.transpose(0, 2, 1).copy(), _n(2, 4, 2)], None),
    "raw_matrix_inverse": (lambda tf, a: tf.raw_ops.MatrixInverse(input=a), [GEN], np.linalg.inv(GEN)),
    "raw_matrix_inverse_adjoint": (lambda tf, a: tf.raw_ops.MatrixInverse(input=a, adjoint=True), [GEN], None),
    "raw_matrix_solve": (lambda tf, a, r: tf.raw_ops.MatrixSolve(matrix=a, rhs=r), [GEN, _n(2, 3, 2)], None),
    "raw_matrix_solve_adjoint": (lambda tf, a, r: tf.raw_ops.MatrixSolve(matrix=a, rhs=r, adjoint=True),
                                 [GEN, _n(2, 3, 4)], None),
    # XLA (and so TF under jit) has no pivoting: partial_pivoting=False compiles in TF too
    "raw_tridiagonal_solve": (lambda tf, d, r: tf.raw_ops.TridiagonalSolve(diagonals=d, rhs=r, partial_pivoting=False),
                              [TRI, _n(2, 5, 3)], None),
    # -- quantize and dequantize -------------------------------------------------------------------------
    "raw_qdq_v2": (lambda tf, x: tf.raw_ops.QuantizeAndDequantizeV2(input=x, input_min=np.float32(0), input_max=np.float32(0),
                                                                    num_bits=4), [np.linspace(-2, 3, 23).astype(F)],
                   None),
    "raw_qdq_v2_given": (lambda tf, x: tf.raw_ops.QuantizeAndDequantizeV2(
        input=x, input_min=np.float32(-1.3), input_max=np.float32(2.1), range_given=True, round_mode="HALF_UP",
        narrow_range=True), [np.linspace(-2, 3, 23).astype(F)], None),
    "raw_qdq_v2_unsigned_axis": (lambda tf, x: tf.raw_ops.QuantizeAndDequantizeV2(
        input=x, input_min=np.zeros(3, F), input_max=np.zeros(3, F), signed_input=False, num_bits=3, axis=1),
        [np.abs(_n(4, 3)) * 3], None),
    "raw_qdq_v3": (lambda tf, x: tf.raw_ops.QuantizeAndDequantizeV3(
        input=x, input_min=np.float32(-1.0), input_max=np.float32(2.0), num_bits=5),
        [np.linspace(-2, 3, 23).astype(F)], None),
    "raw_qdq_v4": (lambda tf, x, lo, hi: tf.raw_ops.QuantizeAndDequantizeV4(
        input=x, input_min=lo, input_max=hi, range_given=True, num_bits=6),
        [np.linspace(-2, 3, 23).astype(F), np.array(-1.3, F), np.array(2.1, F)], None),
}
