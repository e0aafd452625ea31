"""Run one TF op: eagerly (numpy now) or symbolically (append to the traced graph).

Input conversion follows TF's op-definition rules: inputs sharing the type
attribute `T` must agree (no implicit promotion: a mismatch raises TF's
"cannot compute AddV2 as input #1(zero-based) was expected to be a float
tensor but is a int32 tensor"); Python values take the dtype of the first
tensor among them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.autodiff import tape as _tape
from minixla.frontend.autodiff import tape_fast_path as _tape_fast
from minixla.frontend.builder_eager import EagerBuilder
from minixla.frontend.errors import InvalidArgumentError, at_user_line
from minixla.frontend import eager_fast_path as _fast
from minixla.frontend.graph import Graph, current_graph
from minixla.frontend.ops.registry import OpDef, get
from minixla.frontend.conversions import CONVERSIONS, convert_registered
from minixla.frontend.indexed_slices import IndexedSlices
from minixla.frontend.tensor import Tensor, to_array
from minixla.frontend.validation import check_integer_division, check_list_inputs, is_allocation_failure, out_of_memory
from minixla.passes import trace_events as _trace_events


def _is_tensor_like(x) -> bool:
    return isinstance(x, (Tensor, np.ndarray, IndexedSlices)) or hasattr(x, "_variable_value")


def _dtype_of(x) -> np.dtype:
    if isinstance(x, IndexedSlices):
        return x.dtype.np
    if hasattr(x, "_variable_value"):
        return x._variable_value().dtype.np
    return x._spec.dtype if isinstance(x, Tensor) else x.dtype


def _as_tensor(x, dtype, graph: Graph | None, opdef: OpDef, index: int) -> Tensor:
    if isinstance(x, IndexedSlices):  # a gather's gradient: rows summed per index, as TF converts it
        x = x.to_dense()
    if hasattr(x, "_variable_value"):  # tf.Variable
        x = x._variable_value()
    if isinstance(x, Tensor):
        if dtype is not None and np.dtype(x._spec.dtype) != np.dtype(dtype):
            raise InvalidArgumentError(at_user_line(
                f"cannot compute {opdef.name} as input #{index}(zero-based) was expected to be a "
                f"{dtypes.dtype_name(dtype)} tensor but is a {dtypes.dtype_name(x._spec.dtype)} tensor "
                f"[Op:{opdef.name}] name: "))
        if graph is not None and x._graph is not graph:
            if x._graph is not None and graph.encloses(x._graph):  # a tf.cond/while_loop capture
                return graph.capture(x)
            if x._graph is not None:
                raise InvalidArgumentError(at_user_line(
                    f"{x!r} belongs to another tf.function graph and cannot be used here"))
            return graph.constant(x._value)
        return x
    arr = to_array(x, dtype)
    return graph.constant(arr) if graph is not None else Tensor.make(arr)


def _registered(x):
    """A value of a type given to tf.register_tensor_conversion_function, converted; else x."""
    if isinstance(x, (Tensor, np.ndarray, np.generic, int, float, bool, str, bytes, type(None))):
        return x
    if isinstance(x, (list, tuple)):
        return type(x)(_registered(v) for v in x)
    converted = convert_registered(x)
    return x if converted is None else converted


def convert_inputs(opdef: OpDef, inputs: list, graph: Graph | None) -> list:
    """Tensors (lists for variadic inputs) with `T` unified across typed inputs."""
    if CONVERSIONS:
        inputs = [_registered(x) for x in inputs]
    typed = set(opdef.typed_inputs)
    names = opdef.input_names
    target = None
    for name, x in zip(names, inputs):
        if name in typed:
            for item in (x if isinstance(x, (list, tuple)) and opdef.is_variadic(names.index(name)) else [x]):
                if _is_tensor_like(item):
                    target = _dtype_of(item)
                    break
        if target is not None:
            break
    if target is None:  # all Python values: TF converts the first and uses its dtype
        for name, x in zip(names, inputs):
            if name in typed:
                if opdef.is_variadic(names.index(name)):
                    if not x:
                        continue
                    x = x[0]
                target = to_array(x).dtype
                break
    out = []
    flat_index = 0
    for i, (name, x) in enumerate(zip(names, inputs)):
        dt = target if name in typed else None
        if opdef.is_variadic(i):
            out.append([_as_tensor(v, dt, graph, opdef, flat_index + k) for k, v in enumerate(x)])
            flat_index += len(x)
        else:
            out.append(_as_tensor(x, dt, graph, opdef, flat_index))
            flat_index += 1
    return out


def run_eager(opdef: OpDef, arrays: list, attrs: dict[str, Any]) -> list[np.ndarray]:
    """Apply an op to numpy inputs; returns its outputs as a list."""
    check_integer_division(opdef.name, arrays)
    try:
        if opdef.compilable:
            res = opdef.rule(EagerBuilder(), *arrays, **attrs)
        else:
            res = opdef.host(*arrays, **attrs)
        # a broadcast view (builder_eager) becomes an array here, where running out of memory is reported
        return [_owned(r) for r in res] if isinstance(res, tuple) else [_owned(res)]
    except (MemoryError, ValueError) as err:
        if is_allocation_failure(err):
            raise out_of_memory(opdef.name, err) from None
        raise


def _owned(result) -> np.ndarray:
    out = np.asarray(result)
    return out.copy() if not out.flags.writeable and out.base is not None else out


def execute(name: str, inputs: list, attrs: dict[str, Any] | None = None):
    """Run TF op `name`; returns a Tensor, a tuple of Tensors, or None (no outputs)."""
    if name in _fast.KERNELS and not attrs:  # it checks for tapes, traces and recorders
        out = _fast.run(name, inputs)
        if out is not None:
            return out
    if _tape.ACTIVE:  # this thread has a tape open: the common ops are recorded without the general path
        out = _tape_fast.record(name, inputs, attrs)
        if out is not None:
            return out
    opdef = get(name)
    attrs = opdef.full_attrs(attrs or {})
    graph = current_graph()
    if len(inputs) != len(opdef.inputs):
        raise TypeError(f"{name} takes {len(opdef.inputs)} inputs, got {len(inputs)}")
    check_list_inputs(name, opdef.input_names, list(inputs), opdef.is_variadic)
    tensors = convert_inputs(opdef, list(inputs), graph)
    if _tape.ACTIVE and _tape.should_record(opdef, tensors):  # a GradientTape tracks an input
        outs = _tape.record_op(opdef, tensors, attrs, graph)
    elif graph is not None:
        outs = graph.add_node(opdef, tensors, attrs)
    else:
        arrays = [[t._value for t in x] if isinstance(x, list) else x._value for x in tensors]
        if _trace_events.ACTIVE is None:  # the hot path pays one attribute read
            outs = [Tensor.make(r) for r in run_eager(opdef, arrays, attrs)]
        else:
            with _trace_events.span(name, "eager-op"):
                outs = [Tensor.make(r) for r in run_eager(opdef, arrays, attrs)]
    if not outs:
        return None
    single = len(outs) == 1 and name not in _MULTI_OUTPUT
    return outs[0] if single else tuple(outs)


_MULTI_OUTPUT = {"Unpack", "Split", "SplitV", "EagerPyFunc", "If", "While", "XlaCallModule"}


def run_graph(graph: Graph, args: list[np.ndarray], outputs: list[Tensor]) -> list[np.ndarray]:
    """Execute a traced graph op by op on the host (tf.function without jit)."""
    env: dict[int, np.ndarray] = {id(t): a for t, a in zip(graph.inputs, args)}
    for node in graph.nodes:
        ins = [[env[id(t)] for t in x] if isinstance(x, list) else env[id(x)] for x in node.inputs]
        results = run_eager(node.opdef, ins, node.attrs)
        for t, r in zip(node.outputs, results):
            env[id(t)] = r
    return [env[id(t)] for t in outputs]
