"""Collective and communication ops: all_reduce, all_gather, reduce_scatter,
all_to_all, collective_permute, collective_broadcast, collective_reduce,
replica_id, partition_id, send, recv, infeed, outfeed, after_all.

They act on the StableHLO process grid (num_replicas x num_partitions, spec
"Parallel execution"); the region-carrying and attribute-heavy ones use the
generic form, as StableHLO prints them. `!hlo.token` orders the side effects.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import (BoolAttr, DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, Signedness,
                                   StringAttr, TensorType, UnitAttr)
from xdsl.ir import Attribute
from xdsl.irdl import (IRDLOperation, operand_def, opt_prop_def, prop_def, region_def, result_def, traits_def,
                       var_operand_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect

from minixla.dialects.hlo_ops.attrs import ChannelHandleBase, TokenTypeBase, attributes_for
from minixla.dialects.hlo_ops.base import hlo_op, int_value, require, shape, tensor
from minixla.dialects.hlo_ops.reduction import check_body
from minixla.dialects.hlo_ops.syntax import parse_operands, print_operands, resolve


def is_token(t: Attribute) -> bool:
    return isinstance(t, TokenTypeBase)


def groups_of(attr: DenseIntOrFPElementsAttr | None, what: str) -> np.ndarray:
    """A 2-D i64 constant (replica_groups, source_target_pairs) as an int array; -1 pads groups."""
    if attr is None:
        return np.zeros((0, 0), np.int64)
    t = attr.get_type()
    require(isinstance(t, TensorType) and len(t.get_shape()) == 2, f"{what} must be 2-d, got shape {list(t.get_shape())}")
    return np.asarray(attr.get_values(), dtype=np.int64).reshape(t.get_shape())


def channel_id(op: IRDLOperation) -> int:
    handle = op.properties.get("channel_handle")
    return int(handle.handle) if isinstance(handle, ChannelHandleBase) else 0


Process = tuple[int, int]  # (replica_id, partition_id)

#: collectives whose groups span partitions when they have a channel (spec: all_to_all, collective_permute,
#: collective_broadcast, collective_reduce); the others then use cross_replica_and_partition/flattened_ids
_CROSS_PARTITION_WITH_CHANNEL = ("all_to_all", "collective_permute", "collective_broadcast", "collective_reduce")


def group_strategy(op: IRDLOperation) -> str:
    """How `op` splits the process grid (spec "Collective ops"): cross_replica, cross_partition,
    cross_replica_and_partition or flattened_ids, from its channel id and use_global_device_ids."""
    ch = channel_id(op)
    if op.name.split(".", 1)[1] in _CROSS_PARTITION_WITH_CHANNEL:
        return "cross_partition" if ch > 0 else "cross_replica"
    if ch <= 0:
        return "cross_replica"
    return "flattened_ids" if "use_global_device_ids" in op.properties else "cross_replica_and_partition"


def process_groups(strategy: str, ids: np.ndarray, num_replicas: int, num_partitions: int) -> list[list[Process]]:
    """The spec's four strategies over a num_replicas x num_partitions grid; -1 entries pad
    groups, and empty `ids` means one group of everything along the strategy's axis."""
    replicas, partitions = range(num_replicas), range(num_partitions)
    rows = [[int(i) for i in row if i >= 0] for row in np.asarray(ids).tolist()]
    if strategy == "cross_replica":
        return [[(r, p) for r in row] for row in rows or [list(replicas)] for p in partitions]
    if strategy == "cross_partition":
        return [[(r, p) for p in row] for row in rows or [list(partitions)] for r in replicas]
    if strategy == "cross_replica_and_partition":
        return [[(r, p) for p in partitions for r in row] for row in rows or [list(replicas)]]
    if strategy == "flattened_ids":
        flat = rows or [list(range(num_replicas * num_partitions))]
        return [[divmod(i, num_partitions) for i in row] for row in flat]
    raise ValueError(f"unknown process-group strategy {strategy!r}")


def _check_unique_groups(groups: np.ndarray, what: str) -> None:
    """(C1) unique ids; -1 pads groups of unequal size."""
    ids = groups[groups != -1]
    require(len(set(ids.tolist())) == ids.size, f"{what} must not repeat replica ids, got {ids.tolist()}")
    require(bool((ids >= 0).all()), f"{what} must be non-negative (or -1 padding), got {ids.tolist()}")


class CollectiveOp(IRDLOperation):
    """Shared verifier pieces: replica groups and `use_global_device_ids` (C4/C5)."""

    def static_group_size(self, groups: np.ndarray) -> int | None:
        """Processes per group when the groups alone fix it; None for
        cross_replica_and_partition, whose groups also span every partition."""
        if not groups.size:
            return None
        if channel_id(self) > 0 and "use_global_device_ids" not in self.properties and self.name.split(".")[1] in (
                "all_gather", "all_reduce", "reduce_scatter"):
            return None
        return int(groups.shape[1])

    def verify_groups(self) -> np.ndarray:
        groups = groups_of(self.properties.get("replica_groups"), "replica_groups")
        _check_unique_groups(groups, "replica_groups")
        if "use_global_device_ids" in self.properties:
            require(channel_id(self) > 0, "use_global_device_ids requires channel_id > 0")
        return groups


def _reducer_types(op: IRDLOperation, region_name: str) -> None:
    block = getattr(op, region_name).block
    require(len(block.args) == 2, f"computation must take 2 arguments, got {len(block.args)}")
    for arg in block.args:
        t = tensor(arg.type, "computation argument")
        require(shape(t) == (), f"computation arguments must be 0-d tensors, got {t}")


@hlo_op("all_reduce")
class AllReduceOp(CollectiveOp):
    """Reduces `operands` across each process group with `computation` (spec all_reduce)."""

    operands_ = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleBase)
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        self.verify_groups()
        xs = [tensor(v.type, f"operand #{i}") for i, v in enumerate(self.operands)]
        for x in xs:
            check_body(self.computation, [x], "computation")
        require([r.type for r in self.results] == xs, "result types must equal operand types")


@hlo_op("all_gather")
class AllGatherOp(CollectiveOp):
    """Concatenates `operands` of each process group along `all_gather_dim`."""

    operands_ = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    all_gather_dim = prop_def(IntegerAttr)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleBase)
    use_global_device_ids = opt_prop_def(UnitAttr)

    def verify_(self) -> None:
        groups = self.verify_groups()
        dim = int_value(self.all_gather_dim)
        require(len(self.operands) == len(self.results), "needs one result per operand")
        for x, r in zip(self.operands, self.results):
            xs, rs = shape(tensor(x.type, "operand")), shape(tensor(r.type, "result"))
            require(0 <= dim < len(xs), f"all_gather_dim {dim} is out of range for rank {len(xs)}")
            size = self.static_group_size(groups)
            others_equal = len(rs) == len(xs) and all(a == b for i, (a, b) in enumerate(zip(xs, rs)) if i != dim)
            fits = rs[dim] == xs[dim] * size if size else (xs[dim] and rs[dim] % xs[dim] == 0)
            require(others_equal and bool(fits),
                    f"result shape {list(rs)} must be the operand shape {list(xs)} with dim {dim} times the group size")


@hlo_op("reduce_scatter")
class ReduceScatterOp(CollectiveOp):
    """all_reduce, then each process keeps its part along `scatter_dimension`."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    scatter_dimension = prop_def(IntegerAttr)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleBase)
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        groups = self.verify_groups()
        _reducer_types(self, "computation")
        xs, rs = shape(tensor(self.operand.type, "operand")), shape(tensor(self.result.type, "result"))
        dim = int_value(self.scatter_dimension)
        require(0 <= dim < len(xs), f"scatter_dimension {dim} is out of range for rank {len(xs)}")
        n = self.static_group_size(groups)
        others_equal = len(rs) == len(xs) and all(a == b for i, (a, b) in enumerate(zip(xs, rs)) if i != dim)
        fits = rs[dim] * n == xs[dim] if n else (rs[dim] and xs[dim] % rs[dim] == 0)
        require(others_equal and bool(fits),
                f"result shape {list(rs)} must be the operand shape {list(xs)} with dim {dim} divided by the group size")


@hlo_op("all_to_all")
class AllToAllOp(CollectiveOp):
    """Splits along `split_dimension`, exchanges the parts, concatenates along `concat_dimension`."""

    operands_ = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    split_dimension = prop_def(IntegerAttr)
    concat_dimension = prop_def(IntegerAttr)
    split_count = prop_def(IntegerAttr)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleBase)

    def verify_(self) -> None:
        groups = self.verify_groups()
        split, concat, count = (int_value(self.split_dimension), int_value(self.concat_dimension),
                                int_value(self.split_count))
        require(count > 0, f"split_count must be positive, got {count}")
        require(not groups.size or groups.shape[1] == count,
                f"replica_groups has groups of {groups.shape[1] if groups.size else 0}, split_count is {count}")
        require(len(self.operands) == len(self.results), "needs one result per operand")
        for x, r in zip(self.operands, self.results):
            xs, rs = shape(tensor(x.type, "operand")), shape(tensor(r.type, "result"))
            for name, d in (("split_dimension", split), ("concat_dimension", concat)):
                require(0 <= d < len(xs), f"{name} {d} is out of range for rank {len(xs)}")
            require(xs[split] % count == 0, f"operand dim {split} ({xs[split]}) is not divisible by {count}")
            want = list(xs)
            want[split] //= count
            want[concat] *= count
            require(list(rs) == want, f"result shape {list(rs)} must be {want}")


@hlo_op("collective_permute")
class CollectivePermuteOp(IRDLOperation):
    """Sends `operand` from each source to its target (`source_target_pairs`); others get zeros."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    source_target_pairs = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleBase)

    def verify_(self) -> None:
        pairs = groups_of(self.source_target_pairs, "source_target_pairs")
        require(pairs.shape[1] == 2 or not pairs.size, f"source_target_pairs must be N x 2, got {list(pairs.shape)}")
        if pairs.size:
            _check_unique_groups(pairs[:, :1], "the sources of source_target_pairs")
            _check_unique_groups(pairs[:, 1:], "the targets of source_target_pairs")
        require(self.operand.type == self.result.type, f"result type {self.result.type} must be {self.operand.type}")


@hlo_op("collective_broadcast")
class CollectiveBroadcastOp(CollectiveOp):
    """Each group gets the operands of its root (first member, or `operands[N]` with has_dynamic_root)."""

    operands_ = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleBase)
    has_dynamic_root = opt_prop_def(UnitAttr)

    def verify_(self) -> None:
        self.verify_groups()
        n_data = len(self.operands) - (1 if self.has_dynamic_root else 0)
        require(n_data >= 1, "needs at least one data operand")
        require(len(self.results) == n_data, f"needs {n_data} results, got {len(self.results)}")
        for x, r in zip(self.operands, self.results):
            require(x.type == r.type, f"result type {r.type} must be {x.type}")
        if self.has_dynamic_root:
            roots = tensor(self.operands[-1].type, "root operand")
            require(shape(roots) == (n_data,) and isinstance(roots.element_type, IntegerType),
                    f"the root operand must be tensor<{n_data}xi32>, got {roots}")


@hlo_op("collective_reduce")
class CollectiveReduceOp(CollectiveOp):
    """Reduces `operands` across each group onto the group's root; the other processes get zeros."""

    operands_ = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleBase)
    has_dynamic_root = opt_prop_def(UnitAttr)
    computation = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        self.verify_groups()
        _reducer_types(self, "computation")
        n_data = len(self.operands) - (1 if self.has_dynamic_root else 0)
        require(len(self.results) == n_data, f"needs {n_data} results, got {len(self.results)}")


class _ProcessIdOp(IRDLOperation):
    """`%id = hlo.replica_id : tensor<ui32>` (the position of this process in the grid)."""

    result = result_def(TensorType)

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls.create(result_types=[parser.parse_type()])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        t = tensor(self.result.type, "result")
        et = t.element_type
        require(shape(t) == () and isinstance(et, IntegerType) and et.width.data == 32
                and et.signedness.data == Signedness.UNSIGNED, f"result must be tensor<ui32>, got {t}")


@hlo_op("replica_id")
class ReplicaIdOp(_ProcessIdOp):
    """The replica id of the current process."""


@hlo_op("partition_id")
class PartitionIdOp(_ProcessIdOp):
    """The partition id of the current process."""


@hlo_op("after_all")
class AfterAllOp(IRDLOperation):
    """`%t = hlo.after_all %a, %b : !hlo.token`: a token after all input tokens."""

    inputs = var_operand_def(TokenTypeBase)
    result = result_def(TokenTypeBase)

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operands(parser)
        parser.parse_punctuation(":")
        token = parser.parse_type()
        return cls.create(operands=resolve(parser, operands, [token] * len(operands), pos), result_types=[token])

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string(" ")
            print_operands(printer, self.inputs)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


def _payload_and_token(types: Sequence[Attribute], what: str) -> None:
    require(bool(types) and is_token(types[-1]), f"the last {what} must be a token")
    for t in types[:-1]:
        require(isinstance(t, TensorType), f"{what} payloads must be tensors, got {t}")


@hlo_op("send")
class SendOp(IRDLOperation):
    """Sends `inputs` on channel `channel_handle.handle`; yields a token."""

    operands_ = var_operand_def()
    result = result_def(TokenTypeBase)
    channel_handle = prop_def(ChannelHandleBase)
    is_host_transfer = opt_prop_def(BoolAttr)
    source_target_pairs = opt_prop_def(DenseIntOrFPElementsAttr)

    def verify_(self) -> None:
        _payload_and_token([o.type for o in self.operands], "operand")


@hlo_op("recv")
class RecvOp(IRDLOperation):
    """Receives payloads from channel `channel_handle.handle`; the last result is a token."""

    token = operand_def(TokenTypeBase)
    results_ = var_result_def()
    channel_handle = prop_def(ChannelHandleBase)
    is_host_transfer = opt_prop_def(BoolAttr)
    source_target_pairs = opt_prop_def(DenseIntOrFPElementsAttr)

    def verify_(self) -> None:
        _payload_and_token([r.type for r in self.results], "result")


@hlo_op("infeed")
class InfeedOp(IRDLOperation):
    """Reads the next values of this process's infeed; the last result is a token."""

    token = operand_def(TokenTypeBase)
    results_ = var_result_def()
    infeed_config = opt_prop_def(StringAttr)
    layout = opt_prop_def(Attribute)

    def verify_(self) -> None:
        _payload_and_token([r.type for r in self.results], "result")


@hlo_op("outfeed")
class OutfeedOp(IRDLOperation):
    """Writes `inputs` to this process's outfeed; yields a token."""

    operands_ = var_operand_def()
    result = result_def(TokenTypeBase)
    outfeed_config = opt_prop_def(StringAttr)

    def verify_(self) -> None:
        _payload_and_token([o.type for o in self.operands], "operand")


def token_type(op_name: str) -> Attribute:
    """`!hlo.token` or `!stablehlo.token`, matching the op's dialect."""
    return attributes_for(op_name).token()


__all__ = ["AfterAllOp", "group_strategy", "process_groups", "AllGatherOp", "AllReduceOp", "AllToAllOp", "CollectiveBroadcastOp", "CollectivePermuteOp",
           "CollectiveReduceOp", "InfeedOp", "OutfeedOp", "PartitionIdOp", "RecvOp", "ReduceScatterOp", "ReplicaIdOp",
           "SendOp", "channel_id", "groups_of", "is_token", "token_type"]
