// RUN: minixla-opt %s | filecheck %s

func.func @dynamic_reshape(%x: tensor<2x3xf32>, %s: tensor<1xi32>) -> tensor<?xf32> {
  %a = hlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<?xf32>
  %b = hlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<6xf32>
  func.return %a : tensor<?xf32>
}
// CHECK-LABEL: func.func @dynamic_reshape(%x: tensor<2x3xf32>, %s: tensor<1xi32>) -> tensor<?xf32> {
// CHECK-NEXT:   %a = hlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<?xf32>
// CHECK-NEXT:   %b = hlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<6xf32>
// CHECK-NEXT:   func.return %a : tensor<?xf32>
// CHECK-NEXT: }
