"""`tf.data.Dataset`: a lazy pipeline of host-side elements (nested numpy structures).

Sources: `from_tensor_slices`, `from_tensors`, `from_generator`, `range`, `zip`.
Transformations: `batch`, `unbatch`, `shuffle` (seeded numpy generator; the same
seed gives the same order, not TensorFlow's order), `map` (the function is
traced once per element signature through `tf.function`, as TF does), `filter`,
`repeat`, `prefetch` (a no-op: elements are produced on demand), `take`,
`skip`, `cache`, `enumerate`. Iterating gives `tf.Tensor`s; `as_numpy_iterator`
gives numpy. `Model.fit` accepts a Dataset of `(x, y)` batches.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
from minixla.frontend import dtypes
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.function import function
from minixla.frontend.tensor import Tensor
from minixla.frontend.tensor_spec import SpecShape, TensorSpec  # noqa: F401  (tf.data.TensorSpec)
from minixla.frontend.variables import Variable

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def _map_structure(fn, s):
    if isinstance(s, tuple) and hasattr(s, "_fields"):
        return type(s)(*(_map_structure(fn, v) for v in s))
    if isinstance(s, (tuple, list)):
        return type(s)(_map_structure(fn, v) for v in s)
    if isinstance(s, dict):
        return {k: _map_structure(fn, v) for k, v in s.items()}
    return fn(s)


def _leaves(s) -> list:
    if isinstance(s, (tuple, list)):
        return [x for v in s for x in _leaves(v)]
    if isinstance(s, dict):
        return [x for v in s.values() for x in _leaves(v)]
    return [s]


def _to_numpy(v):
    if isinstance(v, (Tensor, Variable)):
        return v.numpy()
    arr = np.asarray(v)
    if arr.dtype == np.float64 and not isinstance(v, np.ndarray):
        arr = arr.astype(np.float32)  # Python floats become float32 tensors, as in TF
    if arr.dtype == np.int64 and not isinstance(v, np.ndarray):
        arr = arr.astype(np.int32)
    return arr


def _to_tensor(a):
    return a if isinstance(a, Tensor) else Tensor.make(np.asarray(a))


def _spec_of(element):
    return _map_structure(lambda a: TensorSpec(np.shape(a), np.asarray(a).dtype), element)


class Dataset:
    """A re-iterable pipeline: `_source()` returns a fresh iterator of numpy elements."""

    def __init__(self, source, cardinality: int = UNKNOWN_CARDINALITY, spec=None):
        self._source = source
        self._cardinality = cardinality
        self._spec = spec

    # ---- sources ------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None) -> Dataset:
        arrays = _map_structure(_to_numpy, tensors)
        leaves = _leaves(arrays)
        if not leaves or any(a.ndim == 0 for a in leaves):
            raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        n = len(leaves[0])
        if any(len(a) != n for a in leaves):
            sizes = ", ".join(str(len(a)) for a in leaves)
            raise ValueError(f"Dimensions {sizes} in the tensors passed to from_tensor_slices are not compatible: "
                             "all components must have the same size in their first dimension.")
        spec = _map_structure(lambda a: TensorSpec(a.shape[1:], a.dtype), arrays)
        return Dataset(lambda: (_map_structure(lambda a, i=i: a[i], arrays) for i in range(n)), n, spec)

    @staticmethod
    def from_tensors(tensors, name=None) -> Dataset:
        element = _map_structure(_to_numpy, tensors)
        return Dataset(lambda: iter([element]), 1, _spec_of(element))

    @staticmethod
    def range(*args, dtype="int64", name=None) -> Dataset:
        r = range(*args)
        dt = dtypes.as_dtype(dtype).np
        return Dataset(lambda: (np.asarray(i, dt) for i in r), len(r), TensorSpec((), dt))

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None) -> Dataset:
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is None and output_types is None:
            raise TypeError("The `output_types` argument can not be None when `output_signature` is None.")
        if output_signature is not None:
            spec = output_signature
        else:
            shapes = output_shapes if output_shapes is not None else _map_structure(lambda _: None, output_types)
            spec = _zip_structure(lambda t, s: TensorSpec(s if s is not None else [], t), output_types, shapes)

        def check(element):
            def one(value, s):
                arr = np.asarray(value, dtype=s.dtype.np)
                shape_given = output_shapes is not None or output_signature is not None
                want = s.shape.as_list()
                if shape_given and (len(want) != arr.ndim or any(w is not None and w != d
                                                                 for w, d in zip(want, arr.shape))):
                    raise _invalid(f"`generator` yielded an element of shape {arr.shape} where an element of "
                                   f"shape {tuple(want)} was expected.")
                return arr
            return _zip_structure(one, element, spec)

        call_args = tuple(args or ())
        return Dataset(lambda: (check(e) for e in generator(*call_args)), UNKNOWN_CARDINALITY, spec)

    @staticmethod
    def zip(*datasets, name=None) -> Dataset:
        if len(datasets) == 1 and isinstance(datasets[0], (tuple, list, dict)):
            datasets = datasets[0]
        structure = datasets
        flat = _leaves(structure)
        cards = [d._cardinality for d in flat]
        finite = [c for c in cards if c >= 0]
        card = min(finite) if finite else (INFINITE_CARDINALITY if all(c == -1 for c in cards)
                                           else UNKNOWN_CARDINALITY)

        def source():
            iters = [iter(d._source()) for d in flat]
            for items in zip(*iters):
                yield _fill(structure, iter(items))

        return Dataset(source, card, _map_structure(lambda d: d.element_spec, structure))

    # ---- properties ---------------------------------------------------------
    @property
    def element_spec(self):
        if self._spec is None:
            first = next(iter(self._source()), None)
            self._spec = _spec_of(first) if first is not None else None
        return self._spec

    def cardinality(self):
        return Tensor.make(np.asarray(self._cardinality, np.int64))

    def __len__(self) -> int:
        if self._cardinality == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if self._cardinality == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __iter__(self):
        return (_map_structure(_to_tensor, e) for e in self._source())

    def as_numpy_iterator(self):
        return (_map_structure(np.asarray, e) for e in self._source())

    def __repr__(self) -> str:
        return f"<Dataset element_spec={self.element_spec}>"

    # ---- transformations ----------------------------------------------------
    def batch(self, batch_size, drop_remainder: bool = False, num_parallel_calls=None, deterministic=None,
              name=None) -> Dataset:
        batch_size = int(batch_size)
        if batch_size <= 0:
            raise _invalid(f"batch_size must be greater than zero, but got {batch_size}")

        def source():
            it = iter(self._source())
            while True:
                chunk = list(itertools.islice(it, batch_size))
                if not chunk or (drop_remainder and len(chunk) < batch_size):
                    return
                yield _stack(chunk)

        card = self._cardinality
        if card >= 0:
            card = card // batch_size if drop_remainder else -(-card // batch_size)
        spec = None
        if self._spec is not None:
            spec = _map_structure(lambda s: TensorSpec([batch_size if drop_remainder else None]
                                                       + s.shape.as_list(), s.dtype), self._spec)
        return Dataset(source, card, spec)

    def unbatch(self, name=None) -> Dataset:
        def source():
            for e in self._source():
                n = len(_leaves(e)[0])
                for i in range(n):
                    yield _map_structure(lambda a, i=i: np.asarray(a)[i], e)

        return Dataset(source, UNKNOWN_CARDINALITY)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration: bool = True, name=None) -> Dataset:
        """Buffered shuffle (TF's algorithm: a random slot of a `buffer_size` buffer is emitted and refilled)."""
        buffer_size = int(buffer_size)
        if buffer_size <= 0 and buffer_size != AUTOTUNE:
            raise _invalid(f"buffer_size must be greater than zero, but got {buffer_size}")
        epoch = itertools.count()
        base = seed if seed is not None else np.random.SeedSequence().entropy % (2 ** 31)

        def source():
            k = next(epoch) if reshuffle_each_iteration else 0
            rng = np.random.default_rng([int(base), k])
            buf: list = []
            for e in self._source():
                buf.append(e)
                if len(buf) >= buffer_size:
                    i = int(rng.integers(len(buf)))
                    buf[i], buf[-1] = buf[-1], buf[i]
                    yield buf.pop()
            while buf:
                i = int(rng.integers(len(buf)))
                buf[i], buf[-1] = buf[-1], buf[i]
                yield buf.pop()

        return Dataset(source, self._cardinality, self._spec)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None) -> Dataset:
        traced = function(lambda *args: map_func(*args))

        def apply(e):
            args = e if isinstance(e, tuple) and not hasattr(e, "_fields") else (e,)
            out = traced(*[_map_structure(_to_tensor, a) for a in args])
            return _map_structure(_to_numpy, out)

        return Dataset(lambda: (apply(e) for e in self._source()), self._cardinality)

    def filter(self, predicate, name=None) -> Dataset:
        def keep(e):
            args = e if isinstance(e, tuple) else (e,)
            return bool(np.asarray(_to_numpy(predicate(*[_map_structure(_to_tensor, a) for a in args]))))

        return Dataset(lambda: (e for e in self._source() if keep(e)), UNKNOWN_CARDINALITY, self._spec)

    def repeat(self, count=None, name=None) -> Dataset:
        count = None if count is None or int(count) < 0 else int(count)

        def source():
            for _ in (itertools.count() if count is None else range(count)):
                yield from self._source()

        card = self._cardinality
        if count is None:
            card = INFINITE_CARDINALITY if card != 0 else 0
        elif card >= 0:
            card *= count
        return Dataset(source, card, self._spec)

    def take(self, count, name=None) -> Dataset:
        count = int(count)
        card = self._cardinality if count < 0 else (count if self._cardinality < 0 and self._cardinality
                                                    == INFINITE_CARDINALITY else
                                                    min(count, self._cardinality) if self._cardinality >= 0
                                                    else UNKNOWN_CARDINALITY)
        return Dataset(lambda: itertools.islice(self._source(), None if count < 0 else count), card, self._spec)

    def skip(self, count, name=None) -> Dataset:
        count = int(count)
        card = self._cardinality
        if card >= 0:
            card = max(card - count, 0) if count >= 0 else 0
        return Dataset(lambda: itertools.islice(self._source(), max(count, 0), None), card, self._spec)

    def prefetch(self, buffer_size=None, name=None) -> Dataset:
        return self

    def cache(self, filename: str = "", name=None) -> Dataset:
        """Keep the elements of the first complete pass in memory (a file name is ignored)."""
        store: list = []
        done = [False]

        def source():
            if done[0]:
                yield from store
                return
            store.clear()
            for e in self._source():
                store.append(e)
                yield e
            done[0] = True

        return Dataset(source, self._cardinality, self._spec)

    def enumerate(self, start=0, name=None) -> Dataset:
        return Dataset(lambda: ((np.asarray(i, np.int64), e) for i, e in enumerate(self._source(), start)),
                       self._cardinality)

    def concatenate(self, dataset, name=None) -> Dataset:
        card = (self._cardinality + dataset._cardinality if self._cardinality >= 0 and dataset._cardinality >= 0
                else UNKNOWN_CARDINALITY)
        return Dataset(lambda: itertools.chain(self._source(), dataset._source()), card, self._spec)

    def reduce(self, initial_state, reduce_func):
        state = _map_structure(_to_tensor, _map_structure(_to_numpy, initial_state))
        for e in self:
            state = reduce_func(state, e)
        return state

    def apply(self, transformation_func) -> Dataset:
        return transformation_func(self)


def _fill(structure, values):
    """`structure` with its leaves replaced, in order, by the next items of `values`."""
    return _map_structure(lambda _: next(values), structure)


def _zip_structure(fn, a, b):
    if isinstance(a, (tuple, list)):
        return type(a)(_zip_structure(fn, x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return {k: _zip_structure(fn, a[k], b[k]) for k in a}
    return fn(a, b)


def _stack(chunk):
    first = chunk[0]
    if isinstance(first, (tuple, list)):
        return type(first)(_stack([c[i] for c in chunk]) for i in range(len(first)))
    if isinstance(first, dict):
        return {k: _stack([c[k] for c in chunk]) for k in first}
    arrays = [np.asarray(c) for c in chunk]
    shapes = {a.shape for a in arrays}
    if len(shapes) > 1:
        raise _invalid(f"Cannot batch tensors with different shapes in component 0. First element had shape "
                       f"{list(arrays[0].shape)} and element {next(i for i, a in enumerate(arrays) if a.shape != arrays[0].shape)} "
                       f"had shape {list(next(a.shape for a in arrays if a.shape != arrays[0].shape))}.")
    return np.stack(arrays)


def _invalid(message: str):
    return InvalidArgumentError(message)


experimental = SimpleNamespace(AUTOTUNE=AUTOTUNE, INFINITE_CARDINALITY=INFINITE_CARDINALITY,
                               UNKNOWN_CARDINALITY=UNKNOWN_CARDINALITY, cardinality=lambda d: d.cardinality())
