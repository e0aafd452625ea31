"""tf.distribute and minixla.distributed in one process (one replica): results equal
the single-process computation, and under jit the all-reduce is an hlo.all_reduce."""

from __future__ import annotations

import numpy as np
import pytest

import minixla.distributed as hvd
from minixla import tf


def test_strategy_reduce_run_and_replica_context():
    s = tf.distribute.MirroredStrategy()
    assert s.num_replicas_in_sync == 1
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    with s.scope():
        assert tf.distribute.get_replica_context() is None  # cross-replica context, as TF
        out = s.run(lambda v: tf.distribute.get_replica_context().all_reduce("sum", v * 2.0), args=(x,))
    np.testing.assert_array_equal(out.numpy(), x.numpy() * 2)
    np.testing.assert_allclose(s.reduce(tf.distribute.ReduceOp.MEAN, x, axis=0).numpy(), x.numpy().mean(0))
    np.testing.assert_allclose(s.reduce("SUM", x, axis=None).numpy(), x.numpy())


def test_jit_step_has_an_all_reduce_in_the_hlo():
    s = tf.distribute.MirroredStrategy()
    w = tf.Variable(np.ones((3, 2), np.float32))

    @tf.function(jit_compile=True)
    def step(x):
        def replica(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
            g = tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.MEAN, tape.gradient(loss, w))
            w.assign_sub(0.1 * g)
            return loss
        return s.run(replica, args=(x,))

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    expected_grad = 2 * x.T @ (x @ np.ones((3, 2), np.float32))
    step(tf.constant(x))
    np.testing.assert_allclose(w.numpy(), np.ones((3, 2)) - 0.1 * expected_grad, rtol=1e-6)
    hlo = step.experimental_get_compiler_ir(tf.constant(x))(stage="hlo")
    assert "hlo.all_reduce" in hlo


def test_distribute_dataset_shards_and_input_context():
    s = tf.distribute.MirroredStrategy()
    batches = [(np.arange(8).reshape(4, 2), np.arange(4))]
    (xb, yb), = list(s.experimental_distribute_dataset(batches))
    np.testing.assert_array_equal(xb.numpy(), batches[0][0])  # one replica: the whole batch
    ctx = tf.distribute.InputContext if hasattr(tf.distribute, "InputContext") else None
    assert ctx is not None and ctx(2, 0).get_per_replica_batch_size(64) == 32
    with pytest.raises(ValueError, match="not divisible"):
        ctx(3, 0).get_per_replica_batch_size(64)


def test_horovod_style_api_single_process():
    hvd.init()
    assert hvd.rank() == 0 and hvd.size() == 1
    x = np.array([1.0, -2.0, 3.5], np.float32)
    np.testing.assert_array_equal(hvd.allreduce(x).numpy(), x)
    np.testing.assert_array_equal(hvd.allgather(x).numpy(), x)
    v = tf.Variable(np.zeros(3, np.float32))
    opt = hvd.DistributedOptimizer(tf.keras.optimizers.SGD(0.5))
    opt.apply_gradients([(tf.constant(x), v)])
    np.testing.assert_allclose(v.numpy(), -0.5 * x)


def test_several_devices_in_one_process_is_a_clear_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="one replica per process"):
        tf.distribute.MirroredStrategy(devices=["/cpu:0", "/cpu:1"])
