"""`TracingBuilder`: the builder that emits `hlo` ops into an xDSL block.

Values are `TValue`s wrapping SSA values; result types come from the shared
inference in `Builder`, so the emitted IR verifies by construction. Regions
(reduce bodies) are built by running the body function on a nested
`TracingBuilder` over a fresh block of scalar arguments.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from backends.interpreter.dtypes import element_type, numpy_dtype, numpy_to_dense_attr
from dialects import hlo
from dialects.hlo_ops.attrs import HLO_ATTRS, ComparisonDirection, ComparisonType
from dialects.hlo_ops.syntax import i64_array

from .builder import Builder, Spec


def tensor_type(spec) -> TensorType:
    return TensorType(element_type(np.dtype(spec.dtype)), list(spec.shape))


class TValue:
    """An SSA value seen through the builder API (`.shape`, `.dtype`)."""

    __slots__ = ("ssa", "shape", "dtype")

    def __init__(self, ssa: SSAValue):
        self.ssa = ssa
        t = ssa.type
        assert isinstance(t, TensorType), t
        self.shape = tuple(t.get_shape())
        self.dtype = numpy_dtype(t.element_type)

    def __repr__(self) -> str:
        return f"TValue({self.ssa.type})"


def _i64(v: int) -> IntegerAttr:
    return IntegerAttr(int(v), i64)


def _props(op: str, attrs: dict) -> dict:
    """Builder attributes -> the hlo op's properties."""
    if op == "compare":
        p = {"comparison_direction": HLO_ATTRS.comparison_direction(ComparisonDirection(attrs["direction"]))}
        if attrs.get("compare_type"):
            p["compare_type"] = HLO_ATTRS.comparison_type(ComparisonType(attrs["compare_type"]))
        return p
    if op == "iota":
        return {"iota_dimension": _i64(attrs["dimension"])}
    if op == "broadcast_in_dim":
        return {"broadcast_dimensions": i64_array(attrs["dims"])}
    if op == "transpose":
        return {"permutation": i64_array(attrs["perm"])}
    if op == "slice":
        return {"start_indices": i64_array(attrs["start"]), "limit_indices": i64_array(attrs["limit"]),
                "strides": i64_array(attrs["strides"])}
    if op == "dynamic_slice":
        return {"slice_sizes": i64_array(attrs["sizes"])}
    if op == "concatenate":
        return {"dimension": _i64(attrs["dimension"])}
    if op == "pad":
        return {"edge_padding_low": i64_array(attrs["low"]), "edge_padding_high": i64_array(attrs["high"]),
                "interior_padding": i64_array(attrs["interior"])}
    if op == "reverse":
        return {"dimensions": i64_array(attrs["dims"])}
    if op == "reduce":
        return {"dimensions": i64_array(attrs["dims"])}
    if op == "dot_general":
        return {"dot_dimension_numbers": HLO_ATTRS.dot.get(
            lhs_batching_dimensions=attrs["lb"], rhs_batching_dimensions=attrs["rb"],
            lhs_contracting_dimensions=attrs["lc"], rhs_contracting_dimensions=attrs["rc"])}
    if op == "reduce_window":
        rank = len(attrs["window"])
        pads = np.array(attrs["padding"], dtype=np.int64).reshape(rank, 2)
        return {"window_dimensions": i64_array(attrs["window"]), "window_strides": i64_array(attrs["strides"]),
                "padding": numpy_to_dense_attr(pads, TensorType(i64, [rank, 2]))}
    return {}


class TracingBuilder(Builder):
    """Appends ops to `block` (before `before`, when given)."""

    def __init__(self, block: Block, before: Operation | None = None):
        self.block = block
        self.before = before

    def _insert(self, op: Operation) -> Operation:
        if self.before is not None:
            self.block.insert_op_before(op, self.before)
        else:
            self.block.add_op(op)
        return op

    def _constant(self, array: np.ndarray) -> TValue:
        attr: DenseIntOrFPElementsAttr = numpy_to_dense_attr(array)
        return TValue(self._insert(hlo.ConstantOp(attr)).results[0])

    def _body(self, body, operands: list[TValue], n: int) -> Region:
        scalars = [TensorType(element_type(np.dtype(v.dtype)), []) for v in operands[n:]]
        block = Block(arg_types=scalars + scalars)
        inner = TracingBuilder(block)
        args = [TValue(a) for a in block.args]
        outs = body(inner, args[:n], args[n:])
        block.add_op(hlo.ReturnOp([o.ssa for o in outs]))
        return Region(block)

    def _apply(self, op, operands, attrs, results, body=None):
        types = [tensor_type(r) for r in results]
        regions = []
        if op == "reduce":
            regions = [self._body(body, operands, attrs["n"])]
        elif op == "reduce_window":
            name = attrs["combiner"]
            regions = [self._body(lambda b, a, x: [b.binary(name, a[0], x[0])], operands, 1)]
        cls = hlo.OPS[op]
        new = cls.create(operands=[o.ssa for o in operands], result_types=types, properties=_props(op, attrs),
                         regions=regions)
        self._insert(new)
        return [TValue(r) for r in new.results]

    def argument(self, spec: Spec) -> TValue:
        """A new block argument of type `spec` (for entry blocks built from scratch)."""
        return TValue(self.block.insert_arg(tensor_type(spec), len(self.block.args)))
