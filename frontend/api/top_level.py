"""Top-level `tf.*` functions built from existing ops: searchsorted, sequence_mask, reverse_sequence,
unravel_index, histogram_fixed_width(_bins), saturate_cast, tensor_scatter_nd_max/min/sub, shape_n,
realdiv, dynamic_stitch, broadcast_dynamic_shape, foldl/foldr, vectorized_map, hessians, numpy_function, grad_pass_through, recompute_grad,
unique(_with_counts), boolean_mask and the tf.math aliases TF also exports at the top level.
Shapes come from static shapes, so everything here compiles under jit_compile=True except the ops
whose result size depends on the data (unique, boolean_mask): they run eagerly and in tf.function,
and under jit compilation fails naming them (TF-XLA compiles them with bounded dynamic shapes,
which minixla does not have yet)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.errors import InvalidArgumentError

tf = None  # the public `tf` module, set by install()


def _t(x, dtype=None):
    return tf.convert_to_tensor(x, dtype)


def _static_value(x, what: str, op: str):
    """The value of `x` known while tracing (a Python/numpy value, an eager tensor or a constant)."""
    if hasattr(x, "_spec"):
        known = x._const
        if known is None:
            raise InvalidArgumentError(None, None, f"{op}: {what} must be a compile-time constant in a compiled "
                                                   "function (XLA needs static shapes)")
        return np.asarray(known)
    return np.asarray(x)


# -- searching and masks ---------------------------------------------------------------------------

def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """For each value, how many entries of its row of `sorted_sequence` lie before it (tf2xla's
    LowerBound/UpperBound: a comparison with every entry, summed)."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be either 'right' or 'left'.  Saw: {side}.")
    seq, vals = _t(sorted_sequence), _t(values)
    if seq.shape.rank != vals.shape.rank or seq.shape.as_list()[:-1] != vals.shape.as_list()[:-1]:
        raise InvalidArgumentError(None, None, f"Leading dim_size of both tensors must match. sorted_sequence "
                                               f"{seq.shape} and values {vals.shape}")
    before = tf.less if side == "left" else tf.less_equal
    hits = before(tf.expand_dims(seq, -2), tf.expand_dims(vals, -1))
    return tf.reduce_sum(tf.cast(hits, out_type), axis=-1)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool_, name=None):
    lengths = _t(lengths)
    if maxlen is None:
        value = _static_value(lengths, "maxlen (None: the largest length)", "sequence_mask")
        maxlen = int(value.max()) if value.size else 0
    else:
        maxlen = int(_static_value(maxlen, "maxlen", "sequence_mask"))
    steps = tf.range(maxlen, dtype=lengths.dtype)
    return tf.cast(tf.less(steps, tf.expand_dims(lengths, -1)), dtype)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """Row b of `input` has its first seq_lengths[b] entries along seq_axis reversed."""
    x, lengths = _t(input), _t(seq_lengths)
    rank = x.shape.rank
    if seq_axis is None:
        raise TypeError("reverse_sequence() missing required argument: 'seq_axis'")
    batch_axis = 0 if batch_axis is None else batch_axis
    seq_axis, batch_axis = seq_axis % rank, batch_axis % rank
    if seq_axis == batch_axis:
        raise InvalidArgumentError(None, None, f"seq_dim == batch_dim == {seq_axis}")
    if lengths.shape.as_list() != [x.shape[batch_axis]]:
        raise InvalidArgumentError(None, None, f"Length of seq_lengths != input.dims({batch_axis}), "
                                               f"({lengths.shape[0]} vs. {x.shape[batch_axis]})")
    perm = [batch_axis, seq_axis] + [d for d in range(rank) if d not in (batch_axis, seq_axis)]
    moved = tf.transpose(x, perm)
    steps = tf.range(x.shape[seq_axis], dtype=lengths.dtype)[None, :]
    n = lengths[:, None]
    index = tf.where(steps < n, n - 1 - steps, steps)
    out = tf.gather(moved, index, axis=1, batch_dims=1)
    return tf.transpose(out, list(np.argsort(perm)))


def unravel_index(indices, dims, name=None):
    idx, shape = _t(indices), _t(dims)
    sizes = _static_value(shape, "dims", "unravel_index").astype(np.int64)
    if (sizes <= 0).any():
        raise InvalidArgumentError(None, None, "dims must contain positive integers.")
    flat = _static_value(idx, "indices", "unravel_index") if idx._graph is None else None
    if flat is not None and ((flat < 0) | (flat >= sizes.prod())).any():
        raise InvalidArgumentError(None, None, f"index out of bounds for array with shape {sizes.tolist()}")
    strides = np.concatenate([np.cumprod(sizes[::-1])[::-1][1:], [1]]).astype(idx.dtype.np)
    out = [tf.math.floormod(tf.math.floordiv(idx, np.asarray(s, idx.dtype.np)), np.asarray(n, idx.dtype.np))
           for s, n in zip(strides, sizes)]
    return tf.stack(out, axis=0)


def _bins(values, value_range, nbins):
    v, rng = _t(values), _t(value_range, dtype=None)
    lo, hi = tf.cast(rng[0], "float64"), tf.cast(rng[1], "float64")
    scaled = (tf.cast(v, "float64") - lo) / (hi - lo) * float(nbins)
    return tf.clip_by_value(tf.cast(tf.floor(scaled), "int32"), 0, int(nbins) - 1)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each value among nbins equal bins over value_range (outside values go to the end bins)."""
    return tf.cast(_bins(values, value_range, nbins), dtype)


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    bins = tf.reshape(_bins(values, value_range, nbins), [-1])
    return tf.cast(tf.reduce_sum(tf.one_hot(bins, int(nbins), dtype="int32"), axis=0), dtype)


def saturate_cast(value, dtype, name=None):
    """Clamp to the target type's range, then cast (a plain cast of an out-of-range float is undefined)."""
    x, dt = _t(value), dtypes.as_dtype(dtype)
    if x.dtype.np.kind in "iuf" and dt.np.kind in "iuf":
        src = np.finfo(x.dtype.np) if x.dtype.np.kind == "f" else np.iinfo(x.dtype.np)
        dst = np.finfo(dt.np) if dt.np.kind == "f" else np.iinfo(dt.np)
        lo, hi = max(float(src.min), float(dst.min)), min(float(src.max), float(dst.max))
        if float(src.min) < lo or float(src.max) > hi:
            if x.dtype.np.kind == "f" and dt.np.kind in "iu":  # the largest float <= the int bound
                lo = float(np.nextafter(x.dtype.np.type(lo), x.dtype.np.type(0))) if \
                    float(x.dtype.np.type(lo)) < float(dst.min) else lo
                hi = float(np.nextafter(x.dtype.np.type(hi), x.dtype.np.type(0))) if \
                    float(x.dtype.np.type(hi)) > float(dst.max) else hi
            x = tf.clip_by_value(x, np.asarray(lo).astype(x.dtype.np), np.asarray(hi).astype(x.dtype.np))
    return tf.cast(x, dt)


# -- small wrappers ---------------------------------------------------------------------------------

def realdiv(x, y, name=None):
    x = _t(x)
    return tf.math.divide(x, _t(y, x.dtype))


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return [tf.shape(x, out_type=out_type) for x in input]


def parallel_stack(values, name="parallel_stack"):
    return tf.stack(values, axis=0)


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    from minixla.frontend.execute import execute

    return execute("TensorScatterMax", [tensor, indices, updates])


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    from minixla.frontend.execute import execute

    return execute("TensorScatterMin", [tensor, indices, updates])


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    from minixla.frontend.execute import execute

    return execute("TensorScatterSub", [tensor, indices, updates])


def dynamic_stitch(indices, data, name=None):
    """Interleave data[m][i] to position indices[m][i] (later entries win). The indices must be known
    while compiling: function arguments are specialized on their values, as TF-XLA does."""
    from minixla.frontend.execute import execute
    from minixla.frontend.graph import current_graph
    from minixla.frontend.ops.registry import get

    graph, values = current_graph(), []
    for i, ids in enumerate(indices):
        ids = _t(ids)
        if ids.dtype.np.kind not in "iu":
            raise TypeError(f"DynamicStitch indices must be int32 or int64, got {ids.dtype.name}")
        if ids._graph is None:
            values.append(np.asarray(ids._value))
        else:
            values.append(np.asarray(graph._const_value(ids, get("MinixlaDynamicStitch"), i)))
    return execute("MinixlaDynamicStitch", [list(data)], {"indices": tuple(values)})


def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two shape vectors, as a tensor (BroadcastArgs)."""
    a, b = _t(shape_x), _t(shape_y)
    if a.dtype != b.dtype:
        raise TypeError(f"broadcast_dynamic_shape: shapes must have the same dtype, got {a.dtype.name} and "
                        f"{b.dtype.name}")
    n = max(int(a.shape[0]), int(b.shape[0]))
    one = np.ones([], a.dtype.np)
    a = tf.concat([tf.fill([n - int(a.shape[0])], one), a], 0)
    b = tf.concat([tf.fill([n - int(b.shape[0])], one), b], 0)
    if a._graph is None and b._graph is None:
        x, y = a.numpy(), b.numpy()
        if ((x != y) & (x != 1) & (y != 1)).any():
            raise InvalidArgumentError(None, None, f"Incompatible shapes: [{','.join(map(str, shape_x))}] vs. "
                                                   f"[{','.join(map(str, shape_y))}] [Op:BroadcastArgs]")
    return tf.where(tf.equal(a, 1), b, a)


def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,  # noqa: A002
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """(values, indices) of the k largest (or smallest) along reduction_dimension: exact, as XLA
    computes ApproxTopK off TPU."""
    fn = tf.math.approx_max_k if is_max_k else tf.math.approx_min_k
    values, indices = fn(input, k, reduction_dimension=reduction_dimension, recall_target=recall_target,
                         reduction_input_size_override=reduction_input_size_override,
                         aggregate_to_topk=aggregate_to_topk)
    return ApproxTopK(values, indices)


ApproxTopK = namedtuple("ApproxTopK", ["values", "indices"])


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) that make each spatial dim plus its base padding divisible by its block size
    (tensor arithmetic, so input_shape may be a traced value)."""
    shape = tf.cast(_t(input_shape), "int32")
    block = tf.cast(_t(block_shape), "int32")
    if shape.shape.rank != 1 or block.shape.rank != 1 or shape.shape[0] != block.shape[0]:
        raise ValueError(f"input_shape {shape.shape} and block_shape {block.shape} must be vectors of one length")
    base = tf.zeros([block.shape[0], 2], "int32") if base_paddings is None else tf.cast(_t(base_paddings), "int32")
    start, end = base[:, 0], base[:, 1]
    extra = tf.math.floormod(block - tf.math.floormod(shape + start + end, block), block)
    return tf.stack([start, end + extra], axis=1), tf.stack([tf.zeros_like(extra), extra], axis=1)


def matrix_square_root(input, name=None):  # noqa: A002
    """The principal square root of each matrix, by the coupled Newton-Schulz iteration on A / ||A||_F
    (Y -> Y T, Z -> T Z with T = (3I - Z Y) / 2; Y -> sqrt(A / ||A||), then scaled back). Only matrix
    products, unrolled: cheap to compile and to differentiate. It converges when ||I - A/||A|| || < 1,
    e.g. for symmetric positive definite matrices and those near them (TF's Schur method also takes
    matrices with complex or negative-real-part eigenvalues: those raise InvalidArgumentError here)."""
    a = _t(input)
    if a.shape.rank < 2 or a.shape[-1] != a.shape[-2]:
        raise InvalidArgumentError(None, None, f"Input must be a square matrix (rank >= 2), got {a.shape}")
    n = a.shape[-1]
    norm = tf.sqrt(tf.reduce_sum(a * a, axis=[-2, -1], keepdims=True))
    eye = tf.eye(n, batch_shape=a.shape.as_list()[:-2], dtype=a.dtype)
    y, z = a / norm, eye
    for _ in range(SQRTM_ITERATIONS):
        t = (3.0 * eye - tf.matmul(z, y)) * 0.5
        y, z = tf.matmul(y, t), tf.matmul(t, z)
    out = y * tf.sqrt(norm)
    if out._graph is None and not np.all(np.isfinite(out.numpy())):
        raise InvalidArgumentError(None, None, "matrix_square_root: the iteration did not converge (minixla takes "
                                               "matrices whose eigenvalues have positive real parts)")
    return out


SQRTM_ITERATIONS = 24


# -- functional ------------------------------------------------------------------------------------

def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """fn(acc, x) over the leading dimension, first to last; the final accumulator."""
    accs = tf.scan(fn, elems, initializer=initializer)
    return tf.nest.map_structure(lambda a: a[-1], accs)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """fn(acc, x) over the leading dimension, last to first; the final accumulator."""
    accs = tf.scan(fn, elems, initializer=initializer, reverse=True)
    return tf.nest.map_structure(lambda a: a[0], accs)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """fn over the leading dimension, results stacked: one compiled loop (tf.map_fn), whose output
    signature is taken from fn on the first element, so fn may change dtypes and shapes."""
    first = tf.nest.map_structure(lambda e: _t(e)[0], elems)
    signature = tf.nest.map_structure(lambda o: tf.TensorSpec(_t(o).shape, _t(o).dtype), fn(first))
    return tf.map_fn(fn, elems, fn_output_signature=signature)


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, colocate_gradients_with_ops=True,
             name="hessians"):
    """d²(sum ys)/dx² for each x, shaped x.shape + x.shape. As in TF, `ys` are tensors inside a
    tf.function (graph mode: tf.gradients of each entry of the gradient); minixla also takes a
    callable `ys(*xs)`, which works eagerly too."""
    xs_list = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    if callable(ys):
        return _hessians_of_function(ys, xs_list)
    if tf.executing_eagerly():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    out = []
    for x in xs_list:
        grad = tf.gradients(ys, x)[0]
        n = int(np.prod(x.shape.as_list()))
        flat = tf.reshape(grad, [n])
        rows = [tf.gradients(flat[i], x)[0] for i in range(n)]
        rows = [tf.zeros_like(x) if r is None else r for r in rows]
        out.append(tf.reshape(tf.stack(rows), x.shape.as_list() * 2))
    return out


def _hessians_of_function(fn, xs_list):
    out = []
    for i, x in enumerate(xs_list):
        x = _t(x)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                args = list(xs_list)
                args[i] = x
                y = tf.reduce_sum(fn(*args))
            g = inner.gradient(y, x)
        out.append(outer.jacobian(g, x))
    return out


def numpy_function(func, inp, Tout, stateful=True, name=None):  # noqa: N803 -- TF's name
    """`func` on numpy arrays on the host (never compiled; no gradient, as in TF)."""
    def on_arrays(*tensors):
        return func(*[np.asarray(t) for t in tensors])

    single = not isinstance(Tout, (list, tuple))
    out = tf.py_function(on_arrays, [tf.stop_gradient(_t(x)) for x in inp], Tout)
    return out if single else list(out)


def grad_pass_through(f):
    """f's value with the gradient of the identity: d f(x)/dx is taken as 1."""
    def wrapped(*args):
        xs = [_t(a) for a in args]
        out = f(*args)
        if len(xs) != 1:
            raise ValueError("grad_pass_through: f must take exactly one tensor in minixla")
        return xs[0] + tf.stop_gradient(_t(out) - xs[0])

    return wrapped


def recompute_grad(f):
    """f with the same values and gradients. TF recomputes f's forward pass in the backward pass to
    save memory; minixla's XLA-style compiler keeps what the backward pass needs, so this is f."""
    def wrapped(*args, **kwargs):
        return f(*args, **kwargs)

    return wrapped


# -- data-dependent shapes: host ops (eager and tf.function; jit names them, as TF-XLA does) ---------

def unique(x, out_idx=dtypes.int32, name=None):
    """(y, idx): the distinct values in order of first appearance, and each element's position in y."""
    from minixla.frontend.execute import execute

    return execute("Unique", [x], {"out_idx": dtypes.as_dtype(out_idx).np})


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    from minixla.frontend.execute import execute

    return execute("UniqueWithCounts", [x], {"out_idx": dtypes.as_dtype(out_idx).np})


def dynamic_partition(data, partitions, num_partitions, name=None):
    """data split by partitions (an int per leading entry) into num_partitions tensors, in order;
    their sizes depend on the values, so a host op (eager and tf.function; jit names it)."""
    from minixla.frontend.execute import execute

    out = execute("DynamicPartition", [data, partitions], {"num_partitions": int(num_partitions)})
    return list(out) if isinstance(out, tuple) else [out]


def fingerprint(data, method="farmhash64", name=None):
    """uint8[rows, 8]: FarmHash Fingerprint64 of each row of `data` (TF's; a host op)."""
    from minixla.frontend.execute import execute

    return execute("Fingerprint", [data, np.array(method.encode() if isinstance(method, str) else method,
                                                  dtype=object)])


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The entries of `tensor` where `mask` (over dims axis..axis+mask.rank) is true, flattened there:
    TF's composition, tf.where(mask) (a host op: its size depends on the data) then a gather."""
    x, m = _t(tensor), _t(mask)
    axis = 0 if axis is None else int(axis) % max(x.shape.rank, 1)
    k = m.shape.rank
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    dims = x.shape.as_list()
    if dims[axis:axis + k] != m.shape.as_list():
        raise ValueError(f"Shapes {dims[axis:axis + k]} and {m.shape.as_list()} are incompatible")
    flat = tf.reshape(x, dims[:axis] + [int(np.prod(dims[axis:axis + k]))] + dims[axis + k:])
    keep = tf.reshape(tf.where(tf.reshape(m, [-1])), [-1])
    return tf.gather(flat, keep, axis=axis)


MATH_ALIASES = ("acos", "asin", "atan", "atan2", "cosh", "sinh", "tan", "scalar_mul")
FUNCTIONS = (searchsorted, sequence_mask, reverse_sequence, unravel_index, histogram_fixed_width,
             histogram_fixed_width_bins, saturate_cast, realdiv, shape_n, parallel_stack, tensor_scatter_nd_max,
             tensor_scatter_nd_min, tensor_scatter_nd_sub, foldl, foldr, vectorized_map, hessians, numpy_function,
             grad_pass_through, recompute_grad, dynamic_stitch, broadcast_dynamic_shape, unique, dynamic_partition,
             approx_top_k, required_space_to_batch_paddings, matrix_square_root, fingerprint,
             unique_with_counts, boolean_mask)


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for fn in FUNCTIONS:
        setattr(tf_module, fn.__name__, fn)
    for name in MATH_ALIASES:
        setattr(tf_module, name, getattr(tf_module.math, name))
    for name in ("assert_equal", "assert_greater", "assert_less", "assert_rank"):
        setattr(tf_module, name, getattr(tf_module.debugging, name))
    tf_module.as_string = tf_module.strings.as_string
    tf_module.linalg.sqrtm = matrix_square_root
