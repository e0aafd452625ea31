"""gather and scatter (generic form, as StableHLO prints them)."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, TensorType
from xdsl.irdl import (IRDLOperation, SameVariadicOperandSize, operand_def, opt_prop_def, prop_def, region_def,
                       result_def, traits_def, var_operand_def, var_result_def)
from xdsl.traits import Pure, RecursiveMemoryEffect

from minixla.dialects.hlo_ops.attrs import GatherDimensionNumbersBase, ScatterDimensionNumbersBase
from minixla.dialects.hlo_ops.base import check_dims_in_range, hlo_op, ints, is_integer, require, same_shapes, shape, tensor
from minixla.dialects.hlo_ops.reduction import check_body


def _sorted_unique(dims, what: str) -> None:
    require(list(dims) == sorted(set(dims)), f"{what} must be sorted and unique, got {list(dims)}")


def _index_vector_size(indices: TensorType, index_vector_dim: int) -> tuple[int, list[int]]:
    """(length of each index vector, the batch shape of the indices)."""
    s = list(shape(indices))
    require(0 <= index_vector_dim <= len(s),
            f"index_vector_dim {index_vector_dim} is out of range for indices of rank {len(s)}")
    if index_vector_dim == len(s):
        return 1, s
    return s[index_vector_dim], s[:index_vector_dim] + s[index_vector_dim + 1:]


@hlo_op("gather")
class GatherOp(IRDLOperation):
    """Slices of `operand` at `start_indices` (StableHLO gather)."""

    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    dimension_numbers = prop_def(GatherDimensionNumbersBase)
    slice_sizes = prop_def(DenseArrayBase)
    indices_are_sorted = opt_prop_def(BoolAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        idx = tensor(self.start_indices.type, "start_indices")
        r = tensor(self.result.type, "result")
        require(is_integer(idx.element_type), f"start_indices must have an integer element type, got {idx}")
        require(r.element_type == x.element_type, f"result element type {r.element_type} must be {x.element_type}")
        dn = self.dimension_numbers
        rank = len(shape(x))
        sizes = ints(self.slice_sizes)
        require(len(sizes) == rank, f"slice_sizes {list(sizes)} needs {rank} entries (operand rank)")
        for d, s in enumerate(sizes):
            require(0 <= s <= shape(x)[d], f"slice_sizes[{d}] = {s} must be in [0, {shape(x)[d]}]")
        _sorted_unique(dn.offset_dims, "offset_dims")
        _sorted_unique(dn.collapsed_slice_dims, "collapsed_slice_dims")
        check_dims_in_range(dn.collapsed_slice_dims + dn.operand_batching_dims, rank,
                            "collapsed_slice_dims and operand_batching_dims")
        for d in dn.collapsed_slice_dims + dn.operand_batching_dims:
            require(sizes[d] <= 1, f"slice_sizes[{d}] must be 0 or 1 for a collapsed or batching dimension, got {sizes[d]}")
        vec, batch_shape = _index_vector_size(idx, dn.index_vector_dim)
        require(len(dn.start_index_map) == vec,
                f"start_index_map {list(dn.start_index_map)} must have {vec} entries (the index vector size)")
        check_dims_in_range(dn.start_index_map, rank, "start_index_map")
        require(len(dn.operand_batching_dims) == len(dn.start_indices_batching_dims),
                "operand_batching_dims and start_indices_batching_dims must have the same length")
        offset_sizes = [s for d, s in enumerate(sizes) if d not in dn.collapsed_slice_dims + dn.operand_batching_dims]
        require(len(dn.offset_dims) == len(offset_sizes),
                f"offset_dims {list(dn.offset_dims)} must have {len(offset_sizes)} entries")
        out_rank = len(batch_shape) + len(offset_sizes)
        check_dims_in_range(dn.offset_dims, out_rank, "offset_dims")
        expected, b, o = [], iter(batch_shape), iter(offset_sizes)
        for d in range(out_rank):
            expected.append(next(o) if d in dn.offset_dims else next(b))
        require(list(shape(r)) == expected, f"result shape {list(shape(r))} must be {expected}")


@hlo_op("scatter")
class ScatterOp(IRDLOperation):
    """Write `updates` into `inputs` at `scatter_indices`, combining with `update_computation`."""

    inputs = var_operand_def(TensorType)
    scatter_indices = operand_def(TensorType)
    updates = var_operand_def(TensorType)
    scatter_dimension_numbers = prop_def(ScatterDimensionNumbersBase)
    indices_are_sorted = opt_prop_def(BoolAttr)
    unique_indices = opt_prop_def(BoolAttr)
    results_ = var_result_def(TensorType)
    update_computation = region_def("single_block")
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        xs = [tensor(v.type, f"input #{i}") for i, v in enumerate(self.inputs)]
        us = [tensor(v.type, f"update #{i}") for i, v in enumerate(self.updates)]
        idx = tensor(self.scatter_indices.type, "scatter_indices")
        require(len(xs) >= 1, "needs at least one input")
        require(is_integer(idx.element_type), f"scatter_indices must have an integer element type, got {idx}")
        dn = self.scatter_dimension_numbers
        rank = len(shape(xs[0]))
        same_shapes(xs, "input")
        same_shapes(us, "update")
        require(len(us) == len(xs), f"expected {len(xs)} updates (one per input), got {len(us)}")
        for i, (x, u) in enumerate(zip(xs, us)):
            require(u.element_type == x.element_type,
                    f"update #{i} element type {u.element_type} must equal input #{i}'s {x.element_type}")
        _sorted_unique(dn.update_window_dims, "update_window_dims")
        _sorted_unique(dn.inserted_window_dims, "inserted_window_dims")
        check_dims_in_range(dn.inserted_window_dims + dn.input_batching_dims, rank,
                            "inserted_window_dims and input_batching_dims")
        vec, batch_shape = _index_vector_size(idx, dn.index_vector_dim)
        require(len(dn.scatter_dims_to_operand_dims) == vec,
                f"scatter_dims_to_operand_dims must have {vec} entries (the index vector size)")
        check_dims_in_range(dn.scatter_dims_to_operand_dims, rank, "scatter_dims_to_operand_dims")
        u_shape = list(shape(us[0]))
        check_dims_in_range(dn.update_window_dims, len(u_shape), "update_window_dims")
        scatter_dims = [s for d, s in enumerate(u_shape) if d not in dn.update_window_dims]
        require(scatter_dims == batch_shape,
                f"update scatter dimensions {scatter_dims} must match the indices batch shape {batch_shape}")
        window_operand_dims = [d for d in range(rank) if d not in dn.inserted_window_dims + dn.input_batching_dims]
        require(len(dn.update_window_dims) == len(window_operand_dims),
                f"update_window_dims must have {len(window_operand_dims)} entries, got {len(dn.update_window_dims)}")
        for ud, od in zip(dn.update_window_dims, window_operand_dims):
            require(u_shape[ud] <= shape(xs[0])[od],
                    f"update dimension {ud} ({u_shape[ud]}) exceeds input dimension {od} ({shape(xs[0])[od]})")
        check_body(self.update_computation, xs, "update_computation")
        require([r.type for r in self.results] == xs, "result types must equal input types")
