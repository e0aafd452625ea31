"""A small CNN on the UCI optical digits (8x8 images), trained with Keras'
`model.fit` and the whole training step compiled (`jit_compile=True`).

    python examples/keras_cnn_digits.py [--epochs 10]

`build_model(keras)` and `load_data()` take the Keras module as an argument so
that the test (and the golden recorder, with real TensorFlow) build the same
model; see tests/frontend/keras/test_examples.py.
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys

import numpy as np

DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits.csv.gz")


def load_data(n=None):
    """Images (N, 8, 8, 1) float32 in 0..16 and labels (N,) int32."""
    with gzip.open(DATA_FILE, "rt") as f:
        rows = np.loadtxt(f, delimiter=",", dtype=np.float32)
    rows = rows[:n] if n else rows
    return rows[:, :64].reshape(-1, 8, 8, 1), rows[:, 64].astype(np.int32)


def build_model(keras, filters=(8, 16), dense=32):
    return keras.Sequential([
        keras.Input((8, 8, 1)),
        keras.layers.Rescaling(1 / 16.0),
        keras.layers.Conv2D(filters[0], 3, padding="same", activation="relu"),
        keras.layers.MaxPooling2D(),
        keras.layers.Conv2D(filters[1], 3, padding="same", activation="relu"),
        keras.layers.Flatten(),
        keras.layers.Dense(dense, activation="relu"),
        keras.layers.Dense(10),
    ], name="cnn_digits")


def compile_model(keras, model, learning_rate=0.01, jit_compile=True):
    model.compile(optimizer=keras.optimizers.Adam(learning_rate),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], jit_compile=jit_compile)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args(argv)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from minixla.frontend import tf

    keras = tf.keras
    keras.utils.set_random_seed(0)
    x, y = load_data()
    model = build_model(keras)
    compile_model(keras, model)
    model.summary()
    model.fit(x[:1500], y[:1500], batch_size=64, epochs=args.epochs, validation_data=(x[1500:], y[1500:]),
              callbacks=[keras.callbacks.EarlyStopping(monitor="val_loss", patience=3, restore_best_weights=True)])
    loss, accuracy = model.evaluate(x[1500:], y[1500:], verbose=0)
    print(f"held-out accuracy {accuracy:.3f} (loss {loss:.4f})")


if __name__ == "__main__":
    main()
