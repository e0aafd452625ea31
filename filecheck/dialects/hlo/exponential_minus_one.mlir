// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @exponential_minus_one(%h: tensor<2x2xf16>, %d: tensor<f64>) {
  %a = hlo.exponential_minus_one %h : tensor<2x2xf16>
  %b = hlo.exponential_minus_one %d : tensor<f64>
  func.return
}
// CHECK-LABEL: func.func @exponential_minus_one(%h: tensor<2x2xf16>, %d: tensor<f64>) {
// CHECK-NEXT:  %a = hlo.exponential_minus_one %h : tensor<2x2xf16>
// CHECK-NEXT:  %b = hlo.exponential_minus_one %d : tensor<f64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
