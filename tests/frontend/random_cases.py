"""tf.random cases (frontend/api/random_extras.py), recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/random_cases.py --out tests/golden/random` and replayed by
tests/frontend/test_random_goldens.py. Same format as op_cases.py; numpy only.

The seeds are the inputs, and so are gamma's alpha and beta in two cases (TF's reparameterization
gradient); the other distribution parameters are constants of the cases. Stateful cases reset the
global seed first (`set_seed(None)` also clears TF's eager kernel cache), so each call is a first call.
Sizes stay small: TF's CPU kernels shard large outputs by thread count, and we reproduce one shard.
"""

from __future__ import annotations

import numpy as np

SEED = np.array([7, 11], np.int32)
SEED64 = np.array([-3, 2 ** 40], np.int64)
LOGITS = np.array([[0.0, 1.0, -1.0], [2.0, 0.0, 0.5]], np.float32)
LAM = np.array([2.0, 30.0], np.float32)


def _fresh(tf):
    tf.random.set_seed(None)


def _categorical(tf, logits, dtype=None):
    _fresh(tf)
    return tf.random.categorical(logits, 5, dtype=dtype, seed=2)


def _shuffle(tf, x):
    _fresh(tf)
    return tf.random.shuffle(x, seed=5)


def _gamma(tf):
    _fresh(tf)
    return tf.random.gamma([3], [0.7, 4.0], seed=3)


def _gamma_beta(tf):
    _fresh(tf)
    return tf.random.gamma([2, 2], 1.0, beta=[[1.0], [3.0]], dtype=tf.float64, seed=8)


def _gamma_grad(tf, alpha, beta):
    _fresh(tf)
    return tf.random.gamma([3], alpha, beta=beta, seed=2)


def _poisson(tf):
    _fresh(tf)
    return tf.random.poisson([4], [1.5, 12.0], seed=4)


def _poisson_int(tf, lam):
    _fresh(tf)
    return tf.random.poisson([3], lam, dtype=tf.int64, seed=6)


TRUE = np.array([[1, 4], [7, 2], [0, 9]], np.int64)
UNIGRAMS = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0]


def _sampler(kind, unique, **kw):
    def case(tf, true):
        _fresh(tf)
        fn = getattr(tf.random, f"{kind}_candidate_sampler")
        rest = {k: v for k, v in kw.items() if k != "num_sampled"}
        return tuple(fn(true, true.shape[1], kw.get("num_sampled", 6), unique, seed=5, **rest))
    return case


def _learned_twice(tf, true):
    """The second call samples from weights 1 + the first call's true-class counts."""
    _fresh(tf)
    first = tf.random.learned_unigram_candidate_sampler(true, 2, 5, True, 12, seed=4)
    second = tf.random.learned_unigram_candidate_sampler(true, 2, 5, True, 12, seed=4)
    return tuple(first) + tuple(second)


CASES = {
    "rx_split": (lambda tf, s: tf.random.split(s, 3), [SEED], None),
    "rx_split_int64": (lambda tf, s: tf.random.split(s), [SEED64], None),
    "rx_fold_in": (lambda tf, s: tf.random.fold_in(s, 7), [SEED], None),
    "rx_stateless_gamma": (lambda tf, s: tf.random.stateless_gamma([4, 3], s, alpha=[0.5, 1.0, 3.0]), [SEED], None),
    "rx_stateless_gamma_beta_f64": (lambda tf, s: tf.random.stateless_gamma(
        [3, 2], s, alpha=2.5, beta=[1.0, 2.0], dtype=tf.float64), [SEED64], None),
    "rx_stateless_gamma_grad": (lambda tf, s, a: tf.random.stateless_gamma([3, 4], s, alpha=a),
                                [SEED, np.array([0.3, 1.0, 2.5, 40.0], np.float32)], None),
    "rx_gamma_grad_beta": (_gamma_grad, [np.array([0.7, 4.0], np.float32), np.array([1.5, 0.5], np.float32)], None),
    "rx_stateless_gamma_f16": (lambda tf, s: tf.random.stateless_gamma([5], s, alpha=9.0, dtype=tf.float16),
                               [SEED], None),
    "rx_stateless_poisson": (lambda tf, s, lam: tf.random.stateless_poisson([4, 2], s, lam), [SEED, LAM], None),
    "rx_stateless_poisson_f64": (lambda tf, s: tf.random.stateless_poisson(
        [6], s, lam=tf.constant(15.0, tf.float64), dtype=tf.float64), [SEED], None),
    "rx_stateless_poisson_int_lam": (lambda tf, s, lam: tf.random.stateless_poisson([3, 2], s, lam, dtype=tf.int64),
                                     [SEED64, np.array([4, 40], np.int32)], None),
    "rx_stateless_binomial": (lambda tf, s: tf.random.stateless_binomial(
        [5, 4], s, counts=[5.0, 50.0, 100.0, 8.0], probs=[0.3, 0.4, 0.9, 0.95]), [SEED], None),
    "rx_stateless_binomial_bcast_f64": (lambda tf, s: tf.random.stateless_binomial(
        [3, 2, 2], s, counts=tf.constant([[20.0], [200.0]], tf.float64), probs=tf.constant([0.5, 0.05], tf.float64),
        output_dtype=tf.float32), [SEED], None),
    "rx_stateless_binomial_edges": (lambda tf, s: tf.random.stateless_binomial(
        [4], s, counts=[0.0, 10.0, 10.0, 3.0], probs=[0.5, 0.0, 1.0, 0.2]), [SEED], None),
    "rx_stateless_ptn": (lambda tf, s: tf.random.stateless_parameterized_truncated_normal(
        [3, 4], s, means=[0.0, 1.0, 0.0, 0.0], stddevs=[1.0, 2.0, 1.0, 0.5], minvals=[-1.0, -5.0, 2.0, -0.1],
        maxvals=[1.0, 3.0, 4.0, 0.05]), [SEED], None),
    "rx_stateless_ptn_one_sided_f64": (lambda tf, s: tf.random.stateless_parameterized_truncated_normal(
        [6], s, means=tf.constant(0.0, tf.float64), stddevs=tf.constant(1.0, tf.float64),
        minvals=tf.constant(-np.inf, tf.float64), maxvals=tf.constant(-1.0, tf.float64)), [SEED], None),
    "rx_stateless_ptn_tail": (lambda tf, s: tf.random.stateless_parameterized_truncated_normal(
        [2, 3], s, means=1.0, stddevs=0.5, minvals=4.0, maxvals=np.inf), [SEED], None),
    "rx_stateless_ptn_default": (lambda tf, s: tf.random.stateless_parameterized_truncated_normal([2, 3], s),
                                 [SEED64], None),
    "rx_categorical": (_categorical, [LOGITS], None),
    "rx_categorical_int32": (lambda tf, x: _categorical(tf, x, tf.int32),
                             [np.array([[-np.inf, 0.0, 0.0, 3.0]], np.float32)], None),
    "rx_shuffle": (_shuffle, [np.arange(10, dtype=np.int32)], None),
    "rx_shuffle_rows": (_shuffle, [np.arange(12, dtype=np.int64).reshape(6, 2)], None),
    "rx_shuffle_one": (_shuffle, [np.array([[4, 5, 6]], np.int32)], None),
    "rx_stateless_shuffle": (lambda tf, x, s: tf.random.experimental.stateless_shuffle(x, s),
                             [np.arange(10, dtype=np.int32), SEED], None),
    "rx_stateless_shuffle_rows": (lambda tf, x, s: tf.random.experimental.stateless_shuffle(x, s),
                                  [np.arange(12, dtype=np.float32).reshape(6, 2), SEED64], None),
    "rx_index_shuffle": (lambda tf, i, s: tf.random.experimental.index_shuffle(i, s, 9),
                         [np.arange(10, dtype=np.int64), SEED], None),
    "rx_random_index_shuffle": (lambda tf, i, s: tf.random_index_shuffle(i, s, 100000, rounds=6),
                                [np.array([3, 70000, 100000], np.uint64), np.array([5, 6, 7], np.uint64)], None),
    "rx_random_index_shuffle_per_index": (lambda tf, i, s: tf.random_index_shuffle(i, s, 2 ** 40),
                                          [np.array([0, 7], np.int64), np.array([[1, 2, 3], [-4, 5, 2 ** 40]],
                                                                               np.int64)], None),
    "rx_gamma": (_gamma, [], None),
    "rx_gamma_beta_f64": (_gamma_beta, [], None),
    "rx_poisson": (_poisson, [], None),
    "rx_poisson_int": (_poisson_int, [np.array([[3.0], [25.0]], np.float32)], None),
    "rx_uniform_sampler": (_sampler("uniform", True, range_max=10), [TRUE], None),
    "rx_uniform_sampler_repeats": (_sampler("uniform", False, range_max=10), [TRUE], None),
    "rx_uniform_sampler_big": (_sampler("uniform", True, range_max=1000003, num_sampled=4), [TRUE], None),
    "rx_log_uniform_sampler": (_sampler("log_uniform", True, range_max=10), [TRUE], None),
    "rx_log_uniform_sampler_repeats": (_sampler("log_uniform", False, range_max=50), [TRUE], None),
    "rx_learned_unigram_sampler": (_learned_twice, [TRUE], None),
    "rx_fixed_unigram_sampler": (_sampler("fixed_unigram", True, num_sampled=5, range_max=12, distortion=0.75,
                                          num_reserved_ids=2, unigrams=UNIGRAMS), [TRUE], None),
    "rx_fixed_unigram_sampler_repeats": (_sampler("fixed_unigram", False, num_sampled=8, range_max=10,
                                                  unigrams=UNIGRAMS), [TRUE[:, :1]], None),
    "rx_fixed_unigram_sampler_shard": (_sampler("fixed_unigram", True, num_sampled=3, range_max=5, num_shards=2,
                                                shard=1, unigrams=UNIGRAMS), [TRUE[:, :1] % 5], None),
    "rx_all_sampler": (_sampler("all", True, num_sampled=10), [TRUE], None),
}
