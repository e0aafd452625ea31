"""XlaCallModule with StableHLO text modules (frontend/ops/xla_call_module_ops.py) against real TensorFlow
2.21 (tests/golden/xla_call_module/, recorded by `record_tf_goldens.py --cases
tests/frontend/xla_call_module_cases.py --out tests/golden/xla_call_module`): eagerly (the interpreter runs
the module), in tf.function and under jit_compile=True (its body inlined into the compiled program).
TF registers no gradient for XlaCallModule, so there are no gradient goldens.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.test_goldens import MODES
from tests.frontend.xla_call_module_cases import CASES, SCALE_SIN, X23, Y3, call_module
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "xla_call_module"
TABLE = "tests/frontend/xla_call_module_cases.py"
NAMES = sorted(CASES)


@pytest.mark.parametrize("name, mode", [(n, m) for n in NAMES for m in MODES])
def test_xla_call_module_against_tensorflow(name, mode):
    replay.check_forward(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 1e-6)


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_xla_call_module_against_numpy(name):
    fn, inputs, want = CASES[name]
    got = fn(tf, *[tf.constant(a) for a in inputs])
    np.testing.assert_allclose(got[0].numpy(), want, rtol=1e-6, atol=1e-6)


def test_the_module_is_inlined_into_the_compiled_program():
    f = tf.function(lambda x, y: call_module(tf, [x, y], SCALE_SIN, [(2, 3)], [tf.float32])[0], jit_compile=True)
    hlo = f.experimental_get_compiler_ir(tf.constant(X23), tf.constant(Y3))(stage="hlo")
    assert "hlo.sine" in hlo and "XlaCallModule" not in hlo


def test_bytecode_modules_are_unimplemented():
    with pytest.raises(tf.errors.UnimplementedError, match="MLIR bytecode"):
        call_module(tf, [tf.constant(X23), tf.constant(Y3)], b"ML\xefR\x00rest", [(2, 3)], [tf.float32])


def test_a_malformed_module_is_a_located_invalid_argument():
    bad = SCALE_SIN.replace("stablehlo.sine %1", "stablehlo.sine %9")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"<XlaCallModule module>:6:25: error: use of undeclared SSA value"):
        call_module(tf, [tf.constant(X23), tf.constant(Y3)], bad, [(2, 3)], [tf.float32])


def test_arguments_must_match_main():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"argument 1 of @main must be float32\[3\]"):
        call_module(tf, [tf.constant(X23), tf.constant(X23)], SCALE_SIN, [(2, 3)], [tf.float32])
