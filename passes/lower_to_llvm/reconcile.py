"""`fast-reconcile-unrealized-casts`: xDSL's `reconcile-unrealized-casts`, sweeping the casts only.

The llvm lowering leaves hundreds of `builtin.unrealized_conversion_cast` chains (index <-> i64,
memref <-> ptr); xDSL's pass pushes every op of the module through its worklist driver, twice,
to find them. Here each sweep visits only the casts (passes/rewrite_driver.py), until one
removes nothing. `CastChainRemoval` is xDSL's `ReconcileUnrealizedCastsPattern(warn_on_failure=True)`
step for step (the same chains kept or removed, in the same order, with the same warnings and
name hints); it reads a cast's operands directly instead of through IRDL's `inputs` accessor
(~60% of the pass). The CPU pipeline ends with it; xDSL's pass keeps its name and stays available.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import zip_longest
from warnings import warn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from minixla.passes.rewrite_driver import rewrite_to_fixpoint


class CastChainRemoval(RewritePattern):
    """Remove the chain of casts starting at a cast when it cancels out (xdsl.transforms.
    reconcile_unrealized_casts._try_remove_cast_chain with warn_on_failure=True)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, UnrealizedConversionCastOp):
            return
        inputs = op._operands  # noqa: SLF001 -- `op.inputs`: a cast's operands are its inputs
        input_types = inputs.types
        finalized: list[Operation] = []  # no uses, or a user that is not a cast
        pending: deque[Operation] = deque()  # only casts as users
        to_visit: list[Operation] = [op]
        while to_visit:
            cast = to_visit.pop()
            results = cast.results
            is_live = has_any_uses = False
            for result in results:
                for use in result.uses:
                    user = use.operation
                    if isinstance(user, UnrealizedConversionCastOp):
                        if any(r is not i for r, i in zip_longest(user._operands, results)):  # noqa: SLF001
                            warn(f"Unable to remove cast {cast} because it is not unifiable with its uses", stacklevel=2)
                            return
                        to_visit.append(user)
                    else:
                        is_live = True
                    has_any_uses = True
            assert len(results) == len(inputs)
            if is_live and cast.result_types != input_types:
                warn(f"Unable to remove cast {cast} because it is not unifiable with its uses", stacklevel=2)
                return
            if not has_any_uses or is_live:
                finalized.append(cast)
            else:
                pending.appendleft(cast)
        for cast in finalized:
            if cast.parent is not None:
                rewriter.replace(cast, [], inputs)
        for cast in pending:
            if cast.parent is not None:
                rewriter.erase(cast)


@dataclass(frozen=True)
class FastReconcileUnrealizedCasts(ModulePass):
    """Remove the unrealized casts whose chains cancel out."""

    name = "fast-reconcile-unrealized-casts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_to_fixpoint(op, CastChainRemoval(), UnrealizedConversionCastOp)
