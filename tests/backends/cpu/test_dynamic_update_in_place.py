"""hlo.dynamic_update_slice in loops, compiled for the CPU (a tensor.insert_slice that bufferization
writes in place when the stack it updates is dead afterwards) against the reference interpreter: a
while loop stacking one row per step, and one that also reads the old stack after the update (which
must see the row it had, so that update goes into a copy)."""

from __future__ import annotations

import numpy as np

from minixla.backends import get_backend
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify

LOOP = """
func.func @main(%x: tensor<7x5xf32>, %rows: tensor<7x5xf32>) -> (tensor<7x5xf32>, tensor<7x5xf32>) {{
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:3 = hlo.while(%i = %zero, %s = %x, %t = %x) : tensor<i32>, tensor<7x5xf32>, tensor<7x5xf32> cond {{
    %n = hlo.constant dense<7> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }} do {{
    %row = hlo.dynamic_slice %rows, %i, %zero, sizes = [1, 5] : (tensor<7x5xf32>, tensor<i32>, tensor<i32>) -> tensor<1x5xf32>
    %twice = hlo.add %row, %row : tensor<1x5xf32>
    %s2 = hlo.dynamic_update_slice %s, %twice, %i, %zero : (tensor<7x5xf32>, tensor<1x5xf32>, tensor<i32>, tensor<i32>) -> tensor<7x5xf32>
    {read_old}
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    hlo.return %i2, %s2, {t_next} : tensor<i32>, tensor<7x5xf32>, tensor<7x5xf32>
  }}
  return %r#1, %r#2 : tensor<7x5xf32>, tensor<7x5xf32>
}}
"""
# the old stack's row i, read after the update, goes into the second result at row 6 - i
READ_OLD = """%old = hlo.dynamic_slice %s, %i, %zero, sizes = [1, 5] : (tensor<7x5xf32>, tensor<i32>, tensor<i32>) -> tensor<1x5xf32>
    %six = hlo.constant dense<6> : tensor<i32>
    %j = hlo.subtract %six, %i : tensor<i32>
    %t2 = hlo.dynamic_update_slice %t, %old, %j, %zero : (tensor<7x5xf32>, tensor<1x5xf32>, tensor<i32>, tensor<i32>) -> tensor<7x5xf32>"""


def _run(backend: str, text: str, args):
    module = parse_and_verify(text, "loop.mlir", load_all())
    return [np.asarray(r) for r in get_backend(backend).compile(module, "main")(*args)]


def test_stacked_rows_and_reads_of_the_old_stack_match_the_interpreter():
    rng = np.random.default_rng(0)
    x, rows = rng.standard_normal((7, 5), np.float32), rng.standard_normal((7, 5), np.float32)
    for text in (LOOP.format(read_old="", t_next="%t"), LOOP.format(read_old=READ_OLD, t_next="%t2")):
        got, want = _run("cpu", text, [x, rows]), _run("interpreter", text, [x, rows])
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(got[0], 2 * rows)  # every row replaced
    np.testing.assert_array_equal(got[1], x[::-1])  # the old rows: x's, in reverse
