// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @minimum(%l: tensor<i64>, %d: tensor<0x2xf64>, %u: tensor<4xui16>) {
  %a = hlo.minimum %l, %l : tensor<i64>
  %b = hlo.minimum %d, %d : tensor<0x2xf64>
  %c = hlo.minimum %u, %u : tensor<4xui16>
  func.return
}
// CHECK-LABEL: func.func @minimum(%l: tensor<i64>, %d: tensor<0x2xf64>, %u: tensor<4xui16>) {
// CHECK-NEXT:  %a = hlo.minimum %l, %l : tensor<i64>
// CHECK-NEXT:  %b = hlo.minimum %d, %d : tensor<0x2xf64>
// CHECK-NEXT:  %c = hlo.minimum %u, %u : tensor<4xui16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
