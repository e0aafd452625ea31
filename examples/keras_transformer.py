"""A one-block Transformer encoder classifying token sequences (functional API,
a subclassed positional-embedding layer, MultiHeadAttention, LayerNormalization),
trained with `model.fit(jit_compile=True)`.

Task: sequences of `length` tokens from a vocabulary of `vocab`; the label says
whether token 1 occurs before token 2 (both are present in every sequence), so
the model must compare positions: attention plus position embeddings.

    python examples/keras_transformer.py [--epochs 20]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np


def load_data(n=1024, length=10, vocab=12, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(3, vocab, (n, length))
    for row in x:
        i, j = rng.choice(length, 2, replace=False)
        row[i], row[j] = 1, 2
    y = (np.argmax(x == 1, axis=1) < np.argmax(x == 2, axis=1)).astype(np.int32)
    return x.astype(np.int32), y


def build_model(keras, length=10, vocab=12, dim=16, heads=2, ffn=32, dropout=0.1):
    class TokenAndPositionEmbedding(keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.tokens = keras.layers.Embedding(vocab, dim)
            self.positions = keras.layers.Embedding(length, dim)

        def call(self, x):
            positions = np.arange(length, dtype=np.int32)
            return self.tokens(x) + self.positions(positions)

    inputs = keras.Input((length,), dtype="int32")
    h = TokenAndPositionEmbedding()(inputs)
    attended = keras.layers.MultiHeadAttention(num_heads=heads, key_dim=dim // heads)(h, h)
    if dropout:
        attended = keras.layers.Dropout(dropout)(attended)
    h = keras.layers.LayerNormalization(epsilon=1e-6)(keras.layers.Add()([h, attended]))
    f = keras.layers.Dense(ffn, activation="relu")(h)
    f = keras.layers.Dense(dim)(f)
    h = keras.layers.LayerNormalization(epsilon=1e-6)(keras.layers.Add()([h, f]))
    h = keras.layers.GlobalAveragePooling1D()(h)
    outputs = keras.layers.Dense(2)(h)
    return keras.Model(inputs, outputs, name="transformer_classifier")


def compile_model(keras, model, learning_rate=0.005, jit_compile=True, optimizer="Adam"):
    model.compile(optimizer=getattr(keras.optimizers, optimizer)(learning_rate),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"],
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
    model.fit(x, y, batch_size=64, epochs=args.epochs, validation_split=0.2)


if __name__ == "__main__":
    main()
