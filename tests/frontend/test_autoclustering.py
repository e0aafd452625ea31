"""Autoclustering (frontend/autoclustering.py): `tf.config.optimizer.set_jit` and TF_XLA_FLAGS turn it on
for tf.functions without jit_compile; compilable ops are compiled in clusters, the rest runs op by op.
Every result is checked against the same function run op by op (autoclustering off) and against numpy."""

import io
import re
import sys

import numpy as np
import pytest

from minixla.frontend import tf
from minixla.frontend.api.config import _STATE


@pytest.fixture(autouse=True)
def _restore_jit_setting(monkeypatch):
    monkeypatch.delenv("TF_XLA_FLAGS", raising=False)
    saved = _STATE.jit
    yield
    _STATE.jit = saved


def _clusters(text: str) -> list[str]:
    return re.findall(r"^  (cluster_\d+): (\d+) ops .*compiled on (\w+)$", text, re.MULTILINE)


X = np.linspace(-2.0, 2.0, 24, dtype=np.float32).reshape(4, 6)
W = np.linspace(0.5, -0.5, 18, dtype=np.float32).reshape(6, 3)


def _reference(x, w):
    h = np.maximum(x.astype(np.float64) @ w, 0.0)
    return (np.tanh(h) * 2.0 + 1.0).sum(axis=1)


def test_set_jit_and_get_jit():
    assert tf.config.optimizer.get_jit() == ""
    tf.config.optimizer.set_jit("autoclustering")
    assert tf.config.optimizer.get_jit() == "autoclustering"
    tf.config.optimizer.set_jit(False)
    assert tf.config.optimizer.get_jit() == ""
    tf.config.optimizer.set_jit(True)
    assert tf.config.optimizer.get_jit() == "autoclustering"
    with pytest.raises(ValueError, match="set_jit"):
        tf.config.optimizer.set_jit("sometimes")


@pytest.mark.parametrize("flags", ["--tf_xla_auto_jit=2", "--tf_xla_auto_jit=1", "--tf_xla_auto_jit=single-gpu(2)"])
def test_tf_xla_flags_turn_it_on(monkeypatch, flags):
    monkeypatch.setenv("TF_XLA_FLAGS", flags)
    assert tf.config.optimizer.get_jit() == "autoclustering"
    f = tf.function(lambda x, w: tf.reduce_sum(tf.tanh(tf.nn.relu(x @ w)) * 2.0 + 1.0, axis=1))
    np.testing.assert_allclose(f(X, W).numpy(), _reference(X, W), rtol=1e-5)
    assert len(_clusters(f.why())) == 1
    tf.config.optimizer.set_jit(False)  # the API setting wins over the environment
    assert tf.config.optimizer.get_jit() == ""


def test_print_stays_outside_and_splits_the_graph(capsys):
    tf.config.optimizer.set_jit(True)

    def body(x, w):
        h = tf.nn.relu(tf.matmul(x, w))
        tf.print("h sum", tf.reduce_sum(h))
        return tf.reduce_sum(tf.tanh(h) * 2.0 + 1.0, axis=1)

    f = tf.function(body)
    got = f(X, W).numpy()
    np.testing.assert_allclose(got, _reference(X, W), rtol=1e-5)
    text = f.why()
    assert "outside: PrintV2" in text and "no XLA kernel" in text and "test_autoclustering.py" in text
    # the print sits between matmul/relu and the tanh part, but neither depends on it: one cluster
    # before (phase 0) holds everything compilable
    assert len(_clusters(text)) >= 1
    assert "h sum" in capsys.readouterr().err
    tf.config.optimizer.set_jit(False)
    plain = tf.function(body)
    np.testing.assert_array_equal(plain(X, W).numpy(), got)


def test_a_path_through_a_host_op_separates_clusters():
    """b needs both a and host(a): a and b in one cluster would need the host op inside it (a cycle)."""
    tf.config.optimizer.set_jit(True)

    def host_double(v):
        return np.asarray(v) * 2.0

    def body(x):
        a = tf.exp(x) + tf.sin(x) * 3.0 - tf.cos(x)
        a = a * a + 1.0
        via_host = tf.numpy_function(host_double, [a], tf.float32, stateful=False)
        via_host = tf.ensure_shape(via_host, a.shape)
        b = tf.sqrt(a) + via_host
        return tf.reduce_mean(b * b - a, axis=0) + 0.5

    f = tf.function(body)
    got = f(X).numpy()
    x = X.astype(np.float64)
    a = np.exp(x) + np.sin(x) * 3 - np.cos(x)
    a = a * a + 1
    b = np.sqrt(a) + 2 * a
    np.testing.assert_allclose(got, (b * b - a).mean(axis=0) + 0.5, rtol=1e-5)
    clusters = _clusters(f.why())
    assert len(clusters) == 2, f.why()


def test_min_cluster_size(monkeypatch):
    tf.config.optimizer.set_jit(True)
    body = lambda x: tf.exp(x) * 2.0  # noqa: E731 -- two ops
    monkeypatch.setenv("TF_XLA_FLAGS", "--tf_xla_min_cluster_size=3")
    f = tf.function(body)
    np.testing.assert_allclose(f(X).numpy(), np.exp(X) * 2, rtol=1e-6)
    assert _clusters(f.why()) == [] and "below --tf_xla_min_cluster_size" in f.why()
    monkeypatch.setenv("TF_XLA_FLAGS", "--tf_xla_min_cluster_size=2")
    g = tf.function(body)
    np.testing.assert_allclose(g(X).numpy(), np.exp(X) * 2, rtol=1e-6)
    assert len(_clusters(g.why())) == 1


def test_training_step_equals_op_by_op():
    """Variables read and updated by a clustered step (gradients + SGD) end exactly where op by op ends."""
    def make():
        w = tf.Variable(W.copy())
        b = tf.Variable(np.zeros(3, np.float32))

        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.nn.relu(x @ w + b) - 0.25))
            gw, gb = tape.gradient(loss, [w, b])
            w.assign_sub(0.1 * gw)
            b.assign_sub(0.1 * gb)
            return loss
        return step, w, b

    tf.config.optimizer.set_jit(False)
    plain, w0, b0 = make()
    ref = [float(plain(X)) for _ in range(3)]
    tf.config.optimizer.set_jit(True)
    clustered, w1, b1 = make()
    got = [float(clustered(X)) for _ in range(3)]
    np.testing.assert_allclose(got, ref, rtol=1e-6)
    np.testing.assert_allclose(w1.numpy(), w0.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(b1.numpy(), b0.numpy(), rtol=1e-6, atol=1e-7)
    assert len(_clusters(clustered.why())) >= 1


def test_clustering_debug_flag_prints_the_clusters(monkeypatch):
    monkeypatch.setenv("TF_XLA_FLAGS", "--tf_xla_auto_jit=2 --tf_xla_clustering_debug")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    f = tf.function(lambda x: tf.reduce_sum(tf.exp(x) * 2.0 + tf.sin(x)))
    np.testing.assert_allclose(float(f(X)), float((np.exp(X.astype(np.float64)) * 2 + np.sin(X)).sum()),
                               rtol=1e-5)
    assert "autoclustering of" in err.getvalue() and "cluster_0" in err.getvalue()


def test_experimental_get_clusters_without_calling():
    f = tf.function(lambda x: tf.reduce_sum(tf.exp(x) * 2.0 + tf.sin(x)))
    assert len(_clusters(f.experimental_get_clusters(X))) == 1
