"""Bad tf.* calls raise TensorFlow's error types and messages, never raw Python errors.

Each row: a call (as source text, evaluated with `tf` and `np` in scope), the
error type TF raises, and a substring of TF's message.
"""

import numpy as np
import pytest

from minixla import tf

NONE_MSG = "Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor."
OBJECT_MSG = "with an unsupported type (<class 'object'>) to a Tensor."
RAGGED_MSG = "Can't convert non-rectangular Python sequence to Tensor."
DIV0 = "Integer division by zero"
OOM = "OOM when allocating tensor with shape[100000,100000,100]"

BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "pow",
          "math.floordiv", "math.floormod", "truncatediv", "math.squared_difference",
          "math.atan2"]
UNARY = ["abs", "negative", "exp", "math.log", "sqrt", "tanh", "sigmoid", "sin", "cos",
         "floor", "math.ceil", "square", "sign", "reduce_sum", "reduce_mean", "reduce_max",
         "identity", "shape", "size", "rank", "transpose", "nn.relu", "zeros_like", "ones_like"]

CASES = []
for fn in BINARY:
    CASES += [
        (f"tf.{fn}(None, 1.0)", ValueError, NONE_MSG),
        (f"tf.{fn}(1.0, None)", ValueError, NONE_MSG),
        (f"tf.{fn}([[1.0, 2.0], [3.0]], 1.0)", ValueError, RAGGED_MSG),
        (f"tf.{fn}(object(), 1.0)", ValueError, OBJECT_MSG),
    ]
    if fn != "divide":  # TF's divide converts y with a dtype hint and reports the dtype clash instead
        CASES.append((f"tf.{fn}(1.0, 'a')", TypeError, "Cannot convert 'a' to EagerTensor of dtype float32"))
for fn in UNARY:
    CASES += [
        (f"tf.{fn}(None)", ValueError, NONE_MSG),
        (f"tf.{fn}([[1.0], [2.0, 3.0]])", ValueError, RAGGED_MSG),
    ]
for fn in ["math.floordiv", "math.floormod", "truncatediv", "truncatemod"]:
    for dtype in ["tf.int32", "tf.int64", "tf.int8", "tf.uint8"]:
        CASES.append((f"tf.{fn}(tf.constant([7, 8], {dtype}), tf.constant([2, 0], {dtype}))",
                      tf.errors.InvalidArgumentError, DIV0))
CASES += [
    ("tf.constant(5) // tf.constant(0)", tf.errors.InvalidArgumentError, DIV0),
    ("tf.constant(5) % tf.constant(0)", tf.errors.InvalidArgumentError, DIV0),
    ("tf.concat([], axis=0)", ValueError,
     "List argument 'values' to 'ConcatV2' Op with length 0 shorter than minimum length 2."),
    ("tf.stack([])", ValueError, "List argument 'values' to 'Pack' Op with length 0 shorter than minimum length 1."),
    ("tf.add_n([])", ValueError, "inputs must be a list of at least one Tensor/IndexedSlices"),
    ("tf.concat([None, [1.0]], axis=0)", ValueError, NONE_MSG),
    ("tf.stack([[1.0], None])", ValueError, NONE_MSG),
    ("tf.convert_to_tensor(None)", ValueError, NONE_MSG),
    ("tf.convert_to_tensor([1, None])", ValueError, NONE_MSG),
    ("tf.convert_to_tensor([[1, 2], [3]])", ValueError, RAGGED_MSG),
    ("tf.convert_to_tensor([[[1], [2]], [[3]]])", ValueError, RAGGED_MSG),
    ("tf.convert_to_tensor(object())", ValueError, OBJECT_MSG),
    ("tf.constant(None)", ValueError, NONE_MSG),
    ("tf.constant([None])", ValueError, NONE_MSG),
    ("tf.constant([[1.0, 2.0], [3.0]])", ValueError, RAGGED_MSG),
    ("tf.constant('a', tf.float32)", TypeError, "Cannot convert 'a' to EagerTensor of dtype float32"),
    ("tf.constant(1.0, tf.string)", TypeError, "Cannot convert 1.0 to EagerTensor of dtype string"),
    ("tf.reshape(None, [2])", ValueError, NONE_MSG),
    ("tf.zeros([100000, 100000, 100])", tf.errors.ResourceExhaustedError, OOM),
    ("tf.ones([100000, 100000, 100])", tf.errors.ResourceExhaustedError, OOM),
    ("tf.fill([100000, 100000, 100], 1.0)", tf.errors.ResourceExhaustedError, OOM),
    ("tf.stack([tf.zeros([100000])] * 100000)", tf.errors.ResourceExhaustedError,
     "OOM when allocating tensor with shape[100000,100000]"),  # the eager fast path
    ("tf.ones([-1])", tf.errors.InvalidArgumentError, "dims must be non-negative"),
]


def test_table_is_large_enough():
    assert len(CASES) >= 100


@pytest.mark.parametrize("call, error, message", CASES, ids=[c[0] for c in CASES])
def test_bad_call(call, error, message):
    with pytest.raises(error) as info:
        eval(call, {"tf": tf, "np": np})
    assert message in str(info.value)
    assert type(info.value).__module__ != "builtins" or error in (ValueError, TypeError)


@pytest.mark.parametrize("fn, x, y, expected", [
    ("math.floordiv", [7, -7, 8], [2, 2, 3], np.floor_divide([7, -7, 8], [2, 2, 3])),
    ("math.floormod", [7, -7, 8], [2, 2, 3], np.mod([7, -7, 8], [2, 2, 3])),
    ("truncatediv", [7, -7, 8], [2, 2, 3], np.trunc(np.divide([7, -7, 8], [2, 2, 3])).astype(np.int32)),
])
def test_nonzero_integer_division_still_works(fn, x, y, expected):
    got = eval(f"tf.{fn}")(tf.constant(x), tf.constant(y))
    np.testing.assert_array_equal(got.numpy(), expected)


def test_division_by_zero_under_jit_follows_xla():
    """Compiled code does not raise: XLA defines x / 0 = -1 and x % 0 = x for integers."""
    @tf.function(jit_compile=True)
    def f(x, y):
        return tf.math.truncatediv(x, y), tf.math.truncatemod(x, y)

    q, r = f(tf.constant([7, -7]), tf.constant([0, 0]))
    np.testing.assert_array_equal(q.numpy(), [-1, -1])
    np.testing.assert_array_equal(r.numpy(), [7, -7])
