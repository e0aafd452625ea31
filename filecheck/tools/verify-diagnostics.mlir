// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not minixla-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=STDERR

// Errors carry the file's own line numbers in every chunk, name the op, and
// never come with a traceback.

func.func @shapes(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // CHECK: verify-diagnostics.mlir:[[# @LINE + 1]]:8: error: 'hlo.add' op
  %0 = "hlo.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @unknown(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: // -----
  // CHECK: verify-diagnostics.mlir:[[# @LINE + 1]]:8: error: custom op 'hlo.no_such_op' is unknown
  %0 = hlo.no_such_op %a : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @dims(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: // -----
  // CHECK: verify-diagnostics.mlir:[[# @LINE + 1]]:8: error: 'hlo.transpose' op
  %0 = "hlo.transpose"(%a) <{permutation = array<i64: 0, 2>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

// CHECK: // -----
// CHECK: func.func @fine
func.func @fine(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

// STDERR: verify-diagnostics.mlir:9:8: error: 'hlo.add' op
// STDERR: verify-diagnostics.mlir:18:8: error: custom op 'hlo.no_such_op' is unknown
// STDERR: verify-diagnostics.mlir:27:8: error: 'hlo.transpose' op
// STDERR-NOT: Traceback
