"""The uniform-quantized raw ops (frontend/ops/raw_quant_ops.py) against real TensorFlow 2.21
(tests/golden/raw_quant/, recorded by `record_tf_goldens.py --cases tests/frontend/raw_quant_cases.py --out
tests/golden/raw_quant`): every case eagerly, in tf.function and under jit_compile=True, bit-exact.

minixla gives TF's CPU kernels' integers in every mode. TF's own XLA lowering of these ops differs from
its CPU kernels (ties of UniformQuantize round half to even there; Add, and Dot with requantization, round
otherwise: the goldens' `tf_jit_differs_from_eager`), and fails to legalize some per-axis and clamped cases
and every UniformQuantizedConvolution with the default dimension numbers (`jit_error`); under jit the integer results are compared with TF's CPU kernels' (the replay's rule for
integer outputs). None of these ops has a gradient in TF.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.raw_quant_cases import CASES, Q32, X
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "raw_quant"
TABLE = "tests/frontend/raw_quant_cases.py"
NAMES = sorted(CASES)


@pytest.mark.parametrize("name, mode", [(n, m) for n in NAMES for m in MODES])
def test_uniform_quantized_against_tensorflow(name, mode):
    replay.check_forward(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 1e-7)


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_uniform_quantized_against_numpy(name):
    fn, inputs, want = CASES[name]
    np.testing.assert_array_equal(fn(tf, *[tf.constant(a) for a in inputs]).numpy(), want)


def test_quantize_then_dequantize_is_within_half_a_step():
    x = tf.constant(X[2:])
    q = tf.raw_ops.UniformQuantize(input=x, scales=np.float32(0.25), zero_points=np.int32(-1), Tout=tf.qint8,
                                   quantization_min_val=-128, quantization_max_val=127)
    back = tf.raw_ops.UniformDequantize(input=q, scales=np.float32(0.25), zero_points=np.int32(-1), Tout=tf.float32,
                                        quantization_min_val=-128, quantization_max_val=127)
    assert q.dtype == tf.int8  # carried as its storage integers
    assert np.max(np.abs(back.numpy() - X[2:])) <= 0.125 + 1e-6


def test_per_axis_scales_of_the_wrong_length_are_an_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"scales must have shape \[5\].*UniformQuantize"):
        tf.raw_ops.UniformQuantize(input=tf.constant(X), scales=np.ones(4, np.float32), zero_points=np.zeros(4, np.int32),
                                   Tout=tf.qint8, quantization_min_val=-128, quantization_max_val=127,
                                   quantization_axis=1)


def test_requantize_rejects_a_non_positive_scale():
    with pytest.raises(tf.errors.InvalidArgumentError, match="finite and positive"):
        tf.raw_ops.UniformRequantize(
            input=tf.constant(Q32), input_scales=np.float32(0.0), input_zero_points=np.int32(0),
            output_scales=np.float32(1.0), output_zero_points=np.int32(0), Tout=tf.qint8,
            input_quantization_min_val=-2**31, input_quantization_max_val=2**31 - 1,
            output_quantization_min_val=-128, output_quantization_max_val=127)


def test_dot_rejects_non_matrices():
    a = tf.constant(np.zeros((2, 3, 4), np.int8))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[m, k\] and \[k, n\]"):
        tf.raw_ops.UniformQuantizedDot(
            lhs=a, rhs=a, lhs_scales=np.float32(1), lhs_zero_points=np.int32(0), rhs_scales=np.float32(1),
            rhs_zero_points=np.int32(0), output_scales=np.float32(1), output_zero_points=np.int32(0), Tout=tf.qint32,
            lhs_quantization_min_val=-128, lhs_quantization_max_val=127, rhs_quantization_min_val=-128,
            rhs_quantization_max_val=127, output_quantization_min_val=-2**31, output_quantization_max_val=2**31 - 1)


def test_tf_qint_tensors_are_read_as_their_integers_eagerly():
    q8 = tf.bitcast(tf.constant(np.array([-128, -3, 0, 5, 127], np.int8)), tf.qint8)
    assert q8.dtype == tf.qint8
    got = tf.raw_ops.UniformDequantize(input=q8, scales=np.float32(0.3), zero_points=np.int32(-2), Tout=tf.float32,
                                       quantization_min_val=-128, quantization_max_val=127)
    want = (np.array([-128, -3, 0, 5, 127], np.float32) + 2) * np.float32(0.3)
    np.testing.assert_array_equal(got.numpy(), want)
