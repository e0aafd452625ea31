"""Tuples, map, composite, the dynamic-shape ops (shapes read from their operands at run
time) and uniform quantization (quantized values are held as their storage integers)."""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.attrs import bools, int_value, ints, prop
from minixla.backends.interpreter.errors import InterpreterError
from minixla.backends.interpreter.kernels import contraction as ct
from minixla.backends.interpreter.kernels import conversions as cv
from minixla.backends.interpreter.kernels import elementwise as ew
from minixla.backends.interpreter.kernels import structural as st
from minixla.backends.interpreter.op_table import OP_IMPLS, impl
from minixla.backends.interpreter.ops_elementwise import BINARY, UNARY
from minixla.dialects.numpy_types import numpy_dtype
from minixla.dialects.quant import UniformQuantizedType


def _dtype(op, i: int = 0) -> np.dtype:
    return numpy_dtype(op.results[i].type.get_element_type())


def _shape_values(x: np.ndarray, what: str, op) -> tuple[int, ...]:
    values = tuple(int(v) for v in np.asarray(x).reshape(-1))
    if any(v < 0 for v in values):
        raise InterpreterError(f"{op.name}: {what} {list(values)} has a negative size")
    want = op.results[0].type.get_shape()
    if any(w >= 0 and w != v for w, v in zip(want, values)):
        raise InterpreterError(f"{op.name}: {what} {list(values)} disagrees with the result type "
                               f"{op.results[0].type}")
    return values


@impl("hlo.tuple")
def _tuple(op, args, interp):
    return [tuple(args)]


@impl("hlo.get_tuple_element")
def _get_tuple_element(op, args, interp):
    return [args[0][int_value(prop(op, "index"))]]


@impl("hlo.map")
def _map(op, args, interp):
    # the computation is elementwise on 0-d tensors: run it once on whole arrays
    return interp.run_region(op.computation, list(args))[0]


@impl("hlo.composite")
def _composite(op, args, interp):
    return interp.call_function(prop(op, "decomposition").root_reference.data, args)


@impl("hlo.get_dimension_size")
def _get_dimension_size(op, args, interp):
    return np.asarray(args[0].shape[int_value(prop(op, "dimension"))], dtype=_dtype(op))


@impl("hlo.dynamic_iota")
def _dynamic_iota(op, args, interp):
    shape = _shape_values(args[0], "output_shape", op)
    return st.iota(shape, int_value(prop(op, "iota_dimension")), _dtype(op))


@impl("hlo.dynamic_reshape")
def _dynamic_reshape(op, args, interp):
    shape = _shape_values(args[1], "output_shape", op)
    if int(np.prod(shape)) != args[0].size:
        raise InterpreterError(f"{op.name}: cannot reshape {list(args[0].shape)} to {list(shape)}")
    return args[0].reshape(shape).copy()


@impl("hlo.dynamic_broadcast_in_dim")
def _dynamic_broadcast_in_dim(op, args, interp):
    shape = _shape_values(args[1], "output_dimensions", op)
    dims = ints(prop(op, "broadcast_dimensions"))
    for i, d in enumerate(dims):
        if args[0].shape[i] not in (1, shape[d]):
            raise InterpreterError(f"{op.name}: operand dimension {i} ({args[0].shape[i]}) cannot broadcast "
                                   f"to {shape[d]}")
    return st.broadcast_in_dim(args[0], shape, dims)


@impl("hlo.dynamic_pad")
def _dynamic_pad(op, args, interp):
    x, value, low, high, interior = args
    low, high, interior = (tuple(int(v) for v in a) for a in (low, high, interior))
    if any(i < 0 for i in interior):
        raise InterpreterError(f"{op.name}: interior padding must be non-negative, got {list(interior)}")
    out = st.pad(x, value, low, high, interior)
    _shape_values(np.asarray(out.shape), "padded shape", op)
    return out


@impl("hlo.dynamic_gather")
def _dynamic_gather(op, args, interp):
    dn = prop(op, "dimension_numbers")
    sizes = tuple(int(v) for v in args[2])
    return st.gather(args[0], args[1], offset_dims=dn.offset_dims, collapsed_slice_dims=dn.collapsed_slice_dims,
                     operand_batching_dims=dn.operand_batching_dims,
                     start_indices_batching_dims=dn.start_indices_batching_dims,
                     start_index_map=dn.start_index_map, index_vector_dim=dn.index_vector_dim, slice_sizes=sizes)


@impl("hlo.dynamic_conv")
def _dynamic_conv(op, args, interp):
    lhs, rhs, padding = args
    dn = prop(op, "dimension_numbers")
    nsp = len(dn.input_spatial_dimensions)
    ones = (1,) * nsp
    return ct.convolution(
        lhs, rhs, window_strides=ints(prop(op, "window_strides")) or ones,
        padding=[(int(lo), int(hi)) for lo, hi in np.asarray(padding).reshape(nsp, 2)],
        lhs_dilation=ints(prop(op, "lhs_dilation")) or ones, rhs_dilation=ints(prop(op, "rhs_dilation")) or ones,
        window_reversal=bools(prop(op, "window_reversal")) or (False,) * nsp,
        input_batch_dimension=dn.input_batch_dimension, input_feature_dimension=dn.input_feature_dimension,
        input_spatial_dimensions=dn.input_spatial_dimensions,
        kernel_input_feature_dimension=dn.kernel_input_feature_dimension,
        kernel_output_feature_dimension=dn.kernel_output_feature_dimension,
        kernel_spatial_dimensions=dn.kernel_spatial_dimensions, output_batch_dimension=dn.output_batch_dimension,
        output_feature_dimension=dn.output_feature_dimension, output_spatial_dimensions=dn.output_spatial_dimensions,
        feature_group_count=int_value(prop(op, "feature_group_count"), 1),
        batch_group_count=int_value(prop(op, "batch_group_count"), 1), result_dtype=_dtype(op))


# -- uniform quantization (StableHLO spec: quantize / dequantize) -----------------


def _params(q: UniformQuantizedType, shape: tuple[int, ...], dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Scales and zero points broadcastable against a tensor of `shape`, in `dtype`."""
    scales = np.asarray(q.scale_values(), dtype=dtype)
    zps = np.asarray(q.zero_point_values(), dtype=dtype)
    if q.axis < 0:
        return scales.reshape(()), zps.reshape(())
    view = [1] * len(shape)
    view[q.axis] = -1
    return scales.reshape(view), zps.reshape(view)


def dequantize(stored: np.ndarray, q: UniformQuantizedType) -> np.ndarray:
    dt = numpy_dtype(q.expressed_type)
    scales, zps = _params(q, stored.shape, dt)
    return ((stored.astype(dt) - zps) * scales).astype(dt)


def quantize(x: np.ndarray, q: UniformQuantizedType) -> np.ndarray:
    dt = numpy_dtype(q.expressed_type)
    scales, zps = _params(q, x.shape, dt)
    lo, hi = np.asarray(q.storage_min.data, dt), np.asarray(q.storage_max.data, dt)
    with np.errstate(all="ignore"):
        scaled = ew.clamp(lo, (x.astype(dt) / scales + zps).astype(dt), hi)
    # hlo.convert's float->int rule (NaN -> 0), as the CPU lowering's convert does
    return cv.convert(np.round(scaled), numpy_dtype(q.storage_type))


@impl("hlo.uniform_quantize")
def _uniform_quantize(op, args, interp):
    x, src = args[0], op.operands[0].type.element_type
    if isinstance(src, UniformQuantizedType):
        x = dequantize(x, src)
    return quantize(x, op.results[0].type.element_type)


@impl("hlo.uniform_dequantize")
def _uniform_dequantize(op, args, interp):
    return dequantize(args[0], op.operands[0].type.element_type)


def _dequantize_op_quantize(kernel_impl):
    """StableHLO's semantics of an elementwise op on quantized tensors: dequantize the operands,
    compute in the expressed type, quantize the result (unquantized ops pass straight through)."""

    def run(op, args, interp):
        rt = op.results[0].type.element_type
        if not isinstance(rt, UniformQuantizedType):
            return kernel_impl(op, args, interp)
        floats = [dequantize(a, v.type.element_type) for a, v in zip(args, op.operands)]
        return quantize(np.asarray(kernel_impl(op, floats, interp)), rt)

    return run


for _name in (*UNARY, *BINARY):
    OP_IMPLS[f"hlo.{_name}"] = _dequantize_op_quantize(OP_IMPLS[f"hlo.{_name}"])
