"""tf.data.Dataset: sources, transformations, cardinality, and fit on a dataset (numpy oracle)."""

from __future__ import annotations

import numpy as np
import pytest
from minixla.frontend import tf

Dataset = tf.data.Dataset


def _np(ds):
    return list(ds.as_numpy_iterator())


def test_from_tensor_slices_batch_and_tensors():
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    y = np.arange(5)
    ds = Dataset.from_tensor_slices((x, y)).batch(2)
    batches = list(ds)
    assert [b[0].shape for b in batches] == [(2, 2), (2, 2), (1, 2)]
    assert isinstance(batches[0][0], tf.Tensor)
    np.testing.assert_array_equal(np.concatenate([b[1].numpy() for b in batches]), y)
    assert int(ds.cardinality()) == 3 and len(ds) == 3
    assert int(Dataset.from_tensor_slices(x).batch(2, drop_remainder=True).cardinality()) == 2
    assert ds.element_spec[0].shape.as_list() == [None, 2]


def test_from_tensor_slices_mismatched_sizes():
    with pytest.raises(ValueError, match="same size in their first dimension"):
        Dataset.from_tensor_slices((np.zeros(3), np.zeros(4)))


def test_dict_elements_and_zip():
    ds = Dataset.from_tensor_slices({"a": np.arange(3), "b": np.arange(3) * 10})
    assert [int(e["b"]) for e in ds] == [0, 10, 20]
    z = Dataset.zip((Dataset.range(3), Dataset.range(10, 20)))
    assert [(int(a), int(b)) for a, b in z] == [(0, 10), (1, 11), (2, 12)]
    assert int(z.cardinality()) == 3


def test_map_is_traced_with_tf_function():
    calls = []

    def f(x):
        calls.append(1)
        return tf.square(x) + 1

    ds = Dataset.range(5).map(f)
    assert [int(v) for v in _np(ds)] == [1, 2, 5, 10, 17]
    assert len(calls) == 1  # one trace for the one element signature


def test_map_of_pairs_filter_take_skip_repeat():
    ds = Dataset.from_tensor_slices((np.arange(6), np.arange(6) * 2)).map(lambda a, b: a + b)
    assert [int(v) for v in _np(ds)] == [0, 3, 6, 9, 12, 15]
    assert [int(v) for v in _np(Dataset.range(10).filter(lambda v: v % 3 == 0))] == [0, 3, 6, 9]
    assert [int(v) for v in _np(Dataset.range(10).skip(2).take(3))] == [2, 3, 4]
    rep = Dataset.range(3).repeat(2)
    assert [int(v) for v in _np(rep)] == [0, 1, 2, 0, 1, 2] and int(rep.cardinality()) == 6
    assert int(Dataset.range(3).repeat().cardinality()) == tf.data.experimental.INFINITE_CARDINALITY
    assert [int(v) for v in _np(Dataset.range(3).repeat().take(7))] == [0, 1, 2, 0, 1, 2, 0]


def test_shuffle_seeded_is_a_permutation_and_reproducible():
    a = [int(v) for v in _np(Dataset.range(20).shuffle(8, seed=3))]
    b = [int(v) for v in _np(Dataset.range(20).shuffle(8, seed=3))]
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))
    ds = Dataset.range(20).shuffle(20, seed=1)
    assert _np(ds) != _np(ds)  # reshuffled each iteration
    fixed = Dataset.range(20).shuffle(20, seed=1, reshuffle_each_iteration=False)
    assert _np(fixed) == _np(fixed)


def test_cache_runs_the_pipeline_once():
    calls = []

    def gen():
        calls.append(1)
        yield from range(3)

    ds = Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64)
                                if hasattr(tf, "TensorSpec") else tf.data.TensorSpec((), tf.int64)).cache()
    assert [int(v) for v in _np(ds)] == [0, 1, 2]
    assert [int(v) for v in _np(ds)] == [0, 1, 2]
    assert len(calls) == 1


def test_from_generator_checks_shapes():
    def gen():
        yield np.zeros(2, np.float32)
        yield np.zeros(3, np.float32)

    ds = Dataset.from_generator(gen, output_types=tf.float32, output_shapes=(2,))
    it = iter(ds)
    next(it)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \(3,\)"):
        next(it)


def test_unbatch_prefetch_enumerate():
    ds = Dataset.from_tensor_slices(np.arange(6).reshape(3, 2)).unbatch().prefetch(tf.data.AUTOTUNE)
    assert [int(v) for v in _np(ds)] == list(range(6))
    assert [(int(i), int(v)) for i, v in _np(Dataset.range(2).enumerate())] == [(0, 0), (1, 1)]


def test_batch_of_ragged_elements_is_an_error():
    ds = Dataset.from_generator(lambda: iter([np.zeros(2), np.zeros(3)]), output_types=tf.float32).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot batch tensors with different shapes"):
        list(ds)


def test_fit_on_dataset_matches_fit_on_arrays():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 3)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5], np.float32))[:, None]
    losses = []
    for use_dataset in (False, True):
        tf.keras.utils.set_random_seed(1)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        model.compile(tf.keras.optimizers.SGD(0.1), "mse", jit_compile=True)
        if use_dataset:
            hist = model.fit(Dataset.from_tensor_slices((x, y)).batch(8), epochs=3, verbose=0)
        else:
            hist = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
        losses.append(hist.history["loss"])
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-6)
    assert losses[0][-1] < losses[0][0]


def test_fit_on_repeated_dataset_reads_on_across_epochs():
    x = np.arange(12, dtype=np.float32).reshape(6, 2)
    ds = Dataset.from_tensor_slices((x, np.zeros((6, 1), np.float32))).batch(2).repeat()
    seen = []

    class Spy(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, inputs):
            return self.dense(inputs)

        def train_step(self, data):
            seen.append(float(data[0][0, 0]))
            return {"n": tf.constant(1.0)}

    model = Spy()
    model.compile("sgd", "mse", run_eagerly=True)
    model.fit(ds, steps_per_epoch=2, epochs=3, verbose=0)
    assert seen == [0.0, 4.0, 8.0, 0.0, 4.0, 8.0]  # epochs continue where the last stopped
    with pytest.raises(ValueError, match="please specify a `steps_per_epoch`"):
        model.fit(ds, epochs=1, verbose=0)
