// RUN: minixla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @reduce_precision(%f: tensor<6xf64>, %h: tensor<bf16>) {
  %x = hlo.reduce_precision %f, format = e5m10 : tensor<6xf64>
  %y = hlo.reduce_precision %h, format = e8m0 : tensor<bf16>
  func.return
}
// GENERIC: "hlo.reduce_precision"(%f) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<6xf64>) -> tensor<6xf64>
// CHECK-LABEL: func.func @reduce_precision(%f: tensor<6xf64>, %h: tensor<bf16>) {
// CHECK-NEXT:  %x = hlo.reduce_precision %f, format = e5m10 : tensor<6xf64>
// CHECK-NEXT:  %y = hlo.reduce_precision %h, format = e8m0 : tensor<bf16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
