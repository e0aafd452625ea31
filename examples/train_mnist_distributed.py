"""The lecture's compiled training step, data-parallel over processes:
`tf.distribute.MirroredStrategy` with `strategy.run(train_step)` under
`tf.function(jit_compile=True)`, where the gradient all-reduce is an
`hlo.all_reduce` in the compiled program, run over MPI.

    python examples/train_mnist_distributed.py                      # 1 process
    mpiexec -n 2 python examples/train_mnist_distributed.py         # 2 processes
    mpiexec -n 4 --oversubscribe python examples/train_mnist_distributed.py --check

Every process takes its shard of each global batch (`--global-batch`, split
evenly). `--check` also trains one process on the whole global batches and
compares the weights (exit status 1 if they differ by more than 1e-5 relative).
As root, Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from train_mnist import IMAGE_SIZE, load_digits, split  # noqa: E402

from minixla import tf  # noqa: E402


def make_model(seed: int):
    tf.keras.utils.set_random_seed(seed)
    layer = tf.keras.layers.Dense(10)
    layer(np.zeros((1, IMAGE_SIZE), np.float32))
    return layer


def loss_fn(layer, images, labels):
    logits = layer(tf.reshape(images, [-1, IMAGE_SIZE]))
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=labels))


def global_batches(x, y, steps: int, batch: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        idx = rng.choice(len(y), batch, replace=False)
        yield x[idx], y[idx].astype(np.int32)


def train_distributed(data, steps: int, batch: int, lr: float, seed: int = 0):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        layer = make_model(seed)
        optimizer = tf.keras.optimizers.Adam(lr)

    @tf.function(jit_compile=True)
    def train_step(images, labels):
        def replica_step(images, labels):
            with tf.GradientTape() as tape:
                loss = loss_fn(layer, images, labels)
            ctx = tf.distribute.get_replica_context()
            grads = ctx.all_reduce(tf.distribute.ReduceOp.MEAN, tape.gradient(loss, layer.trainable_variables))
            optimizer.apply_gradients(zip(grads, layer.trainable_variables))
            return ctx.all_reduce(tf.distribute.ReduceOp.MEAN, loss)
        return strategy.run(replica_step, args=(images, labels))

    (x, y), _ = data
    shards = strategy.experimental_distribute_dataset(global_batches(x, y, steps, batch, seed))
    losses = [float(train_step(images, labels)) for images, labels in shards]
    return layer, losses, train_step, strategy


def train_single(data, steps: int, batch: int, lr: float, seed: int = 0):
    layer = make_model(seed)
    optimizer = tf.keras.optimizers.Adam(lr)

    @tf.function(jit_compile=True)
    def step(images, labels):
        with tf.GradientTape() as tape:
            loss = loss_fn(layer, images, labels)
        grads = tape.gradient(loss, layer.trainable_variables)
        optimizer.apply_gradients(zip(grads, layer.trainable_variables))
        return loss

    (x, y), _ = data
    losses = [float(step(tf.constant(i), tf.constant(l))) for i, l in global_batches(x, y, steps, batch, seed)]
    return layer, losses


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--global-batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--check", action="store_true", help="compare with one process on the global batches")
    args = p.parse_args(argv)
    data = split(*load_digits()[:2])
    layer, losses, step, strategy = train_distributed(data, args.steps, args.global_batch, args.lr)
    rank, n = tf.distribute.get_replica_context().replica_id_in_sync_group, strategy.num_replicas_in_sync
    (xt, yt) = data[1]
    acc = float(tf.reduce_mean(tf.cast(tf.equal(tf.argmax(layer(xt.reshape(-1, IMAGE_SIZE)), 1), yt), tf.float32)))
    if rank == 0:
        print(f"{n} process(es): {args.steps} steps of {args.global_batch} (per process {args.global_batch // n}), "
              f"loss {losses[0]:.4f} -> {losses[-1]:.4f}, test accuracy {acc:.4f}")
    if not args.check:
        return 0
    ref, ref_losses = train_single(data, args.steps, args.global_batch, args.lr)
    rel = max(float(np.max(np.abs(a.numpy() - b.numpy())) / max(np.max(np.abs(b.numpy())), 1e-30))
              for a, b in zip(layer.trainable_variables, ref.trainable_variables))
    if rank == 0:
        print(f"weights vs one process on the global batches: max relative difference {rel:.2e} "
              f"(final loss {ref_losses[-1]:.4f} single, {losses[-1]:.4f} distributed)")
    return 0 if rel <= 1e-5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
