"""The XLA lecture's compiled training loop ("MNIST: Entire Training Loop compiled")
on real handwritten digits, eager vs `tf.function(jit_compile=True)`.

    python examples/train_mnist.py [--epochs 40] [--mode both|eager|jit]

The data are the UCI optical-digits images (8x8, 1,797 samples): from
scikit-learn's `load_digits` when it is installed (`pip install minixla[mnist]`),
else from the copy shipped in `examples/data/digits.csv.gz`. The model, the
loss and the step are the lecture's: one Dense(10) layer, sparse softmax
cross-entropy, Adam, and the whole step (forward, `tape.gradient`,
`apply_gradients`) in one compiled function.
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minixla.frontend import tf  # noqa: E402

IMAGE_SIZE = 64
DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits.csv.gz")


def load_digits() -> tuple[np.ndarray, np.ndarray, str]:
    """(images [N, 8, 8] with pixels 0..16, labels [N], where they came from)."""
    try:
        from sklearn.datasets import load_digits as sk_load

        d = sk_load()
        return d.images.astype(np.float32), d.target.astype(np.int64), "scikit-learn"
    except ImportError:
        with gzip.open(DATA_FILE, "rt") as fh:
            data = np.loadtxt(fh, delimiter=",", dtype=np.float32)
        return data[:, :-1].reshape(-1, 8, 8), data[:, -1].astype(np.int64), DATA_FILE


def split(images, labels, test_fraction=0.25, seed=0):
    order = np.random.default_rng(seed).permutation(len(labels))
    n_test = int(len(labels) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    scale = np.float32(1 / 16)
    return (images[train] * scale, labels[train]), (images[test] * scale, labels[test])


def make_training(jit_compile: bool | None, learning_rate: float = 0.01, seed: int = 0):
    """The lecture's objects and step; `jit_compile=None` runs the step eagerly."""
    tf.keras.utils.set_random_seed(seed)
    layer = tf.keras.layers.Dense(10)
    layer(np.zeros((1, IMAGE_SIZE), np.float32))  # build the weights from the seed
    optimizer = tf.keras.optimizers.Adam(learning_rate)

    def cast(images, labels):
        images = tf.cast(tf.reshape(images, [-1, IMAGE_SIZE]), tf.float32)
        labels = tf.cast(labels, tf.int64)
        return (images, labels)

    def train_mnist(images, labels):
        images, labels = cast(images, labels)

        with tf.GradientTape() as tape:
            predicted_labels = layer(images)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                logits=predicted_labels, labels=labels
            ))
        layer_variables = layer.trainable_variables
        grads = tape.gradient(loss, layer_variables)
        optimizer.apply_gradients(zip(grads, layer_variables))
        return loss

    step = train_mnist if jit_compile is None else tf.function(train_mnist, jit_compile=jit_compile)

    def accuracy(images, labels) -> float:
        images, labels = cast(images, labels)
        predicted = layer(images)
        correct = tf.equal(tf.argmax(predicted, 1), labels)
        return float(tf.reduce_mean(tf.cast(correct, tf.float32)))

    return step, layer, accuracy


def train(jit_compile: bool | None, epochs: int = 40, batch: int = 128, learning_rate: float = 0.01,
          seed: int = 0, data=None) -> dict:
    """Train; returns accuracy, step timings, the per-step losses and the final weights."""
    (x_train, y_train), (x_test, y_test) = data or split(*load_digits()[:2])
    step, layer, accuracy = make_training(jit_compile, learning_rate, seed)
    order_rng = np.random.default_rng(seed)
    losses, first_call, times = [], None, []
    for _ in range(epochs):
        order = order_rng.permutation(len(y_train))
        for i in range(0, len(order) - batch + 1, batch):  # whole batches: one signature, one compile
            idx = order[i:i + batch]
            images, labels = x_train[idx], y_train[idx].astype(np.int32)
            if jit_compile is None:
                images, labels = tf.constant(images), tf.constant(labels)
            t0 = time.perf_counter()
            loss = step(images, labels)
            value = float(loss)
            dt = time.perf_counter() - t0
            if first_call is None:
                first_call = dt
            else:
                times.append(dt)
            losses.append(value)
    steady = float(np.median(times)) if times else float("nan")
    return {"accuracy": accuracy(x_test, y_test), "train_accuracy": accuracy(x_train, y_train),
            "steps": len(losses), "first_call_s": first_call, "step_s": steady, "steps_per_s": 1 / steady,
            "losses": np.array(losses), "weights": [v.numpy() for v in layer.trainable_variables],
            "tracing_count": step.experimental_get_tracing_count() if jit_compile is not None else 0}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--mode", choices=("both", "eager", "jit"), default="both")
    args = p.parse_args(argv)
    images, labels, source = load_digits()
    data = split(images, labels)
    print(f"digits: {len(labels)} images from {source}; train {len(data[0][1])}, test {len(data[1][1])}")
    runs = {}
    for mode, jit in (("eager", None), ("jit", True)):
        if args.mode in (mode, "both"):
            r = runs[mode] = train(jit, args.epochs, args.batch, args.lr, data=data)
            print(f"{mode:>5}: test accuracy {r['accuracy']:.4f} (train {r['train_accuracy']:.4f}), "
                  f"{r['steps']} steps, first call {r['first_call_s']:.3f} s, "
                  f"{r['step_s'] * 1e3:.3f} ms/step = {r['steps_per_s']:.1f} steps/s")
    if len(runs) == 2:
        e, j = runs["eager"], runs["jit"]
        diff = max(float(np.max(np.abs(a - b))) for a, b in zip(e["weights"], j["weights"]))
        print(f"eager vs jit: max |loss diff| {np.max(np.abs(e['losses'] - j['losses'])):.2e}, "
              f"max |weight diff| {diff:.2e}, speedup {e['step_s'] / j['step_s']:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
