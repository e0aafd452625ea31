"""One-shot pattern application that visits only the op classes a pattern rewrites.

`rewrite_once(module, pattern, op_types)` does what
`PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(module)`
does (every op nested in the module, in pre-order, once; ops the pattern erases
are not visited, ops it creates are not visited), but calls the pattern only on
instances of `op_types`. xDSL's walker pushes and pops every op of the module
through a worklist and resets a rewriter per op; the lowering passes of the CPU
pipeline each rewrite a few op classes of a module of thousands of ops, so that
bookkeeping, not the rewrites, was most of their time (docs/compile-time.md).
`rewrite_in_order` runs several such sweeps off one walk.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

OpTypes = type[Operation] | tuple[type[Operation], ...]



def point_at(rewriter: PatternRewriter, op: Operation) -> None:
    """Make one reused PatternRewriter ready to rewrite `op` (xDSL's walker builds one per op)."""
    rewriter.has_done_action = False
    rewriter.current_operation = op
    rewriter.insertion_point = InsertPoint.before(op)
    rewriter.name_hint = None

def nested_ops(root: Operation) -> list[Operation]:
    """The ops nested in `root`, in pre-order (as `root.walk()` less `root`), without generators."""
    out: list[Operation] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                o = block.first_op
                while o is not None:
                    out.append(o)
                    if o.regions:
                        visit(o)
                    o = o.next_op

    visit(root)
    return out


def _buckets(root: Operation, type_sets: Sequence[OpTypes | None]) -> list[list[Operation]]:
    """For each entry of `type_sets`, the nested ops of those classes (all ops for None), in pre-order;
    one issubclass per op class (xDSL ops are ABCs: isinstance on a long tuple is slow)."""
    ops = nested_ops(root)
    buckets: list[list[Operation]] = []
    for types in type_sets:
        if types is None:
            buckets.append(list(ops))
            continue
        wanted: dict[type, bool] = {}
        bucket = []
        for op in ops:
            kind = type(op)
            hit = wanted.get(kind)
            if hit is None:
                hit = wanted[kind] = issubclass(kind, types)
            if hit:
                bucket.append(op)
        buckets.append(bucket)
    return buckets


def rewrite_in_order(root: ModuleOp | Operation, steps: Sequence[tuple[RewritePattern, OpTypes | None]]) -> bool:
    """`rewrite_once(root, pattern, types)` for each step in order, off one walk of `root`: only
    for patterns that create no ops of a later step's classes (those would not be visited)."""
    buckets = _buckets(root, [types for _, types in steps])
    if not any(buckets):
        return False
    erased: set[int] = set()

    def removed(op: Operation) -> None:
        if op.regions:
            erased.update(id(sub) for sub in op.walk())
        else:
            erased.add(id(op))

    rewriter = PatternRewriter(next(b[0] for b in buckets if b))
    rewriter.operation_removal_handler.append(removed)
    changed = False
    for (pattern, _), ops in zip(steps, buckets):
        for op in ops:
            if id(op) in erased:
                continue
            point_at(rewriter, op)
            try:
                pattern.match_and_rewrite(op, rewriter)
            except Exception as err:  # as xDSL's walker: a located error naming the op
                op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
            changed |= rewriter.has_done_action
    return changed


def rewrite_once(root: ModuleOp | Operation, pattern: RewritePattern, op_types: OpTypes | None = None) -> bool:
    """Apply `pattern` once to each op nested in `root` that is an instance of
    `op_types` (every op when None); returns whether anything changed."""
    return rewrite_in_order(root, [(pattern, op_types)])


def rewrite_to_fixpoint(root: ModuleOp | Operation, pattern: RewritePattern, op_types: OpTypes) -> bool:
    """`rewrite_once` until a sweep changes nothing (as `apply_recursively=True`: ops of
    `op_types` that a rewrite creates, or that a pattern left for later, get another sweep;
    once none is left a sweep is one walk)."""
    changed = False
    while rewrite_once(root, pattern, op_types):
        changed = True
    return changed


def has_value_of_type(root: Operation, types: type | tuple[type, ...]) -> bool:
    """Whether an op result or block argument nested in `root` has a type of class `types` (a pass
    whose every rewrite involves such a value has nothing to do on a module without one); one
    `issubclass` per type class."""
    hits: dict[type, bool] = {}

    def any_of(values) -> bool:
        for v in values:
            kind = type(v.type)
            hit = hits.get(kind)
            if hit is None:
                hit = hits[kind] = issubclass(kind, types)
            if hit:
                return True
        return False

    for op in [root, *nested_ops(root)]:
        if any_of(op.results):
            return True
        for region in op.regions:
            for block in region.blocks:
                if any_of(block.args):
                    return True
    return False
