"""The lecture's compiled training loop (examples/train_mnist.py) on the real
digits: at least 95% test accuracy, and the compiled run matches the eager
one step for step."""

from __future__ import annotations
from tests.paths import REPO_ROOT

import importlib.util
import os

import numpy as np
import pytest

ROOT = str(REPO_ROOT)


def _example():
    spec = importlib.util.spec_from_file_location("train_mnist", os.path.join(ROOT, "examples", "train_mnist.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def runs():
    ex = _example()
    images, labels, _ = ex.load_digits()
    data = ex.split(images, labels)
    return ex.train(None, epochs=40, data=data), ex.train(True, epochs=40, data=data)


def test_digits_are_real_and_complete():
    images, labels, _ = _example().load_digits()
    assert images.shape == (1797, 8, 8) and sorted(set(labels.tolist())) == list(range(10))
    assert images.min() == 0 and images.max() == 16


def test_compiled_loop_reaches_95_percent(runs):
    _, jit = runs
    assert jit["accuracy"] >= 0.95
    assert jit["tracing_count"] == 1  # one trace and one compile for the whole loop


def test_eager_and_compiled_agree(runs):
    eager, jit = runs
    np.testing.assert_allclose(eager["losses"], jit["losses"], rtol=1e-4, atol=1e-5)
    for a, b in zip(eager["weights"], jit["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    assert abs(eager["accuracy"] - jit["accuracy"]) < 1e-9
