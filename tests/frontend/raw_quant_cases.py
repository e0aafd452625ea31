"""tf.raw_ops cases for the uniform-quantized ops (frontend/ops/raw_quant_ops.py), recorded from real
TensorFlow by `record_tf_goldens.py --cases tests/frontend/raw_quant_cases.py --out tests/golden/raw_quant`
and replayed by tests/frontend/test_raw_quant_goldens.py. Same format as op_cases.py; numpy only.

Inputs and outputs are the storage integers (int8/int32): on real TF a case bitcasts them to and from
tf.qint8/tf.qint32 around the op (`_q`, `_int`); minixla carries quantized tensors as those integers.
The quantize cases include exact ties (x / scale = k + 0.5, positive and negative), where TF's CPU kernel
rounds half up.
"""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(470)
F = np.float32
I32_MIN, I32_MAX = int(np.iinfo(np.int32).min), int(np.iinfo(np.int32).max)

X = R.uniform(-3.0, 3.0, (4, 5)).astype(F)
X[0] = [0.25, 0.75, -0.25, -0.75, 1.25]  # ties at scale 0.5
X[1, :3] = [100.0, -100.0, 0.0]  # clamped
SCALES5 = R.uniform(0.01, 0.3, 5).astype(F)
ZPS5 = np.array([0, 1, -2, 3, -4], np.int32)
Q8 = R.integers(-128, 128, (4, 5)).astype(np.int8)
Q32 = R.integers(-5000, 5000, (4, 5)).astype(np.int32)
Q32_ROW = R.integers(-3000, 3000, (5,)).astype(np.int32)
OUT5 = R.uniform(0.5, 3.0, 5).astype(F)
OUT_ZPS5 = np.array([1, -1, 2, 0, 5], np.int32)
LHS = R.integers(-128, 128, (3, 4)).astype(np.int8)
RHS = R.integers(-127, 128, (4, 5)).astype(np.int8)


def _q(tf, a, dtype: str):
    """Storage integers as TF's quantized dtype (minixla carries them as the integers)."""
    return tf.bitcast(a, getattr(tf, dtype)) if tf.__name__ == "tensorflow" else a


def _int(tf, q, dtype: str):
    """A quantized result as its storage integers."""
    return tf.bitcast(q, getattr(tf, dtype)) if tf.__name__ == "tensorflow" else q


def _quantize(tf, x, scales, zps, axis=-1, lo=-128, hi=127):
    return _int(tf, tf.raw_ops.UniformQuantize(input=x, scales=scales, zero_points=zps, Tout=tf.qint8,
                                               quantization_min_val=lo, quantization_max_val=hi,
                                               quantization_axis=axis), "int8")


def _dequantize(tf, q, scales, zps, axis=-1):
    return tf.raw_ops.UniformDequantize(input=_q(tf, q, "qint8"), scales=scales, zero_points=zps, Tout=tf.float32,
                                        quantization_min_val=-128, quantization_max_val=127, quantization_axis=axis)


def _requantize(tf, q, in_s, in_z, out_s, out_z, in_axis=-1, out_axis=-1):
    return _int(tf, tf.raw_ops.UniformRequantize(
        input=_q(tf, q, "qint32"), input_scales=in_s, input_zero_points=in_z, output_scales=out_s,
        output_zero_points=out_z, Tout=tf.qint8, input_quantization_min_val=I32_MIN,
        input_quantization_max_val=I32_MAX, output_quantization_min_val=-128, output_quantization_max_val=127,
        input_quantization_axis=in_axis, output_quantization_axis=out_axis), "int8")


def _add(tf, a, b, axis=-1, lo=I32_MIN, hi=I32_MAX, scales=(0.02, 0.05, 0.04), zps=(3, -2, 1)):
    def per(v, dt):
        return np.asarray(v, dt) if axis == -1 else np.full(5, v, dt) * (np.arange(5) + 1 if dt == F else 1)
    return _int(tf, tf.raw_ops.UniformQuantizedAdd(
        lhs=_q(tf, a, "qint32"), rhs=_q(tf, b, "qint32"), lhs_scales=per(scales[0], F),
        lhs_zero_points=per(zps[0], np.int32), rhs_scales=per(scales[1], F), rhs_zero_points=per(zps[1], np.int32),
        output_scales=per(scales[2], F), output_zero_points=per(zps[2], np.int32), lhs_quantization_min_val=I32_MIN,
        lhs_quantization_max_val=I32_MAX, rhs_quantization_min_val=I32_MIN, rhs_quantization_max_val=I32_MAX,
        output_quantization_min_val=lo, output_quantization_max_val=hi, lhs_quantization_axis=axis,
        rhs_quantization_axis=axis, output_quantization_axis=axis), "int32")


def _clip(tf, a, lo, hi, axis=-1):
    scales = np.float32(0.1) if axis == -1 else np.full(a.shape[axis], 0.1, F)
    zps = np.int32(0) if axis == -1 else np.zeros(a.shape[axis], np.int32)
    return _int(tf, tf.raw_ops.UniformQuantizedClipByValue(
        operand=_q(tf, a, "qint32"), min=_q(tf, lo, "qint32"), max=_q(tf, hi, "qint32"), scales=scales,
        zero_points=zps, quantization_min_val=I32_MIN, quantization_max_val=I32_MAX, quantization_axis=axis), "int32")


def _dot(tf, lhs, rhs, out_s, out_z, axis=-1, rhs_s=np.float32(0.05), rhs_z=np.int32(0), lo=I32_MIN, hi=I32_MAX):
    return _int(tf, tf.raw_ops.UniformQuantizedDot(
        lhs=_q(tf, lhs, "qint8"), rhs=_q(tf, rhs, "qint8"), lhs_scales=np.float32(0.02), lhs_zero_points=np.int32(3),
        rhs_scales=rhs_s, rhs_zero_points=rhs_z, output_scales=out_s, output_zero_points=out_z, Tout=tf.qint32,
        lhs_quantization_min_val=-128, lhs_quantization_max_val=127, rhs_quantization_min_val=-127,
        rhs_quantization_max_val=127, output_quantization_min_val=lo, output_quantization_max_val=hi,
        lhs_quantization_axis=-1, rhs_quantization_axis=axis, output_quantization_axis=axis), "int32")


def _np_dequantize(q, scales, zps, axis=-1):
    shape = [1] * q.ndim
    if axis != -1:
        shape[axis] = -1
    return ((q.astype(np.int32) - np.reshape(zps, shape)).astype(F) * np.reshape(scales, shape).astype(F)).astype(F)


CASES = {
    "uq_quantize": (lambda tf, x: _quantize(tf, x, np.float32(0.5), np.int32(3)), [X], None),
    "uq_quantize_neg_zp": (lambda tf, x: _quantize(tf, x, np.float32(0.5), np.int32(-3), lo=-100, hi=100), [X], None),
    "uq_quantize_per_axis": (lambda tf, x: _quantize(tf, x, SCALES5, ZPS5, axis=1, lo=-127), [X], None),
    "uq_quantize_per_axis_0": (lambda tf, x: _quantize(tf, x, SCALES5[:4], ZPS5[:4], axis=0), [X], None),
    "uq_dequantize": (lambda tf, q: _dequantize(tf, q, np.float32(0.3), np.int32(-2)), [Q8],
                      _np_dequantize(Q8, np.float32(0.3), np.int32(-2))),
    "uq_dequantize_per_axis": (lambda tf, q: _dequantize(tf, q, SCALES5, ZPS5, axis=1), [Q8],
                               _np_dequantize(Q8, SCALES5, ZPS5, 1)),
    "uq_requantize_down": (lambda tf, q: _requantize(tf, q, np.float32(0.01), np.int32(7), np.float32(0.37),
                                                     np.int32(-3)), [Q32], None),
    "uq_requantize_up": (lambda tf, q: _requantize(tf, q, np.float32(1e-3), np.int32(7), np.float32(2e-5),
                                                   np.int32(-3)), [Q32], None),
    "uq_requantize_same": (lambda tf, q: _requantize(tf, q, np.float32(0.3), np.int32(0), np.float32(0.3),
                                                     np.int32(0)), [Q32 // 64], None),
    "uq_requantize_per_axis": (lambda tf, q: _requantize(tf, q, SCALES5, ZPS5, OUT5, OUT_ZPS5, 1, 1), [Q32], None),
    "uq_requantize_axis_to_tensor": (lambda tf, q: _requantize(tf, q, SCALES5, ZPS5, np.float32(2.0), np.int32(1),
                                                               1, -1), [Q32], None),
    "uq_add": (lambda tf, a, b: _add(tf, a, b), [Q32, Q32[::-1].copy()], None),
    "uq_add_broadcast": (lambda tf, a, b: _add(tf, a, b), [Q32, Q32_ROW], None),
    "uq_add_clamped": (lambda tf, a, b: _add(tf, a, b, lo=-1000, hi=1000), [Q32, Q32_ROW], None),
    "uq_add_per_axis": (lambda tf, a, b: _add(tf, a, b, axis=1), [Q32, Q32[::-1].copy()], None),
    "uq_clip": (lambda tf, a, lo, hi: _clip(tf, a, lo, hi), [Q32, np.int32(-1000), np.int32(500)],
                np.clip(Q32, -1000, 500)),
    "uq_clip_per_axis": (lambda tf, a, lo, hi: _clip(tf, a, lo, hi, axis=1),
                         [Q32, np.array([-4000, -10, 0, -2500, 100], np.int32),
                          np.array([4000, 10, 3000, 0, 4500], np.int32)], None),
    "uq_dot": (lambda tf, a, b: _dot(tf, a, b, np.float32(1e-3), np.int32(0)), [LHS, RHS], None),
    "uq_dot_requantize": (lambda tf, a, b: _dot(tf, a, b, np.float32(0.37), np.int32(-5), rhs_z=np.int32(2)),
                          [LHS, RHS], None),
    "uq_dot_clamped": (lambda tf, a, b: _dot(tf, a, b, np.float32(0.01), np.int32(4), lo=-200, hi=300), [LHS, RHS],
                       None),
    "uq_dot_per_channel": (lambda tf, a, b: _dot(tf, a, b, OUT5 * np.float32(1e-2), OUT_ZPS5, axis=1,
                                                 rhs_s=SCALES5, rhs_z=np.zeros(5, np.int32)), [LHS, RHS], None),
}

CONV_X = R.integers(-128, 128, (2, 4, 6, 5)).astype(np.int8)  # [b, f, h, w]
CONV_W = R.integers(-127, 128, (3, 4, 3, 2)).astype(np.int8)  # [o, i, kh, kw]
CONV_W_G = R.integers(-127, 128, (4, 2, 2, 2)).astype(np.int8)  # 2 feature groups


def _conv(tf, lhs, rhs, padding="VALID", axis=-1, out_s=np.float32(0.05), out_z=np.int32(2), lo=I32_MIN, hi=I32_MAX,
          **kw):
    n = rhs.shape[0]
    rhs_s = np.float32(0.03) if axis == -1 else np.linspace(0.01, 0.05, n).astype(F)
    rhs_z = np.int32(0) if axis == -1 else np.zeros(n, np.int32)
    return _int(tf, tf.raw_ops.UniformQuantizedConvolution(
        lhs=_q(tf, lhs, "qint8"), rhs=_q(tf, rhs, "qint8"), lhs_scales=np.float32(0.02), lhs_zero_points=np.int32(-4),
        rhs_scales=rhs_s, rhs_zero_points=rhs_z, output_scales=out_s, output_zero_points=out_z, Tout=tf.qint32,
        padding=padding, lhs_quantization_min_val=-128, lhs_quantization_max_val=127, rhs_quantization_min_val=-127,
        rhs_quantization_max_val=127, output_quantization_min_val=lo, output_quantization_max_val=hi,
        rhs_quantization_axis=axis, output_quantization_axis=-1 if axis == -1 else 1, **kw), "int32")


CASES.update({
    "uq_conv_valid": (lambda tf, x, w: _conv(tf, x, w), [CONV_X, CONV_W], None),
    "uq_conv_same_stride": (lambda tf, x, w: _conv(tf, x, w, "SAME", window_strides=[2, 2]), [CONV_X, CONV_W], None),
    "uq_conv_explicit_dilated": (lambda tf, x, w: _conv(tf, x, w, "EXPLICIT", explicit_padding=[1, 0, 2, 1],
                                                        rhs_dilation=[2, 1], lo=-5000, hi=5000), [CONV_X, CONV_W],
                                 None),
    "uq_conv_per_channel": (lambda tf, x, w: _conv(tf, x, w, "SAME", axis=0,
                                                   out_s=np.array([0.01, 0.02, 0.04], F),
                                                   out_z=np.array([0, -3, 5], np.int32)), [CONV_X, CONV_W], None),
    "uq_conv_groups": (lambda tf, x, w: _conv(tf, x, w, feature_group_count=2, lhs_dilation=[1, 2]),
                       [CONV_X, CONV_W_G], None),
})
