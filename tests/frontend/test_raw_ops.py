"""`tf.raw_ops`: TF's keyword signatures over minixla's registry, eagerly and under jit,
against numpy; ops minixla lacks raise UnimplementedError saying whether XLA could compile them."""

from __future__ import annotations

import numpy as np
import pytest

from minixla import tf
from minixla.frontend.raw_ops import tf_api

X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_keyword_calls_match_numpy(jit):
    r = tf.raw_ops

    def f(x):
        return (r.MatMul(a=x, b=x, transpose_b=True), r.ConcatV2(values=[x, x], axis=1), r.AddV2(x=x, y=x),
                r.Relu(features=x), r.Reshape(tensor=x, shape=[3, 2]), r.Sum(input=x, axis=[1], keep_dims=True))

    fn = tf.function(f, jit_compile=True) if jit else f
    mm, cat, add, relu, reshape, total = (t.numpy() for t in fn(tf.constant(X)))
    np.testing.assert_allclose(mm, X @ X.T, rtol=1e-6)
    np.testing.assert_array_equal(cat, np.concatenate([X, X], axis=1))
    np.testing.assert_array_equal(add, X + X)
    np.testing.assert_array_equal(relu, np.maximum(X, 0))
    np.testing.assert_array_equal(reshape, X.reshape(3, 2))
    np.testing.assert_allclose(total, X.sum(1, keepdims=True), rtol=1e-6)


def test_every_tf_raw_op_name_exists_and_has_tfs_signature():
    r = tf.raw_ops
    assert len(tf_api()["raw_ops"]) == 1462 and all(hasattr(r, n) for n in tf_api()["raw_ops"])
    assert "transpose_b" in r.MatMul.__doc__ and r.MatMul.inputs == ["a", "b"]


def test_positional_arguments_are_rejected_like_tf():
    with pytest.raises(TypeError, match="only takes keyword arguments"):
        tf.raw_ops.AddV2(X, X)
    with pytest.raises(TypeError, match="missing required arguments \\['y'\\]"):
        tf.raw_ops.AddV2(x=X)
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['z'\\]"):
        tf.raw_ops.AddV2(x=X, y=X, z=X)


def test_missing_ops_say_whether_xla_could_compile_them():
    with pytest.raises(tf.errors.UnimplementedError, match="XLA cannot compile it either"):
        tf.raw_ops.DecodeJpeg(contents="x")
    missing_xla = next(n for n in tf_api()["xla_compilable"] if n in tf_api()["raw_ops"]
                       and not __import__("minixla.frontend.raw_ops", fromlist=["x"]).implemented(n))
    with pytest.raises(tf.errors.UnimplementedError, match="not implemented in minixla yet \\(XLA can compile it"):
        getattr(tf.raw_ops, missing_xla)()
