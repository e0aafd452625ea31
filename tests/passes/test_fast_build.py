"""passes/fast_build.py: ops built from a remembered shape equal the ops the IRDL builders make."""

from __future__ import annotations

import math

from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType, ModuleOp, f32, f64, i64
from xdsl.ir import Block, Region
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter

from minixla.passes import fast_build
from minixla.passes.fast_build import like


def _generic(op) -> str:
    import io

    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    return out.getvalue()


def _block():
    return Block(arg_types=[llvm.LLVMPointerType(), i64, i64, f32, MemRefType(f32, [4, 4]), IndexType()])


def test_second_op_of_a_shape_equals_the_builders_op():
    fast_build.clear()
    b = _block()
    p, i, j, x, m, k = b.args
    cases = [
        (("llvm.load", f32), lambda: llvm.LoadOp(p, f32), (p,), ()),
        (("gep", f32), lambda: llvm.GEPOp.from_mixed_indices(p, [i], f32, inbounds=True), (p, i), ()),
        (("store",), lambda: llvm.StoreOp(x, p), (x, p), ()),
        (("add", i64), lambda: llvm.AddOp(i, j, overflow=llvm.OverflowAttr([llvm.OverflowFlag.NO_SIGNED_WRAP])),
         (i, j), ()),
        (("memref.load", 2), lambda: memref.LoadOp.get(m, [k, k]), (m, k, k), ()),
    ]
    for key, slow, operands, successors in cases:
        first = like(key, slow, operands, successors)
        second = like(key, lambda: (_ for _ in ()).throw(AssertionError("not rebuilt")), operands, successors)
        assert type(second) is type(first) and second is not first
        b.add_ops([first, second])
        assert _generic(second) == _generic(slow())
        second.verify()


def test_segment_sizes_and_successors_come_with_the_shape():
    fast_build.clear()
    region = Region([Block(arg_types=[i64]), Block(arg_types=[i64])])
    entry, target = region.blocks
    i = entry.args[0]
    bit = llvm.TruncOp(i, IntegerType(1))
    entry.add_op(bit)

    def slow():
        return llvm.CondBrOp(bit.results[0], target, [i], target, [])

    first = like(("cond_br", 1, 0), slow, (bit.results[0], i), (target, target))
    second = like(("cond_br", 1, 0), slow, (bit.results[0], i), (target, target))
    assert second is not first and list(second.successors) == [target, target]
    assert second.attributes == first.attributes == slow().attributes  # operandSegmentSizes
    assert _generic(second) == _generic(slow())


def test_constants_are_keyed_by_their_bits():
    from minixla.passes.lower_to_llvm.common import Emit, constant_op

    fast_build.clear()
    module = ModuleOp([])
    anchor = llvm.UnreachableOp()
    module.body.block.add_op(anchor)

    class _Rewriter:  # Emit only inserts
        def insert(self, op, ip=None):
            Rewriter.insert_op(op, InsertPoint.before(anchor))

    e = Emit(_Rewriter())
    values = [0.0, -0.0, 0.0, math.nan, -math.nan, 1.5, 1.5, 3, 3, True]
    types = [f64] * 7 + [i64, i64, IntegerType(1)]
    for t, v in zip(types, values):
        got = e.const(t, v).owner
        assert _generic(got) == _generic(constant_op(t, v)), (t, v)


SPLIT = """
func.func @f(%a: i32, %c: i1) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %a : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %2 = arith.subi %1, %a : i32
  cf.br ^bb2
^bb2:
  func.return %1 : i32
}
"""


def test_split_before_matches_xdsl():
    from minixla.dialects import load_all
    from minixla.dialects.diagnostics import parse_and_verify
    from minixla.passes.fast_build import split_before

    for block_index, op_index in ((0, 1), (0, 0), (1, 1), (2, 0)):
        mine, theirs = (parse_and_verify(SPLIT, "split.mlir", load_all()) for _ in range(2))
        results = []
        for module, split in ((mine, split_before), (theirs, lambda b, o: b.split_before(o))):
            region = next(iter(module.ops)).regions[0]
            block = list(region.blocks)[block_index]
            new = split(block, list(block.ops)[op_index])
            assert new.parent is region and new.prev_block is block
            assert all(o.parent is new for o in new.ops)
            results.append(str(module))
        assert results[0] == results[1]
