"""`hlo-constant-fold{max_elements=65536}`: evaluate hlo ops whose operands
are all constants with the interpreter's kernels (the oracle, so folding
cannot change a result) and replace them by `hlo.constant`.

Why a cap: folding `iota` or a large op would bloat the module and the
compile time; results above `max_elements` (and broadcasts/iotas, which
fusion computes for free) stay as ops. A result whose elements are all equal
is stored as a splat, so large uniform constants cost one element.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from minixla.dialects import hlo
from minixla.dialects.numpy_types import dense_attr_to_numpy, numpy_dtype, numpy_to_dense_attr

from minixla.dialects.hlo_ops.splats import hlo_name
from minixla.passes.hlo_opt import EVALUATORS, constant_evaluator

#: ops never folded: cheap to compute, expensive to store, stateful, structural, or process-dependent
SKIP = frozenset({"constant", "broadcast_in_dim", "iota", "rng", "rng_bit_generator", "optimization_barrier",
                  "while", "if", "case", "return", "custom_call", "all_reduce", "infeed", "outfeed", "send",
                  "recv", "after_all", "fusion", "all_gather", "reduce_scatter", "all_to_all", "collective_permute",
                  "collective_broadcast", "collective_reduce", "replica_id", "partition_id"})

#: evaluate(op, operand arrays) -> result arrays, or None if it cannot (passes/hlo_opt/__init__.py keeps them)
ConstantEvaluator = Callable[[Operation, list[np.ndarray]], Sequence[np.ndarray] | None]
_EVALUATORS: list[ConstantEvaluator] = EVALUATORS


def register_constant_evaluator(evaluate: ConstantEvaluator) -> None:
    """Give the pass the numpy semantics of the hlo ops (the last registered wins)."""
    _EVALUATORS.append(evaluate)


def _foldable(op: Operation, cap: int) -> bool:
    m = hlo_name(op)
    if m is None or m in SKIP or not op.results or not op.operands:
        return False
    if any(not isinstance(o.owner, Operation) or hlo_name(o.owner) != "constant" for o in op.operands):
        return False
    return all(isinstance(r.type, TensorType) and prod(r.type.get_shape()) <= cap for r in op.results)


def _attr(arr: np.ndarray, t: TensorType) -> DenseIntOrFPElementsAttr:
    flat = np.asarray(arr).reshape(-1)
    if flat.size > 1 and (flat.view(np.uint8).reshape(flat.size, -1) == flat[:1].view(np.uint8)).all():
        one = numpy_to_dense_attr(flat[:1], TensorType(t.element_type, [1]))
        return DenseIntOrFPElementsAttr(t, one.data)  # splat: one element for the whole shape
    return numpy_to_dense_attr(arr, t)


@dataclass(frozen=True)
class HloConstantFold(ModulePass):
    """Fold hlo ops on constants (results up to `max_elements` elements)."""

    name = "hlo-constant-fold"
    max_elements: int = 65536

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        evaluate = constant_evaluator()
        if evaluate is None:
            warnings.warn("hlo-constant-fold: no constant evaluator is registered (import minixla.backends, "
                          "whose reference interpreter provides one); nothing is folded", stacklevel=2)
            return
        for target in list(op.walk()):
            if not _foldable(target, self.max_elements):
                continue
            args = [dense_attr_to_numpy(o.owner.value) for o in target.operands]
            try:
                with np.errstate(all="ignore"):
                    outs = evaluate(target, args)
            except Exception:  # noqa: BLE001 -- a kernel that rejects its input is left to run later
                continue
            if outs is None:
                continue
            consts = []
            for r, v in zip(target.results, outs):
                arr = np.asarray(v).astype(numpy_dtype(r.type.element_type), copy=False)
                consts.append(hlo.ConstantOp(_attr(np.broadcast_to(arr, tuple(r.type.get_shape())), r.type)))
            block = target.parent_block()
            for c in consts:
                block.insert_op_before(c, target)
            for r, c in zip(target.results, consts):
                r.replace_all_uses_with(c.results[0])
            target.detach()
            target.erase()
