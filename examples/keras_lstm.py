"""An LSTM sequence model: predict the next value of a noisy sine wave from the
previous `steps` values, trained with `model.fit(jit_compile=True)` (the whole
sequence is one compiled while loop).

    python examples/keras_lstm.py [--epochs 20]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np


def load_data(n=512, steps=12, seed=0):
    """Windows (n, steps, 1) of sines with random frequency/phase, and the next value (n, 1)."""
    rng = np.random.default_rng(seed)
    freq = rng.uniform(0.1, 0.5, (n, 1))
    phase = rng.uniform(0, 2 * np.pi, (n, 1))
    t = np.arange(steps + 1)[None, :]
    wave = np.sin(freq * t + phase) + rng.normal(0, 0.05, (n, steps + 1))
    return wave[:, :steps, None].astype(np.float32), wave[:, steps:].astype(np.float32)


def build_model(keras, units=16, steps=12):
    inputs = keras.Input((steps, 1))
    h = keras.layers.LSTM(units, return_sequences=True)(inputs)
    h = keras.layers.LSTM(units)(h)
    outputs = keras.layers.Dense(1)(h)
    return keras.Model(inputs, outputs, name="lstm_next_value")


def compile_model(keras, model, learning_rate=0.01, jit_compile=True):
    model.compile(optimizer=keras.optimizers.Adam(learning_rate), loss="mse", metrics=["mae"],
                  jit_compile=jit_compile)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args(argv)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from minixla.frontend import tf

    keras = tf.keras
    keras.utils.set_random_seed(0)
    x, y = load_data()
    model = build_model(keras)
    compile_model(keras, model)
    model.summary()
    model.fit(x, y, batch_size=32, epochs=args.epochs, validation_split=0.2)


if __name__ == "__main__":
    main()
