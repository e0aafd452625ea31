"""tf.nn breadth (frontend/api/nn_extras.py and the modules it installs) against real TensorFlow 2.21
(tests/golden/nn/, recorded by `record_tf_goldens.py --cases tests/frontend/nn_cases.py --out
tests/golden/nn`): every case eagerly, in tf.function and under jit_compile=True, forward and
gradient, plus numpy references where the table has them.

Where TF cannot compile a case under XLA (MaxPoolWithArgmax, IsotonicRegression,
AllCandidateSampler, the accidental-hit scatter of the sampled losses) our decomposition can, so its
jit results are compared with TF's eager ones; TF then records no gradient either. Tolerance (rtol = atol) 2e-5 for the convolutions and reductions
(other summation orders), twice that for gradients.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.nn_cases import CASES
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "nn"
TABLE = "tests/frontend/nn_cases.py"
TOLERANCE = dict.fromkeys(CASES, 2e-5)
NAMES = sorted(CASES)


#: host ops, as in TF (no XLA kernel): under jit they fail with TF's error
HOST_ONLY = {"nn_compute_accidental_hits"}
#: outputs whose width depends on the data: TF's XLA pads them dynamically, ours cannot compile
#: them (a host Where) -- a known gap, checked to fail clearly
DYNAMIC_WIDTH = {"nn_collapse_repeated"}


def _data(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    if mode == "jit" and "jit_error" in data and name not in HOST_ONLY:  # TF cannot compile it; we can: compare with TF's eager result
        data = {k: v for k, v in data.items() if not k.startswith("jit_")}
    return data


# the CTC forward recursion is unrolled over the frames: compiling it under jit takes ~6 s per case
# on 2 cores, so one case runs by default and the others with `python -m pytest -m slow`
SLOW_FORWARD = {("nn_ctc_loss_blank_last", "jit"), ("nn_ctc_loss_batch_major", "jit")}
FORWARD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if (n, m) in SLOW_FORWARD else (n, m)
                 for n in NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", FORWARD_CASES)
def test_nn_forward_against_tensorflow(name, mode):
    if mode == "jit" and name in HOST_ONLY:
        data = replay.load(GOLDEN, name, TABLE)
        err_type, message = str(data["jit_error"]).split(": ", 1)
        with pytest.raises(getattr(tf.errors, err_type)) as info:
            tf.function(lambda *a: CASES[name][0](tf, *a), jit_compile=True)(*map(tf.constant, replay._inputs(data)))
        assert str(info.value).startswith(message.split(" graph ")[0])
        assert "No registered 'ComputeAccidentalHits' OpKernel for XLA_CPU_JIT" in str(info.value)
        return
    if mode == "jit" and name in DYNAMIC_WIDTH:
        with pytest.raises(tf.errors.InvalidArgumentError, match="No registered 'Where' OpKernel for XLA_CPU_JIT"):
            data = replay.load(GOLDEN, name, TABLE)
            tf.function(lambda *a: CASES[name][0](tf, *a), jit_compile=True)(*map(tf.constant, replay._inputs(data)))
        return
    replay.check_forward(_data(name, mode), CASES[name][0], name, mode, TOLERANCE[name])


GRAD_NAMES = [n for n in NAMES if replay.has_gradient(GOLDEN, n)]
# jit gradients compile a second program per case: `python -m pytest -m slow`
GRAD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" else (n, m) for n in GRAD_NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", GRAD_CASES)
def test_nn_gradient_against_tensorflow(name, mode):
    replay.check_gradient(_data(name, mode), CASES[name][0], name, mode, 2 * TOLERANCE[name])


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_nn_against_numpy(name):
    fn, inputs, want = CASES[name]
    got = fn(tf, *[tf.constant(a) for a in inputs])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)


def test_dilated_same_pooling_is_a_value_error():
    with pytest.raises(ValueError, match="'SAME' padding is not implemented for `dilation_rate` > 1"):
        tf.nn.pool(tf.zeros([1, 4, 4, 1]), [2, 2], "MAX", padding="SAME", dilations=[2, 2])


def test_space_to_depth_needs_divisible_sizes():
    with pytest.raises(tf.errors.InvalidArgumentError, match="should be divisible by block_size"):
        tf.nn.space_to_depth(tf.zeros([1, 5, 4, 1]), 2)


def test_in_top_k_is_false_for_bad_targets_and_non_finite_rows():
    p = tf.constant([[0.1, 0.9, 0.5], [np.nan, 1.0, 0.0], [1.0, 1.0, 1.0]])
    got = tf.nn.in_top_k(tf.constant([1, 1, 2]), p, 1).numpy().tolist()
    assert got == [True, False, True]  # ties count as in the top k, as TF's kernel
    assert tf.nn.in_top_k(tf.constant([3]), tf.constant([[0.0, 1.0, 2.0]]), 3).numpy().tolist() == [False]


@pytest.mark.parametrize("decreasing", [True, False])
def test_isotonic_regression_gradient_is_the_block_mean(decreasing):
    """TF records no gradient here (its op has no XLA kernel); d(sum u y)/dx_i is the mean of u over
    x_i's block, as TF's IsotonicRegression gradient."""
    x = tf.constant(np.random.default_rng(3).standard_normal((2, 9)).astype(np.float32))
    u = np.random.default_rng(4).standard_normal((2, 9)).astype(np.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, segments = tf.nn.isotonic_regression(x, decreasing=decreasing)
    got = tape.gradient(y, x, output_gradients=tf.constant(u)).numpy()
    seg = segments.numpy()
    want = np.stack([[u[r][seg[r] == seg[r][i]].mean() for i in range(9)] for r in range(2)])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert seg.max() > 0  # a real fit, not one block


class _AddCell:
    state_size = 4
    output_size = 4

    def __call__(self, inputs, state):
        return inputs + state[0], [inputs * 2.0]


def test_rnn_dropout_wrapper_drops_and_rescales():
    """keep 0.5: about half of the outputs are 0 and the rest are doubled (TF's stream is not replayed)."""
    cell = tf.nn.RNNCellDropoutWrapper(_AddCell(), output_keep_prob=0.5, state_keep_prob=0.5, seed=1)
    x = tf.ones([200, 4])
    out, state = cell(x, cell.zero_state(200, tf.float32))
    for v in (out.numpy(), state[0].numpy()):
        assert set(np.unique(v).tolist()) <= {0.0, 2.0, 4.0}
        assert 0.35 < np.mean(v == 0) < 0.65


def test_rnn_wrappers_delegate_sizes_and_check_probabilities():
    cell = tf.nn.RNNCellResidualWrapper(_AddCell())
    assert (cell.state_size, cell.output_size) == (4, 4)
    assert cell.get_initial_state(batch_size=3, dtype=tf.float32).shape == (3, 4)
    with pytest.raises(ValueError, match="input_keep_prob must be between 0 and 1"):
        tf.nn.RNNCellDropoutWrapper(_AddCell(), input_keep_prob=1.5)


def test_all_candidate_sampler_checks_the_true_classes_range():
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        tf.nn.all_candidate_sampler(tf.constant([[1], [7]], tf.int64), 1, 5, True)


def test_sampled_losses_default_to_log_uniform_classes():
    """Without sampled_values the classes come from the log-uniform sampler (TF's stream is not
    replayed): a finite positive loss per example, and gradients for the weights."""
    w = tf.constant(np.random.default_rng(2).standard_normal((50, 4)).astype(np.float32))
    x = tf.constant(np.random.default_rng(3).standard_normal((3, 4)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(w)
        loss = tf.nn.sampled_softmax_loss(w, tf.zeros([50]), tf.constant([[1], [2], [30]]), x, 8, 50, seed=4)
    assert loss.shape == (3,) and np.all(np.isfinite(loss.numpy())) and np.all(loss.numpy() > 0)
    assert np.count_nonzero(np.abs(tape.gradient(loss, w).numpy()).sum(1)) >= 3


def test_log_uniform_sampler_expected_counts():
    """TF 2.21's expected counts for classes 1 and 2 of range 10, 3 draws with replacement."""
    r = tf.random.log_uniform_candidate_sampler(tf.constant([[1], [2]], tf.int64), 1, 3, False, 10, seed=1)
    np.testing.assert_allclose(r.true_expected_count.numpy().ravel(), [0.5072763, 0.35991824], rtol=1e-6)
    u = tf.random.uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 4, True, 6, seed=1)
    assert len(set(u.sampled_candidates.numpy().tolist())) == 4


def _numpy_fractional(x, rows, cols, overlapping, reduce):
    def window(seq, i, n):
        return slice(seq[i], min(seq[i + 1] + 1, n) if overlapping else seq[i + 1])

    return np.stack([np.stack([reduce(x[:, window(rows, i, x.shape[1]), window(cols, j, x.shape[2])], axis=(1, 2))
                               for j in range(len(cols) - 1)], 1) for i in range(len(rows) - 1)], 1)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind, pseudo, overlapping", [("max", False, False), ("max", True, True),
                                                       ("avg", False, True), ("avg", True, False)])
def test_fractional_pools_follow_their_sequences(kind, pseudo, overlapping, mode):
    """TF's random stream is not replayed: the drawn boundaries must follow TF's rules (windows of
    k or k + 1, covering the input) and the pooled values must be those of the drawn windows."""
    x = np.random.default_rng(8).standard_normal((2, 11, 9, 3)).astype(np.float32)
    fn = getattr(tf.nn, f"fractional_{kind}_pool")

    def run(v):
        return fn(v, [1.0, 1.6, 1.3, 1.0], pseudo_random=pseudo, overlapping=overlapping, seed=5)

    if mode != "eager":
        run = tf.function(run, jit_compile=(mode == "jit"))
    y, rows, cols = (t.numpy() for t in run(tf.constant(x)))
    for seq, n, m in ((rows, 11, 6), (cols, 9, 6)):
        assert len(seq) == m + 1 and seq[0] == 0 and seq[-1] == n
        assert set(np.diff(seq).tolist()) <= {n // m, n // m + 1}
    want = _numpy_fractional(x, rows, cols, overlapping, np.max if kind == "max" else np.mean)
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)


def test_pseudo_random_sequences_follow_tfs_rules_for_every_draw():
    """The last boundary is the input length (TF sets it; the formula at i = m can overshoot)."""
    from minixla.frontend.api import random_stateful

    x = np.random.default_rng(8).standard_normal((1, 11, 9, 1)).astype(np.float32)
    state, kernels = dict(random_stateful._STATE), dict(random_stateful._KERNELS)
    try:
        for global_seed in range(40):
            tf.random.set_seed(global_seed)
            _, rows, cols = tf.nn.fractional_max_pool(x, [1.0, 1.6, 1.3, 1.0], pseudo_random=True, seed=5)
            for seq, n, m in ((rows.numpy(), 11, 6), (cols.numpy(), 9, 6)):
                assert seq[0] == 0 and seq[-1] == n and len(seq) == m + 1, (global_seed, seq)
                assert set(np.diff(seq).tolist()) <= {n // m, n // m + 1}, (global_seed, seq)
    finally:  # the global seed is process-wide: leave it as the tests after this one expect
        random_stateful._STATE.clear()
        random_stateful._STATE.update(state)
        random_stateful._KERNELS.clear()
        random_stateful._KERNELS.update(kernels)


def test_fractional_max_pool_gradient_goes_to_each_window_max():
    x = tf.constant(np.random.default_rng(9).standard_normal((1, 8, 7, 2)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, rows, cols = tf.nn.fractional_max_pool(x, [1.0, 1.5, 1.5, 1.0], seed=2)
    g = tape.gradient(y, x).numpy()
    assert g.sum() == y.numpy().size and set(np.unique(g).tolist()) <= {0.0, 1.0}
    np.testing.assert_array_equal(np.sort(x.numpy()[g == 1]), np.sort(y.numpy().reshape(-1)))


@pytest.mark.parametrize("mode", MODES)
def test_fixed_unigram_sampler_draws_by_the_unigrams(mode):
    """TF's stream is not replayed: frequencies follow unigrams ** distortion, reserved ids never
    come, expected counts are p * num_sampled (TF's rule without `unique`)."""
    p = np.array([0, 1, 4, 9, 16], np.float64) / 30  # unigrams [1, 2, 3, 4] squared, id 0 reserved

    def run(t):
        return tuple(tf.nn.fixed_unigram_candidate_sampler(t, 1, 6000, False, 5, distortion=2.0, num_reserved_ids=1,
                                                           unigrams=[1, 2, 3, 4], seed=7))

    if mode != "eager":
        run = tf.function(run, jit_compile=(mode == "jit"))
    sampled, true_count, sampled_count = (v.numpy() for v in run(tf.constant([[1], [4]], tf.int64)))
    np.testing.assert_allclose(np.bincount(sampled, minlength=5) / 6000, p, atol=0.02)
    np.testing.assert_allclose(true_count.ravel(), p[[1, 4]] * 6000, rtol=1e-5)
    np.testing.assert_allclose(sampled_count, p[sampled] * 6000, rtol=1e-5)


def test_fixed_unigram_sampler_unique():
    r = tf.nn.fixed_unigram_candidate_sampler(tf.constant([[2]], tf.int64), 1, 3, True, 5, unigrams=[1, 2, 3, 4],
                                              num_reserved_ids=1, seed=3)
    sampled = r.sampled_candidates.numpy()
    assert len(set(sampled.tolist())) == 3 and 0 not in sampled
    p = np.array([0, 0.1, 0.2, 0.3, 0.4])
    expected = r.sampled_expected_count.numpy()
    if not np.allclose(expected, 3 * p[sampled], rtol=1e-6):  # TF's shortcut when the first 3 draws differ
        # else one draw count for every class: 1 - (1 - p) ** tries, tries > 3
        tries = np.log1p(-expected) / np.log1p(-p[sampled])
        assert np.all(tries >= 3 - 1e-3) and np.ptp(tries) < 1e-3
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be equal to weights size"):
        tf.nn.fixed_unigram_candidate_sampler(tf.constant([[2]], tf.int64), 1, 3, True, 6, unigrams=[1, 2, 3, 4],
                                              num_reserved_ids=1)


_RNG = np.random.default_rng(21)
_X4 = _RNG.standard_normal((2, 6, 4, 8)).astype(np.float32)


def _first(x):
    return np.moveaxis(x, -1, 1)


@pytest.mark.parametrize("name, last, first", [
    ("depth_to_space", lambda x: tf.nn.depth_to_space(x, 2), lambda x: tf.nn.depth_to_space(x, 2, "NCHW")),
    ("space_to_depth", lambda x: tf.nn.space_to_depth(x, 2), lambda x: tf.nn.space_to_depth(x, 2, "NCHW")),
    ("max_pool1d", lambda x: tf.nn.max_pool1d(x[:, 0], 3, 2, "SAME"),
     lambda x: tf.nn.max_pool1d(x[:, :, 0], 3, 2, "SAME", "NCW")),
    ("conv3d_transpose", lambda x: tf.nn.conv3d_transpose(x[..., None, :4], tf.constant(_X4[0, :2, :2].reshape(2, 2, 1, 2, 4)),
                                                          [2, 12, 8, 1, 2], [1, 2, 2, 1, 1]),
     lambda x: tf.nn.conv3d_transpose(x[:, :4, ..., None], tf.constant(_X4[0, :2, :2].reshape(2, 2, 1, 2, 4)), [2, 2, 12, 8, 1],
                                      [1, 1, 2, 2, 1], data_format="NCDHW")),
])
def test_channels_first_matches_channels_last(name, last, first):
    """TF's CPU kernels take no channels-first input, so no golden: the same op on the transposed input."""
    want = last(tf.constant(_X4)).numpy()
    got = first(tf.constant(_first(_X4))).numpy()
    np.testing.assert_allclose(got, _first(want), rtol=1e-5, atol=1e-5)


def test_depthwise_backprop_filter_channels_first():
    x = _RNG.standard_normal((2, 6, 6, 3)).astype(np.float32)
    g = _RNG.standard_normal((2, 3, 3, 6)).astype(np.float32)
    want = tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 3, 2], g, [1, 2, 2, 1], "SAME").numpy()
    got = tf.nn.depthwise_conv2d_backprop_filter(_first(x), [3, 3, 3, 2], _first(g), [1, 1, 2, 2], "SAME",
                                                 data_format="NCHW", dilations=[1, 1, 1, 1]).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("call, message", [
    (lambda: tf.nn.space_to_batch(tf.zeros([1, 5, 4, 1]), [2, 2], [[0, 0], [0, 0]]),
     r"padded_shape\[0\]=5 is not divisible by block_shape\[0\]=2"),
    (lambda: tf.nn.depth_to_space(tf.zeros([1, 2, 2, 6]), 2), "Input depth dimension 6 should be divisible by: 4"),
    (lambda: tf.batch_to_space(tf.zeros([3, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]]),
     r"Input batch dimension \(3\) is not divisible by product of block sizes \(4\)"),
    (lambda: tf.nn.lrn(tf.zeros([2, 3])), "in must be 4-dimensional"),
    (lambda: tf.nn.in_top_k(tf.constant([1]), tf.zeros([1, 2, 3]), 1), "predictions must be 2-dimensional"),
    (lambda: tf.nn.dilation2d(tf.zeros([1, 4, 4, 2]), tf.zeros([2, 2, 3]), [1, 1, 1, 1], "SAME", "NHWC",
                              [1, 1, 1, 1]), "input and filter must have the same depth: 2 vs 3"),
    (lambda: tf.nn.conv3d_transpose(tf.zeros([1, 2, 3, 2, 2]), tf.zeros([2, 3, 2, 4, 2]), [1, 9, 5, 4, 4],
                                    [1, 2, 2, 2, 1], "SAME"), "Size of out_backprop doesn't match computed"),
])
def test_bad_input_is_tensorflows_error(call, message):
    """The error type (and text) of TF 2.21's kernels for the same call."""
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


@pytest.mark.parametrize("mode", MODES)
def test_learned_unigram_sampler_learns_the_true_classes(mode):
    """The expected counts TF 2.21 gives for three calls on true classes [1, 1, 3] (range 5, 4 draws):
    counts start at 1 and grow by the classes seen, each call sampling before it learns."""
    seed = 100 + MODES.index(mode)  # one sampler state per test

    def run(t):
        return tuple(tf.nn.learned_unigram_candidate_sampler(t, 1, 4, False, 5, seed=seed))

    if mode != "eager":
        run = tf.function(run, jit_compile=(mode == "jit"))
    t = tf.constant([[1], [1], [3]], tf.int64)
    for want in ([0.8, 0.8, 0.8], [1.5, 1.5, 1.0], [20 / 11, 20 / 11, 12 / 11]):
        sampled, true_count, sampled_count = (v.numpy() for v in run(t))
        np.testing.assert_allclose(true_count.ravel(), want, rtol=1e-6)
        assert sampled.shape == (4,) and sampled.min() >= 0 and sampled.max() < 5


def test_max_pool_with_argmax_gradient_is_max_pools():
    """TF records no gradient for it here (no XLA kernel); its gradient is max_pool's."""
    x = tf.constant(np.random.default_rng(6).standard_normal((2, 5, 5, 3)).astype(np.float32))
    up = tf.constant(np.random.default_rng(7).standard_normal((2, 3, 3, 3)).astype(np.float32))
    grads = []
    for pool in (lambda v: tf.nn.max_pool_with_argmax(v, 2, 2, "SAME")[0], lambda v: tf.nn.max_pool2d(v, 2, 2, "SAME")):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = pool(x)
        grads.append(tape.gradient(y, x, output_gradients=up).numpy())
    np.testing.assert_array_equal(grads[0], grads[1])
