"""Where to cut one big `llvm.func` in two, so that its halves compile on two cores (parallel_jit.py).

A whole training step lowers to one function holding ~90% of the module's instructions, and LLVM
compiles a function on one thread: the module can only be split across processes if that function
is. The cut is at a block `c` (in block order) such that control goes from the blocks before `c` to
the blocks from `c` on only through branches to `c` itself, and never back: the blocks from `c` on
then form a function of their own (the *tail*), called where the head branched to `c` (a
conditional branch goes to a new block that calls it), whose
parameters are `c`'s block arguments and the values of the head it uses (every such value dominates
`c`, so it exists at the call). Constants and symbol addresses are not passed: the translator
rematerialises them. The lowering lays out each loop nest contiguously, so the exit block of a loop
nest (where the nest's outer loop header branches on leaving) is such a point.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.ir import Block, BlockArgument, SSAValue

#: a cut leaves at least this many operations on each side (smaller halves are not worth a process)
MIN_PART_OPS = 200


def op_count(fn: llvm.FuncOp) -> int:
    return sum(len(block.ops) for block in fn.body.blocks)


def _referenced(op) -> str | None:
    """The function or global an op names (llvm.call's callee, llvm.mlir.addressof's symbol)."""
    if isinstance(op, llvm.AddressOfOp):
        return op.global_name.root_reference.data
    if isinstance(op, llvm.CallOp) and op.callee is not None:
        return op.callee.root_reference.data
    return None


def _is_internal(fn: llvm.FuncOp) -> bool:
    return fn.linkage is not None and fn.linkage.linkage.data in ("internal", "private")


def plan_cut(funcs: list[llvm.FuncOp], split_above: int) -> tuple[llvm.FuncOp, int] | None:
    """(function, block index) to cut so that the module's two groups of functions (parallel_jit.py) weigh
    about the same, or None: the module is smaller than `split_above` operations, or its biggest function
    (with the internal functions it refers to, such as the bodies of its threaded loops, which go to the
    group of the half that refers to them) is not most of it, so whole functions balance already."""
    defined = [fn for fn in funcs if fn.body.blocks]
    sizes = {fn.sym_name.data: op_count(fn) for fn in defined}
    total = sum(sizes.values())
    if not defined or total < split_above:
        return None
    internal = {fn.sym_name.data: fn for fn in defined if _is_internal(fn)}
    closure: dict[str, int] = {}  # an internal function with the internal ones it refers to, in operations

    def weight(name: str) -> int:
        if name not in closure:
            closure[name] = 0  # (recursion)
            seen, todo = {name}, [name]
            while todo:
                for op in internal[todo.pop()].walk():
                    ref = _referenced(op)
                    if ref in internal and ref not in seen:
                        seen.add(ref)
                        todo.append(ref)
            closure[name] = sum(sizes[n] for n in seen)
        return closure[name]

    def block_weights(fn: llvm.FuncOp) -> list[int]:
        return [sum(1 + (weight(ref) if (ref := _referenced(op)) in internal else 0) for op in block.ops)
                for block in fn.body.blocks]

    big = max((fn for fn in defined if not _is_internal(fn)), key=lambda fn: sizes[fn.sym_name.data], default=None)
    if big is None:
        return None
    weights = block_weights(big)
    # what the group without the tail holds besides the head: the other exported functions
    others = sum(size for name, size in sizes.items() if name not in internal and name != big.sym_name.data)
    if sum(weights) * 10 < (sum(weights) + others) * 6:
        return None
    cut = choose_cut(big, (sum(weights) + others) // 2, weights)
    return None if cut is None else (big, cut)


def choose_cut(fn: llvm.FuncOp, tail_ops: int, weights: list[int] | None = None) -> int | None:
    """The index of the block where the tail that is closest to `tail_ops` operations starts (`weights`:
    per block, default its operation count), or None."""
    blocks = list(fn.body.blocks)
    if len(blocks) < 3:
        return None
    index = {block: i for i, block in enumerate(blocks)}
    succs = [[index[s] for s in (b.last_op.successors if b.last_op is not None else ())] for b in blocks]
    weights = weights or [len(b.ops) for b in blocks]
    n = len(blocks)
    # suffix_min[c]: the lowest block any block from c on branches to (n: none)
    suffix_min = [n] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix_min[i] = min([suffix_min[i + 1], *succs[i]])
    best, best_gap = None, None
    head_max = -1  # the highest block the head (blocks before c) branches to
    head_ops = 0
    total = sum(weights)
    for c in range(1, n):
        head_max = max([head_max, *succs[c - 1]])
        head_ops += weights[c - 1]
        if head_max > c or suffix_min[c] <= c or head_ops < MIN_PART_OPS or total - head_ops < MIN_PART_OPS:
            continue  # the head jumps past c, or the tail jumps back to (or above) c
        gap = abs(total - head_ops - tail_ops)
        if best_gap is None or gap < best_gap:
            best, best_gap = c, gap
    return best


def tail_inputs(blocks: list[Block], head: set[Block]) -> list[SSAValue]:
    """The values defined in the `head` blocks (or the function's arguments) that the other `blocks` use,
    in order of first use; constants and addresses included (the translator drops those)."""
    seen: set[SSAValue] = set()
    inputs: list[SSAValue] = []
    for block in blocks:
        for op in block.ops:
            for value in op.operands:
                if value in seen:
                    continue
                owner = value.block if isinstance(value, BlockArgument) else value.owner.parent
                if owner in head:
                    seen.add(value)
                    inputs.append(value)
    return inputs
