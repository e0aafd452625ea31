// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// hlo.real: complex operand -> its float part (functional type), float operand -> same type.
func.func @real(%z: tensor<2x3xcomplex<f32>>, %w: tensor<complex<f64>>, %f: tensor<4xbf16>) -> tensor<2x3xf32> {
  %a = hlo.real %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  %b = "hlo.real"(%w) : (tensor<complex<f64>>) -> tensor<f64>
  %c = hlo.real %f : tensor<4xbf16>
  %d = stablehlo.real %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  func.return %a : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @real(%z: tensor<2x3xcomplex<f32>>, %w: tensor<complex<f64>>, %f: tensor<4xbf16>) -> tensor<2x3xf32> {
// CHECK-NEXT:  %a = hlo.real %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
// CHECK-NEXT:  %b = hlo.real %w : (tensor<complex<f64>>) -> tensor<f64>
// CHECK-NEXT:  %c = hlo.real %f : tensor<4xbf16>
// CHECK-NEXT:  %d = stablehlo.real %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
// CHECK-NEXT:  func.return %a : tensor<2x3xf32>
