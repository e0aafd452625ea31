"""One-shot pattern application that visits only the op classes a pattern rewrites.

`rewrite_once(module, pattern, op_types)` does what
`PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(module)`
does (every op nested in the module, in pre-order, once; ops the pattern erases
are not visited, ops it creates are not visited), but calls the pattern only on
instances of `op_types`. xDSL's walker pushes and pops every op of the module
through a worklist and resets a rewriter per op; the lowering passes of the CPU
pipeline each rewrite a few op classes of a module of thousands of ops, so that
bookkeeping, not the rewrites, was most of their time (docs/cpu-pipeline.md,
"Compile time").
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint


def rewrite_once(root: ModuleOp | Operation, pattern: RewritePattern,
                 op_types: type[Operation] | tuple[type[Operation], ...] | None = None) -> bool:
    """Apply `pattern` once to each op nested in `root` that is an instance of
    `op_types` (every op when None); returns whether anything changed."""
    if op_types is None:
        ops = [op for op in root.walk() if op is not root]
    else:  # one issubclass per op class (xDSL ops are ABCs: isinstance on a long tuple is slow)
        wanted: dict[type, bool] = {}
        ops = []
        for op in root.walk():
            if op is root:
                continue
            kind = type(op)
            hit = wanted.get(kind)
            if hit is None:
                hit = wanted[kind] = issubclass(kind, op_types)
            if hit:
                ops.append(op)
    if not ops:
        return False
    erased: set[int] = set()

    def removed(op: Operation) -> None:
        if op.regions:
            erased.update(id(sub) for sub in op.walk())
        else:
            erased.add(id(op))

    rewriter = PatternRewriter(ops[0])
    rewriter.operation_removal_handler.append(removed)
    changed = False
    for op in ops:
        if id(op) in erased:
            continue
        rewriter.has_done_action = False
        rewriter.current_operation = op
        rewriter.insertion_point = InsertPoint.before(op)
        rewriter.name_hint = None
        try:
            pattern.match_and_rewrite(op, rewriter)
        except Exception as err:  # as xDSL's walker: a located error naming the op
            op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
        changed |= rewriter.has_done_action
    return changed


def rewrite_to_fixpoint(root: ModuleOp | Operation, pattern: RewritePattern,
                        op_types: type[Operation] | tuple[type[Operation], ...]) -> bool:
    """`rewrite_once` until a sweep changes nothing (as `apply_recursively=True`: ops of
    `op_types` that a rewrite creates, or that a pattern left for later, get another sweep;
    once none is left a sweep is one walk)."""
    changed = False
    while rewrite_once(root, pattern, op_types):
        changed = True
    return changed
