"""tf.raw_ops on state (frontend/api/raw_state_*.py) against real TensorFlow 2.21 (tests/golden/raw_state/,
recorded by `record_tf_goldens.py --cases tests/frontend/raw_state_cases.py --out tests/golden/raw_state`):
resource-variable ops on `tf.Variable.handle` and the ResourceApply* optimizers (the variables' values
after the op), TensorArray / TensorList / Stack ops; every case eagerly, in tf.function and under
jit_compile=True, and the gradients TF has (through TensorArray and TensorList reads and writes).
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.raw_state_cases import CASES
from tests.frontend.test_goldens import MODES
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "raw_state"
TABLE = "tests/frontend/raw_state_cases.py"
TOL = 1e-5
NAMES = sorted(CASES)


@pytest.mark.parametrize("name, mode", [(n, m) for n in NAMES for m in MODES])
def test_raw_state_forward_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    if mode == "jit" and "jit_error" in data:
        kind = str(data["jit_error"]).split(":")[0]
        with pytest.raises(getattr(tf.errors, kind)):
            replay.check_forward(data, CASES[name][0], name, mode, TOL)
        return
    replay.check_forward(data, CASES[name][0], name, mode, TOL)


GRAD_NAMES = [n for n in NAMES if replay.has_gradient(GOLDEN, n)
              and len(np.load(GOLDEN / f"{n}.npz")["grad_none"]) < sum(
                  1 for k in np.load(GOLDEN / f"{n}.npz").files if k.startswith("input_")
                  and np.load(GOLDEN / f"{n}.npz")[k].dtype.kind == "f")]


@pytest.mark.parametrize("name, mode", [(n, m) for n in GRAD_NAMES for m in MODES])
def test_raw_state_gradient_against_tensorflow(name, mode):
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 4 * TOL)


def test_variable_op_rejects_a_tensor_for_a_handle():
    with pytest.raises(tf.errors.InvalidArgumentError, match="resource handle"):
        tf.raw_ops.AssignAddVariableOp(resource=tf.constant([1.0]), value=tf.constant([1.0]))


def test_read_variable_with_wrong_dtype_is_tf_error():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="wrong dtype"):
        tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.int32)


def test_assign_variable_shape_mismatch_is_tf_error():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot update variable with shape"):
        tf.raw_ops.AssignVariableOp(resource=v.handle, value=tf.constant([1.0, 2.0, 3.0]))


def test_optimizer_update_in_a_jit_function_persists_across_calls():
    """The variable written by ResourceApplyAdam inside jit_compile=True is the one the next call reads
    (numpy reference: two Adam steps)."""
    var, m, v = tf.Variable([1.0, -2.0]), tf.Variable([0.0, 0.0]), tf.Variable([0.0, 0.0])
    g = np.array([0.5, -1.0], np.float32)

    @tf.function(jit_compile=True)
    def step(grad):
        tf.raw_ops.ResourceApplyAdam(var=var.handle, m=m.handle, v=v.handle, beta1_power=0.9, beta2_power=0.999,
                                     lr=0.1, beta1=0.9, beta2=0.999, epsilon=1e-7, grad=grad)
        return grad  # (a jit function returning None does not compile yet: function.py's "None" placeholder)

    want, mm, vv = np.array([1.0, -2.0], np.float32), np.zeros(2, np.float32), np.zeros(2, np.float32)
    for _ in range(2):
        step(tf.constant(g))
        mm, vv = mm + (g - mm) * 0.1, vv + (g * g - vv) * 0.001
        want = want - mm * (0.1 * np.sqrt(1 - 0.999) / (1 - 0.9)) / (np.sqrt(vv) + 1e-7)
    np.testing.assert_allclose(var.numpy(), want, rtol=1e-5)
    np.testing.assert_allclose(m.numpy(), mm, rtol=1e-5)
