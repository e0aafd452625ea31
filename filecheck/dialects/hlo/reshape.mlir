// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @reshape(%a: tensor<2x3xf32>, %s: tensor<i32>, %e: tensor<0x4xui16>) {
  %b = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %c = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x1x2xf32>
  %d = hlo.reshape %s : (tensor<i32>) -> tensor<1x1xi32>
  %f = hlo.reshape %e : (tensor<0x4xui16>) -> tensor<2x0xui16>
  %g = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK-LABEL: func.func @reshape(%a: tensor<2x3xf32>, %s: tensor<i32>, %e: tensor<0x4xui16>) {
// CHECK-NEXT:  %b = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT:  %c = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x1x2xf32>
// CHECK-NEXT:  %d = hlo.reshape %s : (tensor<i32>) -> tensor<1x1xi32>
// CHECK-NEXT:  %f = hlo.reshape %e : (tensor<0x4xui16>) -> tensor<2x0xui16>
// CHECK-NEXT:  %g = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
