"""The public TF functions (`tf.add`, `tf.reduce_mean`, `tf.reshape`, ...).

Each is a thin Python layer over one or a few registry ops, as TF's own
Python API is over raw ops: it normalizes arguments (axis=None, perm=None,
Python values) and calls `execute`. Names follow `tf.math`/`tf.*`.
"""

from __future__ import annotations

import builtins

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend import eager_fast_ops as _fast_ops
from minixla.frontend import eager_fast_path as _fast
from minixla.frontend.execute import execute
from minixla.frontend.conversions import CONVERSIONS, convert_registered
from minixla.frontend import indexed_slices as _indexed_slices
from minixla.frontend.indexed_slices import IndexedSlices
from minixla.frontend.graph import current_graph
import sys as _sys

from minixla.frontend import tensor as tensor_module
from minixla.frontend.tensor import Tensor, to_array

# -- creation -----------------------------------------------------------------------


#: numpy scalar types `tf.constant` wraps as they are (dtype kept, a fresh 0-d array)
_NUMPY_SCALARS = frozenset({np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8,
                            np.uint16, np.uint32, np.uint64, np.bool_, np.complex64, np.complex128})



def _plain_scalar(value):
    """The 0-d array `constant` makes of a numpy scalar (its dtype) or of a Python bool, int or float
    (TF's defaults: bool, int32, float32) that converts without a range check; else None."""
    kind = type(value)
    if kind in _NUMPY_SCALARS or kind is bool:
        return np.array(value)
    if kind is float and -3.4e38 <= value <= 3.4e38:  # (NaN and the infinities: the general path)
        return np.array(value, np.float32)
    if kind is int and -2**31 <= value < 2**31:
        return np.array(value, np.int32)
    return None


def constant(value, dtype=None, shape=None, name=None) -> Tensor:
    if dtype is None and shape is None and not _fast.OPEN[0]:
        arr = _plain_scalar(value)
        if arr is not None:
            t = Tensor()  # what the general path below makes, in a fifth of the time
            t._value = arr
            t._dt = arr.dtype
            return t
    if isinstance(value, Tensor):
        value = value.numpy() if not value.is_symbolic else value
    arr = to_array(value, dtype) if not isinstance(value, Tensor) else None
    if arr is None:
        return cast(value, dtype) if dtype is not None else value
    if shape is not None:
        shape = [int(d) for d in shape]
        if arr.size == 1:
            arr = np.broadcast_to(arr.reshape(()), shape).copy()
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {value!r} (converted "
                            f"from {value!r}) has {arr.size} elements, but got `shape` {tuple(shape)} with "
                            f"{int(np.prod(shape))} elements).")
    graph = current_graph()
    return graph.constant(arr) if graph is not None else Tensor.make(arr)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None) -> Tensor:
    if isinstance(value, IndexedSlices):
        value = value.to_dense()
    if hasattr(value, "_variable_value"):
        value = value._variable_value()
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) != value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtypes.dtype_name(dtype)} for Tensor with dtype "
                             f"{value.dtype.name}: {value!r}")
        return value
    if CONVERSIONS and not isinstance(value, (np.ndarray, np.generic, int, float, bool, list, tuple)):
        converted = convert_registered(value, dtype)
        if converted is not None:
            return convert_to_tensor(converted, dtype)
    if dtype is None and dtype_hint is not None:
        try:
            return constant(value, dtype_hint)
        except (TypeError, ValueError):
            pass
    return constant(value, dtype)


def _t(x, dtype=None) -> Tensor:
    return convert_to_tensor(x, dtype)


def cast(x, dtype, name=None) -> Tensor:
    x = _t(x)
    dt = dtypes.as_dtype(dtype)
    if x.dtype == dt:
        return x
    return execute("Cast", [x], {"DstT": dt.np})


cast = _fast_ops.cast_api(cast)


def identity(input, name=None):
    return execute("Identity", [input])


def stop_gradient(input, name=None):
    return execute("StopGradient", [input])


identity = _fast_ops.identity_api(identity)
stop_gradient = _fast_ops.identity_api(stop_gradient)


def _shape_list(shape) -> list[int]:
    if isinstance(shape, Tensor):
        return [int(v) for v in np.asarray(shape._const).reshape(-1)]
    return [int(d) for d in (shape if isinstance(shape, (list, tuple)) else [shape])]


def fill(dims, value, name=None):
    return execute("Fill", [np.asarray(_shape_list(dims), np.int32), value])


def zeros(shape, dtype=dtypes.float32, name=None):
    return fill(shape, constant(False if dtypes.as_dtype(dtype) == dtypes.bool_ else 0, dtype))


def ones(shape, dtype=dtypes.float32, name=None):
    return fill(shape, constant(True if dtypes.as_dtype(dtype) == dtypes.bool_ else 1, dtype))


def zeros_like(input, dtype=None, name=None):
    x = _t(input)
    return execute("ZerosLike", [x if dtype is None else cast(x, dtype)])


def ones_like(input, dtype=None, name=None):
    x = _t(input)
    return execute("OnesLike", [x if dtype is None else cast(x, dtype)])


zeros = _fast_ops.filled_api(zeros, 0)
ones = _fast_ops.filled_api(ones, 1)
zeros_like = _fast_ops.filled_like_api(zeros_like, 0)
ones_like = _fast_ops.filled_like_api(ones_like, 1)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    if limit is None:
        start, limit = 0, start
    vals = [start, limit, delta]
    if dtype is None:
        kinds = [to_array(v).dtype if not isinstance(v, Tensor) else v.dtype.np for v in vals]
        dtype = np.result_type(*kinds)
        dtype = np.float32 if dtype == np.float64 and not any(isinstance(v, np.ndarray) for v in vals) else dtype
    dt = dtypes.np_dtype(dtype)
    return execute("Range", [cast(v, dt) if isinstance(v, Tensor) else np.asarray(v, dt) for v in vals])


range = _fast_ops.range_api(range)  # noqa: A001


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """The identity matrix, of shape batch_shape + [num_rows, num_columns] with batch_shape (as TF)."""
    rows = range(num_rows)
    cols = range(num_rows if num_columns is None else num_columns)
    m = cast(equal(expand_dims(rows, 1), cols), dtype)
    if batch_shape is None:
        return m
    return broadcast_to(m, [int(d) for d in batch_shape] + [num_rows, len(cols)])


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    dt = dtypes.as_dtype(dtype) if dtype is not None else (
        _t(on_value).dtype if on_value is not None else dtypes.float32)
    on = constant(1 if on_value is None else on_value, dt)
    off = constant(0 if off_value is None else off_value, dt)
    return execute("OneHot", [indices, np.asarray(depth, np.int32), on, off], {"axis": -1 if axis is None else axis})


def shape(input, out_type=dtypes.int32, name=None):
    return execute("Shape", [input], {"out_type": dtypes.np_dtype(out_type)})


shape = _fast_ops.shape_api(shape)


def size(input, out_type=dtypes.int32, name=None):
    return execute("Size", [input], {"out_type": dtypes.np_dtype(out_type)})


def rank(input, name=None):
    return execute("Rank", [input])


# -- elementwise --------------------------------------------------------------------

def _binary(op):
    def fn(x, y, name=None):
        return execute(op, [x, y])

    fn.__name__ = op
    return _fast.binary_api(op, fn) if op in _fast.BINARY_TABLES else fn


add = _binary("AddV2")
subtract = _binary("Sub")
multiply = _binary("Mul")
maximum = _binary("Maximum")
minimum = _binary("Minimum")
floordiv = _binary("FloorDiv")
floormod = _binary("FloorMod")
squared_difference = _binary("SquaredDifference")
equal = _binary("Equal")
not_equal = _binary("NotEqual")
less = _binary("Less")
less_equal = _binary("LessEqual")
greater = _binary("Greater")
greater_equal = _binary("GreaterEqual")
logical_and = _binary("LogicalAnd")
logical_or = _binary("LogicalOr")
divide_no_nan = _binary("DivNoNan")
multiply_no_nan = _binary("MulNoNan")
xlogy = _binary("Xlogy")
xdivy = _binary("Xdivy")
atan2 = _binary("Atan2")
truncatediv = _binary("TruncateDiv")
truncatemod = _binary("TruncateMod")
bitwise_and = _binary("BitwiseAnd")
bitwise_or = _binary("BitwiseOr")
bitwise_xor = _binary("BitwiseXor")
left_shift = _binary("LeftShift")
right_shift = _binary("RightShift")
mod = floormod


def pow(x, y, name=None):  # noqa: A001
    return execute("Pow", [x, y])


pow = _fast.binary_api("Pow", pow)  # noqa: A001


def logical_xor(x, y, name=None):
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


def _pair(x, y):
    """Tensors for a binary op with TF's conversion (Python values take the tensor's dtype)."""
    if isinstance(x, Tensor) or hasattr(x, "_variable_value"):
        x = _t(x)
        return x, _t(y, x.dtype) if not isinstance(y, Tensor) and not hasattr(y, "_variable_value") else _t(y)
    y = _t(y)
    return _t(x, y.dtype), y


def truediv(x, y, name=None):
    """Integers are cast to float first (int8/16 -> float32, int32/64 -> float64), as TF does."""
    x, y = _pair(x, y)
    if x.dtype.is_integer:
        target = dtypes.float32 if x.dtype.size <= 2 else dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return execute("RealDiv", [x, y])


truediv = _fast.binary_api("RealDiv", truediv)  # floats; integers take the general path and its casts
divide = truediv


def _bool_or_bitwise(logical, bitwise):
    def fn(x, y):
        x, y = _pair(x, y)
        return execute(logical if x.dtype.is_bool else bitwise, [x, y])

    return fn


logical_and_or_bitwise = _bool_or_bitwise("LogicalAnd", "BitwiseAnd")
logical_or_or_bitwise = _bool_or_bitwise("LogicalOr", "BitwiseOr")


def logical_xor_or_bitwise(x, y):
    x, y = _pair(x, y)
    return logical_xor(x, y) if x.dtype.is_bool else execute("BitwiseXor", [x, y])


def invert_or_not(x):
    x = _t(x)
    return execute("LogicalNot" if x.dtype.is_bool else "Invert", [x])


def _unary(op):
    def fn(x, name=None):
        return execute(op, [x])

    fn.__name__ = op
    return _fast.unary_api(op, fn) if op in _fast.UNARY_TABLES else fn


def _abs(x, name=None):
    x = _t(x)
    return execute("ComplexAbs", [x], {"Tout": x.dtype.real_dtype}) if x.dtype.is_complex else execute("Abs", [x])


abs = _fast.unary_api("Abs", _abs)  # noqa: A001
negative = _unary("Neg")
sign = _unary("Sign")
square = _unary("Square")
sqrt = _unary("Sqrt")
rsqrt = _unary("Rsqrt")
exp = _unary("Exp")
expm1 = _unary("Expm1")
log = _unary("Log")
log1p = _unary("Log1p")
reciprocal = _unary("Reciprocal")
sin = _unary("Sin")
cos = _unary("Cos")
tan = _unary("Tan")
tanh = _unary("Tanh")
atan = _unary("Atan")
asin = _unary("Asin")
acos = _unary("Acos")
sinh = _unary("Sinh")
cosh = _unary("Cosh")
floor = _unary("Floor")
ceil = _unary("Ceil")
round = _unary("Round")  # noqa: A001
rint = _unary("Rint")
sigmoid = _unary("Sigmoid")
softplus = _unary("Softplus")
is_nan = _unary("IsNan")
is_inf = _unary("IsInf")
is_finite = _unary("IsFinite")
logical_not = _unary("LogicalNot")
erf = _unary("Erf")
invert = _unary("Invert")


def log_sigmoid(x, name=None):
    return negative(softplus(negative(x)))


def add_n(inputs, name=None):
    return execute("AddN", [list(inputs)])


def scalar_mul(scalar, x, name=None):
    return multiply(scalar, x)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    t = _t(t)
    return execute("ClipByValue", [t, _t(clip_value_min, t.dtype) if not isinstance(clip_value_min, Tensor)
                                   else clip_value_min, _t(clip_value_max, t.dtype)
                                   if not isinstance(clip_value_max, Tensor) else clip_value_max])


clip_by_value = _fast_ops.clip_api(clip_by_value)


def where(condition, x=None, y=None, name=None):
    """One argument: coordinates of the true elements (int64 [num_true, rank]), a data-dependent
    shape, so host only (eager, tf.function without jit); three arguments: SelectV2."""
    if x is None and y is None:
        return execute("Where", [condition])
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return execute("SelectV2", [condition, x, y])


where = _fast_ops.where_api(where)


# -- reductions -----------------------------------------------------------------------

def _axis(input_tensor, axis, keepdims=False):
    """(x, axes): all of x's when `axis` is None; x of unknown rank (a py_function result) flattened."""
    x = _t(input_tensor)
    if axis is None and x._spec.shape is None:  # TF: range(rank(x)) at run time
        if keepdims:
            raise ValueError("reducing all axes with keepdims=True needs the input's rank (tf.ensure_shape)")
        return reshape(x, [-1]), np.zeros(1, np.int32)
    if axis is None:
        return x, np.arange(x.ndim, dtype=np.int32)
    if isinstance(axis, Tensor):
        return x, axis
    return x, np.asarray(axis, dtype=np.int32)


def _reduction(op):
    def fn(input_tensor, axis=None, keepdims=False, name=None):
        x, ax = _axis(input_tensor, axis, keepdims)
        return execute(op, [x, ax], {"keep_dims": bool(keepdims)})

    fn.__name__ = op
    return fn


reduce_sum = _fast_ops.reduction_api("Sum", _reduction("Sum"))
reduce_mean = _fast_ops.reduction_api("Mean", _reduction("Mean"))
reduce_max = _fast_ops.reduction_api("Max", _reduction("Max"))
reduce_min = _fast_ops.reduction_api("Min", _reduction("Min"))
reduce_prod = _fast_ops.reduction_api("Prod", _reduction("Prod"))
reduce_all = _reduction("All")
reduce_any = _reduction("Any")
reduce_euclidean_norm = _reduction("EuclideanNorm")


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """TF's Python composite: max + log(sum(exp(x - max))), with non-finite max replaced by 0."""
    x, ax = _axis(input_tensor, axis)
    raw_max = reduce_max(x, ax, keepdims=True)
    my_max = stop_gradient(where(is_finite(raw_max), raw_max, zeros_like(raw_max)))
    result = log(reduce_sum(exp(subtract(x, my_max)), ax, keepdims=keepdims))
    if not keepdims:  # drop the reduced axes: a reshape where the shape is known, else a max over size-1 axes
        static = _t(result)._spec.shape
        known = static is not None and all(d is not None for d in static)
        my_max = reshape(my_max, list(static)) if known else reduce_max(my_max, ax)
    return add(result, my_max)


def shape_of(t) -> list[int]:
    return list(_t(t)._spec.shape)


def argmax(input, axis=None, output_type=dtypes.int64, name=None):
    return execute("ArgMax", [input, np.asarray(0 if axis is None else axis, np.int32)
                              if not isinstance(axis, Tensor) else axis],
                   {"output_type": dtypes.np_dtype(output_type)})


def argmin(input, axis=None, output_type=dtypes.int64, name=None):
    return execute("ArgMin", [input, np.asarray(0 if axis is None else axis, np.int32)
                              if not isinstance(axis, Tensor) else axis],
                   {"output_type": dtypes.np_dtype(output_type)})


argmax = _fast_ops.arg_api(argmax, is_min=False)
argmin = _fast_ops.arg_api(argmin, is_min=True)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return execute("Cumsum", [x, np.asarray(axis, np.int32) if not isinstance(axis, Tensor) else axis],
                   {"exclusive": exclusive, "reverse": reverse})


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    return execute("Cumprod", [x, np.asarray(axis, np.int32) if not isinstance(axis, Tensor) else axis],
                   {"exclusive": exclusive, "reverse": reverse})


# -- shapes ---------------------------------------------------------------------------

def _const_arg(v, dtype=np.int32):
    if isinstance(v, Tensor):
        return v
    if isinstance(v, (list, tuple)) and any(isinstance(e, Tensor) for e in v):
        return stack([cast(e, dtype) if isinstance(e, Tensor) else constant(e, dtype) for e in v])
    return np.asarray(v, dtype)


def reshape(tensor, shape, name=None):
    return execute("Reshape", [tensor, _const_arg(shape)])


reshape = _fast_ops.reshape_api(reshape)


def transpose(a, perm=None, conjugate=False, name="transpose"):
    x = _t(a)
    if perm is None:
        perm = list(builtins.range(x.ndim))[::-1]
    return execute("Transpose", [x, _const_arg(perm)])


transpose = _fast_ops.transpose_api(transpose)


def expand_dims(input, axis, name=None):
    return execute("ExpandDims", [input, _const_arg(axis)])


def squeeze(input, axis=None, name=None):
    dims = () if axis is None else tuple([axis] if isinstance(axis, int) else axis)
    return execute("Squeeze", [input], {"squeeze_dims": dims})


expand_dims = _fast_ops.expand_dims_api(expand_dims)
squeeze = _fast_ops.squeeze_api(squeeze)


def concat(values, axis, name="concat"):
    values = list(values)
    if len(values) == 1:  # TF: one tensor is its own concatenation (ConcatV2 needs two)
        return identity(values[0])
    return execute("ConcatV2", [values, _const_arg(axis)])


def stack(values, axis=0, name="stack"):
    return execute("Pack", [list(values)], {"axis": axis})


concat = _fast_ops.concat_api(concat)
stack = _fast_ops.stack_api(stack)


def unstack(value, num=None, axis=0, name="unstack"):
    return list(execute("Unpack", [value], {"num": num, "axis": axis}))


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    if isinstance(num_or_size_splits, int):
        return list(execute("Split", [_const_arg(axis), value], {"num_split": num_or_size_splits}))
    return list(execute("SplitV", [value, _const_arg(num_or_size_splits), _const_arg(axis)]))


def tile(input, multiples, name=None):
    return execute("Tile", [input, _const_arg(multiples)])


def broadcast_to(input, shape, name=None):
    return execute("BroadcastTo", [input, _const_arg(shape)])


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    mode = mode.upper()
    if mode == "CONSTANT":
        t = _t(tensor)
        return execute("PadV2", [t, _const_arg(paddings), _t(constant_values, t.dtype)
                                 if not isinstance(constant_values, Tensor) else constant_values])
    return execute("MirrorPad", [tensor, _const_arg(paddings)], {"mode": mode})


def slice(input_, begin, size, name=None):  # noqa: A001
    return execute("Slice", [input_, _const_arg(begin), _const_arg(size)])


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, name=None):
    strides = [1] * len(begin) if strides is None else strides
    return execute("StridedSlice", [input_, _const_arg(begin), _const_arg(end), _const_arg(strides)],
                   {"begin_mask": begin_mask, "end_mask": end_mask, "ellipsis_mask": ellipsis_mask,
                    "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask})


def reverse(tensor, axis, name=None):
    return execute("ReverseV2", [tensor, _const_arg(axis)])


def getitem(tensor, key):
    """`t[...]`: ints, slices, None and Ellipsis, as TF's _slice_helper builds a StridedSlice."""
    if not isinstance(key, tuple):
        key = (key,)
    begin, end, strides = [], [], []
    bm = em = elm = nam = sam = 0
    for i, k in enumerate(key):
        if k is Ellipsis:
            begin.append(0), end.append(0), strides.append(1)
            elm |= 1 << i
        elif k is None:
            begin.append(0), end.append(0), strides.append(1)
            nam |= 1 << i
        elif isinstance(k, builtins.slice):
            begin.append(0 if k.start is None else int(k.start))
            end.append(0 if k.stop is None else int(k.stop))
            strides.append(1 if k.step is None else int(k.step))
            bm |= (k.start is None) << i
            em |= (k.stop is None) << i
        else:
            idx = int(k)
            begin.append(idx), end.append(idx + 1), strides.append(1)
            sam |= 1 << i
    return strided_slice(tensor, begin, end, strides, bm, em, elm, nam, sam)


getitem = _fast_ops.getitem_api(getitem)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, name=None):
    a, b = _pair(a, b)
    ta, tb = transpose_a or adjoint_a, transpose_b or adjoint_b
    if a.ndim == 2 and b.ndim == 2:
        return execute("MatMul", [a, b], {"transpose_a": ta, "transpose_b": tb})
    return execute("BatchMatMulV2", [a, b], {"adj_x": ta, "adj_y": tb})


matmul = _fast_ops.matmul_api(matmul)


tensor_module.API[0] = _sys.modules[__name__]  # Tensor's operators call these functions
_fast.install_operators(_sys.modules[__name__])  # ... the arithmetic ones through the fast path
_indexed_slices.install(convert_to_tensor=convert_to_tensor, square=square, abs=abs, negative=negative)
