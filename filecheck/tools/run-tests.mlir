// RUN: not minixla-run %s --split-input-file | filecheck %s

// One line per case, failures with a reason, then the summary; an op that
// does not parse fails its case and the run goes on.

// CHECK: PASS passes
func.func @passes() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.add %0, %0 : tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[2.0, 4.0]> : tensor<2xf32>
  func.return
}

// -----

// CHECK: FAIL wrong_value: check failed: {{.*}}
func.func @wrong_value() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[1, 3]> : tensor<2xi32>
  func.return
}

// -----

// CHECK: FAIL unknown_op: {{.*}}run-tests.mlir:[[# @LINE + 3]]:8: error: custom op 'stablehlo.frobnicate' is unknown
func.func @unknown_op() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.frobnicate %0 : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

// CHECK: PASS two_in_one_a
// CHECK: PASS two_in_one_b
func.func @two_in_one_a() {
  %0 = stablehlo.iota dim = 0 : tensor<3xi64>
  check.expect_eq_const %0, dense<[0, 1, 2]> : tensor<3xi64>
  func.return
}
func.func @two_in_one_b() {
  %0 = stablehlo.constant dense<true> : tensor<i1>
  %1 = stablehlo.not %0 : tensor<i1>
  check.expect_eq_const %1, dense<false> : tensor<i1>
  func.return
}

// CHECK: 3 passed, 2 failed
