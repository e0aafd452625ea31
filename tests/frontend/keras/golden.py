"""Loading the Keras goldens recorded from real TF (tests/golden/record_keras_goldens.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.paths import GOLDEN_DIR

KERAS_GOLDEN = GOLDEN_DIR / "keras"


def load(kind: str, name: str) -> dict:
    path = KERAS_GOLDEN / f"{kind}_{name}.npz"
    if not path.exists():
        pytest.fail(f"missing golden {path}: run tests/golden/record_keras_goldens.py with TensorFlow")
    with np.load(path) as data:
        return {k: data[k] for k in data.files}
