// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @and(%p: tensor<4xi1>, %b: tensor<i8>, %u: tensor<2xui64>) {
  %x = hlo.and %p, %p : tensor<4xi1>
  %y = hlo.and %b, %b : tensor<i8>
  %z = hlo.and %u, %u : tensor<2xui64>
  func.return
}
// CHECK-LABEL: func.func @and(%p: tensor<4xi1>, %b: tensor<i8>, %u: tensor<2xui64>) {
// CHECK-NEXT:  %x = hlo.and %p, %p : tensor<4xi1>
// CHECK-NEXT:  %y = hlo.and %b, %b : tensor<i8>
// CHECK-NEXT:  %z = hlo.and %u, %u : tensor<2xui64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
