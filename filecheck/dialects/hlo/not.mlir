// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @not(%p: tensor<4xi1>, %l: tensor<i64>, %u: tensor<2x0xui8>) {
  %a = hlo.not %p : tensor<4xi1>
  %b = hlo.not %l : tensor<i64>
  %c = hlo.not %u : tensor<2x0xui8>
  func.return
}
// CHECK-LABEL: func.func @not(%p: tensor<4xi1>, %l: tensor<i64>, %u: tensor<2x0xui8>) {
// CHECK-NEXT:  %a = hlo.not %p : tensor<4xi1>
// CHECK-NEXT:  %b = hlo.not %l : tensor<i64>
// CHECK-NEXT:  %c = hlo.not %u : tensor<2x0xui8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
