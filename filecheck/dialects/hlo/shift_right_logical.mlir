// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @shift_right_logical(%i: tensor<i32>, %u: tensor<2x2xui8>) {
  %x = hlo.shift_right_logical %i, %i : tensor<i32>
  %y = hlo.shift_right_logical %u, %u : tensor<2x2xui8>
  func.return
}
// CHECK-LABEL: func.func @shift_right_logical(%i: tensor<i32>, %u: tensor<2x2xui8>) {
// CHECK-NEXT:  %x = hlo.shift_right_logical %i, %i : tensor<i32>
// CHECK-NEXT:  %y = hlo.shift_right_logical %u, %u : tensor<2x2xui8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
