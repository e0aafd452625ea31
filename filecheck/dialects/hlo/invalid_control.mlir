// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// while
%n = "test.op"() : () -> tensor<i64>
%0 = "hlo.while"(%n) ({
^bb0(%a: tensor<i64>):
  %c = "test.op"() : () -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%b: tensor<i64>):
  hlo.return %b : tensor<i64>
}) : (tensor<i64>) -> tensor<i32>
// CHECK: error: 'hlo.while' op result types ['tensor<i32>'] must equal operand types ['tensor<i64>']

// -----
%n = "test.op"() : () -> tensor<i64>
%0 = "hlo.while"(%n) ({
^bb0(%a: tensor<i32>):
  %c = "test.op"() : () -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%b: tensor<i64>):
  hlo.return %b : tensor<i64>
}) : (tensor<i64>) -> tensor<i64>
// CHECK: error: 'hlo.while' op cond region arguments must match the operand types

// -----
%n = "test.op"() : () -> tensor<i64>
%0 = "hlo.while"(%n) ({
^bb0(%a: tensor<i64>):
  %c = "test.op"() : () -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0:
  hlo.return %n : tensor<i64>
}) : (tensor<i64>) -> tensor<i64>
// CHECK: error: 'hlo.while' op body region arguments must match the operand types

// -----
%n = "test.op"() : () -> tensor<i64>
%0 = hlo.while(%i = %n) : tensor<i64>
  cond {
    hlo.return %i : tensor<i64>
  } do {
    hlo.return %i : tensor<i64>
  }
// CHECK: error: 'hlo.while' op cond region must return one tensor<i1>, got ['tensor<i64>']

// -----
%n = "test.op"() : () -> tensor<i64>
%0 = hlo.while(%i = %n) : tensor<i64>
  cond {
    %c = "test.op"() : () -> tensor<2xi1>
    hlo.return %c : tensor<2xi1>
  } do {
    hlo.return %i : tensor<i64>
  }
// CHECK: error: 'hlo.while' op cond region must return one tensor<i1>, got ['tensor<2xi1>']

// -----
%n = "test.op"() : () -> tensor<i64>
%0 = hlo.while(%i = %n) : tensor<i64>
  cond {
    %c = "test.op"() : () -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    hlo.return %i, %i : tensor<i64>, tensor<i64>
  }
// CHECK: error: 'hlo.while' op body region returns ['tensor<i64>', 'tensor<i64>'], expected ['tensor<i64>']

// -----
%n = "test.op"() : () -> tensor<i64>
%0 = hlo.while(%i = %n) : tensor<i64>
  cond {
    %c = "test.op"() : () -> tensor<i1>
    "test.termop"(%c) : (tensor<i1>) -> ()
  } do {
    hlo.return %i : tensor<i64>
  }
// CHECK: error: 'hlo.while' op cond region must end with a return op, got test.termop

// -----
%n = "test.op"() : () -> tensor<?xi64>
%0 = "hlo.while"(%n) ({
^bb0(%a: tensor<?xi64>):
  %c = "test.op"() : () -> tensor<i1>
  hlo.return %c : tensor<i1>
}, {
^bb0(%b: tensor<?xi64>):
  hlo.return %b : tensor<?xi64>
}) : (tensor<?xi64>) -> tensor<?xi64>
// CHECK: error: 'hlo.while' op operand #0 must have a static shape, got tensor<?xi64>

// -----
// while parse errors
%n = "test.op"() : () -> tensor<i64>
%0 = hlo.while(%i = %n) : tensor<i64>, tensor<i64>
  cond {
    %c = "test.op"() : () -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    hlo.return %i : tensor<i64>
  }
// CHECK: error: 1 loop-carried values but 2 types
// CHECK: note: while parsing 'hlo.while'

// -----
%n = "test.op"() : () -> tensor<i64>
%0 = hlo.while(%i = %n) : tensor<i64>
  cond {
    %c = "test.op"() : () -> tensor<i1>
    hlo.return %c : tensor<i1>
  } body {
    hlo.return %i : tensor<i64>
  }
// CHECK: error: Expected 'do'
// CHECK: note: while parsing 'hlo.while'

// -----
%n = "test.op"() : () -> tensor<i64>
%0 = hlo.while(%i : %n) : tensor<i64>
  cond {
    %c = "test.op"() : () -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    hlo.return %i : tensor<i64>
  }
// CHECK: error: Expected '='
// CHECK: note: while parsing 'hlo.while'

// -----
// if
%p = "test.op"() : () -> tensor<2xi1>
"hlo.if"(%p) ({
  hlo.return
}, {
  hlo.return
}) : (tensor<2xi1>) -> ()
// CHECK: error: 'hlo.if' op pred must be tensor<i1>, got tensor<2xi1>

// -----
%p = "test.op"() : () -> tensor<i1>
"hlo.if"(%p) ({
^bb0(%a: tensor<i1>):
  hlo.return
}, {
  hlo.return
}) : (tensor<i1>) -> ()
// CHECK: error: 'hlo.if' op true_branch must not have block arguments

// -----
%p = "test.op"() : () -> tensor<i1>
%x = "test.op"() : () -> tensor<2xf32>
%0 = "hlo.if"(%p) ({
  hlo.return %x : tensor<2xf32>
}, {
  hlo.return %p : tensor<i1>
}) : (tensor<i1>) -> tensor<2xf32>
// CHECK: error: 'hlo.if' op false_branch returns ['tensor<i1>'], but the op's results are ['tensor<2xf32>']

// -----
%p = "test.op"() : () -> tensor<i1>
%0 = "hlo.if"(%p) ({
  hlo.return %p : tensor<i1>
}) : (tensor<i1>) -> tensor<i1>
// CHECK: error: 'hlo.if' op Expected 2 regions, but got 1

// -----
// case
%k = "test.op"() : () -> tensor<i64>
"hlo.case"(%k) ({
  hlo.return
}) : (tensor<i64>) -> ()
// CHECK: error: 'hlo.case' op index must be tensor<i32>, got tensor<i64>

// -----
%k = "test.op"() : () -> tensor<2xi32>
"hlo.case"(%k) ({
  hlo.return
}) : (tensor<2xi32>) -> ()
// CHECK: error: 'hlo.case' op index must be tensor<i32>, got tensor<2xi32>

// -----
%k = "test.op"() : () -> tensor<i32>
"hlo.case"(%k) : (tensor<i32>) -> ()
// CHECK: error: 'hlo.case' op needs at least one branch

// -----
%k = "test.op"() : () -> tensor<i32>
"hlo.case"(%k) ({
  hlo.return
}, {
^bb0(%a: tensor<i32>):
  hlo.return
}) : (tensor<i32>) -> ()
// CHECK: error: 'hlo.case' op branch #1 must not have block arguments

// -----
%k = "test.op"() : () -> tensor<i32>
%0 = "hlo.case"(%k) ({
  hlo.return %k : tensor<i32>
}, {
  hlo.return %k : tensor<i32>
}, {
  hlo.return
}) : (tensor<i32>) -> tensor<i32>
// CHECK: error: 'hlo.case' op branch #2 returns [], but the op's results are ['tensor<i32>']

// -----
// optimization_barrier
%x = "test.op"() : () -> tensor<2xf32>
%0 = "hlo.optimization_barrier"(%x) : (tensor<2xf32>) -> tensor<2xf64>
// CHECK: error: 'hlo.optimization_barrier' op result types ['tensor<2xf64>'] must equal operand types ['tensor<2xf32>']

// -----
%x = "test.op"() : () -> tensor<2xf32>
%0:2 = hlo.optimization_barrier %x : tensor<2xf32>, tensor<2xf32>
// CHECK: error: 1 operands but 2 types
// CHECK: note: while parsing 'hlo.optimization_barrier'

// -----
%x = "test.op"() : () -> tensor<2xf32>
%0 = hlo.optimization_barrier %x tensor<2xf32>
// CHECK: error: Expected ':'
// CHECK: note: while parsing 'hlo.optimization_barrier'

// -----
// rng_bit_generator
%s = "test.op"() : () -> tensor<2xui32>
%0, %1 = hlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui32>) -> (tensor<2xui32>, tensor<4xf32>)
// CHECK: error: 'hlo.rng_bit_generator' op initial_state must be a 1-d tensor of ui64, got tensor<2xui32>

// -----
%s = "test.op"() : () -> tensor<2x2xui64>
%0, %1 = hlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2x2xui64>) -> (tensor<2x2xui64>, tensor<4xf32>)
// CHECK: error: 'hlo.rng_bit_generator' op initial_state must be a 1-d tensor of ui64, got tensor<2x2xui64>

// -----
%s = "test.op"() : () -> tensor<2xui64>
%0, %1 = hlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xf32>)
// CHECK: error: 'hlo.rng_bit_generator' op output_state type tensor<3xui64> must equal initial_state type tensor<2xui64>

// -----
%s = "test.op"() : () -> tensor<2xui64>
%0, %1 = hlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi1>)
// CHECK: error: 'hlo.rng_bit_generator' op output must be integer or float, got tensor<4xi1>

// -----
%s = "test.op"() : () -> tensor<3xui64>
%0, %1 = hlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xf32>)
// CHECK: error: 'hlo.rng_bit_generator' op THREE_FRY needs an initial_state of size 2, got 3

// -----
%s = "test.op"() : () -> tensor<4xui64>
%0, %1 = hlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xf32>)
// CHECK: error: 'hlo.rng_bit_generator' op PHILOX needs an initial_state of size 2 or 3, got 4

// -----
%s = "test.op"() : () -> tensor<2xui64>
%0, %1 = hlo.rng_bit_generator %s, algorithm = MERSENNE : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xf32>)
// CHECK: error: Expected `DEFAULT`, `THREE_FRY`, or `PHILOX`.
// CHECK: note: while parsing 'hlo.rng_bit_generator'

// -----
%s = "test.op"() : () -> tensor<2xui64>
%0, %1 = hlo.rng_bit_generator %s, algo = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xf32>)
// CHECK: error: Expected 'algorithm'
// CHECK: note: while parsing 'hlo.rng_bit_generator'

// -----
// return
%p = "test.op"() : () -> tensor<i1>
"hlo.if"(%p) ({
  hlo.return %p, %p : tensor<i1>
}, {
  hlo.return
}) : (tensor<i1>) -> ()
// CHECK: error: 2 operands but 1 types
// CHECK: note: while parsing 'hlo.return'

// -----
%p = "test.op"() : () -> tensor<i1>
"hlo.if"(%p) ({
  hlo.return %p tensor<i1>
}, {
  hlo.return
}) : (tensor<i1>) -> ()
// CHECK: error: Expected ':'
// CHECK: note: while parsing 'hlo.return'

// -----
%p = "test.op"() : () -> i1
"hlo.if"(%p) ({
  "hlo.return"(%p) : (i1) -> ()
}, {
  hlo.return
}) : (i1) -> ()
// CHECK: error: 'hlo.return' op operand 'results_' at position 0 does not verify:
