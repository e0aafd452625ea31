"""The eager fast path for the common structured ops: reductions (Sum, Prod, Mean; Max/Min of
integers), MatMul, Cast, Reshape and Transpose on one eager Tensor with plain Python arguments.

The general path spends 15-60 µs per such op converting inputs and running the op's decomposition
through EagerBuilder; these call the interpreter kernel that decomposition ends in, with the same
arguments, so the numbers are the same bit for bit (tests/frontend/test_eager_fast_ops.py). What
the checks here do not accept -- a tensor axis, a bad shape or permutation, a dtype with another
rule (16-bit float sums, float max, integer mean) -- and every error take the general path.
"""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.kernels import conversions as cv
from minixla.backends.interpreter.ops_elementwise import UNARY
from minixla.frontend import dtypes
from minixla.frontend import eager_fast_path as _fast
from minixla.frontend.tensor import Tensor
from minixla.frontend.validation import out_of_memory

_WIDE = frozenset({np.dtype(np.float32), np.dtype(np.float64)})
_INTS = frozenset(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                                        np.uint64))
_PLAIN = _WIDE | _INTS
#: op -> (combining ufunc, its identity for a dtype, the dtypes whose general path is that ufunc's reduce)
REDUCTIONS = {
    "Sum": (np.add, lambda dt: 0, _WIDE | _INTS),
    "Prod": (np.multiply, lambda dt: 1, _WIDE | _INTS),
    "Mean": (np.add, lambda dt: 0, _WIDE),
    "Max": (np.maximum, lambda dt: np.iinfo(dt).min, _INTS),
    "Min": (np.minimum, lambda dt: np.iinfo(dt).max, _INTS),
}
#: what Cast converts between here (kinds the conversion kernel handles alike for every pair)
_CASTABLE = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
                                            np.uint8, np.uint16, np.uint32, np.uint64, np.bool_)) | {dtypes._BF16}


def _eager_array(x):
    """x's array when x is an eager Tensor or a tf.Variable (read in place: the ops here make new
    arrays) and no tape, trace or recorder is active; else None."""
    return x._value if type(x) in _fast.EAGER_TYPES and _fast.idle() else None


def _axes(axis, rank: int):
    """Sorted, distinct, in-range reduction axes from None, an int or a list/tuple of ints; else None."""
    if axis is None:
        return tuple(range(rank))
    if type(axis) is int:
        axis = (axis,)
    elif type(axis) not in (list, tuple) or any(type(a) is not int for a in axis):
        return None
    dims = {a % rank for a in axis if -rank <= a < rank} if rank else set()
    return tuple(sorted(dims)) if len(dims) == len(axis) else None


def _reduce(op: str, a: np.ndarray, dims: tuple, keepdims: bool):
    """The reduction kernel's ufunc branch (kernels/reduction.reduce): ufunc.reduce over the axes,
    combined with the identity and cast back to the input's type; Mean then divides by the count."""
    ufunc, identity, _ = REDUCTIONS[op]
    dt = a.dtype
    count = 1
    for d in dims:
        count *= a.shape[d]
    if count == 0:
        return None  # an empty reduction: the general path
    part = ufunc.reduce(a, axis=dims) if dims else a
    r = np.asarray(ufunc(np.asarray(identity(dt), dt), part)).astype(dt)
    if op == "Mean":  # sum / count in the input's type (the general path's `divide` kernel, for floats)
        r = np.asarray(np.true_divide(r, dt.type(count)))
    return r.reshape([1 if d in dims else n for d, n in enumerate(a.shape)]) if keepdims else r


def reduction_api(op: str, general):
    """`general` (tf.reduce_sum etc.) with the fast path in front."""
    dtypes_taken = REDUCTIONS[op][2]

    def fn(input_tensor, axis=None, keepdims=False, name=None):
        a = _eager_array(input_tensor)
        if a is not None and a.dtype in dtypes_taken and type(keepdims) is bool:
            dims = _axes(axis, a.ndim)
            if dims is not None:
                try:
                    out = _fast.quiet(_reduce, op, a, dims, keepdims)
                except Exception:  # noqa: BLE001 -- the general path makes the error
                    out = None
                if out is not None:
                    return _fast.wrap(out)
        return general(input_tensor, axis, keepdims, name)

    return _named(fn, general)


def _named(fast, general):
    """`fast` under `general`'s name; a result numpy cannot allocate raises TF's ResourceExhaustedError
    (numpy's MemoryError would be a traceback from inside)."""
    def fn(*args, **kwargs):
        try:
            return fast(*args, **kwargs)
        except MemoryError as err:
            raise out_of_memory(general.__name__, err) from None
    fn.__name__ = fn.__qualname__ = general.__name__
    fn.__doc__ = general.__doc__
    fn.general, fn.fast = general, fast
    return fn


def matmul_api(general):
    """tf.matmul of two eager 2-D float32/float64 matrices of one dtype (transposes, no adjoint of
    complex, no sparse hints): the dot_general kernel MatMul's rule calls."""
    def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
               b_is_sparse=False, output_type=None, name=None):
        x, y = _eager_array(a), _eager_array(b)
        if x is not None and y is not None and x.ndim == 2 and y.ndim == 2 and x.dtype in _WIDE \
                and y.dtype == x.dtype and output_type is None:
            ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
            if x.shape[0 if ta else 1] == y.shape[1 if tb else 0] and x.shape[0 if ta else 1]:
                try:
                    out = _fast.quiet(_matmul, x, y, ta, tb)
                except Exception:  # noqa: BLE001 -- the general path makes the error
                    out = None
                if out is not None:
                    return _fast.wrap(out)
        return general(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse, b_is_sparse, output_type,
                       name)

    return _named(matmul, general)


def _matmul(x: np.ndarray, y: np.ndarray, ta: bool, tb: bool) -> np.ndarray:
    """The dot_general kernel's steps for MatMul (kernels/contraction.dot_general): operands
    transposed to (m, k) and (k, n), in float64, as one batch; rounded once to the input type."""
    a, c = (x.T if ta else x).astype(np.float64), (y.T if tb else y).astype(np.float64)
    (m, k), n = a.shape, c.shape[1]
    out = np.matmul(a.reshape(1, m, k), c.reshape(1, k, n)).reshape(m, n)
    return out if x.dtype == np.float64 else out.astype(np.float32)  # cv.convert's float64 -> float32


_TARGETS: dict = {}  # what tf.cast was given as a dtype -> numpy dtype


def _target(dtype):
    try:
        return _TARGETS[dtype]
    except (KeyError, TypeError):
        pass
    try:
        dt = np.dtype(dtypes.as_dtype(dtype).np)
    except Exception:  # noqa: BLE001 -- the general path makes the error
        return None
    try:
        _TARGETS[dtype] = dt
    except TypeError:  # unhashable: not cached
        pass
    return dt


def _convert(a: np.ndarray, dt: np.dtype) -> np.ndarray:
    """cv.convert, whose branch for integer <-> integer, integer -> float32/float64 and float32 <->
    float64 is a plain `astype` (float -> integer saturates and bool tests != 0: the kernel)."""
    if a.dtype in _PLAIN and dt in _PLAIN and not (a.dtype.kind == "f" and dt.kind != "f"):
        return a.astype(dt)
    return cv.convert(a, dt)


def cast_api(general):
    """tf.cast between numeric/bool dtypes: the input itself for its own dtype, else the Cast kernel."""
    def cast(x, dtype, name=None):
        a = _eager_array(x)
        if a is not None and a.dtype in _CASTABLE:
            dt = _target(dtype)
            if dt is not None and dt in _CASTABLE:
                if dt == a.dtype:
                    return x if type(x) is Tensor else _fast.wrap(a.copy())  # a Variable: its value now
                try:
                    out = _fast.quiet(_convert, a, dt)
                except Exception:  # noqa: BLE001 -- the general path makes the error
                    out = None
                if out is not None:
                    return _fast.wrap(out)
        return general(x, dtype, name)

    return _named(cast, general)


def reshape_api(general):
    """tf.reshape to a list/tuple of Python ints (at most one -1) that fits: a copy, as the kernel makes."""
    def reshape(tensor, shape, name=None):
        a = _eager_array(tensor)
        if a is not None and type(shape) in (list, tuple) and all(type(d) is int and d >= -1 for d in shape) \
                and shape.count(-1) <= 1:
            known = 1
            for d in shape:
                known *= d if d != -1 else 1
            if (known == a.size) if -1 not in shape else (known and a.size % known == 0):
                return _fast.wrap(a.reshape(shape).copy())
        return general(tensor, shape, name)

    return _named(reshape, general)


def transpose_api(general):
    """tf.transpose by None (reversed axes) or a permutation of Python ints: a copy, as the kernel makes."""
    def transpose(a, perm=None, conjugate=False, name="transpose"):
        x = _eager_array(a)
        if x is not None and not conjugate:
            p = tuple(range(x.ndim))[::-1] if perm is None else perm
            if type(p) in (list, tuple) and all(type(d) is int for d in p) and sorted(p) == list(range(x.ndim)):
                return _fast.wrap(np.transpose(x, p).copy())
        return general(a, perm, conjugate, name)

    return _named(transpose, general)


def expand_dims_api(general):
    """tf.expand_dims at a Python int axis in range: a reshape copy, as the kernel makes."""
    def expand_dims(input, axis, name=None):
        a = _eager_array(input)
        if a is not None and type(axis) is int and -a.ndim - 1 <= axis <= a.ndim:
            shape = list(a.shape)
            shape.insert(axis % (a.ndim + 1), 1)
            return _fast.wrap(a.reshape(shape).copy())
        return general(input, axis, name)

    return _named(expand_dims, general)


def squeeze_api(general):
    """tf.squeeze of all size-1 axes, or of Python int axes in range that have size 1: a reshape copy."""
    def squeeze(input, axis=None, name=None):
        a = _eager_array(input)
        if a is not None:
            rank = a.ndim
            axes = [axis] if type(axis) is int else axis
            if axes is None or (type(axes) in (list, tuple) and not axes):  # (no axes: every size-1 axis)
                dims = {i for i, n in enumerate(a.shape) if n == 1}
            elif type(axes) in (list, tuple) and all(type(d) is int and -rank <= d < rank for d in axes):
                dims = {d % rank for d in axes}
            else:
                dims = None
            if dims is not None and all(a.shape[d] == 1 for d in dims):
                return _fast.wrap(a.reshape([n for i, n in enumerate(a.shape) if i not in dims]).copy())
        return general(input, axis, name)

    return _named(squeeze, general)


def _basic_index(k) -> bool:
    """An int, None, Ellipsis or a slice of ints/None: what TF's `t[...]` and numpy's basic
    indexing read alike (numpy's IndexError/ValueError for a bad one sends it to the general path)."""
    kind = type(k)
    if kind is int or k is None or k is Ellipsis:
        return True
    return kind is slice and all(v is None or type(v) is int for v in (k.start, k.stop, k.step))


def getitem_api(general):
    """`t[...]` with ints, slices, None and Ellipsis: numpy's basic indexing, copied (TF's
    StridedSlice makes a new tensor)."""
    def getitem(tensor, key):
        a = _eager_array(tensor)
        if a is not None and a.dtype.kind != "O":
            k = key if type(key) is tuple else (key,)
            if all(_basic_index(e) for e in k):
                try:
                    out = a[k]
                except (IndexError, ValueError, TypeError):  # the general path makes TF's error
                    out = None
                if out is not None:
                    return _fast.wrap(np.array(out))
        return general(tensor, key)

    return _named(getitem, general)


# -- creation and joining: numpy makes the same arrays ------------------------------------------------

def _shape(shape):
    """A list/tuple of non-negative Python ints (or one int) as a tuple; else None."""
    dims = (shape,) if type(shape) is int else shape
    if type(dims) in (list, tuple) and all(type(d) is int and d >= 0 for d in dims):
        return tuple(dims)
    return None


def filled_api(general, value: int):
    """tf.zeros/tf.ones of a Python shape and a dtype tf.cast understands: np.full."""
    def filled(shape, dtype=dtypes.float32, name=None):
        dims, dt = _shape(shape), _target(dtype)
        if dims is not None and dt is not None and dt in _CASTABLE and _fast.idle():
            try:
                return _fast.wrap(np.full(dims, value, dt))
            except (MemoryError, ValueError):  # too big: the general path raises TF's ResourceExhaustedError
                pass
        return general(shape, dtype, name)

    return _named(filled, general)


def filled_like_api(general, value: int):
    """tf.zeros_like/tf.ones_like of an eager numeric/bool tensor in its own dtype: np.full_like."""
    def filled_like(input, dtype=None, name=None):
        a = _eager_array(input)
        if a is not None and dtype is None and a.dtype in _CASTABLE:
            try:
                return _fast.wrap(np.full(a.shape, value, a.dtype))
            except MemoryError:  # the general path raises TF's ResourceExhaustedError
                pass
        return general(input, dtype, name)

    return _named(filled_like, general)


def _arrays(values):
    """The arrays of a list/tuple of eager tensors of one numeric/bool dtype; else None."""
    if type(values) not in (list, tuple) or not values:
        return None
    arrays = [_eager_array(v) for v in values]
    if any(a is None for a in arrays) or arrays[0].dtype not in _CASTABLE:
        return None
    dt = arrays[0].dtype
    return arrays if all(a.dtype == dt for a in arrays) else None


def concat_api(general):
    """tf.concat of eager tensors along a Python int axis: np.concatenate (its errors: the general path)."""
    def concat(values, axis, name="concat"):
        arrays = _arrays(values)
        if arrays is not None and type(axis) is int and arrays[0].ndim and -arrays[0].ndim <= axis < arrays[0].ndim:
            try:
                return _fast.wrap(np.concatenate(arrays, axis))
            except ValueError:
                pass
        return general(values, axis, name)

    return _named(concat, general)


def stack_api(general):
    """tf.stack of eager tensors of one shape along a Python int axis: np.stack."""
    def stack(values, axis=0, name="stack"):
        arrays = _arrays(values)
        if arrays is not None and type(axis) is int and -arrays[0].ndim - 1 <= axis <= arrays[0].ndim \
                and all(a.shape == arrays[0].shape for a in arrays):
            return _fast.wrap(np.stack(arrays, axis))
        return general(values, axis, name)

    return _named(stack, general)


def where_api(general):
    """tf.where(condition, x, y) of eager tensors (bool condition, x and y of one dtype): np.where,
    broadcasting as SelectV2 (a shape error: the general path)."""
    def where(condition, x=None, y=None, name=None):
        c, a, b = _eager_array(condition), _eager_array(x), _eager_array(y)
        if c is not None and a is not None and b is not None and c.dtype == np.bool_ and a.dtype == b.dtype \
                and a.dtype in _CASTABLE:
            try:
                return _fast.wrap(np.where(c, a, b))
            except ValueError:
                pass
        return general(condition, x, y, name)

    return _named(where, general)


def range_api(general):
    """tf.range of Python ints that fit int32, no dtype: np.arange in int32, as TF's default."""
    def range_(start, limit=None, delta=1, dtype=None, name="range"):
        lo, hi = (0, start) if limit is None else (start, limit)
        if dtype is None and type(lo) is int and type(hi) is int and type(delta) is int \
                and ((delta > 0 and lo <= hi) or (delta < 0 and lo >= hi))  \
                and all(-2**31 <= v < 2**31 for v in (lo, hi, delta)) and _fast.idle():  # (else TF's errors)
            return _fast.wrap(np.arange(lo, hi, delta, dtype=np.int32))
        return general(start, limit, delta, dtype, name)

    return _named(range_, general)


def bias_add_api(general):
    """tf.nn.bias_add (NHWC) of eager tensors of one dtype: the AddV2 table's add, bias broadcast
    along the last axis as BiasAdd's rule does."""
    table = _fast.BINARY_TABLES["AddV2"]

    def bias_add(value, bias, data_format=None, name=None):
        a, b = _eager_array(value), _eager_array(bias)
        if a is not None and b is not None and data_format in (None, "NHWC") and a.ndim >= 1 and b.ndim == 1 \
                and b.shape[0] == a.shape[-1] and b.dtype == a.dtype and a.dtype in table:
            try:
                out = _fast.quiet(table[a.dtype], a, b)
            except Exception:  # noqa: BLE001 -- the general path makes the error
                out = None
            if out is not None:
                return _fast.wrap(np.asarray(out))
        return general(value, bias, data_format, name)

    return _named(bias_add, general)


def identity_api(general):
    """tf.identity/stop_gradient of an eager tensor: a Tensor over the same array, as the general
    path makes (a Variable's value is copied, as reading it does)."""
    def identity(input, name=None):
        a = _eager_array(input)
        if a is not None:
            return _fast.wrap(a if type(input) is Tensor else a.copy())
        return general(input, name)

    return _named(identity, general)


_SHAPE_TYPES = {np.dtype(np.int32), np.dtype(np.int64)}


def shape_api(general):
    """tf.shape of an eager tensor: its dims as an int32 (or int64) vector."""
    def shape(input, out_type=dtypes.int32, name=None):
        a = _eager_array(input)
        if a is not None:
            dt = _target(out_type)
            if dt in _SHAPE_TYPES and (dt == np.int64 or all(d < 2**31 for d in a.shape)):
                return _fast.wrap(np.array(a.shape, dt))
        return general(input, out_type, name)

    return _named(shape, general)


def clip_api(general):
    """tf.clip_by_value of an eager float/int tensor by Python numbers or eager tensors of its dtype:
    the Maximum then Minimum tables' functions (ClipByValue's rule, broadcasting alike)."""
    maximum, minimum = _fast.BINARY_TABLES["Maximum"], _fast.BINARY_TABLES["Minimum"]

    def bound(v, dt):
        if type(v) in _fast.EAGER_TYPES:
            b = _eager_array(v)
            return b if b is not None and b.dtype == dt else None
        return np.asarray(v, dt) if _fast._exact_scalar(v, dt) else None

    def clip_by_value(t, clip_value_min, clip_value_max, name=None):
        a = _eager_array(t)
        if a is not None and a.dtype in maximum:
            lo, hi = bound(clip_value_min, a.dtype), bound(clip_value_max, a.dtype)
            if lo is not None and hi is not None:
                try:
                    out = _fast.quiet(minimum[a.dtype], _fast.quiet(maximum[a.dtype], a, lo), hi)
                except Exception:  # noqa: BLE001 -- the general path makes the error
                    out = None
                if out is not None:
                    return _fast.wrap(np.asarray(out))
        return general(t, clip_value_min, clip_value_max, name)

    return _named(clip_by_value, general)


def arg_api(general, is_min: bool):
    """tf.argmax/argmin of an eager float32/float64/integer tensor along a Python int axis: numpy's,
    which picks as ArgMax's rule does (the first NaN wins, ties go to the lowest index)."""
    pick = np.argmin if is_min else np.argmax

    def arg(input, axis=None, output_type=dtypes.int64, name=None):
        a = _eager_array(input)
        ax = 0 if axis is None else axis
        if a is not None and a.dtype in _PLAIN and type(ax) is int and -a.ndim <= ax < a.ndim and a.shape[ax]:
            dt = _target(output_type)
            if dt in _SHAPE_TYPES:
                return _fast.wrap(np.asarray(pick(a, ax)).astype(dt))
        return general(input, axis, output_type, name)

    return _named(arg, general)


def _softmax(a: np.ndarray, log: bool) -> np.ndarray:
    """Softmax/LogSoftmax's rules along the last axis with their kernels: s = x - max (the max's
    sign of zero cannot show: exp(+-0) = 1), e = exp(s), the add-reduce kernel's sum, then e / sum
    or s - log(sum)."""
    dt = a.dtype
    s = np.subtract(a, np.max(a, axis=-1, keepdims=True))
    e = UNARY["exponential"](s)
    total = np.asarray(np.add(np.zeros((), dt), np.add.reduce(e, axis=(a.ndim - 1,)))).astype(dt)[..., None]
    return np.subtract(s, UNARY["log"](total)) if log else np.true_divide(e, total)


def softmax_last(x, log: bool = False):
    """tf.nn.softmax/log_softmax along the last axis of an eager float32/float64 tensor, or None."""
    a = _eager_array(x)
    if a is None or a.dtype not in _WIDE or not a.ndim or not a.shape[-1]:
        return None
    try:
        return _fast.wrap(_fast.quiet(_softmax, a, log))
    except Exception:  # noqa: BLE001 -- the general path makes the error
        return None


def gather_api(general):
    """tf.gather (batch_dims 0, a Python int axis) of an eager tensor by eager int32/int64 indices or a
    non-empty list of Python ints all in range: np.take (an index out of range: the general path's error)."""
    def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
        a = _eager_array(params)
        ax = 0 if axis is None else axis
        if a is not None and a.dtype.kind != "O" and batch_dims == 0 and type(ax) is int and -a.ndim <= ax < a.ndim:
            if type(indices) in _fast.EAGER_TYPES:
                idx = _eager_array(indices)
            elif type(indices) in (list, tuple) and indices and all(type(i) is int for i in indices):
                # ([] converts to float32 in TF, which GatherV2 rejects: the general path says so)
                idx = np.asarray(indices, np.int64)
            else:
                idx = None
            n = a.shape[ax]
            if idx is not None and idx.dtype in _SHAPE_TYPES and (not idx.size or (idx.min() >= 0 and idx.max() < n)):
                return _fast.wrap(np.take(a, idx, axis=ax))
        return general(params, indices, validate_indices, axis, batch_dims, name)

    return _named(gather, general)
