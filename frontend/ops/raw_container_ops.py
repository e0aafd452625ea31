"""TensorArray, TensorList and Stack raw ops on their fixed-size buffers, as tf2xla compiles them
(tensor_array_ops.cc, tensor_list_ops.cc, stack_ops.cc): an array / list is one tensor `[n, *element_shape]`,
read with dynamic_slice and written with dynamic_update_slice at a run-time index; a stack is such a
buffer plus a run-time top index.

The rules take buffers where TF takes handles or variants; frontend/api/raw_state_containers.py keeps
the handle -> buffer bookkeeping (and makes the buffer once the element shape is known). A TensorArray's
`flow` *is* its buffer, so threading flows through `tf.while_loop` threads the data, as XLA's does.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops import index_ops
from minixla.frontend.ops.registry import op_error, register, shape_text
from minixla.frontend.ops.scatter_matrix_ops import _scatter_nd


def _np_dtype(dt):
    return np.dtype(getattr(dt, "as_numpy_dtype", dt))


def _dims(op, shape) -> list[int]:
    dims = [int(d) for d in np.asarray(shape).reshape(-1)]
    if any(d < 0 for d in dims):
        raise op_error(op, f"element shape {shape_text(dims)} must be fully defined under XLA")
    return dims


def _row_starts(b, index, rank):
    idx = b.convert(index, np.int32) if np.dtype(index.dtype) != np.int32 else index
    if tuple(idx.shape) != ():
        raise op_error("TensorArray", f"index must be a scalar, got {shape_text(idx.shape)}")
    return [idx] + [b.scalar(0, np.int32) for _ in range(rank - 1)]


def read_row(b, buf, index):
    """buf[index] (index a run-time scalar)."""
    row = b.dynamic_slice(buf, _row_starts(b, index, len(buf.shape)), [1] + list(buf.shape[1:]))
    return b.reshape(row, list(buf.shape[1:]))


def write_row(b, op, buf, index, value):
    """buf with row `index` replaced by value."""
    if tuple(value.shape) != tuple(buf.shape[1:]):
        raise op_error(op, f"Could not write to TensorArray index because the value shape is "
                           f"{shape_text(value.shape)} which is incompatible with the TensorArray's inferred "
                           f"element shape: {shape_text(buf.shape[1:])} (consider setting infer_shape=False).")
    return b.dynamic_update_slice(buf, b.reshape(value, [1] + list(value.shape)),
                                  _row_starts(b, index, len(buf.shape)))


def concat_rows(b, buf):
    """[n, d0, ...] -> ([n*d0, ...], lengths [d0]*n as int64)."""
    if len(buf.shape) < 2:
        raise op_error("TensorArrayConcat", "Concat saw a scalar shape at index 0 but requires at least vectors.")
    n, d0 = buf.shape[0], buf.shape[1]
    return (b.reshape(buf, [n * d0] + list(buf.shape[2:])),
            b.constant(np.full(n, d0, np.int64)))


def split_rows(b, op, value, lengths):
    """value [sum(lengths), ...] -> [len(lengths), L, ...]: XLA needs equal lengths."""
    ls = [int(v) for v in np.asarray(lengths).reshape(-1)]
    total = value.shape[0] if value.shape else 0
    if sum(ls) != total:
        raise op_error(op, f"Expected sum of lengths to be equal to values.shape[0], but sum of lengths is "
                           f"{sum(ls)} and value's shape is: {shape_text(value.shape)}")
    if len(set(ls)) > 1:
        raise op_error(op, f"XLA needs equal lengths to split into a TensorArray / TensorList, got {ls}")
    n = len(ls)
    return b.reshape(value, [n, ls[0] if n else 0] + list(value.shape[1:]))


# -- TensorArray (the flow is the buffer) ---------------------------------------------------------------------

_TA_ATTRS = {"dtype": None, "element_shape": None, "dynamic_size": False, "clear_after_read": True,
             "identical_element_shapes": False, "tensor_array_name": ""}
register("TensorArrayV3", ("size",), lambda b, size, **a: b.full(
    [int(np.asarray(size))] + _dims("TensorArrayV3", a["element_shape"]), 0, _np_dtype(a["dtype"])),
    attrs=_TA_ATTRS, const_inputs=("size",))
register("TensorArrayWriteV3", ("flow_in", "index", "value"),
         lambda b, flow_in, index, value: write_row(b, "TensorArrayWriteV3", flow_in, index, value),
         typed=("flow_in", "value"))
register("TensorArrayReadV3", ("flow_in", "index"), lambda b, flow_in, index, dtype=None: read_row(b, flow_in, index),
         attrs={"dtype": None}, typed=("flow_in",))
register("TensorArrayGatherV3", ("flow_in", "indices"), lambda b, flow_in, indices, dtype=None, element_shape=None:
         index_ops.gather_v2(b, flow_in, indices, np.int32(0)), attrs={"dtype": None, "element_shape": None},
         typed=("flow_in",))


def _scatter_rows(op):
    def rule(b, flow_in, indices, value):
        if tuple(value.shape) != tuple(indices.shape) + tuple(flow_in.shape[1:]):
            raise op_error(op, f"value shape {shape_text(value.shape)} does not match indices "
                               f"{shape_text(indices.shape)} + element shape {shape_text(flow_in.shape[1:])}")
        index_ops._check_range(op, indices, flow_in.shape[0])
        return _scatter_nd(b, op, flow_in, b.reshape(indices, list(indices.shape) + [1]), value, "replace")

    return rule


register("TensorArrayScatterV3", ("flow_in", "indices", "value"), _scatter_rows("TensorArrayScatterV3"),
         typed=("flow_in", "value"))
register("TensorArrayConcatV3", ("flow_in",), lambda b, flow_in, dtype=None, element_shape_except0=None:
         concat_rows(b, flow_in), attrs={"dtype": None, "element_shape_except0": None})
register("TensorArraySplitV3", ("value", "lengths"), lambda b, value, lengths: split_rows(
    b, "TensorArraySplitV3", value, lengths), const_inputs=("lengths",))
register("TensorArraySizeV3", ("flow_in",), lambda b, flow_in: b.constant(np.array(flow_in.shape[0], np.int32)))
# nothing to free in a compiled program (tf2xla's TensorArrayCloseV3 emits nothing either)
register("TensorArrayCloseV3", ("flow_in",), lambda b, flow_in: ())
# the gradient array: same size and element shape, zeros until the backward pass writes it
register("TensorArrayGradV3", ("flow_in",), lambda b, flow_in, source="": b.full(flow_in.shape, 0, flow_in.dtype),
         attrs={"source": ""})


# -- TensorList (the variant is the buffer) -------------------------------------------------------------------

def _list_attrs(**extra):
    return {"element_dtype": None, **extra}


register("EmptyTensorList", ("element_shape", "max_num_elements"), lambda b, element_shape, max_num_elements,
         element_dtype=None: b.full([0] + _dims("EmptyTensorList", element_shape), 0, _np_dtype(element_dtype)),
         attrs=_list_attrs(), const_inputs=("element_shape", "max_num_elements"))
register("TensorListReserve", ("element_shape", "num_elements"), lambda b, element_shape, num_elements,
         element_dtype=None: b.full([int(np.asarray(num_elements))] + _dims("TensorListReserve", element_shape), 0,
                                    _np_dtype(element_dtype)),
         attrs=_list_attrs(), const_inputs=("element_shape", "num_elements"))


def _compatible(op, shape, element_shape):
    want = np.asarray(element_shape).reshape(-1)
    if np.asarray(element_shape).ndim == 0 and int(np.asarray(element_shape)) == -1:
        return
    if len(want) != len(shape) or any(w >= 0 and w != s for w, s in zip(want, shape)):
        raise op_error(op, f"Incompatible shapes during merge: {shape_text(want)} vs. {shape_text(shape)}")


def _from_tensor(b, tensor, element_shape):
    if not tensor.shape:
        raise op_error("TensorListFromTensor", "Tensor must be at least a vector, but saw shape: []")
    _compatible("TensorListFromTensor", tensor.shape[1:], element_shape)
    return tensor


register("TensorListFromTensor", ("tensor", "element_shape"), _from_tensor, const_inputs=("element_shape",))
register("TensorListGetItem", ("input_handle", "index", "element_shape"),
         lambda b, input_handle, index, element_shape, element_dtype=None: read_row(b, input_handle, index),
         attrs=_list_attrs(), const_inputs=("element_shape",), typed=("input_handle",))
register("TensorListSetItem", ("input_handle", "index", "item"),
         lambda b, input_handle, index, item, resize_if_index_out_of_bounds=False: write_row(
             b, "TensorListSetItem", input_handle, index, item),
         attrs={"resize_if_index_out_of_bounds": False}, typed=("input_handle", "item"))


def _push_back(b, input_handle, tensor):
    if tuple(tensor.shape) != tuple(input_handle.shape[1:]):
        raise op_error("TensorListPushBack", f"Tried to push item with shape {shape_text(tensor.shape)} onto a "
                                             f"list with element shape {shape_text(input_handle.shape[1:])}")
    return b.concatenate([input_handle, b.reshape(tensor, [1] + list(tensor.shape))], 0)


def _pop_back(b, input_handle, element_shape, element_dtype=None):
    n = input_handle.shape[0]
    if n == 0:
        raise op_error("TensorListPopBack", "Trying to pop from an empty list.")
    rest = list(input_handle.shape[1:])
    zeros = [0] * len(rest)
    return (b.slice(input_handle, [0, *zeros], [n - 1, *rest]),
            b.reshape(b.slice(input_handle, [n - 1, *zeros], [n, *rest]), rest))


register("TensorListPushBack", ("input_handle", "tensor"), _push_back, typed=("input_handle", "tensor"))
register("TensorListPopBack", ("input_handle", "element_shape"), _pop_back, attrs=_list_attrs(),
         const_inputs=("element_shape",), typed=("input_handle",))
register("TensorListLength", ("input_handle",), lambda b, input_handle: b.constant(
    np.array(input_handle.shape[0], np.int32)))
register("TensorListElementShape", ("input_handle",), lambda b, input_handle, shape_type=np.int32: b.constant(
    np.array(input_handle.shape[1:], _np_dtype(shape_type))), attrs={"shape_type": np.int32})


def _stack(b, input_handle, element_shape, element_dtype=None, num_elements=-1):
    _compatible("TensorListStack", input_handle.shape[1:], element_shape)
    if num_elements != -1 and num_elements != input_handle.shape[0]:
        raise op_error("TensorListStack", f"Operation expected a list with {num_elements} elements but got a "
                                          f"list with {input_handle.shape[0]} elements.")
    return input_handle


register("TensorListStack", ("input_handle", "element_shape"), _stack,
         attrs=_list_attrs(num_elements=-1), const_inputs=("element_shape",), typed=("input_handle",))
register("TensorListGather", ("input_handle", "indices", "element_shape"),
         lambda b, input_handle, indices, element_shape, element_dtype=None: index_ops.gather_v2(
             b, input_handle, indices, np.int32(0)),
         attrs=_list_attrs(), const_inputs=("element_shape",), typed=("input_handle",))
register("TensorListConcatV2", ("input_handle", "element_shape", "leading_dims"),
         lambda b, input_handle, element_shape, leading_dims, element_dtype=None, shape_type=np.int32: concat_rows(
             b, input_handle), attrs=_list_attrs(shape_type=np.int32),
         const_inputs=("element_shape", "leading_dims"), typed=("input_handle",))
register("TensorListSplit", ("tensor", "element_shape", "lengths"), lambda b, tensor, element_shape, lengths:
         split_rows(b, "TensorListSplit", tensor, lengths), const_inputs=("element_shape", "lengths"))
# TF's internal converters between a function's N-ary (one type) and list-typed (a type each) arguments: the
# tensors themselves
register("_ArrayToList", ("*input",), lambda b, input, out_types=(): tuple(input), attrs={"out_types": ()})
register("_ListToArray", ("*input",), lambda b, input, Tin=(): tuple(input), attrs={"Tin": ()}, typed=())


# -- Stack: a buffer and its top index ------------------------------------------------------------------------

register("StackV2", ("max_size",), lambda b, max_size, elem_type=None, stack_name="": b.constant(
    np.array(0, np.int32)), attrs={"elem_type": None, "stack_name": ""}, const_inputs=("max_size",))


def _push(b, buffer, top, elem, swap_memory=False):
    return write_row(b, "StackPushV2", buffer, top, elem), b.add(top, b.scalar(1, np.int32)), elem


def _pop(b, buffer, top, elem_type=None):
    new_top = b.subtract(top, b.scalar(1, np.int32))
    return read_row(b, buffer, new_top), new_top


register("StackPushV2", ("buffer", "top", "elem"), _push, attrs={"swap_memory": False}, typed=("buffer", "elem"))
register("StackPopV2", ("buffer", "top"), _pop, attrs={"elem_type": None}, typed=("buffer",))
register("StackCloseV2", ("top",), lambda b, top: ())
