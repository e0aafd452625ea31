"""Constants, shape manipulation, slicing, gather and scatter."""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.attrs import int_value, ints, prop
from minixla.dialects.numpy_types import dense_attr_to_numpy, numpy_dtype
from minixla.backends.interpreter.op_table import impl
from minixla.backends.interpreter.kernels import structural as st
from minixla.backends.interpreter.regions import binary_body, ufunc_for


def _out(op, i: int = 0) -> tuple[tuple[int, ...], np.dtype]:
    t = op.results[i].type
    return tuple(t.get_shape()), numpy_dtype(t.get_element_type())


@impl("hlo.constant")
def _constant(op, args, interp):
    return dense_attr_to_numpy(prop(op, "value"), op.results[0].type)


@impl("hlo.iota")
def _iota(op, args, interp):
    shape, dt = _out(op)
    return st.iota(shape, int_value(prop(op, "iota_dimension")), dt)


@impl("hlo.broadcast_in_dim")
def _broadcast_in_dim(op, args, interp):
    return st.broadcast_in_dim(args[0], _out(op)[0], ints(prop(op, "broadcast_dimensions")))


@impl("hlo.reshape")
def _reshape(op, args, interp):
    return args[0].reshape(_out(op)[0]).copy()


@impl("hlo.transpose")
def _transpose(op, args, interp):
    return np.transpose(args[0], ints(prop(op, "permutation"))).copy()


@impl("hlo.slice")
def _slice(op, args, interp):
    x = args[0]
    strides = ints(prop(op, "strides")) or (1,) * x.ndim
    return st.slice_(x, ints(prop(op, "start_indices")), ints(prop(op, "limit_indices")), strides)


@impl("hlo.dynamic_slice")
def _dynamic_slice(op, args, interp):
    return st.dynamic_slice(args[0], [int(s) for s in args[1:]], ints(prop(op, "slice_sizes")))


@impl("hlo.dynamic_update_slice")
def _dynamic_update_slice(op, args, interp):
    return st.dynamic_update_slice(args[0], args[1], [int(s) for s in args[2:]])


@impl("hlo.concatenate")
def _concatenate(op, args, interp):
    return st.concatenate(args, int_value(prop(op, "dimension")))


@impl("hlo.pad")
def _pad(op, args, interp):
    return st.pad(args[0], args[1], ints(prop(op, "edge_padding_low")), ints(prop(op, "edge_padding_high")),
                  ints(prop(op, "interior_padding")))


@impl("hlo.reverse")
def _reverse(op, args, interp):
    return st.reverse(args[0], ints(prop(op, "dimensions")))


@impl("hlo.gather")
def _gather(op, args, interp):
    dn = prop(op, "dimension_numbers")
    return st.gather(args[0], args[1], offset_dims=dn.offset_dims, collapsed_slice_dims=dn.collapsed_slice_dims,
                     operand_batching_dims=dn.operand_batching_dims,
                     start_indices_batching_dims=dn.start_indices_batching_dims,
                     start_index_map=dn.start_index_map, index_vector_dim=dn.index_vector_dim,
                     slice_sizes=ints(prop(op, "slice_sizes")))


@impl("hlo.scatter")
def _scatter(op, args, interp):
    n = (len(args) - 1) // 2
    inputs, indices, updates = args[:n], args[n], args[n + 1:]
    dn = prop(op, "scatter_dimension_numbers")
    targets, in_bounds = st.scatter_targets(
        inputs[0].shape, indices, updates[0].shape, update_window_dims=dn.update_window_dims,
        inserted_window_dims=dn.inserted_window_dims, input_batching_dims=dn.input_batching_dims,
        scatter_indices_batching_dims=dn.scatter_indices_batching_dims,
        scatter_dims_to_operand_dims=dn.scatter_dims_to_operand_dims, index_vector_dim=dn.index_vector_dim)
    region = op.update_computation
    values = [u.reshape(-1)[in_bounds] for u in updates]
    ufunc = ufunc_for(binary_body(region), inputs[0].dtype) if n == 1 else None
    return st.scatter_apply(list(inputs), targets[in_bounds], values, interp.combiner(region), ufunc)
