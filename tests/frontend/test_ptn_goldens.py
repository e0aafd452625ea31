"""tf.raw_ops.StatelessParameterizedTruncatedNormal and the stateful ParameterizedTruncatedNormal
(frontend/ops/ptn_compiled_ops.py) against real
TensorFlow 2.21 (tests/golden/ptn/, recorded by `record_tf_goldens.py --cases tests/frontend/ptn_cases.py
--out tests/golden/ptn`): TF's eager numbers eagerly, in tf.function and compiled (TF's XLA kernel draws
another stream: under jit either is accepted per element, as for the other random kernels), and TF's
implicit reparameterization gradients. With an int64 seed TF has no XLA kernel: jit raises its error.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.ptn_cases import CASES, SEED
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "ptn"


@pytest.fixture(autouse=True)
def _fresh_kernels():
    """The stateful V1 cases are each their kernel's first call (TF's eager kernel cache, cleared by set_seed)."""
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)
TABLE = "tests/frontend/ptn_cases.py"
NAMES = sorted(CASES)


# compiling the sampler's while loop takes ~13 s on 2 cores (over this module's share of the test budget):
# every compiled case runs with `python -m pytest -m slow tests/frontend/test_ptn_goldens.py`
JIT_DEFAULT = {"ptn_float64"}  # TF has no XLA kernel for its int64 seed: jit raises without compiling
SLOW = pytest.mark.slow
FORWARD_CASES = [pytest.param(n, m, marks=SLOW) if m == "jit" and n not in JIT_DEFAULT else (n, m)
                 for n in NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", FORWARD_CASES)
def test_ptn_forward_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    fn = CASES[name][0]
    if mode == "jit" and "jit_error" in data:
        err_type, message = str(data["jit_error"]).split(": ", 1)
        with pytest.raises(getattr(tf.errors, err_type), match=re.escape(message.split(" when ")[0])):
            tf.function(lambda *a: fn(tf, *a), jit_compile=True)(*[tf.constant(a) for a in replay._inputs(data)])
        return
    # the eager stream exactly (up to libm's last ulp); TF's XLA stream is another one
    replay.check_forward(data, fn, name, mode, 2e-6, eager_stream=True)


GRAD_CASES = [pytest.param(n, m, marks=SLOW) if m == "jit" else (n, m)
              for n in NAMES if replay.has_gradient(GOLDEN, n) for m in ("eager", "jit")]


@pytest.mark.parametrize("name, mode", GRAD_CASES)
def test_ptn_gradient_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    if mode == "jit" and "jit_error" in data:  # no XLA kernel (int64 seed): the forward pass already fails
        with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations"):
            replay.check_gradient(data, CASES[name][0], name, mode, 2e-5)
        return
    if mode == "jit":  # TF's jit gradients are of its XLA samples: compare ours with its eager ones
        data = {k: v for k, v in data.items() if not k.startswith("jit_grad_")}
    replay.check_gradient(data, CASES[name][0], name, mode, 2e-5)


@pytest.mark.slow
def test_samples_lie_in_the_bounds_and_follow_the_truncated_normal():
    """TF's normal-rejection sampler under jit_compile=True: 4000 samples' bounds and mean."""
    lo, hi = np.float32(-0.5), np.float32(1.5)
    f = tf.function(lambda s: tf.raw_ops.StatelessParameterizedTruncatedNormal(
        shape=[4000], seed=s, means=np.float32(0.0), stddevs=np.float32(1.0), minvals=lo, maxvals=hi),
        jit_compile=True)
    x = f(tf.constant(SEED)).numpy()
    assert x.min() >= lo and x.max() <= hi
    grid = np.linspace(lo, hi, 20001)
    pdf = np.exp(-grid ** 2 / 2)
    want_mean = float((grid * pdf).sum() / pdf.sum())
    assert abs(x.mean() - want_mean) < 4 * x.std() / np.sqrt(len(x))


def test_bad_parameters_are_an_invalid_argument_eagerly():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid parameters"):
        tf.raw_ops.StatelessParameterizedTruncatedNormal(shape=[3], seed=SEED, means=np.float32(0.0),
                                                         stddevs=np.float32(1.0), minvals=np.float32(2.0),
                                                         maxvals=np.float32(1.0))
