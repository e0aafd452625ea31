"""`loop-cleanup`: what `canonicalize,cse` do to the loop-level IR (after `lower-linalg-to-loops`),
in a few linear walks instead of xDSL's generic drivers.

At that level canonicalize mostly has nothing to rewrite, yet its greedy driver looked up every op's
traits on every sweep and its `region_dce` recomputed liveness from scratch (~20 ms of the MLP step's
first call); `cse` copied its scoped table of known ops into every nested region (~10 ms). The same
three steps, with the same rules:

1. canonicalize's patterns and folders (xDSL's own, run by its pattern applier with folding on), but
   only on the ops where one can apply: those of a class with patterns or a folder and, for the
   classes whose every pattern and folder needs a constant or repeated operand (`CONST_OR_SAME`),
   only when one is; repeated until nothing changes;
2. dead-code elimination with canonicalize's rule (`would_be_trivially_dead`), from the uses up;
3. CSE with xDSL's rules (pure ops anywhere in scope, read-only ops in the same block with no write
   in between, fresh scopes in isolated ops, nothing inside multi-block regions), the scopes chained
   instead of copied and the side-effect class of region-free ops looked up once per op class.

A module with a multi-block region (not produced at this level) goes through xDSL's canonicalize and
cse unchanged. The output is the same as `canonicalize,cse`'s on every loop-level module the test
programs and the 470 cpu conformance cases produce (tests/passes/test_loop_cleanup.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.memref import DeallocOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter
from xdsl.traits import (
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    HasFolder,
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffectKind,
    get_effects,
    is_side_effect_free,
    only_has_effect,
)
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead

from minixla.passes.rewrite_driver import nested_ops, point_at

#: canonicalization patterns that match only an op with a constant operand (or two equal operands)
CONST_OR_SAME = frozenset({
    "SignlessIntegerBinaryOperationConstantProp", "SignlessIntegerBinaryOperationZeroOrUnitRight",
    "FoldConstConstOp", "FoldConstsByReassociation", "ApplyCmpiPredicateToEqualOperands",
    "IfPropagateConstantCondition", "SelectConstPattern", "SelectTrueFalsePattern", "SelectSamePattern",
})

_NEVER, _IF_CONST, _ALWAYS, _IF_DEALLOC_ONLY = 0, 1, 2, 3
_PURE, _READ, _OTHER = 0, 1, 2


class _Classes:
    """Per op class: when canonicalize may rewrite it, its side-effect kind, whether it is a
    constant, a terminator, isolated (computed on first sight)."""

    def __init__(self) -> None:
        self.canon: dict[type, int] = {}
        self.effect: dict[type, int] = {}
        self.constant: dict[type, bool] = {}
        self.droppable: dict[type, bool] = {}
        self.terminator: dict[type, bool] = {}
        self.writer: dict[type, bool] = {}

    def canon_of(self, op: Operation) -> int:
        kind = type(op)
        c = self.canon.get(kind)
        if c is None:
            traits = op.get_traits_of_type(HasCanonicalizationPatternsTrait)
            names = {type(p).__name__ for t in traits for p in t.get_patterns(kind)}
            if not names and not op.has_trait(HasFolder, value_if_unregistered=False):
                c = _NEVER
            elif names == {"ElideUnusedAlloc"} and not op.has_trait(HasFolder, value_if_unregistered=False):
                c = _IF_DEALLOC_ONLY  # memref.alloc: it matches an alloc whose only use is a dealloc
            else:
                c = _IF_CONST if names <= CONST_OR_SAME else _ALWAYS
            self.canon[kind] = c
        return c

    def is_constant(self, op: Operation | None) -> bool:
        if op is None:
            return False
        kind = type(op)
        c = self.constant.get(kind)
        if c is None:
            c = self.constant[kind] = op.has_trait(ConstantLike, value_if_unregistered=False)
        return c

    def dead(self, op: Operation) -> bool:
        """Unused results and no other effect (`is_trivially_dead`), cached per region-free class."""
        for r in op.results:
            if r.first_use is not None:
                return False
        if op.regions:
            return not self.writes_inside(op) and would_be_trivially_dead(op)
        kind = type(op)
        d = self.droppable.get(kind)
        if d is None:
            d = self.droppable[kind] = would_be_trivially_dead(op)
        return d

    def is_terminator(self, op: Operation) -> bool:
        kind = type(op)
        t = self.terminator.get(kind)
        if t is None:
            t = self.terminator[kind] = op.has_trait(IsTerminator)
        return t

    def writes_inside(self, op: Operation) -> bool:
        """Whether an op nested in `op` may write (or has unknown effects): then so may `op`, and it
        is neither dead nor a CSE candidate (xDSL's recursive effects would say the same, slower)."""
        writer = self.writer
        for sub in op.walk():
            if sub.regions:
                continue
            kind = type(sub)
            w = writer.get(kind)
            if w is None:
                w = writer[kind] = _writes(sub)
            if w:
                return True
        return False

    def effect_of(self, op: Operation) -> int:
        """_PURE, _READ (only reads) or _OTHER; cached per class for region-free ops."""
        if op.regions:
            return _OTHER if self.writes_inside(op) else _effect(op)
        kind = type(op)
        e = self.effect.get(kind)
        if e is None:
            e = self.effect[kind] = _effect(op)
        return e


def _effect(op: Operation) -> int:
    if is_side_effect_free(op):
        return _PURE
    return _READ if only_has_effect(op, MemoryEffectKind.READ) else _OTHER


def _writes(op: Operation) -> bool:
    effects = get_effects(op)
    return effects is None or any(e.kind is MemoryEffectKind.WRITE for e in effects)


# -- 1. canonicalization patterns and folders, where they can apply ---------------------------------

def _candidate(op: Operation, classes: _Classes) -> bool:
    c = classes.canon_of(op)
    if c == _NEVER or (c == _IF_CONST and classes.is_constant(op)):
        return False
    if c == _ALWAYS:
        return True
    if c == _IF_DEALLOC_ONLY:
        return len(op.results) == 1 and isinstance(op.results[0].get_user_of_unique_use(), DeallocOp)
    operands = op.operands
    if len(set(operands)) < len(operands):
        return True
    for v in operands:
        if classes.is_constant(v.owner if isinstance(v.owner, Operation) else None):
            return True
    return False


def canonicalize_where_needed(ctx: Context, module: ModuleOp, classes: _Classes) -> None:
    """xDSL's canonicalize applier (patterns, folding, trivial-dead erasure) on the candidate ops,
    sweep after sweep until one changes nothing."""
    applier = GreedyRewritePatternApplier([CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True)
    while True:
        ops = [op for op in nested_ops(module) if _candidate(op, classes)]
        if not ops:
            return
        erased: set[int] = set()

        def removed(op: Operation) -> None:
            erased.update(id(sub) for sub in op.walk())

        rewriter = PatternRewriter(ops[0])
        rewriter.operation_removal_handler.append(removed)
        changed = False
        for op in ops:
            if id(op) in erased:
                continue
            point_at(rewriter, op)
            applier.match_and_rewrite(op, rewriter)
            changed |= rewriter.has_done_action
        if not changed:
            return


# -- 2. dead code ------------------------------------------------------------------------------------

def eliminate_dead_code(module: ModuleOp, classes: _Classes) -> None:
    """Erase ops whose results are unused and that have no other effect, then the ops that only
    they used, and so on (canonicalize's `region_dce` in a single-block world)."""
    dead = classes.dead
    work = [op for op in reversed(nested_ops(module)) if dead(op)]
    erased: set[int] = set()
    while work:
        op = work.pop()
        if id(op) in erased or not dead(op):
            continue
        defs = []
        for sub in op.walk():  # it and its nested ops: the values they use may die with them
            erased.add(id(sub))
            defs.extend(v.owner for v in sub.operands if isinstance(v.owner, Operation))
        op.parent.erase_op(op, safe_erase=False)
        work.extend(d for d in defs if id(d) not in erased and dead(d))


# -- 3. common subexpressions -------------------------------------------------------------------------

def _key(op: Operation) -> tuple:
    return (op.name, tuple(op.operands), tuple(r.type for r in op.results),
            frozenset(op.properties.items()), frozenset(op.attributes.items()), len(op.regions))


def _same_regions(a: Operation, b: Operation) -> bool:
    return all(x.is_structurally_equivalent(y) for x, y in zip(a.regions, b.regions, strict=True))


def _no_write_between(first: Operation, last: Operation, classes: _Classes) -> bool:
    op: Operation | None = first
    while op is not None and op is not last:
        if (op.regions or classes.effect_of(op) == _OTHER) and _writes(op):
            return False
        op = op.next_op
    return op is last


class _CSE:
    def __init__(self, classes: _Classes) -> None:
        self.classes = classes
        self.scopes: list[dict[tuple, Operation]] = []
        self.erase: list[Operation] = []

    def lookup(self, key: tuple, op: Operation) -> Operation | None:
        for scope in reversed(self.scopes):
            known = scope.get(key)
            if known is not None and (not op.regions or _same_regions(known, op)):
                return known
        return None

    def region(self, region: Region) -> None:
        blocks = region.blocks
        if len(blocks) != 1:
            return
        self.scopes.append({})
        self.block(blocks[0])
        self.scopes.pop()

    def block(self, block: Block) -> None:
        classes = self.classes
        op = block.first_op
        while op is not None:
            if op.regions:
                if op.has_trait(IsolatedFromAbove, value_if_unregistered=True):
                    saved, self.scopes = self.scopes, []
                    for r in op.regions:
                        self.region(r)
                    self.scopes = saved
                else:
                    for r in op.regions:
                        self.region(r)
            self.simplify(op, classes)
            op = op.next_op

    def simplify(self, op: Operation, classes: _Classes) -> None:
        # (xDSL's cse also erases ops found dead here: after eliminate_dead_code, and with every
        # use of an op after it, none is)
        if classes.is_terminator(op):
            return
        if any(len(r.blocks) > 1 for r in op.regions):
            return
        effect = classes.effect_of(op)
        if effect == _OTHER:
            return
        key = _key(op)
        known = self.lookup(key, op)
        if known is not None and (effect == _PURE or (
                known.parent is op.parent and _no_write_between(known, op, classes))):
            for old, new in zip(op.results, known.results, strict=True):
                old.replace_all_uses_with(new)
            self.erase.append(op)
            return
        self.scopes[-1][key] = op


def eliminate_common_subexpressions(module: ModuleOp, classes: _Classes) -> None:
    cse = _CSE(classes)
    for r in module.regions:
        cse.region(r)
    for op in reversed(cse.erase):
        if op.parent is not None:
            op.parent.erase_op(op, safe_erase=False)


def _has_multi_block_region(module: ModuleOp) -> bool:
    return any(len(r.blocks) > 1 for op in nested_ops(module) for r in op.regions)


@dataclass(frozen=True)
class LoopCleanup(ModulePass):
    """`canonicalize,cse` for loop-level IR in linear walks (the same output there)."""

    name = "loop-cleanup"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if _has_multi_block_region(op):
            from xdsl.transforms.canonicalize import CanonicalizePass
            from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

            CanonicalizePass().apply(ctx, op)
            CommonSubexpressionElimination().apply(ctx, op)
            return
        classes = _Classes()
        canonicalize_where_needed(ctx, op, classes)
        eliminate_dead_code(op, classes)
        eliminate_common_subexpressions(op, classes)

