"""Raw ops of frontend/ops/raw_misc_ops.py and frontend/api/raw_functional.py checked against numpy or
TF's recorded messages where a golden cannot be compared directly: Svd / SelfAdjointEigV2 / XlaSvd /
XlaSelfAdjointEig (vectors are defined up to sign), Assert's message (TF 2.21's, recorded by hand),
NoOp/ControlTrigger, XlaIf (TF 2.21 cannot run it from Python) and the errors for bad arguments.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from minixla.frontend.raw_ops import RawOp

R = np.random.default_rng(5)
A = R.standard_normal((2, 4, 4)).astype(np.float32)
SYM = (A + A.transpose(0, 2, 1)).astype(np.float32)
TALL = R.standard_normal((5, 3)).astype(np.float32)


def _run(fn, mode):
    return fn() if mode == "eager" else tf.function(fn, jit_compile=mode == "jit")()


def _signs(v, ref):
    """v's columns flipped to point as ref's do (eigen/singular vectors are defined up to sign)."""
    s = np.sign(np.sum(v * ref, axis=-2, keepdims=True))
    return v * np.where(s == 0, 1, s)


def test_svd_against_numpy():
    s, u, v = tf.raw_ops.Svd(input=TALL)
    nu, ns, nvt = np.linalg.svd(TALL, full_matrices=False)
    np.testing.assert_allclose(s.numpy(), ns, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_signs(u.numpy(), nu), nu, atol=1e-4)
    np.testing.assert_allclose(_signs(v.numpy(), nvt.T), nvt.T, atol=1e-4)
    s_only, u0, v0 = tf.raw_ops.Svd(input=TALL, compute_uv=False)
    np.testing.assert_allclose(s_only.numpy(), ns, rtol=1e-4, atol=1e-5)
    assert u0.shape == v0.shape == (0,)


# compiling the Jacobi sweeps takes ~6 s on 2 cores: `python -m pytest -m slow`
@pytest.mark.parametrize("mode", ["eager", pytest.param("jit", marks=pytest.mark.slow)])
def test_self_adjoint_eig_against_numpy(mode):
    e, v = _run(lambda: tf.raw_ops.SelfAdjointEigV2(input=SYM), mode)
    ne, nv = np.linalg.eigh(SYM)
    np.testing.assert_allclose(e.numpy(), ne, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(_signs(v.numpy(), nv), nv, atol=1e-3)


@pytest.mark.parametrize("lower", [True, False])
def test_xla_self_adjoint_eig_reads_one_triangle(lower):
    unread = np.triu(np.ones((4, 4)), 1) if lower else np.tril(np.ones((4, 4)), -1)
    junk = np.where(unread > 0, 99.0, SYM[0]).astype(np.float32)  # the unread triangle holds garbage
    w, v = RawOp("XlaSelfAdjointEig")(a=junk, lower=lower, max_iter=100, epsilon=1e-6)
    ne, nv = np.linalg.eigh(SYM[0], UPLO="L" if lower else "U")
    np.testing.assert_allclose(w.numpy(), ne, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(_signs(v.numpy(), nv), nv, atol=1e-3)


def test_xla_svd_of_a_square_matrix_against_numpy():
    s, u, v = RawOp("XlaSvd")(a=A[0], max_iter=100, epsilon=1e-6, precision_config="")
    nu, ns, nvt = np.linalg.svd(A[0])
    np.testing.assert_allclose(s.numpy(), ns, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(u.numpy() @ np.diag(s.numpy()) @ v.numpy().T, A[0], atol=1e-4)


def test_xla_svd_of_a_non_square_matrix_is_unimplemented():
    with pytest.raises(tf.errors.UnimplementedError, match="XlaSvd of a non-square matrix"):
        RawOp("XlaSvd")(a=TALL, max_iter=100, epsilon=1e-6, precision_config="")


# TF 2.21's messages for these calls (tf.raw_ops.Assert(condition=False, data=..., summarize=...))
ASSERT_MESSAGES = [
    ([np.float32(2.5)], 3, "assertion failed: [2.5]"),
    ([np.array([1.5, -2.0, 3.25, 4.0], np.float32), np.array([[1, 2], [3, 4]], np.int32)], 3,
     "assertion failed: [1.5 -2 3.25...] [[1 2][3...]...]"),
    ([np.arange(6, dtype=np.int64).reshape(2, 3)], 10, "assertion failed: [[0 1 2][3 4 5]]"),
    ([np.array([True, False])], 3, "assertion failed: [1 0]"),
]


@pytest.mark.parametrize("data, summarize, message", ASSERT_MESSAGES)
def test_assert_message_is_tensorflows(data, summarize, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.raw_ops.Assert(condition=False, data=data, summarize=summarize)
    assert str(info.value).startswith(message + " [Op:Assert]"), str(info.value)


def test_assert_in_tf_function_raises_and_compiles_to_nothing():
    def f(x):
        tf.raw_ops.Assert(condition=x > 0, data=[x])
        return x * 2.0

    assert float(tf.function(f)(tf.constant(1.5))) == 3.0
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[-1\]"):
        tf.function(f)(tf.constant(-1.0))
    assert float(tf.function(f, jit_compile=True)(tf.constant(-1.0))) == -2.0  # tf2xla's Assert is a no-op


def test_no_op_and_control_trigger_return_nothing():
    assert tf.raw_ops.NoOp() is None and tf.raw_ops.ControlTrigger() is None
    assert float(tf.function(lambda: (tf.raw_ops.NoOp(), tf.constant(1.0))[1], jit_compile=True)()) == 1.0


@pytest.mark.parametrize("mode", ["eager", "function", "jit"])
def test_xla_if_against_numpy(mode):
    spec = [tf.TensorSpec([3], tf.float32)]
    then_f = tf.function(lambda v: v * 3.0, input_signature=spec).get_concrete_function()
    else_f = tf.function(lambda v: tf.exp(v), input_signature=spec).get_concrete_function()
    x = np.array([0.5, -1.0, 2.0], np.float32)
    for c, want in [(True, x * 3.0), (False, np.exp(x))]:
        got = _run(lambda c=c: RawOp("XlaIf")(cond=c, inputs=[x], then_branch=then_f, else_branch=else_f,
                                              Tout=[tf.float32]), mode)
        np.testing.assert_allclose(got[0].numpy(), want, rtol=1e-6)


def test_a_function_attribute_must_be_a_function():
    with pytest.raises(TypeError, match="must be a function"):
        tf.raw_ops.PartitionedCall(args=[tf.constant(1.0)], Tout=[tf.float32], f="not a function")


def test_a_while_body_must_keep_the_loop_types():
    spec = [tf.TensorSpec([], tf.int32)]
    c = tf.function(lambda i: i < 3, input_signature=spec).get_concrete_function()
    b = tf.function(lambda i: tf.cast(i, tf.float32), input_signature=spec).get_concrete_function()
    with pytest.raises(ValueError, match="the body returns"):
        tf.function(lambda: tf.raw_ops.StatelessWhile(input=[tf.constant(0)], cond=c, body=b))()


def test_rng_bit_generator_rejects_states_it_has_no_layout_for():
    with pytest.raises(tf.errors.UnimplementedError, match="THREE_FRY takes a state of 2 words, got state shape"):
        RawOp("XlaRngBitGenerator")(algorithm=2, initial_state=np.array([1, 2, 3], np.uint64), shape=[4],
                                    dtype=tf.uint32)


@pytest.mark.parametrize("algorithm, dtype, shape", [(2, tf.uint32, [3, 5]), (1, tf.uint64, [5]), (0, tf.uint8, [1, 7])])
def test_rng_bit_generator_gives_xlas_bits_for_a_two_word_state(algorithm, dtype, shape):
    """TF's XlaRngBitGenerator is XLA's op: the bits JAX recorded from XLA (tests/golden/rng_bit_generator.json)."""
    import json
    from pathlib import Path

    name = {0: "PHILOX", 1: "PHILOX", 2: "THREE_FRY"}[algorithm]  # DEFAULT is Philox on CPU
    cases = json.loads((Path(__file__).parent.parent / "golden" / "rng_bit_generator.json").read_text())["cases"]
    case = next(c for c in cases if c["algorithm"] == name and c["shape"] == shape
                and c["dtype"] == dtype.as_numpy_dtype.__name__ and c["state"][0] != "1")
    state, bits = RawOp("XlaRngBitGenerator")(algorithm=algorithm, shape=shape, dtype=dtype,
                                              initial_state=np.array([int(v) for v in case["state"]], np.uint64))
    assert state.numpy().tolist() == [int(v) for v in case["new_state"]]
    assert bits.numpy().reshape(-1).tolist() == [int(b) for b in case["bits"]]


def test_stateful_random_op_needs_a_resource_handle():
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a resource tensor"):
        tf.raw_ops.StatefulUniform(resource=tf.constant([1, 2, 3], tf.int64), algorithm=1, shape=[2])


def test_stateless_random_int64_seed_has_no_xla_kernel():
    f = tf.function(lambda: tf.raw_ops.StatelessRandomUniform(shape=[2], seed=np.array([1, 2], np.int64)),
                    jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="StatelessRandomUniform"):
        f()


def test_reduce_window_computation_must_be_a_named_combiner():
    s = tf.TensorSpec([], tf.float32)
    odd = tf.function(lambda a, b: a + b * b, input_signature=[s, s]).get_concrete_function()
    with pytest.raises(tf.errors.UnimplementedError, match="XlaReduceWindow: a computation other than"):
        RawOp("XlaReduceWindow")(input=np.ones((2, 3), np.float32), init_value=np.float32(0), window_dimensions=[1, 2],
                                 window_strides=[1, 1], base_dilations=[1, 1], window_dilations=[1, 1],
                                 padding=[[0, 0], [0, 0]], computation=odd)



@pytest.mark.parametrize("how", ["concrete", "tf.function", "callable"])
def test_partitioned_call_takes_any_function_and_differentiates(how):
    """TF takes a ConcreteFunction; a tf.function or a plain callable works too. Gradients flow through."""
    spec = [tf.TensorSpec([3], tf.float32)] * 2
    py = lambda a, b: (a * b, tf.sin(a))  # noqa: E731
    f = {"concrete": tf.function(py, input_signature=spec).get_concrete_function(), "tf.function": tf.function(py),
         "callable": py}[how]
    x, y = tf.constant([0.5, 1.0, -2.0]), tf.constant([3.0, -1.0, 0.25])

    @tf.function
    def loss_and_grad(a, b):
        with tf.GradientTape() as tape:
            tape.watch(a)
            p, s = tf.raw_ops.PartitionedCall(args=[a, b], Tout=[tf.float32, tf.float32], f=f)
            loss = tf.reduce_sum(p) + tf.reduce_sum(s)
        return loss, tape.gradient(loss, a)

    loss, grad = loss_and_grad(x, y)
    np.testing.assert_allclose(loss.numpy(), np.sum(x.numpy() * y.numpy()) + np.sum(np.sin(x.numpy())), rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), y.numpy() + np.cos(x.numpy()), rtol=1e-6)


def test_stateless_while_in_tf_function_with_a_captured_tensor():
    spec = [tf.TensorSpec([], tf.int32), tf.TensorSpec([2], tf.float32)]
    c = tf.function(lambda i, v: i < 4, input_signature=spec).get_concrete_function()
    step = tf.constant([0.5, -1.0])
    body = lambda i, v: (i + 1, v + step)  # noqa: E731  (captures `step`)
    out = tf.function(lambda: tf.raw_ops.StatelessWhile(input=[tf.constant(0), tf.constant([1.0, 1.0])], cond=c,
                                                          body=body), jit_compile=True)()
    np.testing.assert_allclose(out[1].numpy(), [3.0, -3.0])
