// RUN: minixla-opt %s | filecheck %s

func.func @get_dimension_size(%x: tensor<2x?xf32>) -> tensor<i32> {
  %a = hlo.get_dimension_size %x, dim = 0 : (tensor<2x?xf32>) -> tensor<i32>
  %b = hlo.get_dimension_size %x, dim = 1 : (tensor<2x?xf32>) -> tensor<i32>
  func.return %b : tensor<i32>
}
// CHECK-LABEL: func.func @get_dimension_size(%x: tensor<2x?xf32>) -> tensor<i32> {
// CHECK-NEXT:   %a = hlo.get_dimension_size %x, dim = 0 : (tensor<2x?xf32>) -> tensor<i32>
// CHECK-NEXT:   %b = hlo.get_dimension_size %x, dim = 1 : (tensor<2x?xf32>) -> tensor<i32>
// CHECK-NEXT:   func.return %b : tensor<i32>
// CHECK-NEXT: }
