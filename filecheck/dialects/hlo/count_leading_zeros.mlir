// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @count_leading_zeros(%a: tensor<4xi64>, %b: tensor<ui4>) {
  %x = hlo.count_leading_zeros %a : tensor<4xi64>
  %y = hlo.count_leading_zeros %b : tensor<ui4>
  func.return
}
// CHECK-LABEL: func.func @count_leading_zeros(%a: tensor<4xi64>, %b: tensor<ui4>) {
// CHECK-NEXT:  %x = hlo.count_leading_zeros %a : tensor<4xi64>
// CHECK-NEXT:  %y = hlo.count_leading_zeros %b : tensor<ui4>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
