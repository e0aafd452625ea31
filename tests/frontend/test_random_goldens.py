"""The rest of tf.random (frontend/api/random_extras.py, ops/random_extra_ops.py) against real
TensorFlow 2.21 (tests/golden/random/, recorded by `record_tf_goldens.py --cases
tests/frontend/random_cases.py --out tests/golden/random`), eagerly, in tf.function and under
jit_compile=True, plus statistical checks of the samplers on larger draws.

The values are TF's eager CPU kernels' bit for bit (float32 Box-Muller to the ulp of libm). Where TF
has no XLA kernel (gamma, poisson, binomial) jit_compile=True fails as in TF. Where TF compiles,
TF's XLA kernels draw other numbers: categorical and shuffle keep the eager stream under jit, and
stateless_parameterized_truncated_normal is a host op here, so under jit it is refused (TF compiles
it for int32 seeds).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.random_cases import CASES
from tests.frontend.test_goldens import MODES, _flat, _seq
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "random"
TABLE = "tests/frontend/random_cases.py"
NAMES = sorted(CASES)
#: TF compiles these (other numbers); ours is a host op, refused under jit_compile=True
#: two calls of one eager kernel (the second sees the first's updates); in a tf.function two ops
TWO_KERNELS_IN_A_GRAPH = {"rx_learned_unigram_sampler"}
HOST_UNDER_JIT = {n: "MinixlaParameterizedTruncatedNormalV2" for n in NAMES if n.startswith("rx_stateless_ptn")}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_random_forward_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    fn = CASES[name][0]
    if mode == "jit" and ("jit_error" in data or name in HOST_UNDER_JIT):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations"):
            tf.function(lambda *a: fn(tf, *a), jit_compile=True)(*[tf.constant(a) for a in replay._inputs(data)])
        return
    if mode == "function" and name in TWO_KERNELS_IN_A_GRAPH:  # each op is its own kernel: two first calls
        want = _seq(data, "output")[0]
        got = [t.numpy() for t in _flat(tf.function(lambda *a: fn(tf, *a))(*map(tf.constant, replay._inputs(data))))]
        half = len(got) // 2
        for g, w in zip(got[:half] + got[half:], want[:half] * 2):
            np.testing.assert_allclose(g, w, rtol=1e-6)
        return
    replay.check_forward(data, fn, name, mode, 1e-6, eager_stream=True)


GRAD_CASES = [(n, m) for n in NAMES if replay.has_gradient(GOLDEN, n) for m in ("eager", "function")]


@pytest.mark.parametrize("name, mode", GRAD_CASES)
def test_random_gradient_against_tensorflow(name, mode):
    """Gamma's reparameterization gradient (RandomGammaGrad: IgammaGradA over the density, TF's to ~1e-6)."""
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 2e-5)


def test_stateful_calls_advance_like_tensorflow():
    """Successive calls of one eager kernel and of one tf.function (TF 2.21's values)."""
    tf.random.set_seed(4)

    @tf.function
    def f():
        return (tf.random.categorical([[0.0, 1.0, 2.0]], 4), tf.random.shuffle(tf.range(6)),
                tf.random.gamma([2], 1.5), tf.random.poisson([2], 3.0))

    first, second = [[t.numpy() for t in f()] for _ in range(2)]
    np.testing.assert_array_equal(first[0], [[2, 1, 2, 1]])
    np.testing.assert_array_equal(second[0], [[0, 1, 1, 2]])
    np.testing.assert_array_equal(first[1], [1, 4, 3, 2, 0, 5])
    np.testing.assert_array_equal(second[1], [1, 0, 3, 2, 5, 4])
    np.testing.assert_allclose(first[2], [0.8457843, 3.4492607], rtol=1e-6)
    np.testing.assert_allclose(second[2], [1.0028428, 0.510471], rtol=1e-6)
    np.testing.assert_array_equal(first[3], [2.0, 0.0])
    np.testing.assert_array_equal(second[3], [3.0, 2.0])
    tf.random.set_seed(None)
    a = tf.random.gamma([3], [0.7, 4.0], seed=3).numpy()
    b = tf.random.gamma([3], [0.7, 4.0], seed=3).numpy()
    assert not np.array_equal(a, b)  # the eager kernel's counter moved on
    tf.random.set_seed(None)
    np.testing.assert_array_equal(tf.random.gamma([3], [0.7, 4.0], seed=3).numpy(), a)
    # one kernel per attribute set: another output dtype starts its own stream (TF: [5, 4] both times)
    np.testing.assert_array_equal(tf.random.poisson([2], 3.0, seed=1).numpy(), [5.0, 4.0])
    np.testing.assert_array_equal(tf.random.poisson([2], 3.0, seed=1, dtype=tf.int32).numpy(), [5, 4])


def _moments(x):
    x = np.asarray(x, np.float64).reshape(-1)
    return x.mean(), x.var()


def _z(mean, want_mean, want_var, n):
    return abs(mean - want_mean) / math.sqrt(want_var / n)


def test_samplers_have_the_right_moments():
    n, s = 4000, tf.constant([1, 2])
    for alpha in (0.3, 1.0, 4.5):  # gamma(alpha): mean = var = alpha
        m, v = _moments(tf.random.stateless_gamma([n], s, alpha=alpha, dtype=tf.float64))
        assert _z(m, alpha, alpha, n) < 4 and abs(v / alpha - 1) < 0.15, (alpha, m, v)
    for lam in (3.0, 40.0):  # both Poisson algorithms: mean = var = lam
        m, v = _moments(tf.random.stateless_poisson([n], s, lam=lam))
        assert _z(m, lam, lam, n) < 4 and abs(v / lam - 1) < 0.15, (lam, m, v)
    for count, p in ((20.0, 0.2), (500.0, 0.3), (60.0, 0.9)):  # inversion, BTRS, flipped
        m, v = _moments(tf.random.stateless_binomial([n], s, count, p))
        assert _z(m, count * p, count * p * (1 - p), n) < 4 and abs(v / (count * p * (1 - p)) - 1) < 0.15
    for lo, hi in ((-1.0, 1.0), (0.5, 0.8), (2.5, np.inf), (-np.inf, -0.5)):  # all three samplers
        x = tf.random.stateless_parameterized_truncated_normal([n], s, 0.0, 1.0, lo, hi).numpy()
        pdf = [math.exp(-t * t / 2) / math.sqrt(2 * math.pi) if np.isfinite(t) else 0.0 for t in (lo, hi)]
        mass = (math.erf(hi / math.sqrt(2)) - math.erf(lo / math.sqrt(2))) / 2
        want = (pdf[0] - pdf[1]) / mass  # the truncated standard normal's mean
        assert x.min() >= lo and x.max() <= hi and abs(x.mean() - want) < 4 / math.sqrt(n), (lo, hi, x.mean(), want)
    logits = np.log(np.array([[0.2, 0.5, 0.3]], np.float32))
    counts = np.bincount(tf.random.categorical(logits, n, seed=1).numpy()[0], minlength=3) / n
    np.testing.assert_allclose(counts, [0.2, 0.5, 0.3], atol=0.03)


def test_shuffle_is_a_permutation_of_rows():
    x = np.arange(40, dtype=np.float32).reshape(20, 2)
    y = tf.random.shuffle(x, seed=3).numpy()
    np.testing.assert_array_equal(np.sort(y[:, 0]), x[:, 0])
    np.testing.assert_array_equal(y[:, 1], y[:, 0] + 1)
    assert not np.array_equal(y, x)


def test_names_and_global_generator():
    assert [a.value for a in tf.random.Algorithm] == [1, 2, 3]
    assert tf.random.Algorithm.PHILOX.name == "PHILOX"
    g = tf.random.Generator.from_seed(5)
    tf.random.set_global_generator(g)
    assert tf.random.get_global_generator() is g
    np.testing.assert_array_equal(tf.random.get_global_generator().normal([2]).numpy(),
                                  tf.random.Generator.from_seed(5).normal([2]).numpy())
    tf.random.set_global_generator(None)
    assert isinstance(tf.random.get_global_generator(), tf.random.Generator)


def test_bad_arguments_raise_tensorflows_errors():
    s = tf.constant([1, 2])
    with pytest.raises(ValueError, match="Argument `dtype` got invalid value"):
        tf.random.categorical([[0.0, 1.0]], 2, dtype=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shape passed in must end with broadcasted shape"):
        tf.random.stateless_gamma([3, 2], s, alpha=[1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid parameters"):
        tf.random.stateless_parameterized_truncated_normal([2], s, 0.0, 1.0, 1.0, -1.0)
    with pytest.raises(tf.errors.InternalError, match="exponential distribution rejection sampler failed"):
        tf.random.stateless_parameterized_truncated_normal([3], s, float("nan"), 1.0, 0.0, 1.0)  # TF's 1000 tries
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a double tensor"):
        tf.random.stateless_parameterized_truncated_normal([2], s, tf.constant(0.0, tf.float64), 1.0)


def test_candidate_sampler_expected_counts_follow_tensorflows_formulas():
    true = tf.constant([[0, 3], [9, 1]], tf.int64)
    n, rng = 6, 50
    out = tf.random.log_uniform_candidate_sampler(true, 2, n, False, rng, seed=1)
    p = lambda v: np.log((v + 2.0) / (v + 1.0)) / np.log1p(rng)  # noqa: E731
    np.testing.assert_allclose(out.sampled_expected_count.numpy(), n * p(out.sampled_candidates.numpy()), rtol=1e-6)
    np.testing.assert_allclose(out.true_expected_count.numpy(), n * p(true.numpy()), rtol=1e-6)
    out = tf.random.uniform_candidate_sampler(true, 2, n, True, 12, seed=2)
    assert len(set(out.sampled_candidates.numpy().tolist())) == n
    count = out.sampled_expected_count.numpy()[0]
    tries = round(np.log1p(-count) / np.log1p(-1 / 12))  # 1 - (1 - p)^tries, tries >= num_sampled
    assert tries >= n
    np.testing.assert_allclose(out.true_expected_count.numpy(), -np.expm1(tries * np.log1p(-1 / 12)), rtol=1e-6)
    out = tf.random.all_candidate_sampler(true, 2, 10, True)
    np.testing.assert_array_equal(out.sampled_candidates.numpy(), np.arange(10))
    np.testing.assert_array_equal(out.true_expected_count.numpy(), np.ones([2, 2], np.float32))


def test_candidate_samplers_draw_their_distributions():
    true = tf.constant([[0]], tf.int64)
    draws = np.concatenate([tf.random.log_uniform_candidate_sampler(true, 1, 200, False, 20, seed=s)
                            .sampled_candidates.numpy() for s in range(10)])
    want = np.log((np.arange(20) + 2.0) / (np.arange(20) + 1.0)) / np.log(21.0)
    np.testing.assert_allclose(np.bincount(draws, minlength=20) / draws.size, want, atol=0.03)
    unigrams = [1.0, 2.0, 3.0, 4.0]
    draws = np.concatenate([tf.random.fixed_unigram_candidate_sampler(true, 1, 200, False, 4, unigrams=unigrams,
                                                                      seed=s).sampled_candidates.numpy()
                            for s in range(10)])
    np.testing.assert_allclose(np.bincount(draws, minlength=4) / draws.size, np.array(unigrams) / 10, atol=0.03)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations"):
        tf.function(lambda t: tf.random.uniform_candidate_sampler(t, 1, 2, True, 5).sampled_candidates,
                    jit_compile=True)(true)
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        tf.random.uniform_candidate_sampler(tf.constant([[7]], tf.int64), 1, 2, True, 5)
