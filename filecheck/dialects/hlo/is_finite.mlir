// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @is_finite(%f: tensor<3xf32>, %b: tensor<bf16>, %e: tensor<0x2xf64>) {
  %x = hlo.is_finite %f : (tensor<3xf32>) -> tensor<3xi1>
  %y = hlo.is_finite %b : (tensor<bf16>) -> tensor<i1>
  %z = hlo.is_finite %e : (tensor<0x2xf64>) -> tensor<0x2xi1>
  func.return
}
// CHECK-LABEL: func.func @is_finite(%f: tensor<3xf32>, %b: tensor<bf16>, %e: tensor<0x2xf64>) {
// CHECK-NEXT:  %x = hlo.is_finite %f : (tensor<3xf32>) -> tensor<3xi1>
// CHECK-NEXT:  %y = hlo.is_finite %b : (tensor<bf16>) -> tensor<i1>
// CHECK-NEXT:  %z = hlo.is_finite %e : (tensor<0x2xf64>) -> tensor<0x2xi1>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
