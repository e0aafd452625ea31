"""`TracingBuilder`: the builder that emits `hlo` ops into an xDSL block.

Values are `TValue`s wrapping SSA values; result types come from the shared
inference in `Builder`, so the emitted IR verifies by construction. Regions
(reduce bodies) are built by running the body function on a nested
`TracingBuilder` over a fresh block of scalar arguments.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import BoolAttr, DenseIntOrFPElementsAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from minixla.dialects.numpy_types import element_type, numpy_dtype, numpy_to_dense_attr
from minixla.dialects import hlo
from minixla.dialects.hlo_ops.attrs import (
    HLO_ATTRS,
    ComparisonDirection,
    ComparisonType,
    FftType,
    RngAlgorithm,
    Transpose,
)
from minixla.dialects.hlo_ops.syntax import i64_array

from minixla.frontend.builder import Builder, Spec


def tensor_type(spec) -> TensorType:
    """The tensor type of `spec`, memoised: types are immutable, and building and verifying one anew
    (~7 us) was ~20% of `tf-legalize-to-hlo`."""
    key = (spec.shape, spec.dtype)
    try:
        hit = _TYPES.get(key)
    except TypeError:  # an unhashable shape (a list): no memo
        hit, key = None, None
    if hit is None:
        hit = TensorType(element_type(np.dtype(spec.dtype)), list(spec.shape))
        if key is not None and len(_TYPES) < 4096:
            _TYPES[key] = hit
    return hit


_TYPES: dict = {}
#: tensor type -> (shape, numpy dtype), for `TValue`
_VIEWS: dict = {}


class TValue:
    """An SSA value seen through the builder API (`.shape`, `.dtype`)."""

    __slots__ = ("ssa", "shape", "dtype")

    def __init__(self, ssa: SSAValue):
        self.ssa = ssa
        t = ssa.type
        view = _VIEWS.get(t)
        if view is None:
            assert isinstance(t, TensorType), t
            view = (tuple(t.get_shape()), numpy_dtype(t.element_type))
            if len(_VIEWS) < 4096:
                _VIEWS[t] = view
        self.shape, self.dtype = view

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
    if op == "all_reduce":  # one group of every replica (an empty replica_groups, as XLA writes it)
        return {"replica_groups": numpy_to_dense_attr(np.zeros((0, 0), np.int64), TensorType(i64, [0, 0]))}
    if op == "dot_general":
        return {"dot_dimension_numbers": HLO_ATTRS.dot.get(
            lhs_batching_dimensions=attrs["lb"], rhs_batching_dimensions=attrs["rb"],
            lhs_contracting_dimensions=attrs["lc"], rhs_contracting_dimensions=attrs["rc"])}
    if op == "reduce_window":
        rank = len(attrs["window"])
        pads = np.array(attrs["padding"], dtype=np.int64).reshape(rank, 2)
        return {"window_dimensions": i64_array(attrs["window"]), "window_strides": i64_array(attrs["strides"]),
                "padding": numpy_to_dense_attr(pads, TensorType(i64, [rank, 2]))}
    return _structured_props(op, attrs)


def _pads(pairs) -> DenseIntOrFPElementsAttr:
    rank = len(pairs)
    return numpy_to_dense_attr(np.array(pairs, dtype=np.int64).reshape(rank, 2), TensorType(i64, [rank, 2]))


def _structured_props(op: str, attrs: dict) -> dict:
    if op == "gather":
        od, cd, obd, sbd, sim, ivd = attrs["dn"]
        return {"dimension_numbers": HLO_ATTRS.gather.get(
            offset_dims=od, collapsed_slice_dims=cd, operand_batching_dims=obd, start_indices_batching_dims=sbd,
            start_index_map=sim, index_vector_dim=ivd), "slice_sizes": i64_array(attrs["slice_sizes"])}
    if op == "scatter":
        uwd, iwd, ibd, sbd, sdod, ivd = attrs["dn"]
        return {"scatter_dimension_numbers": HLO_ATTRS.scatter.get(
            update_window_dims=uwd, inserted_window_dims=iwd, input_batching_dims=ibd,
            scatter_indices_batching_dims=sbd, scatter_dims_to_operand_dims=sdod, index_vector_dim=ivd)}
    if op == "convolution":
        ib, if_, isp, ki, ko, ksp, ob, of, osp = attrs["dn"]
        return {"window_strides": i64_array(attrs["strides"]), "padding": _pads(attrs["padding"]),
                "lhs_dilation": i64_array(attrs["lhs_dilation"]), "rhs_dilation": i64_array(attrs["rhs_dilation"]),
                "dimension_numbers": HLO_ATTRS.conv.get(
                    input_batch_dimension=ib, input_feature_dimension=if_, input_spatial_dimensions=isp,
                    kernel_input_feature_dimension=ki, kernel_output_feature_dimension=ko,
                    kernel_spatial_dimensions=ksp, output_batch_dimension=ob, output_feature_dimension=of,
                    output_spatial_dimensions=osp),
                "feature_group_count": _i64(attrs["fgc"]), "batch_group_count": _i64(attrs["bgc"])}
    if op == "select_and_scatter":
        return {"window_dimensions": i64_array(attrs["window"]), "window_strides": i64_array(attrs["strides"]),
                "padding": _pads(attrs["padding"])}
    if op == "sort":
        return {"dimension": _i64(attrs["dimension"]), "is_stable": BoolAttr.from_bool(True)}
    if op == "fft":
        return {"fft_type": HLO_ATTRS.fft_type(FftType(attrs["type"])), "fft_length": i64_array(attrs["length"])}
    if op == "rng_bit_generator":
        return {"rng_algorithm": HLO_ATTRS.rng_algorithm(RngAlgorithm(attrs["algorithm"]))}
    if op == "cholesky":
        return {"lower": BoolAttr.from_bool(attrs["lower"])}
    if op == "triangular_solve":
        return {**{k: BoolAttr.from_bool(attrs[k]) for k in ("left_side", "lower", "unit_diagonal")},
                "transpose_a": HLO_ATTRS.transpose(Transpose(attrs["transpose_a"]))}
    return {}


#: (dtype, shape, bytes) of a small constant -> its dense attribute
_DENSE: dict = {}


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
        array = np.asarray(array)
        if array.size <= 16 and array.dtype.kind in "biuf":  # scalars and small shapes repeat: by their bits
            key = (array.dtype, array.shape, array.tobytes())
            attr = _DENSE.get(key)
            if attr is None:
                attr = numpy_to_dense_attr(array)
                if len(_DENSE) < 4096:
                    _DENSE[key] = attr
        else:
            attr = numpy_to_dense_attr(array)
        return TValue(self._insert(hlo.ConstantOp(attr)).results[0])

    def _body(self, body, operands: list[TValue], n: int) -> Region:
        scalars = [TensorType(element_type(np.dtype(v.dtype)), []) for v in operands[n:]]
        block = Block(arg_types=scalars + scalars)
        inner = TracingBuilder(block)
        args = [TValue(a) for a in block.args]
        outs = body(inner, args[:n], args[n:])
        block.add_op(hlo.ReturnOp([o.ssa for o in outs]))
        return Region(block)

    def _region(self, fn, specs: list, wrap=None) -> Region:
        """A region whose block takes `specs` and returns `fn(inner builder, block args)`."""
        block = Block(arg_types=[tensor_type(s) for s in specs])
        outs = fn(TracingBuilder(block), [TValue(a) for a in block.args])
        outs = [outs] if isinstance(outs, TValue) else list(outs)
        block.add_op(hlo.ReturnOp([o.ssa for o in outs]))
        return Region(block)

    def _regions(self, op, operands, attrs, body) -> list[Region]:
        if op == "reduce":
            return [self._body(body, operands, attrs["n"])]
        if op == "all_reduce":
            scalar = Spec((), np.dtype(operands[0].dtype))
            return [self._region(lambda b, a: [b.binary(attrs["combiner"], a[0], a[1])], [scalar, scalar])]
        if op == "reduce_window":
            name = attrs["combiner"]
            return [self._body(lambda b, a, x: [b.binary(name, a[0], x[0])], operands, 1)]
        scalar = [Spec((), np.dtype(o.dtype)) for o in operands]
        if op == "scatter":
            return [self._region(lambda b, a: body(b, a[:1], a[1:]), [scalar[0], scalar[0]])]
        if op == "select_and_scatter":
            sel, comb = attrs["select"], attrs["combiner"]
            return [self._region(lambda b, a: [b.compare(a[0], a[1], sel)], [scalar[0]] * 2),
                    self._region(lambda b, a: [b.binary(comb, a[0], a[1])], [scalar[0]] * 2)]
        if op == "sort":
            pairs = [s for s in scalar for _ in range(2)]
            return [self._region(lambda b, a: [body(b, a[0::2], a[1::2])], pairs)]
        if op == "while":
            specs = [Spec(tuple(o.shape), np.dtype(o.dtype)) for o in operands]
            return [self._region(lambda b, a: [attrs["cond"](b, a)], specs), self._region(body, specs)]
        if op == "if":
            ins = operands[1:]
            return [self._region(lambda b, a: fn(b, ins), []) for fn in (body, attrs["false_fn"])]
        if op == "case":
            ins = operands[1:]
            return [self._region((lambda f: lambda b, a: f(b, ins))(fn), []) for fn in attrs["branches"]]
        return []

    def _apply(self, op, operands, attrs, results, body=None):
        types = [tensor_type(r) for r in results]
        regions = self._regions(op, operands, attrs, body)
        cls = hlo.OPS[op]
        ssa_operands = [operands[0].ssa] if op in ("if", "case") else [o.ssa for o in operands]  # branches capture the rest
        new = cls.create(operands=ssa_operands, result_types=types, properties=_props(op, attrs),
                         regions=regions)
        self._insert(new)
        return [TValue(r) for r in new.results]

    def argument(self, spec: Spec) -> TValue:
        """A new block argument of type `spec` (for entry blocks built from scratch)."""
        return TValue(self.block.insert_arg(tensor_type(spec), len(self.block.args)))
