"""tf.raw_ops.StatelessParameterizedTruncatedNormal cases (frontend/ops/ptn_compiled_ops.py): each of TF's
three samplers (normal rejection, uniform rejection on a narrow interval, exponential rejection on a
far tail), the upper-tail swap, per-batch parameters and float64; recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/ptn_cases.py --out tests/golden/ptn` and replayed by
tests/frontend/test_ptn_goldens.py. Same format as op_cases.py; numpy only. TF's XLA kernel draws
another stream (the goldens' jit_output); minixla gives TF's eager numbers in every mode.
"""

from __future__ import annotations

import numpy as np

F = np.float32
SEED = np.array([7, 11], np.int32)
SEED64 = np.array([-3, 2 ** 40], np.int64)


def _ptn(tf, seed, means, stddevs, minvals, maxvals, shape, dtype=None):
    return tf.raw_ops.StatelessParameterizedTruncatedNormal(shape=shape, seed=seed, means=means, stddevs=stddevs,
                                                            minvals=minvals, maxvals=maxvals)


def _case(shape, *params):
    return (lambda tf, seed, m, s, lo, hi: _ptn(tf, seed, m, s, lo, hi, shape),
            [SEED, *(np.asarray(p) for p in params)], None)


CASES = {
    "ptn_normal": _case([10], F(0.5), F(2.0), F(-3.0), F(4.0)),
    "ptn_uniform_narrow": _case([9], F(0.0), F(1.0), F(0.5), F(0.6)),
    "ptn_exponential_tail": _case([7], F(1.0), F(0.5), F(3.0), F(np.inf)),
    "ptn_upper_tail_swap": _case([6], F(0.0), F(1.0), F(-np.inf), F(-2.5)),
    "ptn_batched": _case([3, 4], np.array([0.0, 1.0, -2.0, 5.0], F), np.array([1.0, 0.5, 2.0, 0.1], F),
                         np.array([-1.0, 2.0, -2.5, 4.9], F), np.array([1.0, np.inf, 3.0, 5.3], F)),
    "ptn_float64": (lambda tf, seed, m, s, lo, hi: _ptn(tf, seed, m, s, lo, hi, [3, 2]),
                    [SEED64, np.array([0.0, 3.0]), np.array([1.0, 1.0]), np.array([-1.0, 5.0]),
                     np.array([2.0, np.inf])], None),
}


def _v1(shape, seed2, *params):
    """The stateful V1 kernel (seed, seed2; batches along shape[0]); each case its own seeds, so that it is
    the first call of its TF kernel."""
    return (lambda tf, m, s, lo, hi: tf.raw_ops.ParameterizedTruncatedNormal(
        shape=shape, means=m, stdevs=s, minvals=lo, maxvals=hi, seed=17, seed2=seed2),
        [np.asarray(p) for p in params], None)


CASES.update({
    "ptn_v1_scalar": _v1([2, 5], 1, F(0.5), F(2.0), F(-3.0), F(4.0)),
    "ptn_v1_uniform_narrow": _v1([7], 2, F(0.0), F(1.0), F(0.5), F(0.6)),
    "ptn_v1_tail": _v1([6], 3, F(1.0), F(0.5), F(3.0), F(np.inf)),
    "ptn_v1_batched": _v1([4, 3], 4, np.array([0.0, 1.0, -2.0, 5.0], F), np.array([1.0], F),
                          np.array([-1.0, 2.0, -2.5, 4.9], F), np.array([1.0, np.inf, 3.0, 5.3], F)),
})
