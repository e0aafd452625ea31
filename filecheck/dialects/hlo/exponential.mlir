// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @exponential(%f: tensor<4xf32>, %b: tensor<bf16>, %z: tensor<2xcomplex<f64>>) {
  %a = hlo.exponential %f : tensor<4xf32>
  %c = hlo.exponential %b : tensor<bf16>
  %d = hlo.exponential %z : tensor<2xcomplex<f64>>
  func.return
}
// CHECK-LABEL: func.func @exponential(%f: tensor<4xf32>, %b: tensor<bf16>, %z: tensor<2xcomplex<f64>>) {
// CHECK-NEXT:  %a = hlo.exponential %f : tensor<4xf32>
// CHECK-NEXT:  %c = hlo.exponential %b : tensor<bf16>
// CHECK-NEXT:  %d = hlo.exponential %z : tensor<2xcomplex<f64>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
