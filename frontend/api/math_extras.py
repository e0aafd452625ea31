"""tf.math names built from existing ops (so eager, tf.function, jit and gradients come from the
decomposition): inverse hyperbolics, erfc, the no-nan and x*log1p(y) forms, order predicates,
polyval, cumulative_logsumexp, in_top_k, confusion_matrix, bincount and the segment reductions.
The special functions (lgamma, digamma, erfinv, bessel, ...) live in math_special.py."""

from __future__ import annotations

import numpy as np

from minixla.frontend.api import math_special
from minixla.frontend.api.math_linalg import _static_int
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.execute import execute
from minixla.frontend.ops import segment_ops  # noqa: F401 -- registers SegmentSum/Mean/Max/Min/Prod
from minixla.frontend.ops.special_coefficients import (  # the tables, shared with the raw-op rules
    ERFC_P as _ERFC_P, ERFC_Q as _ERFC_Q, ERFC_SMALL as _ERFC_SMALL, ERFC64_P as _ERFC64_P, ERFC64_Q as
    _ERFC64_Q, ERFC64_R as _ERFC64_R, ERFC64_S as _ERFC64_S, ERF64_T as _ERF64_T, ERF64_U as _ERF64_U)

tf = None  # the public `tf` module, set by install()


def _f(x):
    return tf.convert_to_tensor(x)


def _poly(x, coeffs):
    """Horner's rule, coefficients highest degree first."""
    acc = tf.zeros_like(x) + coeffs[0]
    for c in coeffs[1:]:
        acc = acc * x + c
    return acc


# -- elementwise -----------------------------------------------------------------------------

def asinh(x, name=None):
    """sign(x) * log1p(a + a^2 / (1 + sqrt(1 + a^2))), a = |x| (exact near 0; odd by construction)."""
    x = _f(x)
    a = tf.where(x < 0, -x, x)  # |x| whose derivative at 0 is 1, so d asinh(0) = 1
    big = a > float(np.sqrt(np.finfo(x.dtype.as_numpy_dtype).max)) / 2
    safe = tf.where(big, tf.zeros_like(a), a)
    y = tf.math.log1p(safe + safe * safe / (1 + tf.sqrt(1 + safe * safe)))
    y = tf.where(big, tf.math.log(tf.where(big, a, tf.ones_like(a))) + np.log(2.0), y)
    return tf.where(x < 0, -y, y)


def acosh(x, name=None):
    """log(x + sqrt((x + 1)(x - 1))); log(x) + log 2 where x^2 would overflow (XLA's expansion)."""
    x = _f(x)
    big = x >= float(np.sqrt(np.finfo(x.dtype.as_numpy_dtype).max))
    safe = tf.where(big, tf.ones_like(x), x)
    huge = tf.where(big, x, tf.ones_like(x))
    return tf.where(big, tf.math.log(huge) + np.log(2.0), tf.math.log(safe + tf.sqrt((safe + 1) * (safe - 1))))


def atanh(x, name=None):
    """0.5 * log1p(2x / (1 - x))."""
    x = _f(x)
    return 0.5 * tf.math.log1p(2 * x / (1 - x))


def _erfc64(x, large):
    """Cephes' double-precision erfc: exp(-x^2) P(|x|)/Q(|x|) below 8, R/S above; 1 - x T(x^2)/U(x^2) for
    |x| <= 1."""
    xl = tf.where(large, x, tf.ones_like(x) * 2)
    xs = tf.where(large, tf.zeros_like(x), x)
    ax = tf.abs(xl)
    z = -xl * xl
    near = tf.exp(z) * _poly(ax, _ERFC64_P) / _poly(ax, _ERFC64_Q)
    far = tf.exp(z) * _poly(ax, _ERFC64_R) / _poly(ax, _ERFC64_S)
    tail = tf.where(ax < 8, near, far)
    tail = tf.where(z < -7.09782712893383996843E2, tf.zeros_like(tail), tail)
    tail = tf.where(xl < 0, 2 - tail, tail)
    x2 = xs * xs
    return tf.where(large, tail, 1 - xs * _poly(x2, _ERF64_T) / _poly(x2, _ERF64_U))


def erfc(x, name=None):
    """1 - erf(x) without the cancellation: x P(x^2) + 1 for |x| <= 1, exp(-x^2) P(1/x^2) / (|x| Q(1/x^2))
    above (Eigen's and XLA's float32 rational approximations; Cephes' for float64)."""
    x0 = _f(x)
    x = tf.cast(x0, "float32") if x0.dtype.size < 4 else x0
    large = tf.abs(x) > 1
    if x.dtype == tf.float64:
        return _erfc64(x, large)
    xl = tf.where(large, x, tf.ones_like(x))  # keeps 1/x^2 finite on the unused branch
    xs = tf.where(large, tf.zeros_like(x), x)
    ax = tf.minimum(tf.abs(xl), 10.06)
    q2 = 1 / (xl * xl)
    tail = tf.exp(-xl * xl) * _poly(q2, _ERFC_P) / (ax * _poly(q2, _ERFC_Q))
    tail = tf.where(xl < 0, 2 - tail, tail)
    return tf.cast(tf.where(large, tail, xs * _poly(xs * xs, _ERFC_SMALL) + 1), x0.dtype)


def reciprocal_no_nan(x, name=None):
    x = _f(x)
    return tf.math.divide_no_nan(tf.ones_like(x), x)


def xlog1py(x, y, name=None):
    """x * log1p(y), and 0 where x == 0 (even where log1p(y) is inf or nan)."""
    x, y = _f(x), _f(y)
    x, y = x + tf.zeros_like(y), y + tf.zeros_like(x)
    zero = tf.equal(x, 0)
    return tf.where(zero, tf.zeros_like(x), x * tf.math.log1p(tf.where(zero, tf.zeros_like(y), y)))


def zero_fraction(value, name=None):
    """The fraction of zeros, a float32 scalar."""
    return tf.reduce_mean(tf.cast(tf.equal(_f(value), 0), "float32"))


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    if not inputs:
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    return tf.add_n([_f(t) for t in inputs])


def invert_permutation(x, name=None):
    """y[x[i]] = i (a scatter of the positions)."""
    x = _f(x)
    if x.shape.rank != 1:
        raise InvalidArgumentError("invert_permutation expects a 1D vector. [Op:InvertPermutation]")
    n = x.shape[0]
    return tf.scatter_nd(tf.reshape(x, [n, 1]), tf.range(n, dtype=x.dtype), tf.constant([n], x.dtype))


def _ordered(x, strict):
    flat = tf.reshape(_f(x), [-1])
    if flat.shape[0] < 2:
        return tf.constant(True)
    cmp = tf.greater if strict else tf.greater_equal
    return tf.reduce_all(cmp(flat[1:], flat[:-1]))


def is_non_decreasing(x, name=None):
    return _ordered(x, strict=False)


def is_strictly_increasing(x, name=None):
    return _ordered(x, strict=True)


def polyval(coeffs, x, name=None):
    """sum_i coeffs[i] * x^(n-1-i), by Horner's rule (coeffs highest degree first)."""
    x = _f(x)
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    if not coeffs:
        return tf.zeros_like(x)
    acc = _f(coeffs[0]) + tf.zeros_like(x)
    for c in coeffs[1:]:
        acc = acc * x + _f(c)
    return acc


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x - max))) + max: the running log-sum-exp, shifted by the maximum for range."""
    x = _f(x)
    m = tf.stop_gradient(tf.reduce_max(x, axis=axis, keepdims=True))
    m = tf.where(tf.math.is_finite(m), m, tf.zeros_like(m))
    return tf.math.log(tf.cumsum(tf.exp(x - m), axis=axis, exclusive=exclusive, reverse=reverse)) + m


# -- classification counts ---------------------------------------------------------------------

def in_top_k(targets, predictions, k, name=None):
    """True where the target's prediction has fewer than k predictions strictly above it (ties count as
    in); False for an out-of-range target or a row with a non-finite prediction, as TF's InTopKV2 kernel
    (TF's XLA kernel looks at the target's prediction only, so TF's own jit results differ there)."""
    targets, predictions = _f(targets), _f(predictions)
    if not targets.dtype.is_integer:
        kind = math_special._TF_NAMES.get(targets.dtype.name, targets.dtype.name)
        raise InvalidArgumentError(f"Value for attr 'T' of {kind} is not in the list of allowed values: int32, int64 "
                                   "[Op:InTopKV2]")
    classes = predictions.shape[-1]
    valid = tf.logical_and(targets >= 0, targets < classes)
    safe = tf.where(valid, targets, tf.zeros_like(targets))
    picked = tf.gather(predictions, safe, batch_dims=1)  # (a gather: inf elsewhere in the row stays out)
    above = tf.reduce_sum(tf.cast(predictions > picked[:, None], "int32"), axis=-1)
    ok = tf.logical_and(valid, tf.reduce_all(tf.math.is_finite(predictions), axis=-1))
    return tf.logical_and(ok, above < tf.cast(k, "int32"))


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype="int32", name=None):
    """counts[label, prediction] (or summed weights): a scatter-add of ones at label * n + prediction."""
    labels, predictions = tf.cast(tf.reshape(_f(labels), [-1]), "int64"), tf.cast(tf.reshape(_f(predictions), [-1]),
                                                                                  "int64")
    if num_classes is None:
        top = tf.maximum(tf.reduce_max(labels), tf.reduce_max(predictions)) + 1
        n = _static_int(top, "ScatterNd", 2)
    else:
        n = _static_int(num_classes, "ScatterNd", 2)
    values = tf.ones_like(labels, dtype=dtype) if weights is None else tf.cast(tf.reshape(_f(weights), [-1]), dtype)
    cells = labels * n + predictions
    return tf.reshape(tf.math.unsorted_segment_sum(values, cells, n * n), [n, n])


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype="int32", name=None, axis=None,
             binary_output=False):
    """Counts (or summed weights) of each value 0..size-1, size = max(max(arr) + 1, minlength) capped at
    maxlength; values at or above size are dropped, as TF drops them."""
    arr = _f(arr)
    if axis not in (None, 0, -1) or (axis is not None and arr.shape.rank != 2):
        raise NotImplementedError("tf.math.bincount with this axis is not implemented in minixla")
    if minlength is not None and maxlength is not None and int(minlength) == int(maxlength):
        size = int(minlength)
    else:
        size = _static_int(tf.reduce_max(arr) + 1 if arr.shape.num_elements() else 0, "Bincount", 1)
        size = max(size, int(minlength) if minlength is not None else 0)
        if maxlength is not None:
            size = min(size, int(maxlength))
    out_dtype = weights.dtype if weights is not None and hasattr(weights, "dtype") else tf.as_dtype(dtype)
    values = tf.ones_like(arr, dtype=out_dtype) if weights is None else tf.cast(_f(weights), out_dtype)
    if axis == -1:
        rows = arr.shape[0]
        ids = arr + size * tf.range(rows, dtype=arr.dtype)[:, None]
        ids = tf.where(arr < size, ids, -tf.ones_like(ids))
        out = tf.reshape(tf.math.unsorted_segment_sum(values, ids, rows * size), [rows, size])
    else:
        ids = tf.where(arr < size, arr, -tf.ones_like(arr))
        out = tf.math.unsorted_segment_sum(tf.reshape(values, [-1]), tf.reshape(ids, [-1]), size)
    if binary_output:
        out = tf.cast(out > 0, out_dtype)
    return out


# -- segment reductions ----------------------------------------------------------------------

def _segment(op):
    def fn(data, segment_ids, name=None):
        return execute(op, [data, segment_ids])

    fn.__name__ = op
    return fn


segment_sum = _segment("SegmentSum")
segment_mean = _segment("SegmentMean")
segment_max = _segment("SegmentMax")
segment_min = _segment("SegmentMin")
segment_prod = _segment("SegmentProd")


def _unsorted(data, segment_ids, num_segments, fill, reduce):
    """The [segments, rows] one-hot mask of the ids picks each segment's rows; `reduce` over them, `fill`
    elsewhere (ids outside [0, num_segments) belong to no segment, as in TF)."""
    data, ids = _f(data), _f(segment_ids)
    n = _static_int(num_segments, "UnsortedSegmentMax", 2)
    lead = ids.shape.rank
    if data.shape.as_list()[:lead] != ids.shape.as_list():
        raise InvalidArgumentError(f"data.shape = {data.shape.as_list()} does not start with segment_ids.shape = "
                                   f"{ids.shape.as_list()} [Op:UnsortedSegmentMax]")
    rest = data.shape.as_list()[lead:]
    rows = tf.reshape(data, [-1] + rest)
    flat = tf.reshape(ids, [1, -1])
    mask = tf.equal(flat, tf.range(n, dtype=ids.dtype)[:, None])
    mask = tf.reshape(mask, mask.shape.as_list() + [1] * len(rest))
    spread = tf.broadcast_to(rows[None], [n] + rows.shape.as_list())
    mask = tf.broadcast_to(mask, spread.shape.as_list())
    return reduce(tf.where(mask, spread, tf.fill(spread.shape.as_list(), tf.cast(fill, data.dtype))), mask)


def _lowest(dtype):
    d = np.dtype(dtype.as_numpy_dtype)
    return (np.finfo(d) if d.kind == "f" else np.iinfo(d)).min


def _highest(dtype):
    d = np.dtype(dtype.as_numpy_dtype)
    return (np.finfo(d) if d.kind == "f" else np.iinfo(d)).max


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    data = _f(data)
    return _unsorted(data, segment_ids, num_segments, _lowest(data.dtype), lambda v, m: tf.reduce_max(v, axis=1))


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    data = _f(data)
    return _unsorted(data, segment_ids, num_segments, _highest(data.dtype), lambda v, m: tf.reduce_min(v, axis=1))


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    return _unsorted(data, segment_ids, num_segments, 1, lambda v, m: tf.reduce_prod(v, axis=1))


def _count(data, segment_ids, num_segments):
    data = _f(data)
    ones = tf.ones(_f(segment_ids).shape.as_list() + [1] * (data.shape.rank - _f(segment_ids).shape.rank), data.dtype)
    return tf.math.unsorted_segment_sum(ones, segment_ids, num_segments)


def _in_range_sum(data, segment_ids, num_segments):
    """unsorted_segment_sum with the rows of out-of-range ids zeroed first, so that their gradient is 0
    (as TF's _GatherDropNegatives) rather than the clamped gather's row."""
    data, ids = _f(data), _f(segment_ids)
    n = _static_int(num_segments, "UnsortedSegmentSum", 2)
    valid = tf.logical_and(ids >= 0, ids < n)
    valid = tf.reshape(valid, ids.shape.as_list() + [1] * (data.shape.rank - ids.shape.rank))
    kept = tf.where(tf.broadcast_to(valid, data.shape.as_list()), data, tf.zeros_like(data))
    return tf.math.unsorted_segment_sum(kept, ids, n)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """sum / max(count, 1)."""
    total = _in_range_sum(data, segment_ids, num_segments)
    return total / tf.maximum(_count(data, segment_ids, num_segments), 1)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """sum / sqrt(max(count, 1))."""
    total = _in_range_sum(data, segment_ids, num_segments)
    return total / tf.sqrt(tf.maximum(_count(data, segment_ids, num_segments), 1))


# -- approximate top-k (exact on CPU, as XLA's CPU fallback: a sort) --------------------------

def _approx_k(operand, k, reduction_dimension, largest):
    x = _f(operand)
    rank = x.shape.rank
    dim = reduction_dimension % rank if rank else 0
    if not 0 < k <= x.shape[dim]:
        raise InvalidArgumentError(f"input must have at least k columns. Had {x.shape[dim]}, needed {k} "
                                   "[Op:ApproxTopK]")
    perm = [d for d in range(rank) if d != dim] + [dim]
    moved = tf.transpose(x, perm) if dim != rank - 1 else x
    values, indices = tf.math.top_k(moved if largest else -moved, k=k, sorted=True)
    if not largest:
        values = -values
    if dim != rank - 1:
        back = [perm.index(d) for d in range(rank)]
        values, indices = tf.transpose(values, back), tf.transpose(indices, back)
    return values, indices


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """The k largest along `reduction_dimension` and their indices. XLA on CPU/GPU computes them exactly
    (the approximation is a TPU algorithm), so this is top_k along that axis."""
    return _approx_k(operand, k, reduction_dimension, largest=True)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """The k smallest along `reduction_dimension` (see approx_max_k)."""
    return _approx_k(operand, k, reduction_dimension, largest=False)


# -- Sobol sequence ---------------------------------------------------------------------------

#: Joe and Kuo's direction numbers (new-joe-kuo-6.21201) for dimensions 2..21: (degree s, polynomial a,
#: initial m_1..m_s); dimension 1 is the van der Corput sequence
_SOBOL = ((1, 0, (1,)), (2, 1, (1, 3)), (3, 1, (1, 3, 1)), (3, 2, (1, 1, 1)), (4, 1, (1, 1, 3, 3)),
          (4, 4, (1, 3, 5, 13)), (5, 2, (1, 1, 5, 5, 17)), (5, 4, (1, 1, 5, 5, 5)), (5, 7, (1, 1, 7, 11, 19)),
          (5, 11, (1, 1, 5, 1, 1)), (5, 13, (1, 1, 1, 3, 11)), (5, 14, (1, 3, 5, 5, 31)), (6, 1, (1, 3, 3, 9, 7, 49)),
          (6, 13, (1, 1, 1, 15, 21, 21)), (6, 16, (1, 3, 1, 13, 27, 49)), (6, 19, (1, 1, 1, 15, 7, 5)),
          (6, 22, (1, 3, 1, 15, 13, 25)), (6, 25, (1, 1, 5, 5, 19, 61)), (7, 1, (1, 3, 7, 11, 23, 15, 103)),
          (7, 4, (1, 3, 7, 13, 13, 15, 69)))
_SOBOL_BITS = 32


def _sobol_directions(dim: int) -> np.ndarray:
    """[dim, 32] direction integers by Bratley and Fox's recurrence from each primitive polynomial."""
    bits = _SOBOL_BITS
    v = np.zeros((dim, bits), np.uint64)
    v[0] = [1 << (bits - 1 - i) for i in range(bits)]
    for d in range(1, dim):
        s, a, m = _SOBOL[d - 1]
        for i in range(bits):
            if i < s:
                v[d, i] = m[i] << (bits - 1 - i)
                continue
            x = v[d, i - s] ^ (v[d, i - s] >> np.uint64(s))
            for k in range(1, s):
                if (a >> (s - 1 - k)) & 1:
                    x ^= v[d, i - k]
            v[d, i] = x
    return v


def sobol_sample(dim, num_results, skip=0, dtype="float32", name=None):
    """Points skip+1 .. skip+num_results of the Sobol sequence (Gray-code order, the zero point left out,
    as TF's kernel). The arguments are compile-time constants, so the points are computed when the op is
    built, as TF's XLA kernel does."""
    dim = _static_int(dim, "SobolSample", 0)
    n = _static_int(num_results, "SobolSample", 1)
    skip = _static_int(skip, "SobolSample", 2)
    for bad, message in ((dim < 1, "dim must be at least one"), (n < 1, "num_results must be at least one"),
                         (skip < 0, "skip must be non-negative")):
        if bad:
            raise InvalidArgumentError(f"{message} [Op:SobolSample]")
    if dim > len(_SOBOL) + 1:
        raise NotImplementedError(f"tf.math.sobol_sample in more than {len(_SOBOL) + 1} dimensions is not "
                                  "implemented in minixla (it carries Joe and Kuo's first direction numbers only)")
    v = _sobol_directions(dim)
    idx = np.arange(skip + 1, skip + n + 1, dtype=np.uint64)
    gray = idx ^ (idx >> np.uint64(1))
    x = np.zeros((n, dim), np.uint64)
    for i in range(_SOBOL_BITS):
        on = ((gray >> np.uint64(i)) & np.uint64(1)).astype(bool)
        x[on] ^= v[:, i]
    return tf.constant(x / 2.0 ** _SOBOL_BITS, dtype=dtype)


_MATH = ["asinh", "acosh", "atanh", "erfc", "reciprocal_no_nan", "xlog1py", "zero_fraction", "accumulate_n",
         "invert_permutation", "is_non_decreasing", "is_strictly_increasing", "polyval", "cumulative_logsumexp",
         "in_top_k", "confusion_matrix", "bincount", "segment_sum", "segment_mean", "segment_max", "segment_min",
         "segment_prod", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
         "unsorted_segment_mean", "unsorted_segment_sqrt_n", "approx_max_k", "approx_min_k", "sobol_sample"]


def install(module) -> None:
    global tf
    tf = module
    g = globals()
    for n in _MATH:
        setattr(module.math, n, g[n])
    for n in ("asinh", "acosh", "atanh", "invert_permutation"):
        if not hasattr(module, n):
            setattr(module, n, g[n])
    for n in ("approx_max_k", "approx_min_k"):
        if not hasattr(module.nn, n):
            setattr(module.nn, n, g[n])
    for n in ("softmax", "log_softmax", "softsign"):
        setattr(module.math, n, getattr(module.nn, n))
    math_special.install(module)
    if not hasattr(module.nn, "in_top_k"):
        module.nn.in_top_k = in_top_k
