"""`hlo-fusion`: XLA-style producer-consumer fusion into `hlo.fusion` regions.

Why: each unfused op is a loop nest that writes a full-size buffer the next
op reads back; fused, the chain is one loop nest reading each input once
(passes/hlo_to_linalg/fusion.py), so memory traffic and allocations drop.

Algorithm (per block of a function or control-flow body, as XLA's
InstructionFusion + MultiOutputFusion):
1. Consumers first (reverse program order), each unfused fusible op roots a
   group; the group grows into its operands' producers while they are
   fusible: elementwise ops, broadcast_in_dim, reshape, transpose, iota,
   splat constants, and `reduce` (scalar-body) reached from the elementwise
   epilogue side (one reduction signature per group: same input shape and
   dimensions; a reduce never feeds another reduce of the same group).
2. Cost rule: a producer whose result is also used outside the group is
   duplicated into it only when cheap; expensive producers (exp, log, tanh,
   pow, divide, sqrt, ..., reduce) are never duplicated, and are never fused
   through an expanding broadcast (that would recompute them per element).
3. Groups of one non-reduce op stay unfused; groups become
   `hlo.fusion kind = loop|input`.
4. Multi-output fusion: sibling groups of the same iteration space that read
   a common input (and do not depend on each other) merge into one
   `kind = multi_output` fusion, so that input is read once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.base import ints, is_complex
from minixla.dialects.hlo_ops.elementwise import BINARY_OPS, UNARY_OPS
from minixla.dialects.hlo_ops.fusion import FusionOp

from minixla.dialects.hlo_ops.splats import hlo_name, splat_value

ELEMENTWISE = frozenset({*UNARY_OPS, *BINARY_OPS, "round_nearest_afz", "compare", "select", "clamp", "convert",
                         "is_finite"})
MOVEMENT = frozenset({"broadcast_in_dim", "reshape", "transpose", "iota"})
#: XLA's HloInstruction::IsExpensive, for the ops we fuse
EXPENSIVE = frozenset({"exponential", "exponential_minus_one", "log", "log_plus_one", "tanh", "logistic", "sine",
                       "cosine", "power", "atan2", "sqrt", "rsqrt", "divide", "remainder", "reduce"})
#: containers whose blocks are fused (function bodies and control-flow bodies)
CONTAINERS = frozenset({"func.func", "hlo.while", "hlo.if", "hlo.case"})
MAX_MULTI_OUTPUT = 8


def _tensor_ok(v: SSAValue) -> bool:
    return isinstance(v.type, TensorType) and not is_complex(v.type.element_type)


def _is_splat_constant(op: Operation) -> bool:
    return hlo_name(op) == "constant" and splat_value(op.results[0]) is not None


def _scalar_body(r: Operation) -> bool:
    """A reduce body of elementwise ops on its own arguments and constants."""
    body = r.body.block
    inside = set(body.args)
    for o in body.ops:
        m = hlo_name(o)
        if m == "return":
            return all(v in inside for v in o.operands)
        if m not in ELEMENTWISE and m != "constant":
            return False
        if any(v not in inside for v in o.operands):
            return False
        inside.update(o.results)
    return False


def fusible(op: Operation) -> bool:
    m = hlo_name(op)
    if m is None or not op.results or not all(_tensor_ok(v) for v in (*op.operands, *op.results)):
        return False
    if m == "reduce":
        return _scalar_body(op)
    if m == "constant":
        return _is_splat_constant(op)
    return m in ELEMENTWISE or m in MOVEMENT


def _constant_like(op: Operation) -> bool:
    """A splat constant, or a movement op (broadcast, iota) of splat constants only: free to recompute
    wherever it is read, never worth a buffer."""
    if _is_splat_constant(op):
        return True
    return hlo_name(op) in MOVEMENT and all(isinstance(v.owner, Operation) and _is_splat_constant(v.owner)
                                            for v in op.operands)


def _reduce_sig(r: Operation) -> tuple:
    return tuple(r.inputs[0].type.get_shape()), frozenset(ints(r.dimensions))


def _expands(op: Operation) -> bool:
    """A broadcast that reads each operand element more than once."""
    return hlo_name(op) == "broadcast_in_dim" and prod(op.result.type.get_shape()) > prod(op.operand.type.get_shape())


@dataclass
class Group:
    roots: list[Operation]
    ops: set[Operation] = field(default_factory=set)
    #: op -> "post" (computed in the result space) or "pre" (feeds a reduce)
    phase: dict[Operation, str] = field(default_factory=dict)
    sig: tuple | None = None
    kind: str = "loop"

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.roots[0].results[0].type.get_shape())


class _Fuser:
    def __init__(self, block: Block):
        self.block = block
        self.order = {op: i for i, op in enumerate(block.ops)}
        self.owner: dict[Operation, Group] = {}

    # -- step 1 and 2: producer-consumer groups --------------------------
    def grow(self, root: Operation) -> Group:
        g = Group([root], {root}, {root: "post"})
        if hlo_name(root) == "reduce":
            g.sig, g.kind = _reduce_sig(root), "input"
        work = [root]
        while work:
            c = work.pop()
            for v in c.operands:
                p = v.owner
                if not isinstance(p, Operation) or p in g.ops or p in self.owner or p.parent_block() is not self.block:
                    continue
                phase = "pre" if hlo_name(c) == "reduce" or g.phase[c] == "pre" else "post"
                if not self._can_fuse(g, c, p, phase):
                    continue
                g.ops.add(p)
                g.phase[p] = phase
                if hlo_name(p) == "reduce":
                    g.sig, g.kind = _reduce_sig(p), "input"
                work.append(p)
        self._prune(g)
        return g

    def _can_fuse(self, g: Group, c: Operation, p: Operation, phase: str) -> bool:
        if not fusible(p):
            return False
        m = hlo_name(p)
        if m in EXPENSIVE and _expands(c):
            return False
        if m == "reduce":
            if phase != "post" or (g.sig is not None and g.sig != _reduce_sig(p)):
                return False
            return all(tuple(r.type.get_shape()) == g.shape for r in p.results) and len(p.results) == 1
        return True

    def _prune(self, g: Group) -> None:
        """Drop non-root members needed outside the group that may not be
        duplicated (expensive ones), and what is only reachable through them."""
        while True:
            bad = [p for p in self._needed_outside(g) if hlo_name(p) in EXPENSIVE]
            if not bad:
                break
            g.ops -= set(bad)
            reach, work = set(g.roots), list(g.roots)
            while work:
                c = work.pop()
                for v in c.operands:
                    p = v.owner
                    if isinstance(p, Operation) and p in g.ops and p not in reach:
                        reach.add(p)
                        work.append(p)
            g.ops = reach
        if not any(hlo_name(o) == "reduce" for o in g.ops):
            g.sig, g.kind = None, "loop"

    def _needed_outside(self, g: Group) -> set[Operation]:
        """Non-root members whose results are still read outside the group once it is built: by an op
        outside it, or by a member that stays outside as a duplicate and keeps reading them (needed
        outside itself, and not of the group's shape, so no extra root of a multi-output fusion:
        `promote_duplicates`). Without the second part a cheap op duplicated into a group (an LSTM
        cell's new state h, also carried to the next step, duplicated into the fusion of the
        reshape that stacks it) dragged its expensive producers (tanh, logistic) in with it: each
        then ran twice, inside the fusion and outside."""
        roots = set(g.roots)
        needed: set[Operation] = set()
        duplicated: set[Operation] = set()  # needed outside, and not to become a root (`promote_duplicates`)
        for p in sorted(g.ops - roots, key=lambda o: self.order.get(o, -1), reverse=True):  # users first
            if any(u.operation not in g.ops or u.operation in duplicated for r in p.results for u in r.uses):
                needed.add(p)
                if len(p.results) != 1 or tuple(p.results[0].type.get_shape()) != g.shape or g.phase.get(p) != "post":
                    duplicated.add(p)
        return needed

    # -- step 4: siblings --------------------------------------------------------
    def _inputs(self, g: Group) -> set[SSAValue]:
        return {v for o in g.ops for v in o.operands
                if not (isinstance(v.owner, Operation) and (v.owner in g.ops or _is_splat_constant(v.owner)))}

    def _users_after(self, g: Group, pos: int) -> bool:
        return all(self.order.get(self._top(u.operation), -1) > pos for r in g.roots for res in r.results
                   for u in res.uses if u.operation not in g.ops)

    def _top(self, op: Operation) -> Operation:
        while op.parent_block() is not self.block:
            op = op.parent_op()
        return op

    def merge_siblings(self, groups: list[Group]) -> list[Group]:
        groups = sorted(groups, key=lambda g: self.order[max(g.roots, key=self.order.get)])
        merged: list[Group] = []
        for g in groups:
            anchor = self.order[max(g.roots, key=self.order.get)]
            for h in merged:
                if len(h.roots) + len(g.roots) > MAX_MULTI_OUTPUT or h.sig != g.sig or h.shape != g.shape:
                    continue
                if not (self._inputs(h) & self._inputs(g)) or not self._users_after(h, anchor):
                    continue
                h.roots += g.roots
                h.ops |= g.ops
                h.kind = "multi_output"
                break
            else:
                merged.append(g)
        return merged

    def promote_duplicates(self, groups: list[Group]) -> None:
        """A producer fused (duplicated) into a group but also used outside it,
        left in no group of its own, becomes an extra root of that group
        (multi-output) instead of its own loop nest: e.g. Adam's new moment
        `m' = m + (g - m) * b`, both stored and read by the parameter update."""
        for g in groups:
            anchor = self.order[max(g.roots, key=self.order.get)]
            for o in sorted(g.ops - set(g.roots), key=self.order.get):
                if (o in self.owner or hlo_name(o) == "constant" or self._recomputed(o) or g.phase.get(o) != "post"
                        or len(g.roots) >= MAX_MULTI_OUTPUT or tuple(o.results[0].type.get_shape()) != g.shape
                        or len(o.results) != 1):
                    continue
                users = [u.operation for u in o.results[0].uses]
                dying = self._dying(g, [*g.roots, o])
                if all(u in dying if u in g.ops else self.order.get(self._top(u), -1) > anchor for u in users):
                    g.roots.append(o)
                    self.owner[o] = g
                    if g.kind == "loop":
                        g.kind = "multi_output"

    @staticmethod
    def _recomputed(o: Operation) -> bool:
        """A broadcast of constants read only by fusible ops: each reader computes it again (the fusion
        groups or `absorb` duplicate it), so a buffer of it would only be stored and loaded back."""
        return _constant_like(o) and all(fusible(u.operation) for r in o.results for u in r.uses)

    def _dying(self, g: Group, roots: list[Operation]) -> set[Operation]:
        """Members that `build` would erase with these roots: used only by
        other dying members (roots' uses move to the fusion). A member that
        survives (another group still reads it) must not read a promoted root,
        which only exists after the fusion."""
        dying = set(roots)
        for o in sorted(g.ops - dying, key=self.order.get, reverse=True):
            if all(u.operation in dying for r in o.results for u in r.uses):
                dying.add(o)
        return dying

    # -- building the fusion op ----------------------------------------------------
    def _live_members(self, g: Group) -> list[Operation]:
        """`g.ops` minus ops a group built earlier already replaced (a producer
        duplicated into `g` that also roots its own group: `g` now reads that
        group's result), minus what only they reached."""
        live = {o for o in g.ops if o.parent is self.block}
        reach, work = set(g.roots), list(g.roots)
        while work:
            for v in work.pop().operands:
                p = v.owner
                if isinstance(p, Operation) and p in live and p not in reach:
                    reach.add(p)
                    work.append(p)
        return sorted(reach, key=self.order.get)

    def build(self, g: Group) -> None:
        members = self._live_members(g)
        if len(members) == 1 and g.kind == "loop":  # the rest went to other groups: one op needs no fusion
            return
        anchor = max(g.roots, key=self.order.get)
        inside = {r for o in members for r in o.results}
        externals: list[SSAValue] = []
        for o in members:
            for v in o.operands:
                if v not in inside and v not in externals:
                    externals.append(v)
        block = Block(arg_types=[v.type for v in externals])
        mapper: dict[SSAValue, SSAValue] = dict(zip(externals, block.args))
        for o in members:
            new = o.clone(value_mapper=mapper)
            block.add_op(new)
        roots = [r for o in g.roots for r in o.results]
        block.add_op(hlo.ReturnOp([mapper[r] for r in roots]))
        fusion = FusionOp(g.kind, externals, [r.type for r in roots], Region(block))
        self.block.insert_op_before(fusion, anchor)
        for old, new in zip(roots, fusion.results):
            old.replace_all_uses_with(new)
        for o in reversed(members):  # producers still used outside stay (they were duplicated)
            if all(not r.uses for r in o.results):
                o.detach()
                o.erase()

    def run(self) -> int:
        groups = []
        holders: dict[Operation, list[Group]] = {}
        for op in reversed(list(self.block.ops)):
            if op in self.owner or not fusible(op) or hlo_name(op) == "constant":
                continue
            uses = [u.operation for r in op.results for u in r.uses]
            if uses and all(any(u in h.ops for h in holders.get(op, ())) for u in uses):
                continue  # duplicated into the fusion of every user: it dies
            g = self.grow(op)
            real = [o for o in g.ops if hlo_name(o) != "constant"]
            if len(g.ops) < 2 and g.kind != "input" or not real:
                continue
            for o in g.ops:
                holders.setdefault(o, []).append(g)
            for o in g.ops:
                if all(u.operation in g.ops for r in o.results for u in r.uses) or o in g.roots:
                    self.owner[o] = g
            groups.append(g)
        groups = self.merge_siblings(groups)
        self.promote_duplicates(groups)
        for g in groups:
            self.build(g)
        self.absorb()
        return len(groups)

    # -- step 5: cheap producers left between fusions ---------------------------------
    def absorb(self) -> None:
        """Move every unfused producer read only by fusions into all of them (XLA duplicates broadcasts,
        iotas and cheap elementwise ops into each consumer): a producer the grouping left behind (shared by
        several groups, or claimed by a group that then read another group's result instead) is otherwise
        a loop nest of its own writing a buffer its readers load back. An expensive one moves only into a
        single fusion that reads it elementwise (each element still computed once). Consumers first, so
        whole chains move."""
        for op in reversed(list(self.block.ops)):
            m = hlo_name(op)
            if m in (None, "reduce", "constant") or not fusible(op):
                continue
            users = list(dict.fromkeys(u.operation for r in op.results for u in r.uses))
            if not users or not all(isinstance(u, FusionOp) and u.parent is self.block for u in users):
                continue
            if m in EXPENSIVE and not (len(users) == 1 and self._read_elementwise(op, users[0])):
                continue
            for f in users:
                _inline_into(op, f)
            consts = [v.owner for v in op.operands if isinstance(v.owner, Operation) and _is_splat_constant(v.owner)]
            op.detach()
            op.erase()
            for c in consts:  # now cloned into the fusions that read them
                if c.parent is self.block and not c.results[0].uses:
                    c.detach()
                    c.erase()

    @staticmethod
    def _read_elementwise(op: Operation, f: FusionOp) -> bool:
        args = [a for a, v in zip(f.body.block.args, f.operands) if v in op.results]
        return all(hlo_name(u.operation) in ELEMENTWISE or hlo_name(u.operation) == "reduce"
                   for a in args for u in a.uses)


def _inline_into(op: Operation, f: FusionOp) -> None:
    """Compute `op` inside fusion `f` instead of reading its result: its operands become inputs of `f`
    (splat constants are cloned in), and the parameters bound to its results go."""
    block = f.body.block
    operands = list(f.operands)
    arg_of = dict(zip(operands, block.args))
    mapper: dict[SSAValue, SSAValue] = {}
    new_ops: list[Operation] = []
    for v in op.operands:
        if v in mapper:
            continue
        if v in arg_of:
            mapper[v] = arg_of[v]
        elif isinstance(v.owner, Operation) and _is_splat_constant(v.owner):
            c = v.owner.clone()
            new_ops.append(c)
            mapper[v] = c.results[0]
        else:
            mapper[v] = block.insert_arg(v.type, len(block.args))
            operands.append(v)
    clone = op.clone(value_mapper=mapper)
    new_ops.append(clone)
    block.insert_ops_before(new_ops, block.first_op)
    dead = [i for i, v in enumerate(operands) if v in op.results]
    for i in dead:
        block.args[i].replace_all_uses_with(clone.results[op.results.index(operands[i])])
    for i in reversed(dead):
        block.erase_arg(block.args[i])
    f.operands = [v for i, v in enumerate(operands) if i not in dead]


def fuse_block(block: Block) -> int:
    return _Fuser(block).run()


@dataclass(frozen=True)
class HloFusion(ModulePass):
    """Fuse hlo ops into `hlo.fusion` regions (loop, input, multi-output)."""

    name = "hlo-fusion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = [b for o in op.walk() if o.name in CONTAINERS or isinstance(o, func.FuncOp)
                  for r in o.regions for b in r.blocks]
        for b in blocks:
            fuse_block(b)
