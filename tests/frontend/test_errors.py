"""TF-level shape errors name the op, the shapes and the user's source line."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from minixla.frontend import tf
from minixla.frontend.builder import ShapeError
from minixla.frontend.builder_eager import EagerBuilder


def _line_of(marker: str) -> int:
    src, start = inspect.getsourcelines(inspect.getmodule(_line_of))
    return next(i for i, line in enumerate(src, 1) if marker in line and "_line_of" not in line)


def test_matmul_mismatch_eager_names_op_shapes_line():
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        tf.matmul(tf.ones([2, 3]), tf.ones([4, 5]))  # MARK-matmul-eager
    text = str(err.value)
    assert "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5] [Op:MatMul]" in text
    assert f"test_errors.py\", line {_line_of('MARK-matmul-eager')}" in text


def test_matmul_mismatch_while_tracing_points_at_function_body():
    @tf.function(jit_compile=True)
    def f(a, b):
        return tf.matmul(a, b)  # MARK-matmul-traced

    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        f(tf.ones([2, 3]), tf.ones([4, 5]))
    text = str(err.value)
    assert "[Op:MatMul]" in text and "In[0]: [2,3], In[1]: [4,5]" in text
    assert f"line {_line_of('MARK-matmul-traced')}, in f" in text


def test_bad_reshape():
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        tf.reshape(tf.ones([2, 3]), [4])  # MARK-reshape
    text = str(err.value)
    assert "Input to reshape is a tensor with 6 values, but the requested shape has 4 [Op:Reshape]" in text
    assert f"line {_line_of('MARK-reshape')}" in text
    with pytest.raises(tf.errors.InvalidArgumentError, match="requires a multiple of 4"):
        tf.reshape(tf.ones([2, 3]), [4, -1])


def test_incompatible_broadcast():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2,3\] vs. \[4\] \[Op:AddV2\]"):
        tf.ones([2, 3]) + tf.ones([4])


def test_errors_are_value_errors_too():
    with pytest.raises(ValueError):
        tf.concat([tf.ones([2, 3]), tf.ones([3, 3])], axis=1)


def test_builder_shape_error_names_hlo_op_and_user_line():
    b = EagerBuilder()
    with pytest.raises(ShapeError) as err:
        b.dot_general(np.ones((2, 3), np.float32), np.ones((4, 5), np.float32), ([1], [0]))  # MARK-builder
    text = str(err.value)
    assert text.startswith("hlo.dot_general: lhs dimension 1 (size 3) and rhs dimension 0 (size 4) do not match")
    assert "(operands: f32[2,3], f32[4,5])" in text
    assert f"line {_line_of('MARK-builder')}" in text


def test_symbolic_tensor_has_no_numpy():
    @tf.function
    def f(x):
        return x.numpy()

    with pytest.raises(AttributeError, match="no attribute 'numpy'"):
        f(tf.ones([2]))
