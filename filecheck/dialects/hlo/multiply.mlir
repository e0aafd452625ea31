// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @multiply(%p: tensor<i1>, %l: tensor<2x3xi64>, %f: tensor<0xf32>, %u: tensor<4xui8>) {
  %a = hlo.multiply %p, %p : tensor<i1>
  %b = hlo.multiply %l, %l : tensor<2x3xi64>
  %c = hlo.multiply %f, %f : tensor<0xf32>
  %d = hlo.multiply %u, %u {tag} : tensor<4xui8>
  func.return
}
// CHECK-LABEL: func.func @multiply(%p: tensor<i1>, %l: tensor<2x3xi64>, %f: tensor<0xf32>, %u: tensor<4xui8>) {
// CHECK-NEXT:  %a = hlo.multiply %p, %p : tensor<i1>
// CHECK-NEXT:  %b = hlo.multiply %l, %l : tensor<2x3xi64>
// CHECK-NEXT:  %c = hlo.multiply %f, %f : tensor<0xf32>
// CHECK-NEXT:  %d = hlo.multiply %u, %u {tag} : tensor<4xui8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
