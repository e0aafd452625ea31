"""tf.raw_ops' TensorArray (TensorArrayV3, ...ReadV3, ...WriteV3, ...), TensorList (EmptyTensorList,
TensorListSetItem, ...) and Stack (StackV2, StackPushV2, ...) ops on handles.

Each container is a buffer `[n, *element_shape]` (frontend/ops/raw_container_ops.py has the rules); this
module keeps what TF keeps in its resource manager: a TensorArray handle holds dtype, size and element
shape, and its `flow` tensor is the buffer itself (so a flow threaded through `tf.while_loop` carries the
data; the handle also remembers its latest flow, so writes whose flow is dropped are still seen, as with
TF's resource). A TensorList is a variant value wrapping its buffer; a Stack handle holds its buffer and
top. The buffer is made once the element shape is known (given, or from the first write), which under
jit_compile=True must be static, as XLA requires.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.dtypes import as_dtype
from minixla.frontend.errors import InvalidArgumentError, UnimplementedError, at_user_line
from minixla.frontend.execute import execute
from minixla.frontend.graph import current_graph
from minixla.frontend.ops import raw_container_ops  # noqa: F401  (registers the buffer rules)
from minixla.frontend.tensor import Tensor, TensorShape


def _error(op: str, message: str) -> InvalidArgumentError:
    return InvalidArgumentError(at_user_line(f"{message} [Op:{op}]"))


def _tensor(x, dtype=None) -> Tensor:
    from minixla.frontend.api.core import convert_to_tensor

    if isinstance(x, Flow):
        x = x._marker
    return convert_to_tensor(x._variable_value() if hasattr(x, "_variable_value") else x, dtype)


def _static_int(x) -> int | None:
    """x's value when known at trace time (Python, eager, or a traced constant), else None."""
    if isinstance(x, (int, np.integer)):
        return int(x)
    t = _tensor(x)
    value = t._value if t._graph is None else t._const
    return None if value is None else int(np.asarray(value).reshape(()))


def _const(op: str, x, what: str) -> np.ndarray:
    """A compile-time constant argument (lengths) as numpy."""
    t = _tensor(x)
    value = t._value if t._graph is None else t._const
    if value is None:
        raise _error(op, f"{what} must be a compile-time constant under XLA")
    return np.asarray(value)


def _shape_spec(x) -> tuple | None:
    """An element_shape argument (list, TensorShape, tensor; -1 / None for unknown) as a tuple with None for
    unknown dimensions, or None for an unknown rank."""
    if x is None:
        return None
    if isinstance(x, TensorShape):
        return None if x.rank is None else tuple(x.as_list())
    if isinstance(x, Tensor):
        x = x._value if x._graph is None else x._const
        if x is None:
            return None
    arr = np.asarray(x)
    if arr.ndim == 0:
        return None if int(arr) == -1 else (int(arr),)
    return tuple(None if d is None or int(d) < 0 else int(d) for d in arr.reshape(-1).tolist())


def _known(shape) -> bool:
    return shape is not None and None not in shape


def _merge(op: str, a, b):
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b) or any(x is not None and y is not None and x != y for x, y in zip(a, b)):
        raise _error(op, f"Incompatible shapes during merge: {list(a)} vs. {list(b)}")
    return tuple(x if x is not None else y for x, y in zip(a, b))


def _shape_arg(shape) -> np.ndarray:
    return np.array(-1 if shape is None else [-1 if d is None else d for d in shape], np.int32)


# -- TensorArray ---------------------------------------------------------------------------------------------

class TensorArrayHandle:
    """TF's TensorArray resource: dtype, size, element shape; `_flow` the latest buffer written."""

    def __init__(self, dtype, size: int, element_shape, dynamic_size: bool):
        self.element_dtype, self.size, self.element_shape, self.dynamic_size = dtype, size, element_shape, dynamic_size
        self._flow: Tensor | None = None
        self._grads: dict = {}

    shape = property(lambda self: TensorShape([2]))
    dtype = property(lambda self: dtypes.resource)

    def __repr__(self) -> str:
        return f"<tf.Tensor: shape=(2,), dtype=resource, value=<TensorArray of {self.size} {self.element_dtype.name}>>"


def _handle(op: str, h, kind=TensorArrayHandle):
    if not isinstance(h, kind):
        raise _error(op, f"expected a {kind.__name__[:-6]} handle (from tf.raw_ops."
                         f"{'TensorArrayV3' if kind is TensorArrayHandle else 'StackV2'}), got {type(h).__name__}")
    return h


def _buffer(op: str, h: TensorArrayHandle, flow_in, element_shape=None, record: bool = True) -> Tensor:
    """The buffer an op works on: the handle's latest flow in this graph (TF's resource semantics), else the
    flow passed in (a loop variable); made (zeros) once the element shape is known (and remembered as the
    latest, unless it only enters a loop)."""
    flow = h._flow if h._flow is not None and h._flow._graph is current_graph() else _tensor(flow_in)
    if flow._spec.shape and len(flow._spec.shape) >= 1 and flow._spec.shape[0] == h.size:
        return flow
    h.element_shape = _merge(op, h.element_shape, element_shape)
    if not _known(h.element_shape):
        raise _error(op, f"TensorArray has size {h.size} and an unknown element shape: write it first or give "
                         "element_shape (XLA needs it)")
    buf = execute("TensorArrayV3", [np.int32(h.size)], {"dtype": h.element_dtype,
                                                         "element_shape": list(h.element_shape)})
    if record:
        h._flow = buf
    return buf


def _like(flow_in, h: TensorArrayHandle):
    """A write's flow_out: a Flow for a Flow (loop bodies return what they were given), else the buffer."""
    return Flow(h, h._flow) if isinstance(flow_in, Flow) else h._flow


def _check_index(op: str, h: TensorArrayHandle, index, writing: bool) -> None:
    i = _static_int(index)
    if i is None:
        return
    if writing and i >= h.size and not h.dynamic_size or i < 0:
        raise _error(op, f"Tried to write to index {i} but array is not resizeable and size is: {h.size}")
    if not writing and not 0 <= i < h.size:
        raise _error(op, f"Tried to read from index {i} but array size is: {h.size}")


def _grow(op: str, h: TensorArrayHandle, flow: Tensor, index) -> Tensor:
    """A dynamic_size array written past its end (static index): the buffer grows with zero rows."""
    i = _static_int(index)
    if not h.dynamic_size or i is None or i < h.size:
        return flow
    from minixla.frontend.api.core import concat, zeros

    extra = zeros([i + 1 - h.size] + list(flow._spec.shape[1:]), h.element_dtype)
    h.size = i + 1
    return concat([flow, extra], 0)


def tensor_array_v3(size, dtype, element_shape=None, dynamic_size=False, clear_after_read=True,
                    identical_element_shapes=False, tensor_array_name=""):
    from minixla.frontend.api.core import constant

    n = _static_int(size)
    if n is None:
        raise _error("TensorArrayV3", "TensorArray size must be a compile-time constant under XLA")
    if n < 0:
        raise _error("TensorArrayV3", f"Size should be >= 0, got {n}")
    h = TensorArrayHandle(as_dtype(dtype), n, _shape_spec(element_shape), bool(dynamic_size))
    if _known(h.element_shape):
        return h, _buffer("TensorArrayV3", h, constant(0.0))
    # TF's flow, a scalar, until the first write tells the element shape; traced, one that a while loop
    # can carry (the loop's first write, found by a probe trace of its body, gives the buffer's shape)
    return h, (constant(0.0) if current_graph() is None else Flow(h, constant(0.0)))


class Flow:
    """The flow of a traced TensorArray whose element shape was not given. As a `tf.while_loop` variable
    (frontend/control_flow.py's `_as_loop_leaf` protocol) it is the array's buffer, made once
    `probe_loop_element_shapes` has traced the body's first write; the writes of a Flow give a Flow, so
    the body returns what it was given. The raw TensorArray ops take it as any flow (TF's flow is a float
    scalar; this one converts only through those ops)."""

    def __init__(self, handle: TensorArrayHandle, marker: Tensor):
        self._handle, self._marker = handle, marker
        self._entering: Tensor | None = None

    shape = property(lambda self: TensorShape([]))

    def _as_loop_leaf(self) -> Tensor:
        if self._entering is None:  # once: the loop flattens its variables more than once
            self._entering = _buffer("While", self._handle, self._marker, record=False)
        return self._entering

    def _from_loop_leaf(self, t: Tensor) -> Flow:
        return Flow(self._handle, t)

    def __repr__(self) -> str:
        return f"<tf.Tensor 'TensorArrayV3:1' shape=() dtype=float32 (flow of {self._handle!r})>"


def _pending(v, found: list) -> None:
    if isinstance(v, Flow):
        if not _known(v._handle.element_shape):
            found.append(v)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _pending(x, found)
    elif isinstance(v, dict):
        for x in v.values():
            _pending(x, found)


def probe_loop_element_shapes(graph, body, loop_vars) -> None:
    """Before a traced `tf.while_loop` carries the flow of a TensorArray of unknown element shape: one
    throwaway trace of `body` (its writes record the element shape on the handle), as tf2xla runs a loop
    body once to learn its resources' shapes."""
    from minixla.frontend import control_flow as cf
    from minixla.frontend.graph import Graph, tracing

    found: list = []
    _pending(list(loop_vars), found)
    if not found:
        return
    g = Graph("tensor_array_flow_probe", parent=graph)

    def probe(v):
        if hasattr(v, "_as_loop_leaf"):  # a Flow (its marker) or a tf.TensorArray, as they are
            return v
        if isinstance(v, (list, tuple)):
            return type(v)(probe(x) for x in v) if not hasattr(v, "_fields") else type(v)(*[probe(x) for x in v])
        if isinstance(v, dict):
            return {k: probe(x) for k, x in v.items()}
        return g.placeholder(cf._as_graph_tensor(graph, v)._spec, "probe")

    args = probe(list(loop_vars))
    with tracing(g):
        body(*args)
    for v in found:  # the probe's buffers belong to the throwaway graph
        v._handle._flow = None


def tensor_array_write_v3(handle, index, value, flow_in):
    op = "TensorArrayWriteV3"
    h, value = _handle(op, handle), _tensor(value)
    _check_index(op, h, index, writing=True)
    flow = _grow(op, h, _buffer(op, h, flow_in, tuple(value._spec.shape)), index)
    h._flow = execute(op, [flow, _tensor(index, "int32"), value])
    return _like(flow_in, h)


def tensor_array_read_v3(handle, index, flow_in, dtype):
    op = "TensorArrayReadV3"
    h = _handle(op, handle)
    _check_index(op, h, index, writing=False)
    return execute(op, [_buffer(op, h, flow_in), _tensor(index, "int32")], {"dtype": dtype})


def tensor_array_gather_v3(handle, indices, flow_in, dtype, element_shape=None):
    op = "TensorArrayGatherV3"
    h = _handle(op, handle)
    return execute(op, [_buffer(op, h, flow_in, _shape_spec(element_shape)), _tensor(indices, "int32")],
                   {"dtype": dtype})


def tensor_array_scatter_v3(handle, indices, value, flow_in):
    op = "TensorArrayScatterV3"
    h, value = _handle(op, handle), _tensor(value)
    h._flow = execute(op, [_buffer(op, h, flow_in, tuple(value._spec.shape[1:])), _tensor(indices, "int32"), value])
    return _like(flow_in, h)


def tensor_array_concat_v3(handle, flow_in, dtype, element_shape_except0=None):
    op = "TensorArrayConcatV3"
    return execute(op, [_buffer(op, _handle(op, handle), flow_in)], {"dtype": dtype})


def tensor_array_split_v3(handle, value, lengths, flow_in):
    op = "TensorArraySplitV3"
    h, value = _handle(op, handle), _tensor(value)
    ls = _const(op, lengths, "lengths")
    if ls.size > h.size and not h.dynamic_size:
        raise _error(op, f"Tried to split into {ls.size} elements but array is not resizeable and size is: {h.size}")
    h.size = max(h.size, int(ls.size))
    out = execute(op, [value, ls.astype(np.int64)])
    h.element_shape = _merge(op, h.element_shape, tuple(out._spec.shape[1:]))
    if out._spec.shape[0] < h.size:  # rows past the split stay unwritten (zeros)
        from minixla.frontend.api.core import concat, zeros

        out = concat([out, zeros([h.size - out._spec.shape[0]] + list(out._spec.shape[1:]), h.element_dtype)], 0)
    h._flow = out
    return _like(flow_in, h)


def tensor_array_size_v3(handle, flow_in):
    from minixla.frontend.api.core import constant

    h = _handle("TensorArraySizeV3", handle)
    if not _known(h.element_shape):
        return constant(h.size, "int32")
    return execute("TensorArraySizeV3", [_buffer("TensorArraySizeV3", h, flow_in)])


def tensor_array_close_v3(handle):
    h = _handle("TensorArrayCloseV3", handle)
    if h._flow is not None and h._flow._graph is current_graph():
        execute("TensorArrayCloseV3", [h._flow])


def tensor_array_grad_v3(handle, flow_in, source):
    op = "TensorArrayGradV3"
    h = _handle(op, handle)
    if source not in h._grads:
        g = TensorArrayHandle(h.element_dtype, h.size, h.element_shape, h.dynamic_size)
        g._flow = execute(op, [_buffer(op, h, flow_in)], {"source": source})
        h._grads[source] = g
    g = h._grads[source]
    return g, g._flow


# -- Stack ---------------------------------------------------------------------------------------------------

class StackHandle:
    """TF's Stack resource: a buffer `[capacity, *element_shape]` and its top (a run-time int32 scalar, and
    the count known while tracing, for TF's overflow / empty errors)."""

    def __init__(self, dtype, max_size: int, name: str, top: Tensor):
        self.element_dtype, self.max_size, self.name, self.top = dtype, max_size, name, top
        self.buffer: Tensor | None = None
        self.count = 0

    shape = property(lambda self: TensorShape([2]))
    dtype = property(lambda self: dtypes.resource)

    def __repr__(self) -> str:
        return f"<tf.Tensor: shape=(2,), dtype=resource, value=<Stack {self.name!r} of {self.element_dtype.name}>>"


def stack_v2(max_size, elem_type, stack_name=""):
    n = _static_int(max_size)
    if n is None:
        raise _error("StackV2", "Stack max_size must be a compile-time constant under XLA")
    top = execute("StackV2", [np.int32(n)], {"elem_type": elem_type, "stack_name": stack_name})
    return StackHandle(as_dtype(elem_type), n, stack_name, top)


def _same_graph(op: str, h: StackHandle) -> None:
    if h.top._graph is not current_graph():
        raise UnimplementedError(at_user_line(
            f"{op}: minixla keeps a Stack within the function (or eager context) that made it; this one was made "
            "in another"))


def stack_push_v2(handle, elem, swap_memory=False):
    from minixla.frontend.api.core import concat, zeros

    op = "StackPushV2"
    h, elem = _handle(op, handle, StackHandle), _tensor(elem)
    _same_graph(op, h)
    if h.max_size > 0 and h.count >= h.max_size:
        raise _error(op, f"Stack[{h.name}] overflowed its max_size ({h.max_size})")
    shape = list(elem._spec.shape)
    if h.buffer is None:
        h.buffer = zeros([h.max_size if h.max_size > 0 else 1] + shape, h.element_dtype)
    elif h.buffer._spec.shape[0] <= h.count:  # an unbounded stack (max_size <= 0) doubles
        h.buffer = concat([h.buffer, zeros(list(h.buffer._spec.shape), h.element_dtype)], 0)
    h.buffer, h.top, out = execute(op, [h.buffer, h.top, elem], {"swap_memory": swap_memory})
    h.count += 1
    return out


def stack_pop_v2(handle, elem_type):
    op = "StackPopV2"
    h = _handle(op, handle, StackHandle)
    _same_graph(op, h)
    if h.count == 0 or h.buffer is None:
        raise _error(op, f"Stack[{h.name}] is empty.")
    if as_dtype(elem_type) != h.element_dtype:
        raise _error(op, f"Stack[{h.name}] holds {h.element_dtype.name}, popped as {as_dtype(elem_type).name}")
    out, h.top = execute(op, [h.buffer, h.top], {"elem_type": elem_type})
    h.count -= 1
    return out


def stack_close_v2(handle):
    h = _handle("StackCloseV2", handle, StackHandle)
    if h.top._graph is current_graph():
        execute("StackCloseV2", [h.top])


CALLS = {
    "TensorArrayV3": tensor_array_v3, "TensorArrayWriteV3": tensor_array_write_v3,
    "TensorArrayReadV3": tensor_array_read_v3, "TensorArrayGatherV3": tensor_array_gather_v3,
    "TensorArrayScatterV3": tensor_array_scatter_v3, "TensorArrayConcatV3": tensor_array_concat_v3,
    "TensorArraySplitV3": tensor_array_split_v3, "TensorArraySizeV3": tensor_array_size_v3,
    "TensorArrayCloseV3": tensor_array_close_v3, "TensorArrayGradV3": tensor_array_grad_v3,
    "StackV2": stack_v2, "StackPushV2": stack_push_v2, "StackPopV2": stack_pop_v2, "StackCloseV2": stack_close_v2,
}


def install(tf) -> None:
    """Route the TensorArray and Stack raw ops through their handles; loops learn the element shapes of
    the TensorArray flows they carry (after tf.TensorArray's own probe, frontend/api/tensor_array.py)."""
    from minixla.frontend import control_flow as cf
    from minixla.frontend.raw_ops import STATE_CALLS

    STATE_CALLS.update(CALLS)
    before = cf.LOOP_SHAPE_INFERENCE[0]
    if getattr(before, "__name__", "") != "both":
        def both(graph, body, loop_vars):
            if before is not None:
                before(graph, body, loop_vars)
            probe_loop_element_shapes(graph, body, loop_vars)

        cf.LOOP_SHAPE_INFERENCE[0] = both
