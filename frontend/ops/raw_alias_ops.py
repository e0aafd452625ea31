"""Older TF names and small raw ops whose computation already exists in the registry (Add, Mod, Select,
BatchMatMul, Concat, Gather, Reverse, MaxPoolV2, Diag, MatrixSetDiag, LinSpace, ...).

They reuse the existing rules (so eager, tf.function, jit and gradients behave as the newer op does),
adapting argument order and TF's older conventions: `Concat` takes the axis first, `Reverse` a bool
mask, `Select` a vector condition that picks rows, `Gather` axis 0. The few new computations
(Cross, Bucketize, the inverse hyperbolic functions, ...) are a handful of hlo ops each.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops import array_ops, index_ops, math_ops, nn_ops, scatter_matrix_ops
from minixla.frontend.ops.reduction_ops import cumulative
from minixla.frontend.ops.registry import broadcast_all, is_float, op_error, register, register_gradient, shape_text


def _full(b, x, v):
    return b.full(x.shape, v, x.dtype)


# -- renamed ops -----------------------------------------------------------------------------

def select(b, condition, t, e):
    """TF's V1 Select: same shapes, or a vector condition choosing rows of t/e."""
    if tuple(t.shape) != tuple(e.shape):
        raise op_error("Select", f"'then' and 'else' must have the same size.  but received: "
                                 f"{shape_text(t.shape)} vs. {shape_text(e.shape)}")
    if len(condition.shape) == 1 and len(t.shape) > 1:
        if condition.shape[0] != t.shape[0]:
            raise op_error("Select", "Number of batches of 'then' must match size of 'cond', but saw: "
                                     f"{t.shape[0]} vs. {condition.shape[0]}")
        condition = b.broadcast_in_dim(condition, t.shape, [0])
    elif tuple(condition.shape) not in ((), tuple(t.shape)):
        raise op_error("Select", f"'cond' and 'then' must have the same size.  but received: "
                                 f"{shape_text(condition.shape)} vs. {shape_text(t.shape)}")
    elif not condition.shape and t.shape:
        condition = b.broadcast_in_dim(condition, t.shape, [])
    return b.select(condition, t, e)


def mod(b, x, y):
    """C's fmod / %: the remainder takes the dividend's sign."""
    x, y = broadcast_all(b, "Mod", x, y)
    return b.remainder(x, y)


def batch_mat_mul_v3(b, x, y, Tout=None, adj_x=False, adj_y=False, grad_x=False, grad_y=False):
    out = nn_ops.batch_mat_mul(b, x, y, adj_x, adj_y)
    return b.convert(out, getattr(Tout, "as_numpy_dtype", Tout)) if Tout is not None else out


def batch_mat_mul(b, x, y, adj_x=False, adj_y=False, grad_x=False, grad_y=False):
    return nn_ops.batch_mat_mul(b, x, y, adj_x, adj_y)


def concat_v1(b, concat_dim, values):
    return array_ops.concat(b, values, concat_dim)


def gather_v1(b, params, indices, validate_indices=True):
    return index_ops.gather_v2(b, params, indices, np.int32(0))


def reverse_v1(b, tensor, dims):
    mask = np.asarray(dims).reshape(-1).astype(bool)
    if mask.size != len(tensor.shape):
        raise op_error("Reverse", f"'dims' must have the same number of values as 'input' has dimensions. "
                                  f"'input' has {len(tensor.shape)}'dims' has {mask.size} values")
    return b.reverse(tensor, [d for d in range(mask.size) if mask[d]])


def max_pool_v2(b, input, ksize, strides, padding, data_format="NHWC"):
    return nn_ops._pool("MaxPool")(b, input, [int(k) for k in np.asarray(ksize).reshape(-1)],
                                   [int(s) for s in np.asarray(strides).reshape(-1)], padding, data_format)


def bias_add_v1(b, value, bias):
    return nn_ops.bias_add(b, value, bias)


register("Add", ("x", "y"), math_ops._simple("add", "Add"))
register("Mod", ("x", "y"), mod)
register("Select", ("condition", "t", "e"), select, typed=("t", "e"))
register("BatchMatMul", ("x", "y"), batch_mat_mul,
         attrs={"adj_x": False, "adj_y": False, "grad_x": False, "grad_y": False})
register("BatchMatMulV3", ("x", "y"), batch_mat_mul_v3,
         attrs={"Tout": None, "adj_x": False, "adj_y": False, "grad_x": False, "grad_y": False}, typed=())
register("Concat", ("concat_dim", "*values"), concat_v1, const_inputs=("concat_dim",))
register("Gather", ("params", "indices"), gather_v1, attrs={"validate_indices": True}, typed=("params",))
register("Reverse", ("tensor", "dims"), reverse_v1, const_inputs=("dims",))
register("MaxPoolV2", ("input", "ksize", "strides"), max_pool_v2, attrs={"padding": "VALID", "data_format": "NHWC"},
         const_inputs=("ksize", "strides"))
register("BiasAddV1", ("value", "bias"), bias_add_v1)


# -- identities ------------------------------------------------------------------------------

def _identity(b, input, **_):
    return input


def identity_n(b, input):
    return tuple(input)


def ensure_shape(b, input, shape=None):
    # unknown dims: None (-1 in TF's TensorShapeProto); traced attributes may carry them as other non-ints
    want = [int(w) if isinstance(w, (int, np.integer)) and w >= 0 else None for w in shape] if shape is not None else None
    if want is not None and (len(want) != len(input.shape)
                             or any(w not in (None, n) for w, n in zip(want, input.shape))):
        raise op_error("EnsureShape", f"Shape of tensor input {shape_text(input.shape)} is not compatible with "
                                      f"expected shape {shape_text(['?' if w is None else w for w in want])}.")
    return input


def check_numerics(b, tensor, message=""):
    """Eagerly (numpy values) raises TF's error on inf/NaN; compiled, the identity (XLA's kernel
    reports through a host callback that minixla does not have)."""
    if isinstance(tensor, np.ndarray) and is_float(tensor.dtype) and not np.all(np.isfinite(tensor)):
        kind = "NaN" if np.any(np.isnan(tensor)) else "Inf"
        raise op_error("CheckNumerics", f"{message} : Tensor had {kind} values")
    return tensor


def shape_n(b, input, out_type=np.int32):
    return tuple(b.constant(np.array(x.shape, np.dtype(out_type))) for x in input)


register("IdentityN", ("*input",), identity_n)
register("PreventGradient", ("input",), _identity, attrs={"message": ""})
register("PlaceholderWithDefault", ("input",), _identity, attrs={"shape": None, "dtype": None})
register("EnsureShape", ("input",), ensure_shape, attrs={"shape": None})
register("CheckNumerics", ("tensor",), check_numerics, attrs={"message": ""})
register("ShapeN", ("*input",), shape_n, attrs={"out_type": np.int32})


# -- diagonals ---------------------------------------------------------------------------------

def diag(b, diagonal):
    """Rank k -> rank 2k with diagonal[i...] at [i..., i...]."""
    s = list(diagonal.shape)
    if not s:
        raise op_error("Diag", "Input must be at least rank 1, got 0")
    n = int(np.prod(s))
    flat = b.reshape(diagonal, [n])
    eye = b.compare(b.iota([n, n], 0, np.int32), b.iota([n, n], 1, np.int32), "EQ")
    out = b.select(eye, b.broadcast_in_dim(flat, [n, n], [0]), b.full([n, n], 0, diagonal.dtype))
    return b.reshape(out, s + s)


def diag_part(b, input):
    s = list(input.shape)
    k = len(s) // 2
    if not s or len(s) % 2 or s[:k] != s[k:]:
        raise op_error("DiagPart", f"Input must have even rank and matching halves, got {shape_text(s)}")
    n = int(np.prod(s[:k]))
    sq = b.reshape(input, [n, n])
    eye = b.compare(b.iota([n, n], 0, np.int32), b.iota([n, n], 1, np.int32), "EQ")
    picked = b.select(eye, sq, b.full([n, n], 0, input.dtype))
    return b.reshape(b.reduce(picked, b.scalar(0, input.dtype), [1], "add"), s[:k])


def matrix_diag(b, diagonal):
    return scatter_matrix_ops.matrix_diag(b, diagonal, np.int32(0), np.int32(-1), np.int32(-1),
                                          b.scalar(0, diagonal.dtype))


def matrix_diag_part(b, input):
    return scatter_matrix_ops.matrix_diag_part(b, input, np.int32(0), b.scalar(0, input.dtype))


def matrix_set_diag(b, input, diagonal, k=None, align="RIGHT_LEFT"):
    if k is not None and (np.asarray(k).size != 1 or int(np.asarray(k).reshape(-1)[0]) != 0):
        raise op_error("MatrixSetDiag", "k != 0 is not supported by minixla yet")
    if len(input.shape) < 2:
        raise op_error("MatrixSetDiag", f"input must be at least 2-dim, received shape: {shape_text(input.shape)}")
    m, n = input.shape[-2:]
    want = list(input.shape[:-2]) + [min(m, n)]
    if list(diagonal.shape) != want:
        raise op_error("MatrixSetDiag", f"diagonal must have shape {shape_text(want)}, received "
                                        f"{shape_text(diagonal.shape)}")
    rank = len(input.shape)
    eye = b.compare(b.iota([m, n], 0, np.int32), b.iota([m, n], 1, np.int32), "EQ")
    eye = b.broadcast_in_dim(eye, input.shape, [rank - 2, rank - 1])
    # diagonal[..., i] goes to [..., i, i]: broadcast along the longer of rows/cols, sliced to the other
    if m <= n:
        spread = b.broadcast_in_dim(diagonal, input.shape, list(range(rank - 2)) + [rank - 2])
    else:
        spread = b.broadcast_in_dim(diagonal, input.shape, list(range(rank - 2)) + [rank - 1])
    return b.select(eye, spread, input)


register("Diag", ("diagonal",), diag)
register("DiagPart", ("input",), diag_part)
register("MatrixDiag", ("diagonal",), matrix_diag)
register("MatrixDiagPart", ("input",), matrix_diag_part)
register("MatrixSetDiag", ("input", "diagonal"), matrix_set_diag)
register("MatrixSetDiagV2", ("input", "diagonal", "k"), matrix_set_diag, const_inputs=("k",),
         typed=("input", "diagonal"))
register("MatrixSetDiagV3", ("input", "diagonal", "k"), matrix_set_diag, attrs={"align": "RIGHT_LEFT"},
         const_inputs=("k",), typed=("input", "diagonal"))


# -- small computations --------------------------------------------------------------------------

def lin_space(b, start, stop, num):
    """start + i * (stop - start) / (num - 1), the last element exactly stop."""
    n = int(np.asarray(num))
    if n <= 0:
        raise op_error("LinSpace", f"Requires num > 0: {n}")
    if start.shape or stop.shape:
        raise op_error("LinSpace", "start and stop must be scalars")
    dt = start.dtype
    if n == 1:
        return b.broadcast_in_dim(start, [1], [])
    step = b.divide(b.subtract(stop, start), b.scalar(n - 1, dt))
    i = b.iota([n], 0, dt)
    vals = b.add(b.broadcast_in_dim(start, [n], []), b.multiply(i, b.broadcast_in_dim(step, [n], [])))
    last = b.compare(b.iota([n], 0, np.int32), b.full([n], n - 1, np.int32), "EQ")
    return b.select(last, b.broadcast_in_dim(stop, [n], []), vals)


def cross(b, a, b_):
    if tuple(a.shape) != tuple(b_.shape) or not a.shape or a.shape[-1] != 3:
        raise op_error("Cross", f"inputs must be the same shape with a last dimension of 3: "
                                f"{shape_text(a.shape)} vs. {shape_text(b_.shape)}")
    r = len(a.shape) - 1

    def comp(x, i):
        start, limit = [0] * (r + 1), list(x.shape)
        start[r], limit[r] = i, i + 1
        return b.slice(x, start, limit)

    a0, a1, a2 = (comp(a, i) for i in range(3))
    b0, b1, b2 = (comp(b_, i) for i in range(3))
    return b.concatenate([b.subtract(b.multiply(a1, b2), b.multiply(a2, b1)),
                          b.subtract(b.multiply(a2, b0), b.multiply(a0, b2)),
                          b.subtract(b.multiply(a0, b1), b.multiply(a1, b0))], r)


def bucketize(b, input, boundaries):
    """The number of boundaries <= x (TF's upper_bound), as a sum of comparisons."""
    bounds = [float(v) for v in boundaries]
    if any(y < x for x, y in zip(bounds, bounds[1:])):
        raise op_error("Bucketize", "Expected sorted boundaries")
    out = b.full(input.shape, 0, np.int32)
    one, zero = b.full(input.shape, 1, np.int32), b.full(input.shape, 0, np.int32)
    for v in bounds:
        ge = b.compare(input, b.full(input.shape, v, input.dtype), "GE")
        out = b.add(out, b.select(ge, one, zero))
    return out


def approximate_equal(b, x, y, tolerance=1e-5):
    if tuple(x.shape) != tuple(y.shape):
        raise op_error("ApproximateEqual", f"x and y must be of the same shape. x shape: {shape_text(x.shape)}. "
                                           f"y shape: {shape_text(y.shape)}")
    return b.compare(b.abs(b.subtract(x, y)), _full(b, x, tolerance), "LT")


def invert_permutation(b, x):
    p = np.asarray(x).reshape(-1)
    if np.asarray(x).ndim != 1:
        raise op_error("InvertPermutation", "x must be a vector")
    if sorted(p.tolist()) != list(range(p.size)):
        bad = next((int(v) for v in p if not 0 <= v < p.size), None)
        raise op_error("InvertPermutation", f"{bad} is not between 0 and {p.size}" if bad is not None
                       else f"{int(p[0])} is duplicated in the input.")
    inv = np.empty_like(p)
    inv[p] = np.arange(p.size, dtype=p.dtype)
    return b.constant(inv)


def xlog1py(b, x, y):
    """0 where x == 0, else x * log1p(y) (y replaced by 0 there: TF's zero gradient)."""
    x, y = broadcast_all(b, "Xlog1py", x, y)
    zero = _full(b, x, 0)
    is_zero = b.compare(x, zero, "EQ")
    return b.select(is_zero, zero, b.multiply(x, b.log_plus_one(b.select(is_zero, zero, y))))


def asinh(b, x):
    """sign(x) log1p(a + a^2 / (1 + sqrt(1 + a^2))), a = |x|; log(a) + log 2 where a^2 would overflow."""
    zero, one = _full(b, x, 0), _full(b, x, 1)
    neg = b.compare(x, zero, "LT")
    a = b.select(neg, b.negate(x), x)
    big = b.compare(a, _full(b, x, float(np.sqrt(np.finfo(x.dtype).max)) / 2), "GT")
    safe = b.select(big, zero, a)
    sq = b.multiply(safe, safe)
    y = b.log_plus_one(b.add(safe, b.divide(sq, b.add(one, b.sqrt(b.add(one, sq))))))
    y = b.select(big, b.add(b.log(b.select(big, a, one)), _full(b, x, np.log(2.0))), y)
    return b.select(neg, b.negate(y), y)


def acosh(b, x):
    """log(x + sqrt((x + 1)(x - 1))); log(x) + log 2 where x^2 would overflow (XLA's expansion)."""
    one = _full(b, x, 1)
    big = b.compare(x, _full(b, x, float(np.sqrt(np.finfo(x.dtype).max))), "GE")
    safe = b.select(big, one, x)
    y = b.log(b.add(safe, b.sqrt(b.multiply(b.add(safe, one), b.subtract(safe, one)))))
    return b.select(big, b.add(b.log(b.select(big, x, one)), _full(b, x, np.log(2.0))), y)


def atanh(b, x):
    """0.5 log1p(2x / (1 - x))."""
    two = _full(b, x, 2)
    return b.multiply(_full(b, x, 0.5), b.log_plus_one(b.divide(b.multiply(two, x), b.subtract(_full(b, x, 1), x))))


def cumulative_logsumexp(b, x, axis, exclusive=False, reverse=False):
    """max + log(cumsum(exp(x - max))) with the axis-wide max (finite; -inf for an all -inf axis)."""
    rank = len(x.shape)
    (ax,) = [int(np.asarray(axis)) % max(rank, 1)]
    m = b.reduce(x, b.scalar(-np.inf, x.dtype), [ax], "maximum")
    m = b.select(b.is_finite(m), m, b.full(m.shape, 0, x.dtype))
    mb = b.broadcast_in_dim(m, x.shape, [d for d in range(rank) if d != ax])
    s = cumulative("add", "CumulativeLogsumexp")(b, b.exponential(b.subtract(x, mb)), np.int32(ax), exclusive,
                                                 reverse)
    return b.add(b.log(s), mb)


def in_top_k(b, predictions, targets, k):
    """targets[i] is in the top k of row i: fewer than k entries beat it (ties count in), finite only."""
    kk = int(np.asarray(k))
    n, c = predictions.shape
    hot = b.compare(b.broadcast_in_dim(targets, [n, c], [0]), b.iota([n, c], 1, targets.dtype), "EQ")
    neg_inf = b.full([n, c], -np.inf, predictions.dtype)
    target = b.reduce(b.select(hot, predictions, neg_inf), b.scalar(-np.inf, predictions.dtype), [1], "maximum")
    tb = b.broadcast_in_dim(target, [n, c], [0])
    beats = b.select(b.compare(predictions, tb, "GT"), b.full([n, c], 1, np.int32), b.full([n, c], 0, np.int32))
    count = b.reduce(beats, b.scalar(0, np.int32), [1], "add")
    valid = b.and_(b.is_finite(target), b.compare(targets, b.full([n], c, targets.dtype), "LT"))
    valid = b.and_(valid, b.compare(targets, b.full([n], 0, targets.dtype), "GE"))
    return b.and_(valid, b.compare(count, b.full([n], kk, np.int32), "LT"))


register("LinSpace", ("start", "stop", "num"), lin_space, const_inputs=("num",))


@register_gradient("LinSpace")
def _lin_space_grad(b, op, grad):
    """TF registers LinSpace as not differentiable: None for start and stop."""
    return [None, None, None]
register("Cross", ("a", "b"), cross)
register("Bucketize", ("input",), bucketize, attrs={"boundaries": ()})
register("ApproximateEqual", ("x", "y"), approximate_equal, attrs={"tolerance": 1e-5})
register("InvertPermutation", ("x",), invert_permutation, const_inputs=("x",))
register("Xlog1py", ("x", "y"), xlog1py)
register("Asinh", ("x",), asinh)
register("Acosh", ("x",), acosh)
register("Atanh", ("x",), atanh)
register("CumulativeLogsumexp", ("x", "axis"), cumulative_logsumexp, attrs={"exclusive": False, "reverse": False},
         const_inputs=("axis",))
register("InTopKV2", ("predictions", "targets", "k"), in_top_k, const_inputs=("k",), typed=("predictions",))


# -- unsorted segment reductions -----------------------------------------------------------------

def _unsorted(op: str, combiner: str):
    def rule(b, data, segment_ids, num_segments):
        n = int(np.asarray(num_segments))
        ids = tuple(segment_ids.shape)
        if tuple(data.shape[:len(ids)]) != ids:
            raise op_error(op, f"data.shape = {shape_text(data.shape)} does not start with "
                               f"segment_ids.shape = {shape_text(ids)}")
        dt = np.dtype(data.dtype)
        info = np.finfo(dt) if is_float(dt) else np.iinfo(dt)
        init = {"maximum": info.min, "minimum": info.max, "multiply": 1}[combiner]  # TF: lowest/highest, not inf
        out = [n] + list(data.shape[len(ids):])
        r = len(ids)
        return b.scatter(b.full(out, init, data.dtype), segment_ids, data,
                         update_window_dims=list(range(r, len(data.shape))), inserted_window_dims=[0],
                         scatter_dims_to_operand_dims=[0], index_vector_dim=r, combiner=combiner)

    return rule


for _op, _c in (("UnsortedSegmentMax", "maximum"), ("UnsortedSegmentMin", "minimum"),
                ("UnsortedSegmentProd", "multiply")):
    register(_op, ("data", "segment_ids", "num_segments"), _unsorted(_op, _c), const_inputs=("num_segments",),
             typed=("data",))


@register_gradient("UnsortedSegmentProd")
def _unsorted_segment_prod_grad(b, op, grad):
    """TF's: prod / x per element, the product of the others where x is the segment's only zero, and 0 in
    segments with several zeros (scatter-multiply has no VJP of its own)."""
    data, ids, n = op.inputs
    zero, one = _full(b, data, 0), _full(b, data, 1)
    is_zero = b.compare(data, zero, "EQ")
    counts = scatter_matrix_ops.unsorted_segment_sum(b, b.select(is_zero, one, zero), ids, n)
    grad = b.select(b.compare(counts, _full(b, counts, 1), "GT"), _full(b, grad, 0), grad)
    nonzero = b.select(is_zero, one, data)
    nonzero_prod = _unsorted("UnsortedSegmentProd", "multiply")(b, nonzero, ids, n)

    def gather(x):
        return index_ops.gather_v2(b, x, ids, np.int32(0))

    partial = b.select(is_zero, gather(nonzero_prod), b.divide(gather(op.outputs[0]), nonzero))
    return [b.multiply(gather(grad), partial), None, None]
