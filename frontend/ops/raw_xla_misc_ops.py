"""More raw ops built from existing rules: Grappler's fused ops (_UnaryOpsComposition, _FusedConv2D,
_FusedBatchNormEx), the TPU tiling ops XlaSplitND / XlaConcatND (also on a variable: ReadVariableXlaSplitND,
AssignVariableXlaConcatND), the SPMD shape annotations, and the
collectives with one-process (or all-replica) semantics: CollectiveReduceV2, CollectiveAssignGroupV2,
XlaReduceScatter.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from minixla.frontend.errors import UnimplementedError, at_user_line
from minixla.frontend.ops import raw_variable_ops
from minixla.frontend.ops.collective_ops import num_replicas
from minixla.frontend.ops.registry import REGISTRY, op_error, register


def _rule(name):
    return REGISTRY[name].rule


def _unimplemented(op: str, what: str) -> UnimplementedError:
    return UnimplementedError(at_user_line(f"{op}: {what} is not implemented in minixla [Op:{op}]"))


# -- Grappler's fused ops ----------------------------------------------------------------------------

def unary_ops_composition(b, x, op_names=(), T=None):
    """The unary ops named by `op_names`, applied in order (Grappler fuses chains of them)."""
    for name in op_names:
        name = name.decode() if isinstance(name, bytes) else str(name)
        opdef = REGISTRY.get(name)
        if opdef is None or opdef.rule is None or len(opdef.inputs) != 1:
            raise op_error("_UnaryOpsComposition", f"{name} is not a unary op")
        x = opdef.rule(b, x)
    return x


register("_UnaryOpsComposition", ("x",), unary_ops_composition, attrs={"op_names": (), "T": None})

_ACTIVATIONS = {"Relu": "Relu", "Relu6": "Relu6", "Elu": "Elu", "LeakyRelu": "LeakyRelu", "Tanh": "Tanh",
                "Sigmoid": "Sigmoid"}


def _activation(b, op, name, y, leakyrelu_alpha):
    if name == "LeakyRelu":
        return _rule("LeakyRelu")(b, y, alpha=leakyrelu_alpha)
    if name not in _ACTIVATIONS:
        raise _unimplemented(op, f"the fused activation {name!r}")
    return _rule(_ACTIVATIONS[name])(b, y)


def fused_conv2d(b, input, filter, args, strides=(1, 1, 1, 1), padding="VALID", explicit_paddings=(),
                 data_format="NHWC", filter_format="HWIO", dilations=(1, 1, 1, 1), use_cudnn_on_gpu=True,
                 fused_ops=(), epsilon=1e-4, leakyrelu_alpha=0.2, num_args=None, num_host_args=0, T=None, TArgs=None):
    """Conv2D, then BiasAdd (args = [bias]) or inference FusedBatchNorm (args = [scale, offset, mean,
    variance]), then an optional activation: what Grappler's remapper fused."""
    op = "_FusedConv2D"
    if filter_format != "HWIO":
        raise _unimplemented(op, f"filter_format={filter_format!r}")
    fused = [f.decode() if isinstance(f, bytes) else str(f) for f in fused_ops]
    y = _rule("Conv2D")(b, input, filter, strides=strides, padding=padding, data_format=data_format,
                        dilations=dilations, explicit_paddings=explicit_paddings)
    args = list(args)
    if fused[:1] == ["BiasAdd"]:
        if len(args) != 1:
            raise op_error(op, f"BiasAdd needs 1 argument, got {len(args)}")
        y = _rule("BiasAdd")(b, y, args[0], data_format=data_format)
    elif fused[:1] == ["FusedBatchNorm"]:
        if len(args) != 4:
            raise op_error(op, f"FusedBatchNorm needs 4 arguments, got {len(args)}")
        y = _rule("FusedBatchNormV3")(b, y, *args, epsilon=epsilon, data_format=data_format, is_training=False)[0]
    elif fused:
        raise _unimplemented(op, f"fused_ops={fused}")
    for name in fused[1:]:
        y = _activation(b, op, name, y, leakyrelu_alpha)
    return y


register("_FusedConv2D", ("input", "filter", "*args"), fused_conv2d, typed=("input", "filter"),
         attrs={"strides": (1, 1, 1, 1), "padding": "VALID", "explicit_paddings": (), "data_format": "NHWC",
                "filter_format": "HWIO", "dilations": (1, 1, 1, 1), "use_cudnn_on_gpu": True, "fused_ops": (),
                "epsilon": 1e-4, "leakyrelu_alpha": 0.2, "num_args": None, "num_host_args": 0, "T": None,
                "TArgs": None})


def fused_batch_norm_ex(b, x, scale, offset, mean, variance, side_input, epsilon=1e-4, exponential_avg_factor=1.0,
                        num_side_inputs=0, activation_mode="Identity", data_format="NHWC", is_training=True,
                        T=None, U=None):
    """FusedBatchNormV3, plus the side input, then the activation (Identity or Relu), on y."""
    outs = list(_rule("FusedBatchNormV3")(b, x, scale, offset, mean, variance, epsilon=epsilon,
                                          exponential_avg_factor=exponential_avg_factor, data_format=data_format,
                                          is_training=is_training))
    for s in side_input:
        outs[0] = b.add(outs[0], s)
    if activation_mode == "Relu":
        outs[0] = _rule("Relu")(b, outs[0])
    elif activation_mode != "Identity":
        raise _unimplemented("_FusedBatchNormEx", f"activation_mode={activation_mode!r}")
    return tuple(outs)


register("_FusedBatchNormEx", ("x", "scale", "offset", "mean", "variance", "*side_input"), fused_batch_norm_ex,
         typed=("x",), attrs={"epsilon": 1e-4, "exponential_avg_factor": 1.0, "num_side_inputs": 0,
                              "activation_mode": "Identity", "data_format": "NHWC", "is_training": True,
                              "T": None, "U": None})


# -- TPU tiling: XlaSplitND / XlaConcatND ------------------------------------------------------------------

def _tiling(op, shape, counts, paddings):
    counts = [int(c) for c in counts]
    pads = [int(p) for p in paddings] or [0] * len(counts)
    if len(counts) != len(shape) or len(pads) != len(shape) or any(c <= 0 for c in counts) or any(p < 0 for p in pads):
        raise op_error(op, f"need one positive split count and one non-negative padding per dimension of "
                           f"{list(shape)}, got {counts} and {pads}")
    return counts, pads


def split_nd(b, input, num_splits=(), paddings=(), N=None, T=None):
    """Pad `input` at the end of each dimension, then cut it into num_splits tiles per dimension; the tiles in
    row-major order."""
    counts, pads = _tiling("XlaSplitND", input.shape, num_splits, paddings)
    full = [n + p for n, p in zip(input.shape, pads)]
    if any(f % c for f, c in zip(full, counts)):
        raise op_error("XlaSplitND", f"the padded shape {full} is not divisible by num_splits {counts}")
    x = b.pad(input, b.scalar(0, input.dtype), [0] * len(full), pads) if any(pads) else input
    tile = [f // c for f, c in zip(full, counts)]
    outs = []
    for idx in np.ndindex(*counts):
        start = [i * t for i, t in zip(idx, tile)]
        outs.append(b.slice(x, start, [s + t for s, t in zip(start, tile)]))
    return tuple(outs)


def concat_nd(b, inputs, num_concats=(), paddings=(), N=None, T=None):
    """The inverse: tiles (row-major) concatenated per dimension, then the end padding cut off."""
    tiles = list(inputs)
    counts, pads = _tiling("XlaConcatND", tiles[0].shape, num_concats, paddings)
    if len(tiles) != int(np.prod(counts)):
        raise op_error("XlaConcatND", f"{len(tiles)} inputs for num_concats {counts}")
    for d in reversed(range(len(counts))):  # join the last dimension's runs first
        k = counts[d]
        tiles = [b.concatenate(tiles[i:i + k], d) for i in range(0, len(tiles), k)]
    out = tiles[0]
    return b.slice(out, [0] * len(out.shape), [n - p for n, p in zip(out.shape, pads)]) if any(pads) else out


register("XlaSplitND", ("input",), split_nd, attrs={"num_splits": (), "paddings": (), "N": None, "T": None})
register("XlaConcatND", ("*inputs",), concat_nd, attrs={"num_concats": (), "paddings": (), "N": None, "T": None})


# -- SPMD annotations: with one device a replicated/maximal sharding leaves the shape alone -------------

def _sharding_type(data) -> int:
    """OpSharding.type of a serialized xla OpSharding (field 1, a varint written first); 0 (REPLICATED) if
    absent."""
    data = data.encode("latin-1") if isinstance(data, str) else bytes(data)
    return data[1] if data[:1] == b"\x08" and len(data) > 1 else 0


def _spmd(op):
    def rule(b, input, manual_sharding="", full_shape=None, dim=-1, unspecified_dims=(), T=None):
        kind = _sharding_type(manual_sharding)
        if kind not in (0, 1):  # REPLICATED, MAXIMAL
            raise _unimplemented(op, f"a tiled or manual sharding (OpSharding type {kind}) on one device")
        if full_shape is not None and [int(d) for d in full_shape] != list(input.shape):
            raise op_error(op, f"full_shape {list(full_shape)} differs from the input's {list(input.shape)} under a "
                               "replicated sharding")
        return input
    return rule


register("XlaSpmdFullToShardShape", ("input",), _spmd("XlaSpmdFullToShardShape"),
         attrs={"manual_sharding": "", "dim": -1, "unspecified_dims": (), "T": None})
register("XlaSpmdShardToFullShape", ("input",), _spmd("XlaSpmdShardToFullShape"),
         attrs={"manual_sharding": "", "full_shape": None, "dim": -1, "unspecified_dims": (), "T": None})


# -- collectives ---------------------------------------------------------------------------------------

_MERGE = {"Add": "add", "Mul": "multiply", "Min": "minimum", "Max": "maximum"}


def collective_reduce_v2(b, input, group_size, group_key, instance_key, ordering_token, merge_op="Add",
                         final_op="Id", communication_hint="auto", timeout_seconds=0.0, is_stateless=False,
                         Nordering_token=0, max_subdivs_per_device=-1, T=None):
    """All-reduce over the group of every replica (one process: the identity), then Id or Div by its size."""
    op = "CollectiveReduceV2"
    n = int(np.asarray(group_size))
    if n != num_replicas():
        raise _unimplemented(op, f"a group of {n} of the {num_replicas()} replicas")
    if merge_op not in _MERGE or final_op not in ("Id", "Div"):
        raise op_error(op, f"merge_op must be one of {sorted(_MERGE)} and final_op Id or Div, got {merge_op!r}, "
                           f"{final_op!r}")
    if type(b).__name__ == "TracingBuilder":  # tf2xla's lowering (TF's messages)
        if final_op != "Id":
            raise op_error(op, "Only 'Id' is supported as a final operation for all-reduce tf2xla lowering")
        if merge_op not in ("Add", "Mul"):
            raise op_error(op, f"Only Add and Mul reduction supported for tf2xla all-reduce lowering, got: {merge_op}")
    out = b.all_reduce(input, _MERGE[merge_op])
    if final_op == "Div":
        out = b.divide(out, b.full(tuple(input.shape), n, np.dtype(input.dtype)))
    return out


register("CollectiveReduceV2", ("input", "group_size", "group_key", "instance_key", "*ordering_token"),
         collective_reduce_v2, const_inputs=("group_size", "group_key", "instance_key"), typed=("input",),
         attrs={"merge_op": "Add", "final_op": "Id", "communication_hint": "auto", "timeout_seconds": 0.0,
                "is_stateless": False, "Nordering_token": 0, "max_subdivs_per_device": -1, "T": None})


def collective_assign_group_v2(b, group_assignment, device_index, base_key):
    """(group size, group key) of `device_index`'s row: the host kernel's (the row's length, base_key + the
    row's index); tf2xla's kernel answers (all devices, 0)."""
    groups = np.asarray(group_assignment)
    if groups.ndim != 2:
        raise op_error("CollectiveAssignGroupV2", f"group_assignment must be 2-D, got {groups.ndim}-D")
    if type(b).__name__ != "EagerBuilder":
        return b.constant(np.int32(groups.size)), b.constant(np.int32(0))
    d = int(np.asarray(device_index))
    rows = [r for r in range(groups.shape[0]) if d in groups[r]]
    if not rows:
        raise op_error("CollectiveAssignGroupV2", f"device_index {d} is not in group_assignment {groups.tolist()}")
    return b.constant(np.int32(groups.shape[1])), b.constant(np.int32(int(np.asarray(base_key)) + rows[0]))


register("CollectiveAssignGroupV2", ("group_assignment", "device_index", "base_key"), collective_assign_group_v2,
         const_inputs=("group_assignment", "device_index", "base_key"), typed=(), stateful=True)
# stateful: never constant-folded (the host answer would replace XLA's under jit)


def xla_reduce_scatter(b, input, group_assignment, scatter_dimension, reduce_op="Add"):
    """Reduce over the replicas, each keeping its slice of scatter_dimension: with one replica, the input."""
    groups = np.asarray(group_assignment)
    if num_replicas() != 1 or groups.size > 1:
        raise _unimplemented("XlaReduceScatter", f"group_assignment {groups.tolist()} (one replica only)")
    if reduce_op not in (*_MERGE, "Mean"):
        raise op_error("XlaReduceScatter", f"unknown reduce_op {reduce_op!r}")
    d = int(np.asarray(scatter_dimension))
    if not 0 <= d < len(input.shape):
        raise op_error("XlaReduceScatter", f"scatter_dimension {d} out of range for rank {len(input.shape)}")
    return input


register("XlaReduceScatter", ("input", "group_assignment", "scatter_dimension"), xla_reduce_scatter,
         const_inputs=("group_assignment", "scatter_dimension"), attrs={"reduce_op": "Add"})


# -- Xla* ops whose computation must be one of hlo's named combiners -------------------------------------
# The builder's reduce_window / scatter / select_and_scatter take a named combiner, so the traced
# computation (frontend/api/raw_functional.py) must be one binary op of its two arguments.

_BINARY = {"tf.AddV2": "add", "tf.Add": "add", "tf.Mul": "multiply", "tf.Maximum": "maximum",
           "tf.Minimum": "minimum", "tf.LogicalAnd": "and", "tf.LogicalOr": "or"}
_SELECT = {"tf.GreaterEqual": "GE", "tf.Greater": "GT", "tf.LessEqual": "LE", "tf.Less": "LT"}


def _combiner(op: str, ref, table: dict, what: str, replace_ok: bool = False) -> str:
    from minixla.frontend.ops.control_flow_ops import lookup

    f = lookup(ref)
    block = f.body.block
    ops = list(block.ops)
    args = list(block.args)
    ret = ops[-1]
    if replace_ok and len(ops) == 1 and list(ret.operands) == [args[1]]:
        return "replace"
    if len(ops) == 2 and ops[0].name in table and list(ret.operands) == list(ops[0].results):
        operands = list(ops[0].operands)
        commutes = table is _BINARY
        if operands == args[:2] or (commutes and operands == args[1::-1]):
            return table[ops[0].name]
    raise _unimplemented(op, f"a {what} other than one of {sorted(set(table))} of its two arguments "
                             f"(got @{f.sym_name.data} with ops {[o.name for o in ops[:-1]]})")


def _ints(v) -> list[int]:
    return [int(x) for x in np.asarray(v).reshape(-1)]


def xla_reduce_window(b, input, init_value, window_dimensions, window_strides, base_dilations, window_dilations,
                      padding, computation=None, T=None, Tindices=None):
    op = "XlaReduceWindow"
    if any(d != 1 for d in _ints(base_dilations) + _ints(window_dilations)):
        raise _unimplemented(op, "base or window dilation")
    pads = np.asarray(padding).reshape(-1, 2).tolist()
    return b.reduce_window(input, init_value, _ints(window_dimensions), _ints(window_strides), pads,
                           _combiner(op, computation, _BINARY, "computation"))


register("XlaReduceWindow", ("input", "init_value", "window_dimensions", "window_strides", "base_dilations",
                             "window_dilations", "padding"), xla_reduce_window, typed=("input", "init_value"),
         const_inputs=("window_dimensions", "window_strides", "base_dilations", "window_dilations", "padding"),
         attrs={"computation": None, "T": None, "Tindices": None})


def xla_select_and_scatter(b, operand, window_dimensions, window_strides, padding, source, init_value, select=None,
                           scatter=None, T=None, Tindices=None):
    op = "XlaSelectAndScatter"
    return b.select_and_scatter(operand, source, init_value, _ints(window_dimensions), _ints(window_strides),
                                np.asarray(padding).reshape(-1, 2).tolist(),
                                _combiner(op, select, _SELECT, "select"), _combiner(op, scatter, _BINARY, "scatter"))


register("XlaSelectAndScatter", ("operand", "window_dimensions", "window_strides", "padding", "source", "init_value"),
         xla_select_and_scatter, const_inputs=("window_dimensions", "window_strides", "padding"),
         typed=("operand", "source", "init_value"),
         attrs={"select": None, "scatter": None, "T": None, "Tindices": None})


def xla_scatter(b, operand, scatter_indices, updates, update_computation=None, dimension_numbers=b"",
                indices_are_sorted=False, T=None, Tindices=None):
    """hlo.scatter with xla's ScatterDimensionNumbers (a serialized proto, as XlaGather's)."""
    from minixla.frontend.ops.raw_xla_ops import _proto_fields

    op = "XlaScatter"
    f = _proto_fields(op, dimension_numbers)
    return b.scatter(operand, scatter_indices, updates, f.get(1, []), f.get(2, []), f.get(3, []), f.get(4, [0])[0],
                     _combiner(op, update_computation, _BINARY, "update_computation", replace_ok=True),
                     f.get(5, []), f.get(6, []))


register("XlaScatter", ("operand", "scatter_indices", "updates"), xla_scatter, typed=("operand", "updates"),
         attrs={"update_computation": None, "dimension_numbers": b"", "indices_are_sorted": False, "T": None,
                "Tindices": None})


# -- XlaDequantize -------------------------------------------------------------------------------------------

def xla_dequantize(b, input, min_range=0.0, max_range=1.0, mode="MIN_COMBINED", transpose_output=False):
    """Each uint32 holds four uint8 (most significant first); MIN_COMBINED maps them to
    min_range + v * (max_range - min_range) / 255, computed in bfloat16 op by op as xla::Dequantize does."""
    op = "XlaDequantize"
    if mode != "MIN_COMBINED":
        raise _unimplemented(op, f"mode={mode!r} (MIN_COMBINED is)")
    if np.dtype(input.dtype) != np.uint32:
        raise op_error(op, f"input must be uint32, got {np.dtype(input.dtype).name}")
    shape = list(input.shape)
    u32 = np.dtype(np.uint32)
    wide = b.broadcast_in_dim(input, shape + [4], list(range(len(shape))))
    shifts = b.broadcast_in_dim(b.constant(np.array([24, 16, 8, 0], u32)), shape + [4], [len(shape)])
    v = b.and_(b.shift_right_logical(wide, shifts), b.full(shape + [4], 0xFF, u32))
    bf16 = np.dtype(ml_dtypes.bfloat16)
    x = b.convert(b.reshape(v, shape[:-1] + [shape[-1] * 4] if shape else [4]), bf16)
    scale = (float(max_range) - float(min_range)) / 255.0
    x = b.add(b.multiply(x, b.full(x.shape, scale, bf16)), b.full(x.shape, float(min_range), bf16))
    if transpose_output:
        if len(x.shape) != 2:
            raise op_error(op, f"transpose_output needs a 2-D input, got shape {shape}")
        x = b.transpose(x, [1, 0])
    return x


register("XlaDequantize", ("input",), xla_dequantize, attrs={"min_range": 0.0, "max_range": 1.0,
                                                             "mode": "MIN_COMBINED", "transpose_output": False})


# -- the tiling ops on a resource variable (raw_state_variables' handles: READS / WRITES) ----------------

def _read_split_nd(b, resource, num_splits=(), paddings=(), N=None, T=None):
    return split_nd(b, resource, num_splits, paddings)


def _assign_concat_nd(b, resource, inputs, num_concats=(), paddings=(), N=None, T=None):
    value = concat_nd(b, inputs, num_concats, paddings)
    if tuple(value.shape) != tuple(resource.shape):
        raise op_error("AssignVariableXlaConcatND", f"the concatenated shape {list(value.shape)} differs from the "
                                                    f"variable's {list(resource.shape)}")
    return value


register("ReadVariableXlaSplitND", ("resource",), _read_split_nd,
         attrs={"num_splits": (), "paddings": (), "N": None, "T": None})
register("AssignVariableXlaConcatND", ("resource", "*inputs"), _assign_concat_nd,
         attrs={"num_concats": (), "paddings": (), "N": None, "T": None})
raw_variable_ops.READS["ReadVariableXlaSplitND"] = ("resource",)
raw_variable_ops.WRITES["AssignVariableXlaConcatND"] = ("resource",)
