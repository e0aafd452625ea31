"""Ops with reduction bodies (reduce, reduce_window, select_and_scatter,
sort, all_reduce) and the contractions (dot_general, convolution)."""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.attrs import bools, int_value, ints, padding_pairs, prop
from minixla.dialects.numpy_types import is_float, numpy_dtype
from minixla.backends.interpreter.op_table import impl
from minixla.backends.interpreter.kernels import contraction as ct
from minixla.backends.interpreter.kernels import elementwise as ew
from minixla.backends.interpreter.kernels import reduction as rd
from minixla.backends.interpreter.regions import binary_body, simple_comparator, ufunc_for


def _split(args: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    n = len(args) // 2
    return args[:n], args[n:]


@impl("hlo.reduce")
def _reduce(op, args, interp):
    inputs, inits = _split(args)
    ufunc = ufunc_for(binary_body(op.body), inputs[0].dtype) if len(inputs) == 1 else None
    return rd.reduce(inputs, inits, ints(prop(op, "dimensions")), interp.combiner(op.body), ufunc)


@impl("hlo.reduce_window")
def _reduce_window(op, args, interp):
    inputs, inits = _split(args)
    rank = inputs[0].ndim
    ones = (1,) * rank
    return rd.reduce_window(
        inputs, inits, window_dimensions=ints(prop(op, "window_dimensions")),
        window_strides=ints(prop(op, "window_strides")) or ones,
        base_dilations=ints(prop(op, "base_dilations")) or ones,
        window_dilations=ints(prop(op, "window_dilations")) or ones,
        padding=padding_pairs(prop(op, "padding"), rank), combine=interp.combiner(op.body))


@impl("hlo.select_and_scatter")
def _select_and_scatter(op, args, interp):
    operand, source, init = args
    rank = operand.ndim
    select_region = op.select
    selector = interp.combiner(select_region)
    scatter_ufunc = ufunc_for(binary_body(op.scatter), operand.dtype)
    return rd.select_and_scatter(
        operand, source, init, window_dimensions=ints(prop(op, "window_dimensions")) or (1,) * rank,
        window_strides=ints(prop(op, "window_strides")) or (1,) * rank,
        padding=padding_pairs(prop(op, "padding"), rank),
        select=lambda a, b: selector([a], [b])[0], scatter=interp.combiner(op.scatter),
        scatter_ufunc=scatter_ufunc)


@impl("hlo.sort")
def _sort(op, args, interp):
    rank = args[0].ndim
    dim = int_value(prop(op, "dimension"), -1)
    dim = dim + rank if dim < 0 else dim
    if rank == 0:
        return [a.copy() for a in args]
    fast = simple_comparator(op.comparator)
    if fast is not None:
        which, descending, compare_type = fast
        key = args[which]
        total = compare_type == "TOTALORDER"
        if is_float(key.dtype) and total:
            key = ew.total_order_key(key)
            fast_ok = True
        elif is_float(key.dtype):
            key = key.astype(np.float64)
            fast_ok = not np.isnan(key).any()  # NaN breaks strict weak ordering: use the general path
        else:
            ct_ = compare_type if compare_type not in (None, "NOTYPE") else ew.default_compare_type(key.dtype)
            key = ew.compare_view(key, ct_)
            fast_ok = not np.iscomplexobj(key)
        if fast_ok:
            order = rd.argsort_stable(key, dim, descending)
            return [np.take_along_axis(a, order, axis=dim) for a in args]
    n = len(args)
    comparator = op.comparator

    def less(lhs, rhs):
        interleaved = [v for pair in zip(lhs, rhs) for v in pair]
        return interp.run_region(comparator, [np.asarray(v) for v in interleaved])[0]

    return rd.sort(args[:n], dim, less)


@impl("hlo.dot_general")
def _dot_general(op, args, interp):
    dn = prop(op, "dot_dimension_numbers")
    return ct.dot_general(args[0], args[1], lhs_batching=dn.lhs_batching_dimensions,
                          rhs_batching=dn.rhs_batching_dimensions, lhs_contracting=dn.lhs_contracting_dimensions,
                          rhs_contracting=dn.rhs_contracting_dimensions,
                          result_dtype=numpy_dtype(op.results[0].type.get_element_type()))


@impl("hlo.dot")
def _dot(op, args, interp):
    lhs, rhs = args
    return ct.dot_general(lhs, rhs, lhs_contracting=(lhs.ndim - 1,), rhs_contracting=(0,),
                          result_dtype=numpy_dtype(op.results[0].type.get_element_type()))


@impl("hlo.convolution")
def _convolution(op, args, interp):
    lhs, rhs = args
    dn = prop(op, "dimension_numbers")
    nsp = len(dn.input_spatial_dimensions)
    ones = (1,) * nsp
    return ct.convolution(
        lhs, rhs, window_strides=ints(prop(op, "window_strides")) or ones,
        padding=padding_pairs(prop(op, "padding"), nsp), lhs_dilation=ints(prop(op, "lhs_dilation")) or ones,
        rhs_dilation=ints(prop(op, "rhs_dilation")) or ones,
        window_reversal=bools(prop(op, "window_reversal")) or (False,) * nsp,
        input_batch_dimension=dn.input_batch_dimension, input_feature_dimension=dn.input_feature_dimension,
        input_spatial_dimensions=dn.input_spatial_dimensions,
        kernel_input_feature_dimension=dn.kernel_input_feature_dimension,
        kernel_output_feature_dimension=dn.kernel_output_feature_dimension,
        kernel_spatial_dimensions=dn.kernel_spatial_dimensions, output_batch_dimension=dn.output_batch_dimension,
        output_feature_dimension=dn.output_feature_dimension, output_spatial_dimensions=dn.output_spatial_dimensions,
        feature_group_count=int_value(prop(op, "feature_group_count"), 1),
        batch_group_count=int_value(prop(op, "batch_group_count"), 1),
        result_dtype=numpy_dtype(op.results[0].type.get_element_type()))

