// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @convert(%f: tensor<2x3xf32>, %p: tensor<4xi1>, %u: tensor<ui8>, %z: tensor<2xcomplex<f32>>, %e: tensor<0xi64>) {
  %a = hlo.convert %f : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %b = hlo.convert %p : (tensor<4xi1>) -> tensor<4xf64>
  %c = hlo.convert %u : (tensor<ui8>) -> tensor<bf16>
  %d = hlo.convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f64>>
  %g = hlo.convert %f : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %h = hlo.convert %e : (tensor<0xi64>) -> tensor<0xui16>
  %k = hlo.convert %f : tensor<2x3xf32>
  func.return
}
// CHECK-LABEL: func.func @convert(%f: tensor<2x3xf32>, %p: tensor<4xi1>, %u: tensor<ui8>, %z: tensor<2xcomplex<f32>>, %e: tensor<0xi64>) {
// CHECK-NEXT:  %a = hlo.convert %f : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT:  %b = hlo.convert %p : (tensor<4xi1>) -> tensor<4xf64>
// CHECK-NEXT:  %c = hlo.convert %u : (tensor<ui8>) -> tensor<bf16>
// CHECK-NEXT:  %d = hlo.convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f64>>
// CHECK-NEXT:  %g = hlo.convert %f : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK-NEXT:  %h = hlo.convert %e : (tensor<0xi64>) -> tensor<0xui16>
// CHECK-NEXT:  %k = hlo.convert %f : tensor<2x3xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
