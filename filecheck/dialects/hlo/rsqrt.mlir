// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @rsqrt(%d: tensor<2xf64>, %b: tensor<bf16>) {
  %x = hlo.rsqrt %d : tensor<2xf64>
  %y = hlo.rsqrt %b {tag = 1 : i64} : tensor<bf16>
  func.return
}
// CHECK-LABEL: func.func @rsqrt(%d: tensor<2xf64>, %b: tensor<bf16>) {
// CHECK-NEXT:  %x = hlo.rsqrt %d : tensor<2xf64>
// CHECK-NEXT:  %y = hlo.rsqrt %b {tag = 1 : i64} : tensor<bf16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
