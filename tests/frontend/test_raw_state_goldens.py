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


# each jit case compiles its own program (0.5-2 s on 2 cores); the default run compiles one or two of each
# kind, the rest with `python -m pytest -m slow tests/frontend/test_raw_state_goldens.py`
JIT_DEFAULT = {"apply_adam", "apply_ftrl", "apply_momentum_nesterov", "variable_assigns", "resource_gather",
               "resource_scatter_add", "resource_scatter_nd_update", "ta_write_read_gather", "ta_while_loop", "ta_while_unknown_shape",
               "tl_reserve_set_get", "tl_while_loop", "stack_push_pop"}
FORWARD_CASES = [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" and n not in JIT_DEFAULT else (n, m)
                 for n in NAMES for m in MODES]


@pytest.mark.parametrize("name, mode", FORWARD_CASES)
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


# gradients under jit compile a second program per case (2-4 s each): `python -m pytest -m slow`
@pytest.mark.parametrize("name, mode", [pytest.param(n, m, marks=pytest.mark.slow) if m == "jit" else (n, m)
                                        for n in GRAD_NAMES for m in MODES])
def test_raw_state_gradient_against_tensorflow(name, mode):
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 4 * TOL)


def test_every_case_has_a_golden():
    missing = [n for n in NAMES if not (GOLDEN / f"{n}.npz").exists()]
    assert not missing, f"record them: record_tf_goldens.py --cases {TABLE} --out {GOLDEN} --only {' '.join(missing)}"


def test_variable_op_rejects_a_tensor_for_a_handle():
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #0.* expected to be a resource tensor"):
        tf.raw_ops.AssignAddVariableOp(resource=tf.constant([1.0]), value=tf.constant([1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a resource tensor but is a float32"):
        tf.raw_ops.ReadVariableOp(resource=tf.Variable([1.0]), dtype=tf.float32)


def test_handles_and_variants_have_tf_dtypes():
    assert tf.Variable([1.0]).handle.dtype == tf.resource
    h, _ = tf.raw_ops.TensorArrayV3(size=1, dtype=tf.float32)
    assert h.dtype == tf.resource
    lst = tf.raw_ops.EmptyTensorList(element_shape=-1, max_num_elements=-1, element_dtype=tf.int32)
    assert lst.dtype == tf.variant and int(tf.raw_ops.TensorListLength(input_handle=lst)) == 0


def test_read_variable_with_wrong_dtype_is_tf_error():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="wrong dtype. Expected int32 got float32"):
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


def _ta_loss(x, up):
    h, flow = tf.raw_ops.TensorArrayV3(size=2, dtype=tf.float32, element_shape=[3], clear_after_read=False)
    flow = tf.raw_ops.TensorArrayWriteV3(handle=h, index=0, value=x[0] * x[1], flow_in=flow)
    flow = tf.raw_ops.TensorArrayWriteV3(handle=h, index=1, value=tf.exp(x[1]), flow_in=flow)
    y = tf.raw_ops.TensorArrayGatherV3(handle=h, indices=[1, 0], flow_in=flow, dtype=tf.float32, element_shape=[3])
    y = y + tf.raw_ops.TensorArrayReadV3(handle=h, index=0, flow_in=flow, dtype=tf.float32)
    return tf.reduce_sum(y * up)


@pytest.mark.parametrize("mode", MODES)
def test_tensor_array_gradient_through_write_read_gather(mode):
    """TF records no eager gradient for raw TensorArray ops (its TensorArrayGrad needs graph names), so the
    oracle is the calculus: y0 = exp(x1) + x0*x1, y1 = 2*x0*x1 (row 0 read twice)."""
    rng = np.random.default_rng(3)
    x, up = rng.standard_normal((2, 2, 3)).astype(np.float32)

    def grad(x, up):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = _ta_loss(x, up)
        return tape.gradient(loss, x)

    fn = grad if mode == "eager" else tf.function(grad, jit_compile=(mode == "jit"))
    got = fn(tf.constant(x), tf.constant(up)).numpy()
    want = np.stack([up[0] * x[1] + 2 * up[1] * x[1], up[0] * (np.exp(x[1]) + x[0]) + 2 * up[1] * x[0]])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_array_list_converters_pass_tensors_through():
    from minixla.frontend.execute import execute

    a, b, c = tf.constant([1.0, 2.0]), tf.constant([[3.0]]), tf.constant([4])
    out = execute("_ArrayToList", [[a, b]])  # N tensors of one type
    assert [o.numpy().tolist() for o in out] == [[1.0, 2.0], [[3.0]]]
    out = execute("_ListToArray", [[a, c]])  # a type each
    assert [o.numpy().tolist() for o in out] == [[1.0, 2.0], [4]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float32 tensor"):
        execute("_ArrayToList", [[a, c]])


def test_tensor_array_read_out_of_range_is_tf_error():
    h, flow = tf.raw_ops.TensorArrayV3(size=2, dtype=tf.float32, element_shape=[1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tried to read from index 2 but array size is: 2"):
        tf.raw_ops.TensorArrayReadV3(handle=h, index=2, flow_in=flow, dtype=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="array is not resizeable"):
        tf.raw_ops.TensorArrayWriteV3(handle=h, index=5, value=[1.0], flow_in=flow)


def test_tensor_array_dynamic_size_grows_on_write():
    h, flow = tf.raw_ops.TensorArrayV3(size=1, dtype=tf.float32, dynamic_size=True)
    flow = tf.raw_ops.TensorArrayWriteV3(handle=h, index=2, value=[4.0, 5.0], flow_in=flow)
    assert int(tf.raw_ops.TensorArraySizeV3(handle=h, flow_in=flow)) == 3
    got = tf.raw_ops.TensorArrayGatherV3(handle=h, indices=[2, 0], flow_in=flow, dtype=tf.float32)
    np.testing.assert_array_equal(got.numpy(), [[4.0, 5.0], [0.0, 0.0]])


def test_tensor_list_errors_are_tf_errors():
    lst = tf.raw_ops.EmptyTensorList(element_shape=[2], max_num_elements=-1, element_dtype=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Trying to pop from an empty list"):
        tf.raw_ops.TensorListPopBack(input_handle=lst, element_shape=[2], element_dtype=tf.float32)
    lst = tf.raw_ops.TensorListPushBack(input_handle=lst, tensor=[1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Trying to access element 3 in a list with 1"):
        tf.raw_ops.TensorListGetItem(input_handle=lst, index=3, element_shape=[2], element_dtype=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="TensorList variant"):
        tf.raw_ops.TensorListLength(input_handle=tf.constant(1.0))


def test_stack_overflow_and_empty_are_tf_errors():
    h = tf.raw_ops.StackV2(max_size=1, elem_type=tf.float32, stack_name="s")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Stack\[s\] is empty"):
        tf.raw_ops.StackPopV2(handle=h, elem_type=tf.float32)
    tf.raw_ops.StackPushV2(handle=h, elem=[1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"overflowed its max_size \(1\)"):
        tf.raw_ops.StackPushV2(handle=h, elem=[2.0])
