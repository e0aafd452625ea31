"""tf2xla's Xla* ops, each one hlo op with the hlo op's own attributes (XlaPad, XlaDot, XlaGather,
XlaConvV2, XlaSort, XlaKeyValueSort, XlaBroadcastHelper, XlaEinsum, XlaOptimizationBarrier, XlaReplicaId,
XlaReducePrecision).

XlaDot, XlaGather and XlaConvV2 take their dimension numbers as a serialized xla proto (a bytes
attribute, as `xla_data_pb2.DotDimensionNumbers().SerializeToString()` gives it); `_proto_fields`
reads the few repeated/scalar int64 fields those messages have, so no protobuf package is needed.
Ops taking an XLA computation (XlaReduce, XlaScatter, XlaSelectAndScatter, XlaVariadicSort) are not here:
their function attributes name TF functions minixla does not import.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import op_error, register, shape_text


def _ints(v) -> list[int]:
    return [int(x) for x in np.asarray(v).reshape(-1)]


def _varint(data: bytes, i: int) -> tuple[int, int]:
    out = shift = 0
    while True:
        byte = data[i]
        i += 1
        out |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return out, i


def _proto_fields(op: str, data) -> dict[int, list[int]]:
    """field number -> its int64 values (packed or not) of a serialized proto of int fields only."""
    if isinstance(data, str):
        data = data.encode("latin-1")
    data = bytes(data)
    fields: dict[int, list[int]] = {}
    i = 0
    try:
        while i < len(data):
            key, i = _varint(data, i)
            num, wire = key >> 3, key & 7
            if wire == 0:
                v, i = _varint(data, i)
                fields.setdefault(num, []).append(v)
            elif wire == 2:
                n, i = _varint(data, i)
                end = i + n
                while i < end:
                    v, i = _varint(data, i)
                    fields.setdefault(num, []).append(v)
            else:
                raise ValueError(f"wire type {wire}")
    except (IndexError, ValueError) as err:
        raise op_error(op, f"Could not parse the dimension numbers proto: {err}") from None
    return fields


# -- dot ------------------------------------------------------------------------------------------------

def xla_dot(b, lhs, rhs, dimension_numbers=b"", precision_config=b"", preferred_element_type=None):
    f = _proto_fields("XlaDot", dimension_numbers)
    out = b.dot_general(lhs, rhs, (f.get(1, []), f.get(2, [])), (f.get(3, []), f.get(4, [])))
    if preferred_element_type is not None:
        out = b.convert(out, getattr(preferred_element_type, "as_numpy_dtype", preferred_element_type))
    return out


register("XlaDot", ("lhs", "rhs"), xla_dot, attrs={"dimension_numbers": b"", "precision_config": b""})
register("XlaDotV2", ("lhs", "rhs"), xla_dot,
         attrs={"dimension_numbers": b"", "precision_config": b"", "preferred_element_type": None}, typed=())


# -- gather --------------------------------------------------------------------------------------------

def xla_gather(b, operand, start_indices, slice_sizes, dimension_numbers=b"", indices_are_sorted=False):
    f = _proto_fields("XlaGather", dimension_numbers)
    if f.get(5) or f.get(6):
        raise op_error("XlaGather", "gather batching dimensions are not supported by minixla yet")
    ivd = f.get(4, [0])[-1]
    return b.gather(operand, start_indices, offset_dims=f.get(1, []), collapsed_slice_dims=f.get(2, []),
                    start_index_map=f.get(3, []), index_vector_dim=ivd, slice_sizes=_ints(slice_sizes))


register("XlaGather", ("operand", "start_indices", "slice_sizes"), xla_gather,
         attrs={"dimension_numbers": b"", "indices_are_sorted": False}, const_inputs=("slice_sizes",),
         typed=("operand",))


# -- convolution ---------------------------------------------------------------------------------------

def xla_conv(b, lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, feature_group_count,
             dimension_numbers=b"", precision_config=b"", preferred_element_type=None, batch_group_count=1):
    f = _proto_fields("XlaConvV2", dimension_numbers)

    def one(k):
        return f.get(k, [0])[-1]

    dn = (one(7), one(8), tuple(f.get(11, [])), one(3), one(4), tuple(f.get(6, [])), one(9), one(10),
          tuple(f.get(12, [])))
    pads = [tuple(p) for p in np.asarray(padding).reshape(-1, 2).tolist()]
    out = b.convolution(lhs, rhs, _ints(window_strides), pads, _ints(lhs_dilation), _ints(rhs_dilation), dn,
                        feature_group_count=int(np.asarray(feature_group_count)), batch_group_count=batch_group_count)
    if preferred_element_type is not None:
        out = b.convert(out, getattr(preferred_element_type, "as_numpy_dtype", preferred_element_type))
    return out


register("XlaConvV2", ("lhs", "rhs", "window_strides", "padding", "lhs_dilation", "rhs_dilation", "feature_group_count"),
         xla_conv, attrs={"dimension_numbers": b"", "precision_config": b"", "preferred_element_type": None,
                          "batch_group_count": 1},
         const_inputs=("window_strides", "padding", "lhs_dilation", "rhs_dilation", "feature_group_count"), typed=())


# -- pad, broadcast, sort, einsum, barrier, replica id ----------------------------------------------------

def xla_pad(b, input, padding_value, padding_low, padding_high, padding_interior):
    lo, hi, inner = _ints(padding_low), _ints(padding_high), _ints(padding_interior)
    if not len(lo) == len(hi) == len(inner) == len(input.shape):
        raise op_error("XlaPad", f"padding_low, padding_high and padding_interior must have {len(input.shape)} "
                                 f"elements")
    if any(v < 0 for v in inner):
        raise op_error("XlaPad", f"padding_interior must contain only non-negative values, got {inner}")
    return b.pad(input, padding_value, lo, hi, inner)


def xla_broadcast_helper(b, lhs, rhs, broadcast_dims):
    """The lower-rank operand reshaped to the other's rank, its dims at `broadcast_dims` and 1 elsewhere
    (the hlo binary op's implicit broadcast made explicit, as tf2xla's helper does)."""
    dims = _ints(broadcast_dims)
    if len(lhs.shape) == len(rhs.shape):
        return lhs, rhs
    small, big = (lhs, rhs) if len(lhs.shape) < len(rhs.shape) else (rhs, lhs)
    if len(dims) != len(small.shape):
        raise op_error("XlaBroadcastHelper", f"broadcast_dims must have size equal to the smaller argument rank; "
                                             f"broadcast_dims: [{','.join(map(str, dims))}]; argument shapes: "
                                             f"{shape_text(lhs.shape)} and {shape_text(rhs.shape)}")
    shape = [small.shape[dims.index(d)] if d in dims else 1 for d in range(len(big.shape))]
    out = b.broadcast_in_dim(small, shape, dims)
    return (out, rhs) if small is lhs else (lhs, out)


def xla_sort(b, input):
    return b.sort([input], len(input.shape) - 1)[0]


def xla_key_value_sort(b, keys, values):
    k, v = b.sort([keys, values], len(keys.shape) - 1, key=0)
    return k, v


def xla_einsum(b, a, b_, equation=""):
    return b.tf_op("Einsum", [a, b_], equation=equation)[0]


def xla_optimization_barrier(b, input):
    return tuple(input)


def xla_replica_id(b):
    return b.scalar(0, np.int32)


register("XlaPad", ("input", "padding_value", "padding_low", "padding_high", "padding_interior"), xla_pad,
         const_inputs=("padding_low", "padding_high", "padding_interior"), typed=("input", "padding_value"))
register("XlaBroadcastHelper", ("lhs", "rhs", "broadcast_dims"), xla_broadcast_helper, const_inputs=("broadcast_dims",))
register("XlaSort", ("input",), xla_sort)
register("XlaKeyValueSort", ("keys", "values"), xla_key_value_sort, typed=())
register("XlaEinsum", ("a", "b"), xla_einsum, attrs={"equation": ""})
register("XlaOptimizationBarrier", ("*input",), xla_optimization_barrier, typed=())
register("XlaReplicaId", (), xla_replica_id, typed=())


def xla_reduce_precision(b, operand, exponent_bits, mantissa_bits):
    """XLA's ReducePrecision: round the mantissa to `mantissa_bits` (to nearest even), then flush exponents
    outside the reduced range to signed zero / infinity; NaN stays NaN."""
    x = operand
    dt = np.dtype(x.dtype)
    if dt not in (np.float32, np.float64):
        raise op_error("XlaReducePrecision", f"only float32 and float64 operands are supported, got {dt.name}")
    src_m, src_e = (23, 8) if dt == np.float32 else (52, 11)
    ut = np.dtype(np.uint32 if dt == np.float32 else np.uint64)
    bits = b.bitcast_convert(x, ut)

    def k(v):
        return b.full(x.shape, v, ut)

    if mantissa_bits < src_m:
        last = 1 << (src_m - mantissa_bits)
        last_bit = b.shift_right_logical(b.and_(bits, k(last)), k(src_m - mantissa_bits))
        bits = b.and_(b.add(bits, b.add(last_bit, k((last >> 1) - 1))), k(~(last - 1) & ((1 << (8 * ut.itemsize)) - 1)))
    if exponent_bits < src_e:
        sign_mask = 1 << (8 * ut.itemsize - 1)
        exp_mask = ((1 << src_e) - 1) << src_m
        bias = (1 << (src_e - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exponent = b.and_(bits, k(exp_mask))
        overflow = b.compare(exponent, k((bias + reduced_bias) << src_m), "GT")
        underflow = b.compare(exponent, k((bias - reduced_bias) << src_m), "LE")
        signed_zero = b.and_(bits, k(sign_mask))
        bits = b.select(overflow, b.or_(signed_zero, k(exp_mask)), b.select(underflow, signed_zero, bits))
    out = b.bitcast_convert(bits, dt)
    if mantissa_bits > 0:
        out = b.select(b.compare(x, x, "NE"), x, out)
    return out


register("XlaReducePrecision", ("operand",), xla_reduce_precision, attrs={"exponent_bits": None,
                                                                          "mantissa_bits": None})
