"""P1 TF functions over shapes, norms, scatters and matrices (`tf.linspace`,
`tf.roll`, `tf.norm`, `tf.scatter_nd`, `tf.linalg.band_part`, ...).

Where TF's own function is a Python composite (linspace_nd, repeat, meshgrid,
norm, clip_by_norm, global_norm, tensordot, ...), this is the
same composite over our ops, so results and gradients follow TF's op by op;
the rest call the raw ops of frontend/ops/p1_math_ops.py.
"""

from __future__ import annotations

import builtins

import numpy as np

from minixla.frontend import indexed_slices as _indexed_slices
from minixla.frontend.api import core as api
from minixla.frontend import dtypes
from minixla.frontend.api.core import _const_arg, _t
from minixla.frontend.api.indexing import gather
from minixla.frontend.errors import InvalidArgumentError, at_user_line
from minixla.frontend.execute import execute
from minixla.frontend.graph import current_graph
from minixla.frontend.ops.registry import OpDef
from minixla.frontend.tensor import Tensor, TensorShape


def _static_int(v, op: str, index: int) -> int:
    """A must-be-constant input of TF op `op` (input `index`): a tf.function argument feeding it is specialized
    on its value (one trace per value, as XLA compiles once per value); anything else computed raises TF's
    compile-time constant error."""
    if isinstance(v, Tensor):
        g = current_graph()
        if v._const is not None or g is None:
            v = v._const if v._const is not None else v.numpy()
        else:
            v = g._const_value(v, OpDef(op, (), None), index)
    return int(np.asarray(v))


def _dims(x) -> list[int]:
    return list(x.shape.as_list()) if hasattr(x.shape, "as_list") else list(x.shape)


# -- shapes ------------------------------------------------------------------------------

def linspace(start, stop, num, name=None, axis=0):
    """TF's linspace_nd: [start, start + delta * range(1, num - 1), stop] along `axis`, cut to `num`."""
    start = _t(start)
    if not (start.dtype.is_floating or start.dtype.is_complex):  # TF computes integer ends in float64
        start = api.cast(start, "float64")
    stop = _t(stop)
    if stop.dtype != start.dtype:
        stop = api.cast(stop, start.dtype)
    n = _static_int(num, "LinSpace", 2)
    shape = np.broadcast_shapes(tuple(_dims(start)), tuple(_dims(stop)))
    start, stop = api.broadcast_to(start, shape), api.broadcast_to(stop, shape)
    es, et = api.expand_dims(start, axis), api.expand_dims(stop, axis)
    eshape = _dims(es)
    ax = axis % len(eshape)
    n_steps = max(n - 1, 1)
    delta = (et - es) / api.cast(n_steps, es.dtype)
    parts = [es]
    if n - 2 > 0:
        rng = np.arange(1, n_steps, dtype=np.int64).astype(es.dtype.np)
        rshape = [n - 2 if d == ax else 1 for d in builtins.range(len(eshape))]
        parts.append(es + delta * api.constant(rng.reshape(rshape)))
    parts.append(et)
    cat = api.concat(parts, ax)
    size = list(eshape)
    size[ax] = n
    return api.slice(cat, [0] * len(eshape), size)


def roll(input, shift, axis, name=None):
    return execute("Roll", [input, _const_arg(shift), _const_arg(axis)])


def repeat(input, repeats, axis=None, name=None):
    x = _t(input)
    if axis is None:
        x = api.reshape(x, [-1])
        axis = 0
    if not isinstance(axis, int):
        raise TypeError(f"Argument `axis` must be an int. Received `axis` = {axis} of type {type(axis).__name__}")
    if x.ndim == 0:
        x = api.reshape(x, [1])
    dims = _dims(x)
    axis = axis % len(dims)
    reps = np.asarray(repeats._const if isinstance(repeats, Tensor) else repeats).astype(np.int64)
    if reps.size == 1:
        r = int(reps.reshape(-1)[0])
        e = api.expand_dims(x, axis + 1)
        mult = [1] * (len(dims) + 1)
        mult[axis + 1] = r
        out = list(dims)
        out[axis] = r * dims[axis]
        return api.reshape(api.tile(e, mult), out)
    reps = np.broadcast_to(reps.reshape(-1), (dims[axis],))
    idx = np.repeat(np.arange(dims[axis]), reps).astype(np.int32)
    return gather(x, api.constant(idx), axis=axis)


def meshgrid(*args, **kwargs):
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        key = list(kwargs)[0]
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    xs = [api.reshape(_t(a), [-1]) for a in args]
    ndim = len(xs)
    sizes = [_dims(x)[0] for x in xs]
    outs = []
    for i, x in enumerate(xs):
        s = [1] * ndim
        s[i] = -1
        outs.append(api.reshape(x, s))
    if indexing == "xy" and ndim > 1:
        outs[0] = api.reshape(xs[0], [1, -1] + [1] * (ndim - 2))
        outs[1] = api.reshape(xs[1], [-1, 1] + [1] * (ndim - 2))
        sizes[0], sizes[1] = sizes[1], sizes[0]
    # TF multiplies by ones of the output shape (its gradient sums back like broadcast_to's)
    return [o * api.ones(sizes, o.dtype) for o in outs]


def identity_n(input, name=None):
    return [api.identity(x) for x in input]


def ensure_shape(x, shape, name=None):
    x = _t(x)
    want = TensorShape(None) if shape is None else shape
    if not isinstance(want, TensorShape):
        want = list(want)
    dims = None if isinstance(want, TensorShape) and want.rank is None else (
        want.as_list() if isinstance(want, TensorShape) else want)
    if x._spec.shape is None:  # a py_function result: the check runs with the value, the shape is known after
        return execute("EnsureShape", [x], {"shape": None if dims is None else
                                            [-1 if d is None else int(d) for d in dims]})
    got = _dims(x)
    if dims is not None and (len(dims) != len(got) or any(d is not None and d != -1 and int(d) != g
                                                          for d, g in zip(dims, got))):
        exp = "[" + ",".join("?" if d is None or d == -1 else str(d) for d in dims) + "]"
        raise InvalidArgumentError(at_user_line(f"Shape of tensor input [{','.join(map(str, got))}] is not "
                                                f"compatible with expected shape {exp}. [Op:EnsureShape]"))
    return api.identity(x)


def broadcast_static_shape(shape_x, shape_y):
    a, b = list(TensorShape(shape_x).as_list()), list(TensorShape(shape_y).as_list())
    try:
        return TensorShape(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                         f"pair they are either equal or one of them is 1. Received: {TensorShape(a)} and "
                         f"{TensorShape(b)}.") from None


def bitcast(input, type, name=None):
    return execute("Bitcast", [input], {"type": dtypes.np_dtype(type)})


# -- reductions and norms ----------------------------------------------------------------

def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    x = _t(input_tensor)
    means = api.reduce_mean(x, axis, keepdims=True)
    sq = api.square(api.abs(x - means))
    return api.reduce_mean(sq, axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return api.sqrt(reduce_variance(input_tensor, axis, keepdims))


def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):
    x = _t(input)
    keepdims = bool(keepdims) if keepdims is not None else False
    nz = api.cast(api.not_equal(x, api.zeros([], x.dtype)), dtypes.int64)
    return api.cast(api.reduce_sum(nz, axis, keepdims=keepdims), dtype)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):
    x = _t(tensor)
    keepdims = bool(keepdims)
    is_matrix = isinstance(axis, (list, tuple)) and len(axis) == 2
    if isinstance(axis, (list, tuple)) and len(axis) == 1:
        axis = axis[0]
    supported = ["fro", "euclidean", 1, 2, np.inf] if is_matrix else ["euclidean", 1, 2, np.inf]
    if isinstance(ord, str) and ord not in supported or not isinstance(ord, str) and (
            ord not in supported and not (float(ord) > 0)) or is_matrix and ord not in supported:
        raise ValueError(f"'ord' must be a supported {'matrix' if is_matrix else 'vector'} norm, got {ord}")
    if is_matrix and ord in (2, 2.0):
        raise NotImplementedError("tf.norm with ord=2 over a matrix (SVD) is not supported by minixla yet")
    if ord in ("euclidean", "fro") or ord in (2, 2.0) and not is_matrix:
        result = api.sqrt(api.reduce_sum(x * x, axis, keepdims=True))
    else:
        result = api.abs(x)
        if ord == 1:
            sum_axis = None if axis is None else (axis[0] if is_matrix else axis)
            result = api.reduce_sum(result, sum_axis, keepdims=True)
            if is_matrix:
                result = api.reduce_max(result, axis[-1], keepdims=True)
        elif ord == np.inf:
            if is_matrix:
                result = api.reduce_sum(result, axis[1], keepdims=True)
            max_axis = None if axis is None else (axis[0] if is_matrix else axis)
            result = api.reduce_max(result, max_axis, keepdims=True)
        else:
            result = api.pow(api.reduce_sum(api.pow(result, api.constant(ord, x.dtype)), axis, keepdims=True),
                             api.constant(1.0 / ord, x.dtype))
    if not keepdims:
        result = api.squeeze(result, axis)
    return result


def clip_by_norm(t, clip_norm, axes=None, name=None):
    values = _t(t)
    clip_norm = _t(clip_norm, values.dtype)
    l2sum = api.reduce_sum(values * values, axes, keepdims=True)
    pred = l2sum > 0
    l2sum_safe = api.where(pred, l2sum, api.ones_like(l2sum))
    l2norm = api.where(pred, api.sqrt(l2sum_safe), l2sum)
    intermediate = values * clip_norm
    return api.identity(intermediate / api.maximum(l2norm, clip_norm))


def global_norm(t_list, name=None):
    if not isinstance(t_list, (list, tuple)) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    ts = [_t(v) for v in t_list if v is not None]
    half = [api.multiply(api.reduce_sum(api.square(v)), api.constant(0.5, v.dtype)) for v in ts]
    half_sq = api.reduce_sum(api.stack(half))
    return api.sqrt(half_sq * api.constant(2.0, half_sq.dtype))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    if not isinstance(t_list, (list, tuple)) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    use_norm = global_norm(t_list) if use_norm is None else _t(use_norm)
    one = api.constant(1.0, use_norm.dtype)
    clip = _t(clip_norm, use_norm.dtype) if not isinstance(clip_norm, Tensor) else api.cast(clip_norm,
                                                                                             use_norm.dtype)
    scale_for_finite = clip * api.minimum(one / use_norm, one / clip)
    scale = scale_for_finite + (use_norm - use_norm)
    out = [None if v is None else api.identity(_t(v) * api.cast(scale, _t(v).dtype)) for v in t_list]
    return out, use_norm


# -- segments and scatters ---------------------------------------------------------------

def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    return execute("UnsortedSegmentSum", [data, segment_ids, np.asarray(_static_int(
        num_segments, "UnsortedSegmentSum", 2), np.int32)])


def scatter_nd(indices, updates, shape, name=None):
    return execute("ScatterNd", [indices, updates, _const_arg(shape)])


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    return execute("TensorScatterUpdate", [tensor, indices, updates])


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    return execute("TensorScatterAdd", [tensor, indices, updates])


# -- matrices ------------------------------------------------------------------------------

def band_part(input, num_lower, num_upper, name=None):
    return execute("MatrixBandPart", [input, np.asarray(_static_int(num_lower, "MatrixBandPart", 1), np.int64),
                                      np.asarray(_static_int(num_upper, "MatrixBandPart", 2), np.int64)])


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    d = _t(diagonal)
    return execute("MatrixDiagV3", [d, np.asarray(k, np.int32), np.asarray(num_rows, np.int32),
                                    np.asarray(num_cols, np.int32), _t(padding_value, d.dtype)],
                   {"align": align})


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):
    x = _t(input)
    return execute("MatrixDiagPartV3", [x, np.asarray(k, np.int32), _t(padding_value, x.dtype)], {"align": align})


def trace(x, name=None):
    return api.reduce_sum(diag_part(x), [-1])


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    out = api.matmul(a, api.expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a)
    return api.squeeze(out, -1)


def adjoint(matrix, name=None):
    x = _t(matrix)
    perm = list(builtins.range(x.ndim - 2)) + [x.ndim - 1, x.ndim - 2]
    return api.transpose(x, perm)


def tensordot(a, b, axes, name=None):
    a, b = _t(a), _t(b)
    sa, sb = _dims(a), _dims(b)
    if isinstance(axes, (int, np.integer)) or isinstance(axes, Tensor) and np.ndim(axes._const) == 0:
        n = int(axes._const) if isinstance(axes, Tensor) else int(axes)
        if n < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {n}.")
        if n > len(sa) or n > len(sb):
            raise ValueError(f"`axes` must not be larger than the number of dimensions of tensor {a!r}. "
                             f"Received {n}, vs tensor dimensions {len(sa)}.")
        a_axes, b_axes = list(builtins.range(len(sa) - n, len(sa))), list(builtins.range(n))
    else:
        ax = axes._const.tolist() if isinstance(axes, Tensor) else axes
        if len(ax) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        a_axes, b_axes = ax
        a_axes = [a_axes] if isinstance(a_axes, (int, np.integer)) else list(a_axes)
        b_axes = [b_axes] if isinstance(b_axes, (int, np.integer)) else list(b_axes)
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes `a` and `b`, {len(a_axes)} != {len(b_axes)}.")
    a_axes = [int(i) % len(sa) if sa else int(i) for i in a_axes]
    b_axes = [int(i) % len(sb) if sb else int(i) for i in b_axes]
    free_a = [i for i in builtins.range(len(sa)) if i not in a_axes]
    free_b = [i for i in builtins.range(len(sb)) if i not in b_axes]
    pa = int(np.prod([sa[i] for i in free_a], dtype=np.int64))
    ka = int(np.prod([sa[i] for i in a_axes], dtype=np.int64))
    kb = int(np.prod([sb[i] for i in b_axes], dtype=np.int64))
    pb = int(np.prod([sb[i] for i in free_b], dtype=np.int64))
    if ka != kb:
        raise InvalidArgumentError(at_user_line(
            f"Matrix size-incompatible: In[0]: [{pa},{ka}], In[1]: [{kb},{pb}] [Op:MatMul]"))
    ra = api.reshape(api.transpose(a, free_a + a_axes), [pa, ka])
    rb = api.reshape(api.transpose(b, b_axes + free_b), [kb, pb])
    return api.reshape(api.matmul(ra, rb), [sa[i] for i in free_a] + [sb[i] for i in free_b])


_indexed_slices.install(unsorted_segment_sum=unsorted_segment_sum)  # IndexedSlices -> Tensor sums rows per id
