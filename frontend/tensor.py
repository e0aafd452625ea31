"""`Tensor`, `TensorShape` and conversion of Python/numpy values.

A Tensor is either *eager* (holds a numpy array) or *symbolic* (a value of the
graph being traced by `tf.function`). Python operators dispatch to the public
API (`frontend.api`), which follows TF's rules: numpy-style broadcasting and
no implicit dtype promotion (Python scalars take the other operand's dtype).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.builder import Spec
from minixla.frontend.validation import check_convertible

#: the functions behind Tensor's operators (`+`, `[]`, `==`, ...): frontend/api/core.py installs itself
#: here when imported, so this low-level value type does not import the API built on it
API: list = [None]


class TensorShape:
    """Static shape, as TF's: unknown rank (`None`), or dims that are ints or `None` (unknown)."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims._dims
        elif dims is not None and not isinstance(dims, (list, tuple)) and not hasattr(dims, "__iter__"):
            dims = [dims]  # TF accepts a single dimension
        self._dims = None if dims is None else tuple(
            None if d is None or getattr(d, "value", 0) is None else int(getattr(d, "value", d)) for d in dims)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def num_elements(self):
        return None if not self.is_fully_defined() else int(np.prod(self._dims, dtype=np.int64))

    def is_fully_defined(self) -> bool:
        return self._dims is not None and all(d is not None for d in self._dims)

    def is_compatible_with(self, other) -> bool:
        other = TensorShape(other) if not isinstance(other, TensorShape) else other
        if self._dims is None or other._dims is None:
            return True
        return len(self._dims) == len(other._dims) and all(
            a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def merge_with(self, other) -> TensorShape:
        """The most specific shape compatible with both (TF's ValueError if they are not)."""
        other = TensorShape(other) if not isinstance(other, TensorShape) else other
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other) -> TensorShape:
        other = TensorShape(other) if not isinstance(other, TensorShape) else other
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def assert_is_compatible_with(self, other) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {TensorShape(other)} are incompatible")

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        return iter(self._dims or ())

    def __getitem__(self, i):
        if isinstance(i, slice):
            return TensorShape(self._dims[i])
        return self._dims[i]

    def __eq__(self, other) -> bool:
        if isinstance(other, TensorShape):
            return self._dims == other._dims
        try:
            return self._dims == tuple(other)
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self._dims)

    def __repr__(self) -> str:
        return "TensorShape(None)" if self._dims is None else f"TensorShape({list(self._dims)})"

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        return "(" + ", ".join(map(str, self._dims)) + ("," if len(self._dims) == 1 else "") + ")"


class _FromValue:
    """A field an eager tensor derives from `_value` on first read and then keeps as an instance
    attribute (a non-data descriptor: a stored field wins), so the eager fast path makes a result by
    setting `_value` and `_dt`. Stored with setattr, not through `__dict__`, which would turn the
    instance's inline attributes into a dict that every later attribute read pays for."""

    def __init__(self, derive):
        self.derive = derive

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = self.derive(obj._value)
        _setattr(obj, self.name, value)
        return value


_setattr = object.__setattr__


class Tensor:
    """An eager value (`_value`) or a symbolic one (`_graph`, `_ssa`, `_spec`), made by `Tensor.make`.

    No `__init__`: `Tensor()` is an empty tensor that the eager fast paths fill with `_value` and `_dt`,
    and creating it then costs what creating a plain object does (a Python `__init__` or
    `object.__new__(Tensor)` costs ~30 ns more, on ops that take ~500 ns in all)."""

    __array_priority__ = 100
    # what an eager result has unless it sets them (eager_tensor, the eager fast path)
    _graph = _ssa = None
    _name = ""
    _spec = _FromValue(lambda value: Spec(value.shape, value.dtype))
    _const = _FromValue(lambda value: value)
    # An eager tensor also has `_dt`, its `_value.dtype`, which the eager fast paths compare: an
    # instance attribute is read in ~3 ns, an ndarray's dtype in ~10 (a tensor's `_value` is never
    # replaced, so the two cannot part). Every eager tensor is made with it (make, eager_tensor, the
    # fast paths); one without it takes the fast paths' slower branch. No class-level default: a
    # name the class defines is never specialized by CPython 3.11's attribute caches (~40 ns a read).

    @staticmethod
    def make(value: np.ndarray | None = None, *, graph=None, ssa=None, spec: Spec | None = None,
             const: np.ndarray | None = None, name: str = "") -> Tensor:
        """An eager tensor over `value`, or a symbolic one of `graph` (`ssa`, `spec`, `const`)."""
        self = Tensor()
        self._value = None if value is None else np.asarray(value)
        if self._value is not None and not self._value.flags.writeable and self._value.base is not None:
            self._value = self._value.copy()  # a broadcast view (builder_eager): users may write .numpy()
        self._graph = graph
        self._ssa = ssa
        self._spec = spec if spec is not None else Spec(self._value.shape, self._value.dtype)
        self._const = const if const is not None else self._value
        self._name = name
        if self._value is not None:
            self._dt = self._value.dtype
        return self

    # ---- metadata ----------------------------------------------------------
    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._spec.shape)

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.as_dtype(self._spec.dtype)

    @property
    def ndim(self) -> int:
        return len(self._spec.shape)

    @property
    def is_symbolic(self) -> bool:
        return self._value is None

    @property
    def name(self) -> str:
        return self._name

    def numpy(self) -> np.ndarray:
        if self._value is None:
            raise AttributeError(
                f"'SymbolicTensor' object has no attribute 'numpy' ({self!r}): numpy() is only available "
                "when eager execution is enabled, not while tracing a tf.function")
        return self._value.copy() if self._value.ndim else self._value[()]

    def __array__(self, dtype=None, copy=None):
        arr = np.asarray(self._eager_value("converted to a numpy array"))
        return arr.astype(dtype) if dtype is not None else arr

    def _eager_value(self, what: str) -> np.ndarray:
        if self._value is None:
            raise TypeError(f"A symbolic tf.Tensor ({self!r}) cannot be {what}: its value is only known "
                            "when the tf.function runs.")
        return self._value

    # ---- printing ------------------------------------------------------------
    def __repr__(self) -> str:
        if self._value is None:
            return f'<tf.Tensor \'{self._name or "tensor"}:0\' shape={self.shape} dtype={self.dtype.name}>'
        body = np.array2string(self._value, separator=", ", prefix="array(") if self._value.ndim else repr(
            self._value[()].item() if self._value.dtype != object else self._value[()])
        if self._value.ndim:
            body = "\n" + np.array_repr(self._value)
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={body}>"

    def __str__(self) -> str:
        if self._value is None:
            return f'Tensor("{self._name or "tensor"}:0", shape={self.shape}, dtype={self.dtype.name})'
        text = np.array2string(self._value) if self._value.ndim else str(self._value[()])
        return f"tf.Tensor({('' if self._value.ndim < 2 else chr(10))}{text}, shape={self.shape}, " \
               f"dtype={self.dtype.name})"

    # ---- Python protocol -------------------------------------------------------
    def __len__(self) -> int:
        if not self._spec.shape:
            raise TypeError("len() of unsized object")
        return self._spec.shape[0]

    def __bool__(self) -> bool:
        value = self._eager_value("used as a Python bool")
        if value.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return bool(value.reshape(()))

    def __int__(self) -> int:
        return int(self._eager_value("converted to int"))

    def __float__(self) -> float:
        return float(self._eager_value("converted to float"))

    def __index__(self) -> int:
        return int(self._eager_value("used as an index"))

    def __iter__(self):
        if not self._spec.shape:
            raise TypeError("Cannot iterate over a scalar tensor.")
        api = API[0]
        return iter(api.unstack(self))

    def __hash__(self) -> int:
        return id(self)

    def __getitem__(self, key):
        api = API[0]
        return api.getitem(self, key)

    def __eq__(self, other):  # TF2: elementwise
        api = API[0]
        if other is None:
            return False
        return api.equal(self, other)

    def __ne__(self, other):
        api = API[0]
        if other is None:
            return True
        return api.not_equal(self, other)


def eager_tensor(value: np.ndarray, spec: Spec) -> Tensor:
    """An eager Tensor over `value`, an ndarray the caller hands over, whose
    `spec` is known already: skips `np.asarray` and building a Spec (the
    cached-call path of tf.function wraps every output this way)."""
    t = Tensor()
    t._value = value
    t._dt = value.dtype
    t._spec = spec
    return t


def _binary(api_name: str, reverse: bool = False):
    def method(self, other):
        api = API[0]
        fn = getattr(api, api_name)
        return fn(other, self) if reverse else fn(self, other)

    method.__name__ = api_name
    return method


def _unary(api_name: str):
    def method(self):
        api = API[0]
        return getattr(api, api_name)(self)

    return method


for _dunder, _api in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "truediv"),
                      ("floordiv", "floordiv"), ("mod", "floormod"), ("pow", "pow"), ("matmul", "matmul"),
                      ("and", "logical_and_or_bitwise"), ("or", "logical_or_or_bitwise"),
                      ("xor", "logical_xor_or_bitwise")):
    setattr(Tensor, f"__{_dunder}__", _binary(_api))
    setattr(Tensor, f"__r{_dunder}__", _binary(_api, reverse=True))
for _dunder, _api in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")):
    setattr(Tensor, f"__{_dunder}__", _binary(_api))
for _dunder, _api in (("neg", "negative"), ("abs", "abs"), ("invert", "invert_or_not")):
    setattr(Tensor, f"__{_dunder}__", _unary(_api))


# -- conversion ---------------------------------------------------------------

def _default_array(value: Any) -> np.ndarray:
    """numpy array with TF's default dtypes for Python values (float32, int32)."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        arr = np.asarray(value)  # numpy bytes/str arrays are string tensors (object arrays of bytes)
        return arr if arr.dtype.kind not in "US" else np.vectorize(
            lambda s: s.encode() if isinstance(s, str) else bytes(s), otypes=[object])(arr).reshape(arr.shape)
    if isinstance(value, (bytes, str)):
        return np.array(value.encode() if isinstance(value, str) else value, dtype=object)
    arr = np.asarray(value)
    if arr.dtype == np.float64:
        with np.errstate(over="ignore"):  # TF: 1e39 is inf, silently
            return arr.astype(np.float32)
    if arr.dtype.kind in "iu" and arr.dtype.itemsize == 8:
        if arr.size == 0 or (arr.min() >= np.iinfo(np.int32).min and arr.max() <= np.iinfo(np.int32).max):
            return arr.astype(np.int32)
        return arr.astype(np.int64)
    if arr.dtype == np.complex128 and not isinstance(value, np.ndarray):
        return arr.astype(np.complex128)
    if arr.dtype.kind in "US":
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(arr)
    return arr


def to_array(value: Any, dtype=None) -> np.ndarray:
    """A Python/numpy value as a numpy array of `dtype` (TF's conversion rules)."""
    check_convertible(value, None if dtype is None else dtypes.np_dtype(dtype))
    if dtype is None:
        return _default_array(value)
    dt = dtypes.np_dtype(dtype)
    arr = np.asarray(value) if not isinstance(value, (list, tuple)) else np.array(value)
    if dt.kind in "iub" and arr.dtype.kind == "f" and not isinstance(value, np.ndarray):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.trunc(arr)) or dt.kind == "b":
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtypes.dtype_name(dt)}")
    if dt == np.bool_ and arr.dtype != np.bool_ and not isinstance(value, np.ndarray):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype bool")
    if dt.kind in "iu" and arr.dtype.kind in "iu" and arr.size:
        info = np.iinfo(dt)
        if arr.min() < info.min or arr.max() > info.max:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtypes.dtype_name(dt)}")
    with np.errstate(over="ignore"):  # TF: 70000.0 as float16 is inf, silently
        return arr.astype(dt)
