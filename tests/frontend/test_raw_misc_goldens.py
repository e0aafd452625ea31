"""Random, control-flow and misc tf.raw_ops (frontend/ops/raw_misc_ops.py, frontend/api/raw_functional.py)
against real TensorFlow 2.21 (tests/golden/raw_misc/, recorded by `record_tf_goldens.py --cases
tests/frontend/raw_misc_cases.py --out tests/golden/raw_misc`): every case eagerly, in tf.function and
under jit_compile=True, gradients where TF has one.

Under jit an output may equal TF's eager result or TF's XLA result (the random kernels: TF-XLA draws
another stream, we keep the host one; DeviceIndex: tf2xla's kernel knows no device). Where TF cannot
compile a case, jit must raise TF's error type naming the op.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.raw_misc_cases import CASES
from tests.frontend.test_goldens import MODES, _close, _flat, _seq
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "raw_misc"
TABLE = "tests/frontend/raw_misc_cases.py"
TOL = 1e-5
NAMES = sorted(CASES)
# a kernel's second call continues its stream eagerly; in a tf.function each call site is its own kernel
EAGER_ONLY = {n for n in NAMES if n.endswith("_twice")}
# compiling the random kernels takes 1-8 s each on 2 cores (Philox, TF's truncated-normal rejection, shuffle's
# swaps) and the Householder loop 3 s: one case per random family compiles in the default run, the others with
# `python -m pytest -m slow tests/frontend/test_raw_misc_goldens.py`
_RANDOM = ("random", "stateless_", "stateful_", "multinomial", "truncated", "rng_")
JIT_DEFAULT = {"raw_stateless_uniform", "raw_random_uniform", "raw_stateful_uniform", "raw_rng_skip"}
SLOW_JIT = {n for n in NAMES if any(k in n for k in _RANDOM) and n not in JIT_DEFAULT} | {"raw_qr", "raw_qr_full"}
SLOW_JIT -= {n for n in NAMES if n.startswith(("raw_stateless_if", "raw_stateless_while", "raw_stateless_case",
                                                "raw_stateful_partitioned", "raw_stateless_get_alg", "raw_rng_bit"))}
# second cases of a path whose first case compiles in the default run
SLOW_JIT |= {"raw_fused_batch_norm_ex_y", "raw_fused_conv2d_bias_relu6", "raw_fused_conv2d_bias_leaky_relu",
             "raw_xla_reduce_window_max", "raw_xla_scatter_replace", "raw_xla_dequantize_transposed",
             "raw_stateless_case_default", "raw_stateless_if_false", "raw_dynamic_stitch_overlap"}
FORWARD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" and n in SLOW_JIT else (n, m)
                 for n in NAMES for m in MODES if m == "eager" or n not in EAGER_ONLY]


@pytest.fixture(autouse=True)
def _restore_global_seed():
    yield
    tf.random.set_seed(None)


@pytest.mark.parametrize("name, mode", FORWARD_CASES)
def test_raw_misc_forward_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    fn = CASES[name][0]
    tensors = [tf.constant(a) for a in replay._inputs(data)]
    if mode == "jit" and "jit_error" in data:  # TF cannot compile it: the same error type and message
        err_type, message = str(data["jit_error"]).split(": ", 1)
        with pytest.raises(getattr(tf.errors, err_type), match=re.escape(message.split(" graph ")[0].split("\n")[0])):
            tf.function(lambda *a: fn(tf, *a), jit_compile=True)(*tensors)
        return
    if mode == "eager":
        got = fn(tf, *tensors)
    else:
        got = tf.function(lambda *a: fn(tf, *a), jit_compile=mode == "jit")(*tensors)
    want = _seq(data, "output")[0]
    alts = _seq(data, "jit_output")[0] if mode == "jit" else []
    got = _flat(got)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        what = f"{name} output {k} ({mode})"
        if k < len(alts) and np.asarray(w).dtype.kind not in "fc" and np.array_equal(np.asarray(g), alts[k]):
            continue  # TF's XLA integer result
        _close(np.asarray(g), w, TOL, what, alts[k] if k < len(alts) else None)


GRAD_NAMES = [n for n in NAMES if replay.has_gradient(GOLDEN, n)]


# gradients under jit compile a second program per case (raw_qr's: 15 s on 2 cores): `python -m pytest -m slow`
@pytest.mark.parametrize("name, mode", [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" else (n, m)
                                        for n in GRAD_NAMES for m in MODES])
def test_raw_misc_gradient_against_tensorflow(name, mode):
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 4 * TOL)
