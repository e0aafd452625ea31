"""Bounds checks on memref accesses (`convert-memref-to-llvm{check_bounds=true}`,
turned on by MINIXLA_CHECK_BOUNDS=1).

Every `memref.load`/`memref.store` tests each index against its dimension
(`0 <= i < n`, one unsigned compare). In bounds, the access goes ahead as
usual. Out of bounds, a cold block records the first violation in the module
global `__mx_bounds_record` = [site + 1, index...] and the access is redirected to a scratch global, so the program runs to the end
without touching memory it does not own; the runtime reads the record after
the call and reports the site. Site `k` is described by `sites[k]`, from the
access's location (the hlo op it was lowered from, see passes/locations.py).
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, FileLineColLoc, MemRefType, ModuleOp, NameLoc, StringAttr, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from minixla.passes.lower_to_llvm.common import PTR, Emit

RECORD = "__mx_bounds_record"
SCRATCH = "__mx_bounds_scratch"
SITES_ATTR = "minixla.bounds_sites"
MAX_RANK = 16  # indices recorded per violation
RECORD_WORDS = 1 + MAX_RANK


def ensure_globals(module: ModuleOp) -> None:
    names = {op.sym_name.data for op in module.ops if isinstance(op, llvm.GlobalOp)}
    for name, words in ((RECORD, RECORD_WORDS), (SCRATCH, RECORD_WORDS)):  # scratch: room for any element too
        if name not in names:
            module.body.block.add_op(llvm.GlobalOp(llvm.LLVMArrayType(words, i64), name, "external",
                                                   constant=False, alignment=64))


def describe(op: Operation) -> str:
    """Where access `op` comes from: 'FILE:LINE:COL: 'hlo.x' op' (what its location says)."""
    kind = "load from" if op.name == "memref.load" else "store to"
    what = f"{kind} {op.operands[0 if op.name == 'memref.load' else 1].type}"
    loc, name = op.location, None
    if isinstance(loc, NameLoc):
        name, loc = loc.desc.data, loc.location
    where = f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: " if isinstance(loc, FileLineColLoc) else ""
    if name is None:
        fn = op.parent_op()
        while fn is not None and not hasattr(fn, "sym_name"):
            fn = fn.parent_op()
        name = f"'{op.name}' in @{fn.sym_name.data}" if fn is not None else f"'{op.name}'"  # type: ignore[attr-defined]
    return f"{where}{name}: out-of-bounds {what}"


def site(op: Operation, t: MemRefType) -> str:
    """A site table entry: the accessed shape and the description, as "4,3;text"."""
    return ",".join(str(n) for n in t.get_shape()) + ";" + describe(op)


def record_sites(module: ModuleOp, sites: list[str]) -> None:
    module.attributes[SITES_ATTR] = ArrayAttr([StringAttr(s) for s in sites])


def sites_of(module: ModuleOp) -> list[tuple[tuple[int, ...], str]]:
    """(accessed shape, description) per site."""
    attr = module.attributes.get(SITES_ATTR)
    if not isinstance(attr, ArrayAttr):
        return []
    out = []
    for s in attr.data:
        shape, text = s.data.split(";", 1)  # type: ignore[attr-defined]
        out.append((tuple(int(n) for n in shape.split(",") if n), text))
    return out


def checked_pointer(rewriter: PatternRewriter, op: Operation, ptr: SSAValue, t: MemRefType,
                    indices: list[SSAValue], site: int) -> SSAValue:
    """`ptr` if every index of `op`'s access is in bounds, else the scratch buffer (after
    recording the violation). Splits `op`'s block: `op` ends up at the start of a new block."""
    e = Emit(rewriter)
    shape = t.get_shape()
    if not indices:
        return ptr
    ok = None
    for idx, n in zip(indices, shape):
        in_bounds = e.icmp("ult", idx, e.const(i64, n))
        ok = in_bounds if ok is None else e(llvm.AndOp(ok, in_bounds))
    assert ok is not None
    safe = e.select(ok, ptr, e(llvm.AddressOfOp(SCRATCH, PTR)))
    block = op.parent_block()
    assert block is not None
    cont = block.split_before(op)
    bad = Block()
    region = block.parent_region()
    assert region is not None
    region.insert_block_before(bad, cont)
    Emit(rewriter, InsertPoint.at_end(block))(llvm.CondBrOp(ok, cont, [], bad, []))
    # cold path: [site + 1, indices...] into the record unless a violation is there already
    b = Emit(rewriter, InsertPoint.at_end(bad))
    record = b(llvm.AddressOfOp(RECORD, PTR))
    first = b.icmp("eq", b(llvm.LoadOp(record, i64)), b.const(i64, 0))
    dst = b.select(first, record, b(llvm.AddressOfOp(SCRATCH, PTR)))
    for k, v in enumerate([b.const(i64, site + 1), *indices[:MAX_RANK]]):
        b(llvm.StoreOp(v, dst if k == 0 else b(llvm.GEPOp.from_mixed_indices(dst, [k], i64))))
    b(llvm.BrOp(cont))
    rewriter.insertion_point = InsertPoint.before(op)  # later inserts go into `op`'s new block
    return safe
