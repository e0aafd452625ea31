// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @shift_right_arithmetic(%s: tensor<3xi16>, %u: tensor<ui64>) {
  %x = hlo.shift_right_arithmetic %s, %s : tensor<3xi16>
  %y = hlo.shift_right_arithmetic %u, %u : tensor<ui64>
  func.return
}
// CHECK-LABEL: func.func @shift_right_arithmetic(%s: tensor<3xi16>, %u: tensor<ui64>) {
// CHECK-NEXT:  %x = hlo.shift_right_arithmetic %s, %s : tensor<3xi16>
// CHECK-NEXT:  %y = hlo.shift_right_arithmetic %u, %u : tensor<ui64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
