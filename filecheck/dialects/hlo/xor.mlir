// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @xor(%p: tensor<2x2xi1>, %i: tensor<i32>, %u: tensor<0xui8>) {
  %x = hlo.xor %p, %p : tensor<2x2xi1>
  %y = hlo.xor %i, %i : tensor<i32>
  %z = hlo.xor %u, %u : tensor<0xui8>
  func.return
}
// CHECK-LABEL: func.func @xor(%p: tensor<2x2xi1>, %i: tensor<i32>, %u: tensor<0xui8>) {
// CHECK-NEXT:  %x = hlo.xor %p, %p : tensor<2x2xi1>
// CHECK-NEXT:  %y = hlo.xor %i, %i : tensor<i32>
// CHECK-NEXT:  %z = hlo.xor %u, %u : tensor<0xui8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
