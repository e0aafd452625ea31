"""tf.math breadth cases (frontend/api/math_extras.py, math_special.py), recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/math_cases.py --out tests/golden/math` and replayed by
tests/frontend/test_math_goldens.py. Same format as op_cases.py; numpy only.

Segment max/min/prod inputs have no ties and no zeros, so every gradient convention agrees."""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(14)
F = np.float32

X = R.uniform(-3, 3, (3, 4)).astype(F)
POS = R.uniform(1.2, 6, (3, 4)).astype(F)
UNIT = R.uniform(-0.9, 0.9, (3, 4)).astype(F)
ERFC_X = np.array([-3.0, -1.5, -1.0, -0.4, 0.0, 0.2, 0.9, 1.0, 1.3, 2.5, 4.0], F)
DATA = R.permutation(np.arange(1, 16)).reshape(5, 3).astype(F) / 4
IDS_SORTED = np.array([0, 0, 2, 3, 3], np.int32)
IDS = np.array([2, 0, 2, -1, 4], np.int32)
PRED = R.standard_normal((4, 5)).astype(F)
LOGITS = R.standard_normal((2, 5)).astype(F)
GAMMA_X = np.array([-2.5, -1.3, -0.3, 0.2, 0.5, 0.9, 1.5, 2.3, 3.7, 10.0, 31.5], F)
PROB = np.array([0.001, 0.02, 0.3, 0.5, 0.77, 0.95, 0.999], F)
ERF_Y = np.array([-0.999, -0.9, -0.5, -0.1, 0.0, 0.3, 0.7, 0.98], F)
BESSEL_X = np.array([-12.0, -3.0, -0.7, 0.3, 1.0, 5.5, 7.9, 8.1, 15.0, 40.0], F)
ZETA_X = np.array([1.5, 2.0, 3.5, 6.0, 2.2], F)
ZETA_Q = np.array([0.3, 1.0, 2.5, 0.8, 12.0], F)
ORDER = np.array([0.0, 1.0, 2.0, 3.0, 1.0], F)
PG_X = np.array([0.7, 1.5, 2.0, 5.0, 20.0], F)
TOPK = R.permutation(np.arange(24)).reshape(4, 6).astype(F) / 3
BETA = R.uniform(0.3, 4, (3, 4)).astype(F)
IG_A = np.array([0.5, 1.0, 2.5, 3.0, 10.0, 0.2, 4.0], F)
IG_X = np.array([0.3, 2.0, 1.0, 5.0, 8.0, 0.01, 12.0], F)
BI_A = np.array([0.5, 2.0, 3.0, 1.0, 6.0], F)
BI_B = np.array([0.5, 3.0, 1.5, 4.0, 2.0], F)
BI_X = np.array([0.2, 0.7, 0.5, 0.95, 0.4], F)

CASES = {
    "m_asinh": (lambda tf, x: tf.math.asinh(x), [np.append(X.ravel(), 0).astype(F)], np.arcsinh(np.append(X, 0))),
    "m_acosh": (lambda tf, x: tf.math.acosh(x), [POS], np.arccosh(POS)),
    "m_atanh": (lambda tf, x: tf.math.atanh(x), [UNIT], np.arctanh(UNIT)),
    "m_erfc": (lambda tf, x: tf.math.erfc(x), [ERFC_X], None),
    "m_reciprocal_no_nan": (lambda tf, x: tf.math.reciprocal_no_nan(x), [np.array([2.0, 0.0, -0.5, 4.0], F)],
                            np.array([0.5, 0.0, -2.0, 0.25], F)),
    "m_xlog1py": (lambda tf, x, y: tf.math.xlog1py(x, y),
                  [np.array([0.0, 1.5, 2.0, 0.0, -1.0], F), np.array([-1.0, 0.5, 3.0, 2.0, 0.25], F)], None),
    "m_zero_fraction": (lambda tf, x: tf.math.zero_fraction(x), [np.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]], F)],
                        np.float32(0.5)),
    "m_accumulate_n": (lambda tf, a, b, c: tf.math.accumulate_n([a, b, c]), [X, POS, UNIT], X + POS + UNIT),
    "m_invert_permutation": (lambda tf, p: tf.math.invert_permutation(p), [np.array([3, 0, 4, 1, 2], np.int32)],
                             np.argsort([3, 0, 4, 1, 2]).astype(np.int32)),
    "m_is_non_decreasing": (lambda tf, x: tf.math.is_non_decreasing(x), [np.array([1.0, 1.0, 2.0, 5.0], F)],
                            np.bool_(True)),
    "m_is_non_decreasing_false": (lambda tf, x: tf.math.is_non_decreasing(x), [np.array([[1, 3], [2, 4]], np.int32)],
                                  np.bool_(False)),
    "m_is_strictly_increasing": (lambda tf, x: tf.math.is_strictly_increasing(x),
                                 [np.array([1.0, 1.0, 2.0], F)], np.bool_(False)),
    "m_polyval": (lambda tf, a, b, c, x: tf.math.polyval([a, b, c], x),
                  [np.array(2.0, F), np.array(-1.0, F), np.array(0.5, F), X], 2 * X * X - X + 0.5),
    "m_cumulative_logsumexp": (lambda tf, x: tf.math.cumulative_logsumexp(x, axis=1), [X], None),
    "m_cumulative_logsumexp_excl_rev": (lambda tf, x: tf.math.cumulative_logsumexp(x, axis=0, exclusive=True,
                                                                                     reverse=True), [X], None),
    "m_in_top_k": (lambda tf, t, p: tf.math.in_top_k(t, p, 2), [np.array([0, 4, 2, 1], np.int32), PRED], None),
    "m_nn_in_top_k": (lambda tf, t, p: tf.nn.in_top_k(t, p, 3), [np.array([1, 1, 3, 0], np.int32), PRED], None),
    "m_confusion_matrix": (lambda tf, lab, pred: tf.math.confusion_matrix(lab, pred, num_classes=4),
                           [np.array([0, 1, 2, 3, 1, 1], np.int32), np.array([0, 2, 2, 3, 1, 0], np.int32)], None),
    "m_confusion_matrix_weights": (lambda tf, lab, pred, w: tf.math.confusion_matrix(lab, pred, 3, weights=w,
                                                                                    dtype=tf.float32),
                                   [np.array([0, 1, 2, 1], np.int32), np.array([0, 2, 2, 1], np.int32),
                                    np.array([0.5, 1.0, 2.0, 3.0], F)], None),
    "m_bincount": (lambda tf, a: tf.math.bincount(a, minlength=6, maxlength=6),
                   [np.array([1, 1, 3, 0, 5, 1], np.int32)], np.array([1, 3, 0, 1, 0, 1], np.int32)),
    "m_bincount_weights": (lambda tf, a, w: tf.math.bincount(a, weights=w, minlength=4, maxlength=4),
                           [np.array([1, 1, 3, 0, 5], np.int32), np.array([0.5, 1.0, 2.0, 3.0, 4.0], F)], None),
    "m_softmax": (lambda tf, x: tf.math.softmax(x), [LOGITS], None),
    "m_log_softmax": (lambda tf, x: tf.math.log_softmax(x, axis=0), [LOGITS], None),
    "m_softsign": (lambda tf, x: tf.math.softsign(x), [X], X / (1 + np.abs(X))),
    "m_segment_sum": (lambda tf, d, i: tf.math.segment_sum(d, i), [DATA, IDS_SORTED], None),
    "m_segment_mean": (lambda tf, d, i: tf.math.segment_mean(d, i), [DATA, IDS_SORTED], None),
    "m_segment_max": (lambda tf, d, i: tf.math.segment_max(d, i), [DATA, IDS_SORTED], None),
    "m_segment_min": (lambda tf, d, i: tf.math.segment_min(d, i), [DATA, IDS_SORTED], None),
    "m_segment_prod": (lambda tf, d, i: tf.math.segment_prod(d, i), [DATA, IDS_SORTED], None),
    "m_unsorted_segment_max": (lambda tf, d, i: tf.math.unsorted_segment_max(d, i, 5), [DATA, IDS], None),
    "m_unsorted_segment_min": (lambda tf, d, i: tf.math.unsorted_segment_min(d, i, 5), [DATA, IDS], None),
    "m_unsorted_segment_prod": (lambda tf, d, i: tf.math.unsorted_segment_prod(d, i, 5), [DATA, IDS], None),
    "m_unsorted_segment_mean": (lambda tf, d, i: tf.math.unsorted_segment_mean(d, i, 5), [DATA, IDS], None),
    "m_unsorted_segment_sqrt_n": (lambda tf, d, i: tf.math.unsorted_segment_sqrt_n(d, i, 5), [DATA, IDS], None),
    "sp_lgamma": (lambda tf, x: tf.math.lgamma(x), [GAMMA_X], None),
    "sp_digamma": (lambda tf, x: tf.math.digamma(x), [GAMMA_X], None),
    "sp_lbeta": (lambda tf, x: tf.math.lbeta(x), [BETA], None),
    "sp_erfinv": (lambda tf, x: tf.math.erfinv(x), [ERF_Y], None),
    "sp_ndtri": (lambda tf, x: tf.math.ndtri(x), [PROB], None),
    "sp_erfcinv": (lambda tf, x: tf.math.erfcinv(x), [2 * PROB], None),
    "sp_bessel_i0e": (lambda tf, x: tf.math.bessel_i0e(x), [BESSEL_X], None),
    "sp_bessel_i1e": (lambda tf, x: tf.math.bessel_i1e(x), [BESSEL_X], None),
    "sp_bessel_i0": (lambda tf, x: tf.math.bessel_i0(x), [BESSEL_X[:7]], None),
    "sp_bessel_i1": (lambda tf, x: tf.math.bessel_i1(x), [BESSEL_X[:7]], None),
    "sp_special_bessel": (lambda tf, x: (tf.math.special.bessel_i0e(x), tf.math.special.bessel_i1(x)), [BESSEL_X[:7]],
                          None),
    "sp_zeta": (lambda tf, x, q: tf.math.zeta(x, q), [ZETA_X, ZETA_Q], None),
    "sp_polygamma": (lambda tf, n, x: tf.math.polygamma(n, x), [ORDER, PG_X], None),
    "sp_nextafter": (lambda tf, a, b: tf.math.nextafter(a, b),
                     [np.array([1.0, 0.0, -1.0, 2.0, 0.0, 3.5], F), np.array([2.0, -1.0, 0.0, 2.0, 0.0, -np.inf], F)],
                     None),
    "sp_igamma": (lambda tf, a, x: tf.math.igamma(a, x), [IG_A, IG_X], None),
    "sp_igammac": (lambda tf, a, x: tf.math.igammac(a, x), [IG_A, IG_X], None),
    "sp_betainc": (lambda tf, a, b, x: tf.math.betainc(a, b, x), [BI_A, BI_B, BI_X], None),
    "m_approx_max_k": (lambda tf, x: tf.math.approx_max_k(x, 3), [TOPK], None),
    # TF 2.21 has an eager CPU kernel for ApproxTopK with is_max_k=True and the last axis only; the others
    # are recorded (and replayed) inside a jit-compiled function
    "m_approx_max_k_dim0": (lambda tf, x: tf.function(lambda a: tf.math.approx_max_k(a, 2, reduction_dimension=0),
                                                      jit_compile=True)(x), [TOPK], None),
    "m_approx_min_k": (lambda tf, x: tf.function(lambda a: tf.math.approx_min_k(a, 2), jit_compile=True)(x), [TOPK],
                       None),
    "m_nn_approx_min_k_dim0": (lambda tf, x: tf.function(lambda a: tf.nn.approx_min_k(a, 3, reduction_dimension=0),
                                                         jit_compile=True)(x), [TOPK], None),
    "m_approx_max_k_values": (lambda tf, x: tf.math.approx_max_k(x, 2)[0], [TOPK], None),
    # float64: the double-precision polynomials (erfinv, erfc) and float64 loops and tables elsewhere
    "sp_erfinv_f64": (lambda tf, x: tf.math.erfinv(x), [np.array([-0.9999, -0.9, -0.3, 0.0, 0.5, 0.99, 0.999999])],
                      None),
    "sp_erfc_f64": (lambda tf, x: tf.math.erfc(x), [ERFC_X.astype(np.float64)], None),
    "sp_lgamma_f64": (lambda tf, x: tf.math.lgamma(x), [GAMMA_X.astype(np.float64)], None),
    "sp_bessel_i1e_f64": (lambda tf, x: tf.math.bessel_i1e(x), [BESSEL_X.astype(np.float64)], None),
    "sp_igamma_f64": (lambda tf, a, x: tf.math.igamma(a, x), [IG_A.astype(np.float64), IG_X.astype(np.float64)], None),
    "sp_erfc_f16": (lambda tf, x: tf.math.erfc(x), [ERFC_X.astype(np.float16)], None),
    "m_sobol_sample": (lambda tf: tf.math.sobol_sample(21, 40, skip=5), [], None),
    "m_sobol_sample_f64": (lambda tf: tf.math.sobol_sample(3, 7, dtype=tf.float64),
                           [], np.array([[0.5, 0.5, 0.5], [0.75, 0.25, 0.25], [0.25, 0.75, 0.75], [0.375, 0.375, 0.625],
                                         [0.875, 0.875, 0.125], [0.625, 0.125, 0.875], [0.125, 0.625, 0.375]])),
    "m_in_top_k_nonfinite": (lambda tf, t, p: tf.math.in_top_k(t, p, 2),
                             [np.array([0, 1, 2], np.int32),
                              np.array([[1.0, np.inf, 0.5], [np.nan, 2.0, 1.0], [0.1, -np.inf, np.inf]], F)], None),
}
