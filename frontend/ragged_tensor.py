"""`tf.RaggedTensor`: rows of different lengths, as flat `values` plus int64 `row_splits`.

Row i is values[row_splits[i]:row_splits[i + 1]]; `values` may itself be ragged (nested ragged
dimensions). It is a composite of tensors, so it flows through `tf.function` arguments and
results (nest.py). The padded dense form (`to_tensor`) has a static shape only when the row
lengths are known (eagerly, or constants in a trace) or `shape` is given, since minixla compiles
static shapes; the positions of the values are then gathered/scattered, so gradients flow to
`values`.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.tensor import Tensor, TensorShape
from minixla.frontend.tensor_spec import SpecShape, TypeSpec

#: the public `tf` module, installed by frontend/api/ragged_ops.py (importing it here would close an
#: import cycle: nest.py, under tf.function, imports this module)
API: dict = {}


def known(t):
    """The value of a tensor when known now (eager, or a constant in a trace), else None."""
    if isinstance(t, np.ndarray):
        return t
    v = getattr(t, "_const", None)
    return None if v is None else np.asarray(v)


class RaggedTensor:
    """values (a Tensor or RaggedTensor) split into rows by row_splits (int64 [nrows + 1])."""

    def __init__(self, values, row_splits, validate=True, _internal=False):
        tf = API["tf"]
        self._values = values if isinstance(values, RaggedTensor) else tf.convert_to_tensor(values)
        splits = row_splits if isinstance(row_splits, Tensor) else tf.constant(np.asarray(row_splits, np.int64))
        if splits.dtype.name not in ("int64", "int32"):
            raise ValueError(f"row_splits must be int32 or int64, got {splits.dtype.name}")
        self._row_splits = splits
        s = known(splits)
        if validate and s is not None:
            nvals = self._values.nrows_static() if isinstance(self._values, RaggedTensor) else \
                self._values.shape.as_list()[0]
            if s.ndim != 1 or len(s) < 1 or s[0] != 0 or np.any(np.diff(s) < 0) or \
                    (nvals is not None and s[-1] != nvals):
                raise InvalidArgumentError(None, None, "Arguments to from_row_splits do not form a valid "
                                                       "RaggedTensor: row_splits must start at 0, be sorted and "
                                                       "end at the number of values")

    # -- factories --------------------------------------------------------------------------

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        return cls(values, row_splits, validate)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        tf = API["tf"]
        lengths = known(tf.convert_to_tensor(row_lengths))
        if lengths is not None:
            return cls(values, np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64), validate)
        lengths = tf.cast(tf.convert_to_tensor(row_lengths), "int64")
        return cls(values, tf.concat([tf.zeros([1], "int64"), tf.cumsum(lengths)], 0), validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        tf = API["tf"]
        starts = tf.cast(tf.convert_to_tensor(row_starts), "int64")
        n = _nrows_of(values)
        return cls(values, tf.concat([starts, tf.constant(np.asarray([n], np.int64))], 0), validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        tf = API["tf"]
        limits = tf.cast(tf.convert_to_tensor(row_limits), "int64")
        return cls(values, tf.concat([tf.zeros([1], "int64"), limits], 0), validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        ids = known(API["tf"].convert_to_tensor(value_rowids))
        if ids is None:
            raise InvalidArgumentError(None, None, "RaggedTensor.from_value_rowids: value_rowids must be known "
                                                   "when tracing (minixla compiles static shapes)")
        n = int(nrows) if nrows is not None else (int(ids.max()) + 1 if ids.size else 0)
        if validate and ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0 or ids[-1] >= n):
            raise InvalidArgumentError(None, None, "Arguments to from_value_rowids do not form a valid "
                                                   "RaggedTensor: value_rowids must be sorted and in [0, nrows)")
        counts = np.bincount(ids.astype(np.int64), minlength=n)[:n]
        return cls(values, np.concatenate([[0], np.cumsum(counts)]).astype(np.int64), validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
        """Rows of uniform_row_length values each (nrows of them when values are empty)."""
        n_values = _nrows_of(values)
        width = int(uniform_row_length)
        if nrows is None:
            nrows = n_values // width if width else 0
        if validate and width * int(nrows) != n_values:
            raise InvalidArgumentError(None, None, f"uniform_row_length={width} times nrows={nrows} must equal the "
                                                   f"number of values {n_values}")
        return cls(values, np.arange(int(nrows) + 1, dtype=np.int64) * width, validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        out = flat_values
        for splits in reversed(list(nested_row_splits)):
            out = cls(out, splits, validate)
        return out

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        out = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            out = cls.from_row_lengths(out, lengths, validate=validate)
        return out

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype="int64"):
        """Rows of a dense [nrows, ncols, ...] tensor, cut at `lengths` or before trailing `padding`."""
        tf = API["tf"]
        x = tf.convert_to_tensor(tensor)
        if ragged_rank != 1:
            raise NotImplementedError("RaggedTensor.from_tensor with ragged_rank > 1 is not implemented in minixla")
        nrows, ncols = x.shape.as_list()[:2]
        if lengths is not None and padding is not None:
            raise ValueError("Specify lengths or padding, but not both")
        if lengths is not None:
            lens = known(tf.convert_to_tensor(lengths))
        elif padding is not None:
            xv, pad = known(x), known(tf.convert_to_tensor(padding, dtype=x.dtype))
            if xv is None or pad is None:
                raise InvalidArgumentError(None, None, "RaggedTensor.from_tensor(padding=...): the tensor must be "
                                                       "known when tracing (minixla compiles static shapes)")
            is_pad = np.all((xv == pad).reshape(nrows, ncols, -1), axis=2)
            lens = np.array([ncols - int(np.argmin(r[::-1])) if not r.all() else 0 for r in is_pad]) if ncols else \
                np.zeros(nrows, np.int64)
        else:
            lens = np.full(nrows, ncols)
        if lens is None:
            raise InvalidArgumentError(None, None, "RaggedTensor.from_tensor(lengths=...): lengths must be known "
                                                   "when tracing (minixla compiles static shapes)")
        lens = np.minimum(lens.astype(np.int64), ncols)
        pos = np.array([[r, c] for r in range(nrows) for c in range(lens[r])], np.int64).reshape(-1, 2)
        return cls(tf.gather_nd(x, tf.constant(pos)), np.concatenate([[0], np.cumsum(lens)]).astype(np.int64))

    # -- structure --------------------------------------------------------------------------

    @property
    def values(self):
        return self._values

    @property
    def row_splits(self):
        return self._row_splits

    @property
    def flat_values(self):
        v = self._values
        return v.flat_values if isinstance(v, RaggedTensor) else v

    @property
    def nested_row_splits(self) -> tuple:
        inner = self._values.nested_row_splits if isinstance(self._values, RaggedTensor) else ()
        return (self._row_splits,) + inner

    @property
    def ragged_rank(self) -> int:
        return 1 + (self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0)

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    def nrows_static(self):
        n = self._row_splits.shape.as_list()[0]
        return None if n is None else n - 1

    def nrows(self, out_type=None, name=None):
        tf = API["tf"]
        return tf.constant(np.int64(self.nrows_static()), dtype=out_type or self._row_splits.dtype)

    def row_lengths(self, axis=1, name=None):
        if axis != 1:
            if not isinstance(self._values, RaggedTensor):
                raise ValueError(f"axis={axis} out of bounds: expected 1 <= axis < {self.ragged_rank + 1}")
            return self.with_values(self._values.row_lengths(axis - 1))
        return self._row_splits[1:] - self._row_splits[:-1]

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    def value_rowids(self, name=None):
        s = known(self._row_splits)
        if s is None:
            raise InvalidArgumentError(None, None, "RaggedTensor.value_rowids: row_splits must be known when tracing")
        return API["tf"].constant(np.repeat(np.arange(len(s) - 1), np.diff(s)).astype(self._row_splits.dtype.np))

    @property
    def shape(self) -> TensorShape:
        inner = self._values.shape.as_list()[1:]
        return TensorShape([self.nrows_static(), None] + inner)

    def get_shape(self) -> TensorShape:
        return self.shape

    def bounding_shape(self, axis=None, name=None, out_type=None):
        dense = self.to_tensor()
        shape = API["tf"].constant(np.asarray(dense.shape.as_list(), np.int64))
        return shape if axis is None else shape[axis]

    def merge_dims(self, outer_axis, inner_axis):
        """Dimensions outer_axis..inner_axis joined into one (0..1 of a ragged tensor: its values)."""
        rank = self.ragged_rank + self._values_rank()
        outer, inner = outer_axis % rank, inner_axis % rank
        if outer > inner:
            raise ValueError("Expected outer_axis to be less than or equal to inner_axis")
        if outer == inner:
            return self
        if outer > 0:
            if isinstance(self._values, RaggedTensor):
                return self.with_values(self._values.merge_dims(outer - 1, inner - 1))
            raise NotImplementedError("RaggedTensor.merge_dims of uniform inner dimensions is not implemented in "
                                      "minixla")
        s = known(self._row_splits)
        values = self._values if s is None or s[0] == 0 else self._values[int(s[0]):int(s[-1])]
        if inner == 1:
            return values
        return values.merge_dims(0, inner - 1) if isinstance(values, RaggedTensor) else \
            API["tf"].reshape(values, [-1] + values.shape.as_list()[inner:])

    def _values_rank(self) -> int:
        v = self._values
        return v._values_rank() if isinstance(v, RaggedTensor) else v.shape.rank

    def with_values(self, new_values) -> RaggedTensor:
        return RaggedTensor(new_values, self._row_splits, validate=False)

    def with_flat_values(self, new_values) -> RaggedTensor:
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    @property
    def _type_spec(self):
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, self._row_splits.dtype)

    # -- conversion -------------------------------------------------------------------------

    def to_tensor(self, default_value=None, name=None, shape=None):
        """The rows padded with default_value to the longest row (or cut/padded to `shape`)."""
        tf = API["tf"]
        values = self._values.to_tensor(default_value) if isinstance(self._values, RaggedTensor) else self._values
        inner = values.shape.as_list()[1:]
        want = None if shape is None else (shape.as_list() if hasattr(shape, "as_list") else list(shape))
        nrows = self.nrows_static()
        s = known(self._row_splits)
        if s is None:
            if want is None or want[1] is None:
                raise InvalidArgumentError(None, None, "RaggedTensor.to_tensor: the row lengths must be known when "
                                                       "tracing, or `shape` given (minixla compiles static shapes)")
            return self._to_tensor_traced(values, default_value, want)
        lens = np.diff(s)
        width = int(lens.max()) if len(lens) else 0
        out_rows = nrows if want is None or want[0] is None else int(want[0])
        out_cols = width if want is None or want[1] is None else int(want[1])
        if want is not None and len(want) > 2 and any(d is not None for d in want[2:]):
            inner = [d if w is None else int(w) for d, w in zip(inner, want[2:])]
            values = values[tuple(np.s_[:d] for d in [values.shape[0]] + inner)]
        rows = np.repeat(np.arange(len(lens)), lens)
        cols = np.arange(int(s[-1]) - int(s[0])) - np.repeat(s[:-1] - s[0], lens)
        keep = np.flatnonzero((rows < out_rows) & (cols < out_cols))
        fill = _filled([out_rows, out_cols] + inner, values.dtype, default_value)
        pos = np.stack([rows[keep], cols[keep]], axis=1).astype(np.int64)
        return tf.tensor_scatter_nd_update(fill, tf.constant(pos), tf.gather(values, tf.constant(keep + int(s[0]))))

    def _to_tensor_traced(self, values, default_value, want):
        """to_tensor with traced row_splits and a given width: each value's (row, col) computed from the
        splits; values past the width land in an extra column that is cut off."""
        tf = API["tf"]
        nrows, width = self.nrows_static(), int(want[1])
        inner = values.shape.as_list()[1:]
        n = values.shape.as_list()[0]
        splits = tf.cast(self._row_splits, "int64")
        at = tf.range(n, dtype="int64")
        rows = tf.searchsorted(splits[1:], at, side="right", out_type="int64")
        cols = tf.minimum(at - tf.gather(splits, rows), width)
        fill = _filled([nrows, width + 1] + inner, values.dtype, default_value)
        out = tf.tensor_scatter_nd_update(fill, tf.stack([rows, cols], axis=1), values)[:, :width]
        return out if want[0] is None else out[:int(want[0])]

    def to_list(self) -> list:
        s = known(self._row_splits)
        inner = self._values.to_list() if isinstance(self._values, RaggedTensor) else _known_values(self._values)
        return [inner[s[i]:s[i + 1]] for i in range(len(s) - 1)]

    def numpy(self):
        s = known(self._row_splits)
        inner = self._values.numpy() if isinstance(self._values, RaggedTensor) else np.asarray(self._values.numpy())
        out = np.empty(len(s) - 1, dtype=object)
        for i in range(len(s) - 1):
            out[i] = inner[s[i]:s[i + 1]]
        return out

    def to_sparse(self, name=None):
        """The SparseTensor with an entry per value: indices [row, position in row, ...inner indices]."""
        from minixla.frontend.sparse_tensor import SparseTensor

        tf = API["tf"]
        s = known(self._row_splits)
        if s is None:
            raise InvalidArgumentError(None, None, "RaggedTensor.to_sparse: row_splits must be known when tracing")
        lens = np.diff(s)
        rows = np.repeat(np.arange(len(lens)), lens)
        cols = np.arange(int(s[-1]) - int(s[0])) - np.repeat(s[:-1] - s[0], lens)
        width = int(lens.max()) if len(lens) else 0
        if isinstance(self._values, RaggedTensor):
            inner = self._values.to_sparse()
            idx = known(inner.indices)
            outer = np.stack([rows[idx[:, 0]], cols[idx[:, 0]]], axis=1)
            indices = np.concatenate([outer, idx[:, 1:]], axis=1)
            return SparseTensor(indices, inner.values, [len(lens), width] + inner.shape.as_list()[1:])
        if self._values.shape.rank != 1:
            raise NotImplementedError("RaggedTensor.to_sparse with uniform inner dimensions is not implemented "
                                      "in minixla")
        return SparseTensor(np.stack([rows, cols], axis=1).astype(np.int64).reshape(-1, 2),
                            self._values[int(s[0]):int(s[-1])] if s[0] else self._values,
                            tf.constant(np.asarray([len(lens), width], np.int64)))

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype="int64"):
        """Rows of a rank-2 SparseTensor whose indices are in row-major order (row i: its entries)."""
        if st_input.rank != 2:
            raise ValueError(f"rank(st_input) must be 2, got {st_input.rank}")
        idx = known(st_input.indices)
        if idx is None:
            raise InvalidArgumentError(None, None, "RaggedTensor.from_sparse: the indices must be known when tracing")
        idx = idx.reshape(-1, 2)
        nrows = st_input.static_shape("from_sparse")[0]
        if len(idx) and (np.any(np.diff(idx[:, 0]) < 0) or
                         np.any((np.diff(idx[:, 0]) == 0) & (np.diff(idx[:, 1]) <= 0))):
            raise InvalidArgumentError(None, None, "SparseTensor is not right-ragged")
        lens = np.bincount(idx[:, 0], minlength=nrows)[:nrows]
        if len(idx) and np.any(idx[:, 1] != np.arange(len(idx)) - np.repeat(np.cumsum(lens) - lens, lens)):
            raise InvalidArgumentError(None, None, "SparseTensor is not right-ragged")
        return cls(st_input.values, np.concatenate([[0], np.cumsum(lens)]).astype(np.int64))

    def __getitem__(self, key):
        if isinstance(key, slice) and key.step in (None, 1):
            s = known(self._row_splits)
            rows = np.arange(len(s) - 1)[key]
            lo, hi = (int(s[rows[0]]), int(s[rows[-1] + 1])) if len(rows) else (0, 0)
            splits = s[rows[0]:rows[-1] + 2] - lo if len(rows) else np.zeros(1, np.int64)
            return RaggedTensor(self._values[lo:hi], splits.astype(np.int64))
        if isinstance(key, (int, np.integer)):
            s = known(self._row_splits)
            n = len(s) - 1
            if not -n <= key < n:
                raise IndexError(f"RaggedTensor row index {key} out of range for {n} rows")
            key = key % n
            return self._values[int(s[key]):int(s[key + 1])]
        raise NotImplementedError("RaggedTensor indexing other than by a row or a slice of rows is not "
                                  "implemented in minixla")

    def _elementwise(self, other, fn):
        if isinstance(other, RaggedTensor):
            return self.with_flat_values(fn(self.flat_values, other.flat_values))
        return self.with_flat_values(fn(self.flat_values, other))

    def __add__(self, other):
        return self._elementwise(other, lambda a, b: a + b)

    def __sub__(self, other):
        return self._elementwise(other, lambda a, b: a - b)

    def __mul__(self, other):
        return self._elementwise(other, lambda a, b: a * b)

    def __truediv__(self, other):
        return self._elementwise(other, lambda a, b: a / b)

    __radd__, __rmul__ = __add__, __mul__

    def __neg__(self):
        return self.with_flat_values(-self.flat_values)

    def __repr__(self) -> str:
        if known(self._row_splits) is None or known(self.flat_values) is None:
            return f"tf.RaggedTensor(values={self._values!r}, row_splits={self._row_splits!r})"
        return f"<tf.RaggedTensor {self.to_list()}>"

    __str__ = __repr__


def _filled(shape, dtype, default_value):
    """A tensor of `shape` filled with default_value (the dtype's zero: 0, False or b"" when None)."""
    tf = API["tf"]
    if dtype.np == np.dtype(object):
        text = b"" if default_value is None else default_value
        return tf.fill(shape, tf.constant(np.array(text.encode() if isinstance(text, str) else text, dtype=object)))
    if default_value is None:
        return tf.fill(shape, tf.constant(np.zeros((), dtype.np)))
    return tf.fill(shape, tf.cast(default_value, dtype))


def _known_values(values) -> list:
    v = known(values)
    if v is None:
        raise InvalidArgumentError(None, None, "RaggedTensor.to_list: the values must be known (eager, or constants "
                                               "in a trace)")
    return v.tolist()


def _nrows_of(values) -> int:
    return values.nrows_static() if isinstance(values, RaggedTensor) else API["tf"].convert_to_tensor(values).shape[0]


class RaggedTensorSpec(TypeSpec):
    """The type of a RaggedTensor: shape (ragged dims None), dtype, ragged_rank, row_splits dtype."""

    def __init__(self, shape=None, dtype="float32", ragged_rank=None, row_splits_dtype="int64",
                 flat_values_spec=None):
        dims = None if shape is None else (shape.as_list() if hasattr(shape, "as_list") else list(shape))
        self._shape = None if dims is None else SpecShape(None if d is None else int(d) for d in dims)
        self._dtype = dtypes.as_dtype(dtype)
        if ragged_rank is None:
            if dims is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = len(dims) - 1
        self._ragged_rank = int(ragged_rank)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)

    @property
    def value_type(self):
        return RaggedTensor

    @classmethod
    def from_value(cls, value) -> RaggedTensorSpec:
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)

    def is_compatible_with(self, other) -> bool:
        other = other if isinstance(other, RaggedTensorSpec) else RaggedTensorSpec.from_value(other)
        if other.dtype != self.dtype or other.ragged_rank != self.ragged_rank:
            return False
        if self._shape is None or other.shape is None:
            return True
        return len(self._shape) == len(other.shape) and all(
            a is None or b is None or a == b for a, b in zip(self._shape, other.shape))

    def __eq__(self, other):
        return (isinstance(other, RaggedTensorSpec) and self._dtype == other.dtype
                and self._ragged_rank == other.ragged_rank and self._row_splits_dtype == other.row_splits_dtype
                and (None if self._shape is None else list(self._shape))
                == (None if other.shape is None else list(other.shape)))

    def __hash__(self):
        return hash((None if self._shape is None else tuple(self._shape), self._dtype.name, self._ragged_rank))

    def __repr__(self) -> str:
        shape = "<unknown>" if self._shape is None else str(list(self._shape))
        return (f"RaggedTensorSpec(TensorShape({shape}), tf.{self._dtype.name}, {self._ragged_rank}, "
                f"tf.{self._row_splits_dtype.name})")
