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

import re

from xdsl.ir import Block, BlockArgument, SSAValue

from minixla.passes import lazy_llvm as llvm  # the llvm-dialect path only

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


# ---- the same on plain data (the direct emitter's blocks, emit_llvm*.py) ---------------------------------
def choose_cut_lists(succs: list[list[int]], weights: list[int], tail_ops: int) -> int | None:
    """`choose_cut` given each block's successor indices and weight."""
    n = len(succs)
    if n < 3:
        return None
    suffix_min = [n] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix_min[i] = min([suffix_min[i + 1], *succs[i]])
    best, best_gap = None, None
    head_max, head_ops, total = -1, 0, sum(weights)
    for c in range(1, n):
        head_max = max([head_max, *succs[c - 1]])
        head_ops += weights[c - 1]
        if head_max > c or suffix_min[c] <= c or head_ops < MIN_PART_OPS or total - head_ops < MIN_PART_OPS:
            continue
        gap = abs(total - head_ops - tail_ops)
        if best_gap is None or gap < best_gap:
            best, best_gap = c, gap
    return best


def plan_cut_sizes(sizes: dict[str, int], internal: set[str], refs: dict[str, set[str]], split_above: int,
                   blocks_of) -> tuple[str, int] | None:
    """`plan_cut` given each defined function's size, the internal ones, what each refers to, and
    `blocks_of(name, closure) -> (successors, weights)` of a function's blocks (`closure(ref)`: the size of
    internal function `ref` with the internal ones it refers to, 0 for others)."""
    total = sum(sizes.values())
    if not sizes or total < split_above:
        return None
    memo: dict[str, int] = {}

    def closure(name: str) -> int:
        if name not in internal or name not in sizes:
            return 0
        if name not in memo:
            seen, todo = {name}, [name]
            while todo:
                for ref in refs.get(todo.pop(), ()):
                    if ref in internal and ref in sizes and ref not in seen:
                        seen.add(ref)
                        todo.append(ref)
            memo[name] = sum(sizes[n] for n in seen)
        return memo[name]

    exported = [n for n in sizes if n not in internal]
    if not exported:
        return None
    big = max(exported, key=lambda n: sizes[n])
    succs, weights = blocks_of(big, closure)
    others = sum(size for name, size in sizes.items() if name not in internal and name != big)
    if sum(weights) * 10 < (sum(weights) + others) * 6:
        return None
    cut = choose_cut_lists(succs, weights, (sum(weights) + others) // 2)
    return None if cut is None else (big, cut)


_NAME = re.compile(r"%[ta]\d+\b")


def cut_blocks(emitter, c: int, ret: str, tail_name: str) -> tuple[list[str], list[str]] | None:
    """(head body lines, tail function lines) of an emitted function cut at block `c`: the head's
    branches to `c` call the tail (parameters: `c`'s phis, then the head's values the tail uses) and
    return what it returns. None when a value's type is unknown (no cut then)."""
    blocks = emitter.blocks
    head, tail = blocks[:c], blocks[c:]
    cut = blocks[c]
    phi_names = [n for n, _, _ in cut.phis]
    defined = set(phi_names)
    for b in tail:
        defined.update(n for n, _, _ in b.phis)
        defined.update(line.split(" = ", 1)[0].strip() for line in b.lines if " = " in line)
    inputs: dict[str, None] = {}
    for b in tail:
        texts = [v for _, _, inc in (b.phis if b is not cut else []) for v, _ in inc] + b.lines
        for text in texts:
            for name in _NAME.findall(text):
                if name not in defined:
                    inputs[name] = None
    types = emitter.types
    if any(name not in types for name in inputs):
        return None
    tail_params = [(n, t) for n, t, _ in cut.phis] + [(n, types[n]) for n in inputs]
    head_lines: list[str] = []
    stubs: list[str] = []
    target = re.compile(re.escape(f"%{cut.label}") + r"\b")
    for b in head:
        text = b.text()
        term = text[-1]
        if target.search(term) is None:
            head_lines += text
            continue
        args = [inc_value(cut, i, b.label) for i in range(len(cut.phis))] + list(inputs)
        call_args = ", ".join(f"{t} {v}" for (_, t), v in zip(tail_params, args))
        if ret == "void":
            call = [f'  call void @"{tail_name}"({call_args})', "  ret void"]
        else:
            call = [f'  %cut{b.index} = call {ret} @"{tail_name}"({call_args})', f"  ret {ret} %cut{b.index}"]
        if term.startswith("  br label "):
            text = text[:-1] + call
        else:  # a conditional branch: to a block of its own that calls the tail
            text[-1] = target.sub(f"%cut{b.index}_", term)
            stubs += [f"cut{b.index}_:", *call]
        head_lines += text
    head_lines += stubs
    lines = [f'define {ret} @"{tail_name}"({", ".join(f"{t} {n}" for n, t in tail_params)}) nounwind {{']
    first = tail[0].text()
    lines += [first[0], *first[1 + len(cut.phis):]]
    for b in tail[1:]:
        lines += b.text()
    lines.append("}")
    return head_lines, lines


def inc_value(block, i: int, label: str) -> str:
    """The value phi `i` of `block` receives from block `label`."""
    for v, lbl in block.phis[i][2]:
        if lbl == label:
            return v
    raise KeyError(label)
