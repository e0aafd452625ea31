"""tf.raw_ops' TensorList ops (EmptyTensorList, TensorListReserve, TensorListSetItem, ...) on variant values.

A TensorList is immutable in TF (each op returns a new variant): here a `TensorListVariant` wrapping its
buffer `[length, *element_shape]` (frontend/ops/raw_container_ops.py has the rules). Until the element
shape is known (an EmptyTensorList / TensorListReserve with an unknown shape, before the first item) the
variant holds only its length; the buffer is made from the first item's shape or an op's element_shape.
As a `tf.while_loop` variable the variant is its buffer (fixed length: SetItem / GetItem at run-time
indices, as XLA compiles a reserved list).
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.api.raw_state_containers import (
    _const, _error, _known, _merge, _shape_arg, _shape_spec, _static_int, _tensor)
from minixla.frontend import dtypes
from minixla.frontend.dtypes import as_dtype
from minixla.frontend.execute import execute
from minixla.frontend.tensor import Tensor, TensorShape


class TensorListVariant:
    """A TensorList value (TF's scalar `variant` tensor)."""

    def __init__(self, dtype, element_shape, length: int, buffer: Tensor | None = None):
        self.element_dtype, self.element_shape, self.length, self.buffer = dtype, element_shape, length, buffer

    shape = property(lambda self: TensorShape([]))
    dtype = property(lambda self: dtypes.variant)

    def __repr__(self) -> str:
        return f"<tf.Tensor: shape=(), dtype=variant, value=<TensorList of {self.length} {self.element_dtype.name}>>"

    # ---- tf.while_loop variable protocol (frontend/control_flow.py) ----
    def _as_loop_leaf(self) -> Tensor:
        return _materialize("While", self)

    def _from_loop_leaf(self, t: Tensor) -> TensorListVariant:
        return TensorListVariant(self.element_dtype, tuple(t._spec.shape[1:]), t._spec.shape[0], t)


def _list(op: str, x) -> TensorListVariant:
    if not isinstance(x, TensorListVariant):
        raise _error(op, f"expected a TensorList variant (from tf.raw_ops.EmptyTensorList, TensorListReserve, "
                         f"...), got {type(x).__name__}")
    return x


def _materialize(op: str, lst: TensorListVariant, element_shape=None) -> Tensor:
    """The list's buffer; made (zeros) from the known element shape if the list has none yet."""
    if lst.buffer is not None:
        return lst.buffer
    shape = _merge(op, lst.element_shape, element_shape)
    if not _known(shape):
        raise _error(op, f"Tried to use a TensorList of {lst.length} elements whose element shape is not known: "
                         "give element_shape (XLA needs it)")
    lst.element_shape = shape
    lst.buffer = execute("TensorListReserve", [_shape_arg(shape), np.int32(lst.length)],
                         {"element_dtype": lst.element_dtype})
    return lst.buffer


def _wrap(lst: TensorListVariant, buf: Tensor) -> TensorListVariant:
    return TensorListVariant(lst.element_dtype, tuple(buf._spec.shape[1:]), buf._spec.shape[0], buf)


def _check_index(op: str, lst: TensorListVariant, index) -> None:
    i = _static_int(index)
    if i is not None and not 0 <= i < lst.length:
        raise _error(op, f"Trying to access element {i} in a list with {lst.length} elements.")


def empty_tensor_list(element_shape, max_num_elements, element_dtype):
    shape = _shape_spec(element_shape)
    lst = TensorListVariant(as_dtype(element_dtype), shape, 0)
    if _known(shape):
        lst.buffer = execute("EmptyTensorList", [_shape_arg(shape), np.int32(max_num_elements)],
                             {"element_dtype": element_dtype})
    return lst


def tensor_list_reserve(element_shape, num_elements, element_dtype):
    n = _static_int(num_elements)
    if n is None or n < 0:
        raise _error("TensorListReserve", "num_elements must be a non-negative compile-time constant under XLA")
    lst = TensorListVariant(as_dtype(element_dtype), _shape_spec(element_shape), n)
    if _known(lst.element_shape):
        _materialize("TensorListReserve", lst)
    return lst


def tensor_list_from_tensor(tensor, element_shape):
    t = _tensor(tensor)
    buf = execute("TensorListFromTensor", [t, _shape_arg(_shape_spec(element_shape))])
    return TensorListVariant(t.dtype, tuple(buf._spec.shape[1:]), buf._spec.shape[0], buf)


def tensor_list_get_item(input_handle, index, element_shape, element_dtype):
    op = "TensorListGetItem"
    lst = _list(op, input_handle)
    _check_index(op, lst, index)
    buf = _materialize(op, lst, _shape_spec(element_shape))
    return execute(op, [buf, _tensor(index, "int32"), _shape_arg(_shape_spec(element_shape))],
                   {"element_dtype": element_dtype})


def tensor_list_set_item(input_handle, index, item, resize_if_index_out_of_bounds=False):
    op = "TensorListSetItem"
    lst, item = _list(op, input_handle), _tensor(item)
    i = _static_int(index)
    if resize_if_index_out_of_bounds and i is not None and i >= lst.length:
        lst = tensor_list_resize(lst, i + 1, tuple(item._spec.shape))
    _check_index(op, lst, index)
    buf = _materialize(op, lst, tuple(item._spec.shape))
    return _wrap(lst, execute(op, [buf, _tensor(index, "int32"), item]))


def tensor_list_resize(lst: TensorListVariant, size: int, element_shape) -> TensorListVariant:
    """The list grown with zero rows (SetItem's resize_if_index_out_of_bounds)."""
    from minixla.frontend.api.core import concat, zeros

    buf = _materialize("TensorListSetItem", lst, element_shape)
    return _wrap(lst, concat([buf, zeros([size - lst.length] + list(buf._spec.shape[1:]), lst.element_dtype)], 0))


def tensor_list_push_back(input_handle, tensor):
    op = "TensorListPushBack"
    lst, t = _list(op, input_handle), _tensor(tensor)
    if t.dtype != lst.element_dtype:
        raise _error(op, f"Invalid data types; list elements {lst.element_dtype.name} but tried to append "
                         f"{t.dtype.name}")
    return _wrap(lst, execute(op, [_materialize(op, lst, tuple(t._spec.shape)), t]))


def tensor_list_pop_back(input_handle, element_shape, element_dtype):
    op = "TensorListPopBack"
    lst = _list(op, input_handle)
    if lst.length == 0:
        raise _error(op, "Trying to pop from an empty list.")
    rest, item = execute(op, [_materialize(op, lst, _shape_spec(element_shape)),
                              _shape_arg(_shape_spec(element_shape))], {"element_dtype": element_dtype})
    return _wrap(lst, rest), item


def tensor_list_length(input_handle):
    from minixla.frontend.api.core import constant

    lst = _list("TensorListLength", input_handle)
    if lst.buffer is None:
        return constant(lst.length, "int32")
    return execute("TensorListLength", [lst.buffer])


def tensor_list_element_shape(input_handle, shape_type):
    from minixla.frontend.api.core import constant

    lst = _list("TensorListElementShape", input_handle)
    if lst.buffer is None:
        return constant(_shape_arg(lst.element_shape), as_dtype(shape_type))
    return execute("TensorListElementShape", [lst.buffer], {"shape_type": shape_type})


def tensor_list_stack(input_handle, element_shape, element_dtype, num_elements=-1):
    op = "TensorListStack"
    lst = _list(op, input_handle)
    shape = _shape_spec(element_shape)
    return execute(op, [_materialize(op, lst, shape), _shape_arg(shape)],
                   {"element_dtype": element_dtype, "num_elements": num_elements})


def tensor_list_gather(input_handle, indices, element_shape, element_dtype):
    op = "TensorListGather"
    lst = _list(op, input_handle)
    shape = _shape_spec(element_shape)
    return execute(op, [_materialize(op, lst, shape), _tensor(indices, "int32"), _shape_arg(shape)],
                   {"element_dtype": element_dtype})


def tensor_list_concat_v2(input_handle, element_shape, leading_dims, element_dtype):
    op = "TensorListConcatV2"
    lst = _list(op, input_handle)
    shape = _shape_spec(element_shape)
    return execute(op, [_materialize(op, lst, shape), _shape_arg(shape), np.asarray(leading_dims, np.int64)],
                   {"element_dtype": element_dtype})


def tensor_list_split(tensor, element_shape, lengths):
    op = "TensorListSplit"
    t = _tensor(tensor)
    buf = execute(op, [t, _shape_arg(_shape_spec(element_shape)), _const(op, lengths, "lengths").astype(np.int64)])
    return TensorListVariant(t.dtype, tuple(buf._spec.shape[1:]), buf._spec.shape[0], buf)


CALLS = {
    "EmptyTensorList": empty_tensor_list, "TensorListReserve": tensor_list_reserve,
    "TensorListFromTensor": tensor_list_from_tensor, "TensorListGetItem": tensor_list_get_item,
    "TensorListSetItem": tensor_list_set_item, "TensorListPushBack": tensor_list_push_back,
    "TensorListPopBack": tensor_list_pop_back, "TensorListLength": tensor_list_length,
    "TensorListElementShape": tensor_list_element_shape, "TensorListStack": tensor_list_stack,
    "TensorListGather": tensor_list_gather, "TensorListConcatV2": tensor_list_concat_v2,
    "TensorListSplit": tensor_list_split,
}



def install(tf) -> None:
    """Route the TensorList raw ops through their variants."""
    from minixla.frontend.raw_ops import STATE_CALLS

    STATE_CALLS.update(CALLS)


__all__ = ["CALLS", "TensorListVariant", "install"]
