// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// reduce
"hlo.reduce"() <{dimensions = array<i64>}> ({
^bb0:
  hlo.return
}) : () -> ()
// CHECK: error: 'hlo.reduce' op needs at least one input

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%y = "test.op"() : () -> tensor<3x2xf32>
%z = "test.op"() : () -> tensor<f32>
%0:2 = hlo.reduce(%x init: %z), (%y init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<f32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>)
  reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<f32>, %s: tensor<f32>) {
    hlo.return %q, %s : tensor<f32>, tensor<f32>
  }
// CHECK: error: 'hlo.reduce' op input #1 shape [3, 2] differs from input #0 [2, 3]

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<1xf32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2xf32>
  reducer(%p: tensor<f32>, %q: tensor<1xf32>) {
    hlo.return %q : tensor<1xf32>
  }
// CHECK: error: 'hlo.reduce' op init value #0 must be a 0-d tensor, got tensor<1xf32>

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  reducer(%p: tensor<f32>, %q: tensor<f32>) {
    hlo.return %q : tensor<f32>
  }
// CHECK: error: 'hlo.reduce' op dimensions contains 2, out of range for rank 2

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  reducer(%p: tensor<f32>, %q: tensor<f32>) {
    hlo.return %q : tensor<f32>
  }
// CHECK: error: 'hlo.reduce' op dimensions must not repeat dimensions, got [1, 1]

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  reducer(%p: tensor<f32>, %q: tensor<f32>) {
    hlo.return %q : tensor<f32>
  }
// CHECK: error: 'hlo.reduce' op result #0 type tensor<3xf32> must be tensor<2xf32>

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf64>
  reducer(%p: tensor<f32>, %q: tensor<f32>) {
    hlo.return %q : tensor<f32>
  }
// CHECK: error: 'hlo.reduce' op result #0 type tensor<2xf64> must be tensor<2xf32>

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
"hlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<2x3xf32>, tensor<f32>) -> ()
// CHECK: error: 'hlo.reduce' op expected 1 results, got 0

// -----
// Reduction bodies (shared by reduce, reduce_window, scatter, select_and_scatter)
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
^bb0(%p: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: 'hlo.reduce' op reduction body must take 2 arguments, got 1

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  reducer(%p: tensor<f32>, %q: tensor<2xf32>) {
    hlo.return %p : tensor<f32>
  }
// CHECK: error: 'hlo.reduce' op reduction body must take (tensor<f32>, tensor<f32>), got (tensor<f32>, tensor<2xf32>)

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  reducer(%p: tensor<f32>, %q: f32) {
    hlo.return %p : tensor<f32>
  }
// CHECK: error: 'hlo.reduce' op reduction body must take (tensor<f32>, tensor<f32>), got (tensor<f32>, f32)

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  reducer(%p: tensor<f32>, %q: tensor<f32>) {
    hlo.return %p, %q : tensor<f32>, tensor<f32>
  }
// CHECK: error: 'hlo.reduce' op reduction body must return (tensor<f32>), got (tensor<f32>, tensor<f32>)

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  reducer(%p: tensor<f32>, %q: tensor<f32>) {
    %w = "test.op"() : () -> tensor<2xf32>
    hlo.return %w : tensor<2xf32>
  }
// CHECK: error: 'hlo.reduce' op reduction body must return (tensor<f32>), got (tensor<2xf32>)

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  reducer(%p: tensor<f32>, %q: tensor<f32>) {
    hlo.return
  }
// CHECK: error: 'hlo.reduce' op reduction body must return (tensor<f32>), got ()

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  "test.termop"() : () -> ()
}) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: 'hlo.reduce' op reduction body must end with a return op, got test.termop

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %s = hlo.add %p, %q : tensor<f32>
}) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: 'hlo.add' op terminates its block but is not a terminator

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
}) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: 'hlo.reduce' op contains an empty block in a single-block region that expects a terminator

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  "test.termop"() [^bb1] : () -> ()
^bb1:
  hlo.return %p : tensor<f32>
}) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: 'hlo.reduce' op Region 'body' at position 0 expected a single block, but got 2 blocks

// -----
// reduce parse errors
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) applies hlo.bogus across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: unknown combiner op
// CHECK: note: while parsing 'hlo.reduce'

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<2x3xf32>) -> tensor<2xf32>
// CHECK: error: expected 2 operand types, got 1
// CHECK: note: while parsing 'hlo.reduce'

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) applies hlo.add dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: Expected 'across'
// CHECK: note: while parsing 'hlo.reduce'

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x, %z) applies hlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: Expected 'init'
// CHECK: note: while parsing 'hlo.reduce'

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  {
    hlo.return %z : tensor<f32>
  }
// CHECK: error: Expected 'reducer'
// CHECK: note: while parsing 'hlo.reduce'

// -----
// reduce_window (valid form: 4x6 input, 2x2 window, 2x2 strides -> 2x3)
"hlo.reduce_window"() <{window_dimensions = array<i64>}> ({
^bb0:
  hlo.return
}) : () -> ()
// CHECK: error: 'hlo.reduce_window' op needs at least one input

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%y = "test.op"() : () -> tensor<4x5xf32>
%z = "test.op"() : () -> tensor<f32>
%0:2 = "hlo.reduce_window"(%x, %y, %z, %z) <{window_dimensions = array<i64: 1, 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>, %r: tensor<f32>, %s: tensor<f32>):
  hlo.return %r, %s : tensor<f32>, tensor<f32>
}) : (tensor<4x6xf32>, tensor<4x5xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x6xf32>, tensor<4x5xf32>)
// CHECK: error: 'hlo.reduce_window' op input #1 shape [4, 5] differs from input #0 [4, 6]

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%z = "test.op"() : () -> tensor<2xf32>
%0 = "hlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<4x6xf32>, tensor<2xf32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.reduce_window' op init value #0 must be a 0-d tensor, got tensor<2xf32>

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.reduce_window' op window_dimensions needs 2 entries, got [2]

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 0>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.reduce_window' op window_strides must be positive, got [2, 0]

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, base_dilations = array<i64: 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.reduce_window' op base_dilations needs 2 entries, got [1]

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, window_dilations = array<i64: 1, -1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.reduce_window' op window_dilations must be positive, got [1, -1]

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<0> : tensor<2xi64>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.reduce_window' op padding must have shape [2, 2], got [2]

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.reduce_window' op result #0 type tensor<2x3xf32> must be tensor<3x5xf32>

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf16>
// CHECK: error: 'hlo.reduce_window' op result #0 type tensor<2x3xf16> must be tensor<2x3xf32>

// -----
// select_and_scatter
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<1xf32>
%0 = "hlo.select_and_scatter"(%x, %s, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<1xf32>) -> tensor<4x6xf32>
// CHECK: error: 'hlo.select_and_scatter' op init value #0 must be a 0-d tensor, got tensor<1xf32>

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.select_and_scatter"(%x, %s, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK: error: 'hlo.select_and_scatter' op window_dimensions and window_strides need 2 entries each

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.select_and_scatter"(%x, %s, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<0> : tensor<3x2xi64>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK: error: 'hlo.select_and_scatter' op padding must have shape [2, 2], got [3, 2]

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "test.op"() : () -> tensor<3x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.select_and_scatter"(%x, %s, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4x6xf32>, tensor<3x3xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK: error: 'hlo.select_and_scatter' op source shape [3, 3] must be [2, 3]

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.select_and_scatter"(%x, %s, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}, {
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK: error: 'hlo.select_and_scatter' op select region must return tensor<i1>, got ['tensor<f32>']

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.select_and_scatter"(%x, %s, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%p: tensor<f32>, %q: tensor<f32>, %t: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK: error: 'hlo.select_and_scatter' op scatter region must take 2 arguments, got 3

// -----
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "test.op"() : () -> tensor<2x3xf32>
%z = "test.op"() : () -> tensor<f32>
%0 = "hlo.select_and_scatter"(%x, %s, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf64>
// CHECK: error: 'hlo.select_and_scatter' op result type tensor<4x6xf64> must equal operand type tensor<4x6xf32>

// -----
// sort
"hlo.sort"() ({
^bb0:
  hlo.return
}) : () -> ()
// CHECK: error: 'hlo.sort' op needs at least one input

// -----
%x0 = "test.op"() : () -> tensor<2x3xf32>
%x1 = "test.op"() : () -> tensor<3x2xi32>
%0:2 = "hlo.sort"(%x0, %x1) ({
^bb0(%p: tensor<f32>, %q: tensor<f32>, %r: tensor<i32>, %s: tensor<i32>):
  %c = hlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}) : (tensor<2x3xf32>, tensor<3x2xi32>) -> (tensor<2x3xf32>, tensor<3x2xi32>)
// CHECK: error: 'hlo.sort' op input #1 shape [3, 2] differs from input #0 [2, 3]

// -----
%x0 = "test.op"() : () -> tensor<2x3xf32>
%0 = "hlo.sort"(%x0) <{dimension = 2 : i64}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}) : (tensor<2x3xf32>) -> (tensor<2x3xf32>)
// CHECK: error: 'hlo.sort' op dimension 2 is out of range for rank 2

// -----
%x0 = "test.op"() : () -> tensor<2x3xf32>
%0 = "hlo.sort"(%x0) <{dimension = -3 : i64}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}) : (tensor<2x3xf32>) -> (tensor<2x3xf32>)
// CHECK: error: 'hlo.sort' op dimension -3 is out of range for rank 2

// -----
%x0 = "test.op"() : () -> tensor<2x3xf32>
%x1 = "test.op"() : () -> tensor<2x3xi32>
%0:2 = "hlo.sort"(%x0, %x1) ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}) : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
// CHECK: error: 'hlo.sort' op comparator must take ['tensor<f32>', 'tensor<f32>', 'tensor<i32>', 'tensor<i32>'], got ['tensor<f32>', 'tensor<f32>']

// -----
%x0 = "test.op"() : () -> tensor<2x3xf32>
%0 = "hlo.sort"(%x0) ({
^bb0(%p: tensor<f32>, %q: tensor<f64>):
  %c = "test.op"() : () -> tensor<i1>
  hlo.return %c : tensor<i1>
}) : (tensor<2x3xf32>) -> (tensor<2x3xf32>)
// CHECK: error: 'hlo.sort' op comparator must take ['tensor<f32>', 'tensor<f32>'], got ['tensor<f32>', 'tensor<f64>']

// -----
%x0 = "test.op"() : () -> tensor<2x3xf32>
%0 = "hlo.sort"(%x0) ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<2x3xf32>) -> (tensor<2x3xf32>)
// CHECK: error: 'hlo.sort' op comparator must return tensor<i1>, got ['tensor<f32>']

// -----
%x0 = "test.op"() : () -> tensor<2x3xf32>
%0 = "hlo.sort"(%x0) ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %c = hlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %c : tensor<i1>
}) : (tensor<2x3xf32>) -> (tensor<3x2xf32>)
// CHECK: error: 'hlo.sort' op result types must equal input types

// -----
// all_reduce
%x = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.all_reduce"(%x) <{replica_groups = dense<[0, 1]> : tensor<2xi64>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.all_reduce' op replica_groups must be 2-d, got shape [2]

// -----
%x = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.all_reduce"(%x) <{replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.all_reduce' op replica_groups must not repeat replica ids, got [0, 0]

// -----
%x = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
^bb0(%p: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.all_reduce' op computation must take 2 arguments, got 1

// -----
%x = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
^bb0(%p: tensor<f32>, %q: tensor<2xf32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.all_reduce' op computation must take (tensor<f32>, tensor<f32>), got (tensor<f32>, tensor<2xf32>)

// -----
%x = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<4xf32>) -> tensor<4xf64>
// CHECK: error: 'hlo.all_reduce' op result types must equal operand types
