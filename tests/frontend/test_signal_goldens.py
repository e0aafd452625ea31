"""tf.signal's real-valued functions (frontend/api/signal.py) against real TensorFlow 2.21
(tests/golden/signal/, recorded by `record_tf_goldens.py --cases tests/frontend/signal_cases.py
--out tests/golden/signal`): eagerly, in tf.function and under jit_compile=True, forward and
gradient. Tolerance 2e-6 (rtol = atol): windows and DCT bases are computed in float64 here and in
float32 by TF; the DCTs are dot products of length <= 11."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.signal_cases import CASES
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "signal"
TABLE = "tests/frontend/signal_cases.py"
TOL = 2e-6
NAMES = sorted(CASES)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_signal_forward_against_tensorflow(name, mode):
    replay.check_forward(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, TOL)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", [n for n in NAMES if replay.has_gradient(GOLDEN, n)])
def test_signal_gradient_against_tensorflow(name, mode):
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 2 * TOL)


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_signal_against_numpy(name):
    fn, inputs, want = CASES[name]
    np.testing.assert_allclose(fn(tf, *[tf.constant(a) for a in inputs]).numpy(), want, rtol=1e-6)


def test_mdct_round_trip_reconstructs_the_middle():
    """With the default (Princen-Bradley) vorbis window, inverse_mdct(mdct(x)) is x away from the edges."""
    x = np.random.default_rng(0).standard_normal(64).astype(np.float32)
    back = tf.signal.inverse_mdct(tf.signal.mdct(tf.constant(x), 16)).numpy()
    np.testing.assert_allclose(back[8:-8], x[8:-8], rtol=1e-4, atol=1e-4)
