// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @triangular_solve(%a: tensor<3x3xf32>, %b: tensor<3x5xf32>, %ba: tensor<2x4x4xf64>, %bb: tensor<2x6x4xf64>) {
  %x = "hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  // Right side (x op(a) = b), batched, upper, transposed, unit diagonal.
  %y = "hlo.triangular_solve"(%ba, %bb) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #hlo<transpose ADJOINT>}> : (tensor<2x4x4xf64>, tensor<2x6x4xf64>) -> tensor<2x6x4xf64>
  func.return
}
// CHECK-LABEL: func.func @triangular_solve(%a: tensor<3x3xf32>, %b: tensor<3x5xf32>, %ba: tensor<2x4x4xf64>, %bb: tensor<2x6x4xf64>) {
// CHECK-NEXT:  %x = "hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:  %y = "hlo.triangular_solve"(%ba, %bb) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #hlo<transpose ADJOINT>}> : (tensor<2x4x4xf64>, tensor<2x6x4xf64>) -> tensor<2x6x4xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
