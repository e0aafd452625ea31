"""`tf.TensorArray` (minimal): see the class docstring; its loop-variable protocol (`_as_loop_leaf` /
`_from_loop_leaf`) is what frontend/control_flow.py flattens a TensorArray loop variable with."""

from __future__ import annotations

import numpy as np

from minixla.frontend import control_flow as _cf
from minixla.frontend.api.control_flow import OutOfRangeError, _read, _write, no_op
from minixla.frontend.dtypes import as_dtype
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.graph import current_graph
from minixla.frontend.tensor import Tensor


# -- tf.TensorArray ---------------------------------------------------------------------------------------


class TensorArray:
    """`tf.TensorArray` (minimal): a list of tensors eagerly and while indices are static; a fixed-size
    buffer `[size, *element_shape]` written with `XlaDynamicUpdateSlice` once an index is a run-time value
    or the array is a `tf.while_loop` variable (then `size` and the element shape must be known)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        self._dtype = as_dtype(dtype)
        if size is not None and not isinstance(size, int):
            s = size._variable_value() if hasattr(size, "_variable_value") else size
            size = int(np.asarray(s.numpy() if s._graph is None else s._const).reshape(())) if isinstance(
                s, Tensor) and (s._graph is None or s._const is not None) else size
        if size is None and not dynamic_size:
            raise ValueError("Size must be provided if handle is not provided")
        self._size = size
        self._dynamic_size = bool(dynamic_size)
        self._element_shape = None if element_shape is None else tuple(
            getattr(element_shape, "as_list", lambda: list(element_shape))())
        self._items: list | None = [None] * (size if isinstance(size, int) else 0)
        self._buf: Tensor | None = None

    # ---- properties ----
    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self):
        return self._dynamic_size

    @property
    def element_shape(self):
        from minixla.frontend.tensor import TensorShape

        return TensorShape(None if self._element_shape is None else list(self._element_shape))

    def _copy(self, items=None, buf=None):
        ta = TensorArray.__new__(TensorArray)
        ta.__dict__.update(self.__dict__)
        ta._items, ta._buf = items, buf
        return ta

    @staticmethod
    def _static(index):
        if isinstance(index, (int, np.integer)):
            return int(index)
        if hasattr(index, "_variable_value"):
            index = index._variable_value()
        if isinstance(index, Tensor):
            if index._graph is None:
                return int(np.asarray(index.numpy()).reshape(()))
            if index._const is not None:
                return int(np.asarray(index._const).reshape(()))
        return None

    def _value(self, value):
        from minixla.frontend.api.core import cast, convert_to_tensor

        t = convert_to_tensor(value._variable_value() if hasattr(value, "_variable_value") else value)
        if t.dtype != self._dtype:
            raise InvalidArgumentError(f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                                       f"{t.dtype.name} ")
        t = cast(t, self._dtype) if t.dtype != self._dtype else t
        shape = tuple(t._spec.shape)
        if self._element_shape is not None and None not in self._element_shape and shape != self._element_shape:
            raise ValueError(f"Incompatible shape for value ({list(shape)}), expected "
                             f"({list(self._element_shape)})")
        self._element_shape = shape
        return t

    def _to_buffer(self) -> Tensor:
        if self._buf is not None:
            return self._buf
        from minixla.frontend.api.core import stack, zeros

        if not isinstance(self._size, int) or self._element_shape is None or None in self._element_shape:
            raise ValueError("minixla: a TensorArray used with run-time indices or as a loop variable inside "
                             "tf.function needs a static size and a known element_shape (XLA needs static "
                             "shapes)")
        z = zeros(list(self._element_shape), self._dtype)
        return stack([z if x is None else x for x in self._items]) if self._items else zeros(
            [0] + list(self._element_shape), self._dtype)

    # ---- loop-variable protocol (frontend/control_flow.py) ----
    def _as_loop_leaf(self) -> Tensor:
        return self._to_buffer()

    def _from_loop_leaf(self, t: Tensor) -> TensorArray:
        return self._copy(None, t)

    # ---- ops ----
    def size(self, name=None):
        from minixla.frontend.api.core import constant

        if self._buf is not None:
            return constant(self._buf._spec.shape[0], "int32")
        return constant(len(self._items), "int32")

    def write(self, index, value, name=None):
        value = self._value(value)
        i = self._static(index)
        if self._buf is None and i is not None:
            items = list(self._items)
            if i < 0 or (i >= len(items) and not self._dynamic_size):
                raise OutOfRangeError(f"Tried to write to index {i} but array is not resizeable and size "
                                      f"is: {len(items)} ")
            items += [None] * (i + 1 - len(items))
            if items[i] is not None and current_graph() is None:
                raise InvalidArgumentError(f"Could not write to TensorArray index {i} because it has already "
                                           "been written to.")
            items[i] = value
            return self._copy(items, None)
        from minixla.frontend.api.core import convert_to_tensor

        return self._copy(None, _write(self._to_buffer(), convert_to_tensor(index, "int32"), value))

    def read(self, index, name=None):
        i = self._static(index)
        if self._buf is None and i is not None:
            if not 0 <= i < len(self._items):
                raise OutOfRangeError(f"Tried to read from index {i} but array size is: {len(self._items)} ")
            if self._items[i] is None:
                from minixla.frontend.api.core import zeros

                if self._element_shape is None:
                    raise ValueError(f"Could not read from TensorArray index {i}: never written")
                return zeros(list(self._element_shape), self._dtype)
            return self._items[i]
        from minixla.frontend.api.core import convert_to_tensor

        return _read(self._to_buffer(), convert_to_tensor(index, "int32"))

    def stack(self, name=None):
        from minixla.frontend.api.core import stack, zeros

        if self._buf is not None:
            return self._buf
        if not self._items:
            if self._element_shape is None:
                raise ValueError("TensorArray has size zero, but element shape <unknown> is not fully defined. "
                                 "Currently only static shapes are supported when packing zero-size "
                                 "TensorArrays.")
            return zeros([0] + list(self._element_shape), self._dtype)
        return self._to_buffer() if any(x is None for x in self._items) else stack(self._items)

    def gather(self, indices, name=None):
        from minixla.frontend.api.core import convert_to_tensor
        from minixla.frontend.api.indexing import gather

        return gather(self.stack(), convert_to_tensor(indices, "int32"))

    def unstack(self, value, name=None):
        from minixla.frontend.api.core import convert_to_tensor, unstack

        t = self._value_stack(convert_to_tensor(value))
        n = t._spec.shape[0]
        if isinstance(self._size, int) and not self._dynamic_size and n > self._size and self._items is not None:
            raise OutOfRangeError(f"Tried to write to index {n - 1} but array is not resizeable and size "
                                  f"is: {self._size} ")
        self._element_shape = tuple(t._spec.shape[1:])
        return self._copy(list(unstack(t)) if n else [], None)

    def scatter(self, indices, value, name=None):
        ta = self
        from minixla.frontend.api.core import convert_to_tensor

        value = convert_to_tensor(value)
        for k, i in enumerate(np.asarray(convert_to_tensor(indices, "int32").numpy()).reshape(-1)):
            ta = ta.write(int(i), value[k])
        return ta

    def _value_stack(self, t):
        if t.dtype != self._dtype:
            raise InvalidArgumentError(f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                                       f"{t.dtype.name} ")
        return t

    def concat(self, name=None):
        from minixla.frontend.api.core import concat

        return concat(list(self._items), 0) if self._buf is None else self._reshape_concat()

    def _reshape_concat(self):
        from minixla.frontend.api.core import reshape

        s = list(self._buf._spec.shape)
        return reshape(self._buf, [s[0] * s[1]] + s[2:])

    def identity(self):
        return self._copy(self._items, self._buf)

    def close(self, name=None):
        return no_op()


# -- element shapes of TensorArray loop variables ---------------------------------------------------------

class _Probe(TensorArray):
    """A TensorArray inside a shape-discovery trace of a loop body: `write` records the element shape on
    the loop variable it stands for; reads give zeros of that shape."""

    def _copy(self, items=None, buf=None):
        return self

    def write(self, index, value, name=None):
        t = self._value(value)
        self._origin._element_shape = self._element_shape = tuple(t._spec.shape)
        return self

    def read(self, index, name=None):
        from minixla.frontend.api.core import zeros

        if self._element_shape is None:
            raise ValueError("minixla: a TensorArray loop variable is read before any write in the loop body; "
                             "give it an element_shape")
        return zeros(list(self._element_shape), self._dtype)

    def _as_loop_leaf(self):
        raise ValueError("minixla: nested loops over a TensorArray without element_shape are not supported; "
                         "give it an element_shape")


def infer_loop_element_shapes(graph, body, loop_vars) -> None:
    """Before a traced `tf.while_loop`: TensorArray loop variables without a known element shape (the
    common `tf.TensorArray(dtype, size=n)` written in the body) learn it from one throwaway trace of
    `body` (XLA needs the buffer's shape when the loop starts)."""
    from minixla.frontend import control_flow as cf
    from minixla.frontend.graph import Graph, tracing

    found = []

    def scan(v):
        if isinstance(v, TensorArray):
            if v._buf is None and (v._element_shape is None or None in v._element_shape):
                found.append(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                scan(x)
        elif isinstance(v, dict):
            for x in v.values():
                scan(x)

    scan(list(loop_vars))
    if not found:
        return
    g = Graph("tensor_array_shape_probe", parent=graph)

    def probe(v):
        if isinstance(v, TensorArray):
            if v in found:
                p = _Probe.__new__(_Probe)
                p.__dict__.update(v.__dict__)
                p._origin = v
                return p
            return v
        if isinstance(v, (list, tuple)):
            return type(v)(probe(x) for x in v) if not hasattr(v, "_fields") else type(v)(*[probe(x) for x in v])
        if isinstance(v, dict):
            return {k: probe(x) for k, x in v.items()}
        t = cf._as_graph_tensor(graph, v)
        return g.placeholder(t._spec, "probe")

    args = probe(list(loop_vars))
    with tracing(g):
        body(*args)


_cf.LOOP_SHAPE_INFERENCE[0] = infer_loop_element_shapes
