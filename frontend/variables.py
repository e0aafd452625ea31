"""`tf.Variable`: mutable state that `tf.function` threads through its graph.

Eagerly a Variable holds a numpy array. Inside a trace, the first read
captures it as an extra function argument (TF's resource input) and an
assignment records the new value as an extra function result that the call
writes back (XLA's input/output aliasing of resource variables).
"""

from __future__ import annotations

import itertools

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend import eager_fast_path as _fast
from minixla.frontend.autodiff import tape as _tape
from minixla.frontend.builder import Spec
from minixla.frontend.errors import InvalidArgumentError, at_user_line
from minixla.frontend.graph import current_graph
from minixla.frontend.tensor import Tensor, TensorShape

_ids = itertools.count()


class Variable:
    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, shape=None, **_):
        from minixla.frontend.api.core import convert_to_tensor

        if callable(initial_value):
            initial_value = initial_value()
        t = convert_to_tensor(initial_value, dtype)
        if t.is_symbolic:
            raise ValueError("tf.Variable created inside a tf.function needs an eager initial value")
        self._value = np.array(t._value, copy=True)
        self._dtype = dtypes.as_dtype(self._value.dtype)
        self.trainable = trainable
        n = next(_ids)
        self._name = name or ("Variable" if n == 0 else f"Variable_{n}")

    # ---- reading ------------------------------------------------------------
    def _variable_value(self) -> Tensor:
        graph = current_graph()
        if graph is not None and graph.parent is not None:  # inside a tf.cond branch / while body:
            from minixla.frontend.graph import tracing

            with tracing(graph.parent):  # read in the enclosing graph, capture the value
                outer = self._variable_value()
            return graph.capture(outer)
        t = self._read()
        return _tape.on_variable_read(self, t) if _tape.ACTIVE else t

    def _read(self) -> Tensor:
        graph = current_graph()
        if graph is None:
            return Tensor.make(np.array(self._value, copy=True))
        if self in graph.updates:
            return graph.updates[self]
        if self not in graph.captures:
            graph.captures[self] = graph.placeholder(Spec(self._value.shape, self._value.dtype), self._name)
        return graph.captures[self]

    def read_value(self) -> Tensor:
        from minixla.frontend.api.core import identity

        return identity(self._variable_value())

    value = read_value

    def numpy(self) -> np.ndarray:
        return np.array(self._value, copy=True)

    def __array__(self, dtype=None, copy=None):
        return self.numpy() if dtype is None else self.numpy().astype(dtype)

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    @property
    def handle(self):
        """TF's resource handle, what tf.raw_ops' variable ops take (frontend/api/raw_state_variables.py)."""
        from minixla.frontend.api.raw_state_variables import ResourceHandle

        return ResourceHandle(self)

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def name(self) -> str:
        return f"{self._name}:0"

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other):
        from minixla.frontend.api.core import equal

        return equal(self._variable_value(), other)

    # ---- writing ------------------------------------------------------------
    def _check(self, t: Tensor) -> None:
        if tuple(t._spec.shape) != self._value.shape:
            raise InvalidArgumentError(at_user_line(
                f"Cannot assign value to variable ' {self._name}:0': Shape mismatch.The variable shape "
                f"{self.shape}, and the assigned value shape {t.shape} are incompatible."))

    def assign(self, value, use_locking=None, name=None, read_value=True):
        from minixla.frontend.api.core import convert_to_tensor

        t = convert_to_tensor(value, self._dtype)
        self._check(t)
        graph = current_graph()
        if graph is None:
            self._value = np.array(t._value, copy=True)
        elif graph.parent is not None:
            raise NotImplementedError(
                f"assigning tf.Variable '{self._name}' inside a tf.cond branch or tf.while_loop body is not "
                "supported by minixla: return the new value from the branch/body and assign it outside")
        else:
            self._read()  # capture first: the call must pass the old value in
            graph.updates[self] = t
        return self if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        from minixla.frontend.api.core import add

        return self.assign(add(self._variable_value(), delta), read_value=read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        from minixla.frontend.api.core import subtract

        return self.assign(subtract(self._variable_value(), delta), read_value=read_value)

    def __repr__(self) -> str:
        return (f"<tf.Variable '{self._name}:0' shape={self.shape} dtype={self._dtype.name}, "
                f"numpy={np.array_repr(self._value)}>")


def _forward(name: str):
    def method(self, *args):
        return getattr(self._variable_value(), name)(*args)

    method.__name__ = name
    return method


for _n in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
           "__floordiv__", "__mod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__neg__", "__abs__",
           "__lt__", "__le__", "__gt__", "__ge__", "__getitem__", "__ne__"):
    setattr(Variable, _n, _forward(_n))


_fast.EAGER_TYPES.append(Variable)  # eager ops read a Variable's array in place (their results are new arrays)
