"""Structural tests of `bufferize`: destination-passing ABI, in-place reuse,
no copy into results, deallocation after the last use, constant globals."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg.ops import GenericOp

from tests.passes.loop_ir_eval import LoopEvaluator
from tests.passes.test_hlo_to_linalg import RUNNING, STAGES, check, f32, fn, lower


def ops(module, cls):
    return [o for o in module.walk() if isinstance(o, cls)]


def test_results_become_out_params():
    m = lower(RUNNING, STAGES[:2])
    f = ops(m, func.FuncOp)[0]
    ins = list(f.function_type.inputs.data)
    assert [str(t) for t in ins] == ["memref<4x8xf32>", "memref<4x8xf32>", "memref<4xf32>"]
    assert not f.function_type.outputs.data
    ret = ops(m, func.ReturnOp)[0]
    assert not ret.operands


def test_result_written_in_place_without_copy():
    m = lower(RUNNING, STAGES[:2])
    out = ops(m, func.FuncOp)[0].body.block.args[2]
    writers = [g for g in ops(m, GenericOp) if out in g.outputs]
    # fill, reduce and divide all write the out-parameter directly; nothing copies into it
    assert len(writers) == 3
    assert all(len(g.body.block.ops) > 1 for g in writers[1:])


def test_elementwise_chain_reuses_one_buffer():
    m = lower(RUNNING, STAGES[:2])
    allocs = ops(m, memref.AllocOp)
    # x*x gets a buffer that *3 and +y then reuse; the broadcast needs one more
    assert len(allocs) == 2
    assert len(ops(m, memref.DeallocOp)) == 2


def test_dealloc_follows_last_use():
    m = lower(RUNNING, STAGES[:2])
    block = ops(m, func.FuncOp)[0].body.block
    seq = list(block.ops)
    for d in ops(m, memref.DeallocOp):
        buf = d.memref
        last = max(i for i, o in enumerate(seq) if any(buf in x.operands for x in o.walk()) and o is not d)
        assert seq.index(d) == last + 1


def test_constants_become_globals():
    m = lower(RUNNING, STAGES[:2])
    globs = ops(m, memref.GlobalOp)
    assert len(globs) == 3 and all(g.constant is not None for g in globs)
    assert len(ops(m, memref.GetGlobalOp)) == 3


def test_inputs_are_never_written():
    text = fn("%x: tensor<4xf32>) -> tensor<4xf32>", """
  %a = hlo.negate %x : tensor<4xf32>
  %b = hlo.add %a, %x : tensor<4xf32>
  return %b : tensor<4xf32>""")
    m = lower(text, STAGES[:2])
    x = ops(m, func.FuncOp)[0].body.block.args[0]
    assert not any(x in g.outputs for g in ops(m, GenericOp))
    check(text, f32(4))


def test_returning_an_argument_copies():
    text = fn("%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)", "return %x, %x : tensor<3xf32>, tensor<3xf32>")
    x = f32(3)
    outs = LoopEvaluator(lower(text)).run("main", x)
    for o in outs:
        np.testing.assert_array_equal(o, x)


def test_same_value_returned_twice():
    text = fn("%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)", """
  %a = hlo.negate %x : tensor<3xf32>
  return %a, %a : tensor<3xf32>, tensor<3xf32>""")
    check(text, f32(3))


def test_live_operand_is_not_overwritten():
    text = fn("%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)", """
  %a = hlo.negate %x : tensor<4xf32>
  %b = hlo.exponential %a : tensor<4xf32>
  %c = hlo.add %a, %b : tensor<4xf32>
  return %b, %c : tensor<4xf32>, tensor<4xf32>""")
    check(text, f32(4))


def test_loop_carried_buffer_reuses_dead_init():
    text = fn("%x: tensor<3xf32>) -> tensor<3xf32>", """
  %i0 = hlo.constant dense<0> : tensor<i32>
  %y = hlo.negate %x : tensor<3xf32>
  %r:2 = hlo.while(%i = %i0, %acc = %y) : tensor<i32>, tensor<3xf32>
   cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    %a2 = hlo.multiply %acc, %x : tensor<3xf32>
    hlo.return %i2, %a2 : tensor<i32>, tensor<3xf32>
  }
  return %r#1 : tensor<3xf32>""")
    m = lower(text, STAGES[:2])
    # the negate result is dead after the loop: it is the carried buffer (no copy of it)
    assert all(isinstance(a.memref.type, MemRefType) for a in ops(m, memref.AllocOp))
    check(text, f32(3))


def test_loop_init_read_inside_the_body_is_copied():
    """The init of a carried value is also read in the body (CSE shares a
    constant between them): the loop must not update that buffer in place."""
    text = fn("%x: tensor<3x2xf32>) -> tensor<2xf32>", """
  %i0 = hlo.constant dense<0> : tensor<i32>
  %c1 = hlo.constant dense<1.0> : tensor<f32>
  %ones = hlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<2xf32>
  %r:2 = hlo.while(%i = %i0, %acc = %ones) : tensor<i32>, tensor<2xf32>
   cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    %row = "hlo.dynamic_slice"(%x, %i, %i0) <{slice_sizes = array<i64: 1, 2>}> : (tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
    %v = hlo.reshape %row : (tensor<1x2xf32>) -> tensor<2xf32>
    %m = hlo.multiply %acc, %v : tensor<2xf32>
    %a2 = hlo.add %m, %ones : tensor<2xf32>
    hlo.return %i2, %a2 : tensor<i32>, tensor<2xf32>
  }
  return %r#1 : tensor<2xf32>""")
    check(text, np.array([[1, 2], [3, 4], [5, 6]], np.float32))


@pytest.mark.parametrize("swap", [True])
def test_loop_swapping_carried_values(swap):
    text = fn("%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)", """
  %i0 = hlo.constant dense<0> : tensor<i32>
  %r:3 = hlo.while(%i = %i0, %a = %x, %b = %y) : tensor<i32>, tensor<2xf32>, tensor<2xf32>
   cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    hlo.return %i2, %b, %a : tensor<i32>, tensor<2xf32>, tensor<2xf32>
  }
  return %r#1, %r#2 : tensor<2xf32>, tensor<2xf32>""")
    check(text, f32(2), f32(2))
