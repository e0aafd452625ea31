"""Stateful tf.random (set_seed / uniform / normal / truncated_normal / nn.dropout) and tf.nn.convolution 3-D.

The stateful values below were recorded once from real TensorFlow 2.21 (eager and tf.function,
tools-free: the script is `_scenario`, run with `tensorflow` as `tf`); minixla reproduces TF's
seed rules and its CPU kernels' Philox streams, so they match bit for bit eagerly and in tf.function.
Under jit_compile=True TF's XLA kernels draw other numbers: there we check determinism and statistics.
Conv3D has no golden (TF 2.21's eager Conv3D gradient fails: `_Conv3DGrad` reads a None data_format), so
it is checked against numpy and its gradient against finite differences.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf


def _scenario(tf):
    out = {}
    tf.random.set_seed(1)
    out["eager_u"] = tf.random.uniform([5]).numpy()
    out["eager_n"] = tf.random.normal([3], mean=1.0, stddev=2.0).numpy()
    out["eager_t"] = tf.random.truncated_normal([6], dtype=tf.float64).numpy()
    out["eager_op1"] = tf.random.uniform([3], seed=5).numpy()
    out["eager_op2"] = tf.random.uniform([3], seed=5).numpy()
    out["eager_int"] = tf.random.uniform([6], -4, 10, dtype=tf.int32, seed=3).numpy()
    out["eager_int64"] = tf.random.uniform([3], -2**40, 2**40, dtype=tf.int64, seed=4).numpy()
    out["eager_dropout"] = tf.nn.dropout(tf.ones([2, 5]), 0.4, seed=2).numpy()
    tf.random.set_seed(1)
    out["eager_u_again"] = tf.random.uniform([5]).numpy()
    tf.random.set_seed(None)
    out["opseed_only"] = tf.random.normal([4], seed=7).numpy()
    tf.random.set_seed(0)
    out["zero_seed"] = tf.random.uniform([2], seed=0).numpy()
    tf.random.set_seed(12)

    @tf.function
    def f():
        return tf.random.uniform([3]), tf.random.normal([2], seed=9), tf.nn.dropout(tf.ones([4]), 0.5)

    a = f()
    b = f()
    for k in range(3):
        out[f"fn_call1_{k}"] = a[k].numpy()
        out[f"fn_call2_{k}"] = b[k].numpy()
    return out


TF_2_21 = {
    "eager_u": np.array([0.1651308536529541, 0.9014812707901001, 0.6309741735458374, 0.4345461130142212, 0.29193902015686035], np.float32),
    "eager_n": np.array([1.806175708770752, -1.176041603088379, 0.873809278011322], np.float32),
    "eager_t": np.array([0.6436888396525805, 0.7045449682140991, 0.40964644109476267, 0.21885435512073015, -1.7196237159672303, -1.3516270989562684], np.float64),
    "eager_op1": np.array([0.19560599327087402, 0.029860854148864746, 0.3649308681488037], np.float32),
    "eager_op2": np.array([0.4430607557296753, 0.8878122568130493, 0.529292106628418], np.float32),
    "eager_int": np.array([-1, 6, 3, 8, -3, 9], np.int32),
    "eager_int64": np.array([849249129568, -268976963123, -240923357689], np.int64),
    "eager_dropout": np.array([[1.6666666269302368, 1.6666666269302368, 0.0, 0.0, 1.6666666269302368], [0.0, 1.6666666269302368, 0.0, 1.6666666269302368, 0.0]], np.float32),
    "eager_u_again": np.array([0.1651308536529541, 0.9014812707901001, 0.6309741735458374, 0.4345461130142212, 0.29193902015686035], np.float32),
    "opseed_only": np.array([-0.046945683658123016, -1.2039023637771606, 1.1668351888656616, 1.1706204414367676], np.float32),
    "zero_seed": np.array([0.01975703239440918, 0.0070421695709228516], np.float32),
    "fn_call1_0": np.array([0.8373631238937378, 0.8615368604660034, 0.34128880500793457], np.float32),
    "fn_call2_0": np.array([0.777360200881958, 0.7951500415802002, 0.5547592639923096], np.float32),
    "fn_call1_1": np.array([1.3550019264221191, 0.34425729513168335], np.float32),
    "fn_call2_1": np.array([0.6785575151443481, -1.4571914672851562], np.float32),
    "fn_call1_2": np.array([2.0, 2.0, 0.0, 0.0], np.float32),
    "fn_call2_2": np.array([2.0, 0.0, 2.0, 2.0], np.float32),
}


def test_stateful_random_matches_tensorflow_eager_and_function():
    got = _scenario(tf)
    for k, want in TF_2_21.items():
        assert got[k].dtype == want.dtype, k
        np.testing.assert_array_equal(got[k], want, err_msg=k)


def test_stateful_random_jit_reproducible_and_distributed():
    tf.random.set_seed(3)

    @tf.function(jit_compile=True)
    def draw():
        return (tf.random.uniform([20000], -1.0, 3.0), tf.random.normal([20000], 2.0, 0.5),
                tf.random.truncated_normal([20000]), tf.nn.dropout(tf.ones([20000]), 0.3))

    u, n, t, d = (x.numpy() for x in draw())
    u2 = draw()[0].numpy()
    assert not np.array_equal(u, u2)  # a stateful op advances on every call
    tf.random.set_seed(3)

    @tf.function(jit_compile=True)
    def draw_again():
        return tf.random.uniform([20000], -1.0, 3.0)

    np.testing.assert_array_equal(draw_again().numpy(), u)  # same global seed, same per-graph op seed
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.05
    assert abs(n.mean() - 2.0) < 0.02 and abs(n.std() - 0.5) < 0.02
    assert np.abs(t).max() < 2.0 and abs(t.mean()) < 0.03 and abs(t.std() - 0.8796) < 0.02
    assert set(np.unique(d)) <= {0.0, np.float32(1 / 0.7)} and abs((d == 0).mean() - 0.3) < 0.02


def test_unseeded_ops_differ_and_dropout_rate_zero():
    tf.random.set_seed(None)
    assert not np.array_equal(tf.random.uniform([8]).numpy(), tf.random.uniform([8]).numpy())
    x = tf.constant([1.0, 2.0])
    assert tf.nn.dropout(x, 0.0) is x
    with pytest.raises(ValueError, match=r"`rate` must be a scalar tensor or a float in the range \[0, 1\)"):
        tf.nn.dropout(x, 1.0)
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
        tf.random.uniform([2], dtype=tf.int32)


def _conv3d_same(x, k):
    n, d, h, w, c = x.shape
    kd, kh, kw, _, o = k.shape
    pads = [((kk - 1) // 2, kk - 1 - (kk - 1) // 2) for kk in (kd, kh, kw)]
    xp = np.pad(x.astype(np.float64), [(0, 0), *pads, (0, 0)])
    out = np.zeros((n, d, h, w, o))
    for i in range(d):
        for j in range(h):
            for m in range(w):
                out[:, i, j, m] = np.einsum("ndhwc,dhwco->no", xp[:, i:i + kd, j:j + kh, m:m + kw], k)
    return out


@pytest.mark.parametrize("jit", [False, True])
def test_convolution_3d(jit):
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, (1, 4, 5, 4, 2)).astype(np.float32)
    k = rng.uniform(-1, 1, (2, 3, 2, 2, 3)).astype(np.float32)
    fn = tf.function(lambda a, b: tf.nn.convolution(a, b, padding="SAME"), jit_compile=True) if jit else \
        (lambda a, b: tf.nn.convolution(a, b, padding="SAME"))
    np.testing.assert_allclose(fn(tf.constant(x), tf.constant(k)).numpy(), _conv3d_same(x, k), rtol=1e-5, atol=1e-5)
    xt = tf.constant(x.astype(np.float64))
    kt = tf.constant(k.astype(np.float64))
    with tf.GradientTape() as tape:
        tape.watch(kt)
        y = tf.reduce_sum(tf.square(tf.nn.convolution(xt, kt, padding="SAME")))
    g = tape.gradient(y, kt).numpy()
    eps, idx = 1e-6, (1, 2, 0, 1, 2)
    kp, km = k.astype(np.float64).copy(), k.astype(np.float64).copy()
    kp[idx] += eps
    km[idx] -= eps
    fd = ((_conv3d_same(x, kp) ** 2).sum() - (_conv3d_same(x, km) ** 2).sum()) / (2 * eps)
    assert abs(g[idx] - fd) < 1e-5 * (1 + abs(fd))


def _generator_scenario(tf):
    out = {}
    g = tf.random.Generator.from_seed(5)
    out["g_u"] = g.uniform([3]).numpy()
    out["g_n"] = g.normal([2, 3], 1.0, 0.5).numpy()
    out["g_state"] = g.state.numpy()
    out["g_t"] = g.truncated_normal([5], dtype=tf.float64).numpy()
    out["g_int"] = g.uniform([4], 0, 100, dtype=tf.int64).numpy()
    out["g_full"] = g.uniform_full_int([2], dtype=tf.uint32).numpy()
    g2 = tf.random.Generator.from_seed(2**70 + 9)
    out["g2_state"] = g2.state.numpy()
    out["g2_u"] = g2.uniform([2], -1.0, 1.0, dtype=tf.float64).numpy()
    g3 = tf.random.Generator.from_seed(11)

    @tf.function
    def f():
        return g3.normal([3])

    out["g3_fn1"] = f().numpy()
    out["g3_fn2"] = f().numpy()
    out["g3_state"] = g3.state.numpy()
    out["rng_state"] = tf.random.create_rng_state(1234, "philox").numpy()
    return out


GENERATOR_TF_2_21 = {
    "g_u": np.array([0.5670160055160522, 0.20770859718322754, 0.18223881721496582], np.float32),
    "g_n": np.array([[0.1715031862258911, 1.4920361042022705, 1.5950734615325928], [0.26006436347961426, 1.222226858139038, 2.171010971069336]], np.float32),
    "g_state": np.array([2309, 0, 0], np.int64),
    "g_t": np.array([0.2300871940082297, -0.5042690160099887, 0.18317578599165305, 0.5474173440507593, -0.22026719352032914], np.float64),
    "g_int": np.array([50, 52, 53, 10], np.int64),
    "g_full": np.array([1290060579, 3113240098], np.uint32),
    "g2_state": np.array([9, 64, 0], np.int64),
    "g2_u": np.array([0.8019503504876426, 0.9230266590070033], np.float64),
    "g3_fn1": np.array([0.27305737137794495, -0.2992563843727112, -0.3652324974536896], np.float32),
    "g3_fn2": np.array([1.6197782754898071, -0.3625394403934479, -2.65564227104187], np.float32),
    "g3_state": np.array([1547, 0, 0], np.int64),
    "rng_state": np.array([1234, 0, 0], np.int64),
}


def test_generator_matches_tensorflow():
    got = _generator_scenario(tf)
    for k, want in GENERATOR_TF_2_21.items():
        assert got[k].dtype == want.dtype, k
        np.testing.assert_array_equal(got[k], want, err_msg=k)


def test_generator_jit_continues_the_same_stream():
    g = tf.random.Generator.from_seed(11)
    f = tf.function(lambda: g.normal([3]), jit_compile=True)
    np.testing.assert_array_equal(f().numpy(), GENERATOR_TF_2_21["g3_fn1"])
    np.testing.assert_array_equal(f().numpy(), GENERATOR_TF_2_21["g3_fn2"])
    np.testing.assert_array_equal(g.state.numpy(), GENERATOR_TF_2_21["g3_state"])


def test_stateless_categorical_int64_seed_has_no_xla_kernel():
    """TF 2.21 registers StatelessMultinomial's XLA kernel for int32 seeds only (recorded: jit_compile=True
    with an int64 seed raises "Detected unsupported operations ... StatelessMultinomial"); eagerly it runs."""
    logits = tf.constant([[0.0, 1.0, 2.0]])
    seed = tf.constant(np.array([3, 2**40], np.int64))
    assert tf.random.stateless_categorical(logits, 4, seed).shape == (1, 4)
    assert tf.function(lambda l, s: tf.random.stateless_categorical(l, 4, s))(logits, seed).shape == (1, 4)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="No registered 'StatelessMultinomial' OpKernel for XLA_CPU_JIT"):
        tf.function(lambda l, s: tf.random.stateless_categorical(l, 4, s), jit_compile=True)(logits, seed)
