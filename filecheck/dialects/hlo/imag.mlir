// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// hlo.imag: complex operand -> its float part (functional type), float operand -> same type.
func.func @imag(%z: tensor<2x3xcomplex<f32>>, %w: tensor<complex<f64>>, %f: tensor<4xbf16>) -> tensor<2x3xf32> {
  %a = hlo.imag %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  %b = "hlo.imag"(%w) : (tensor<complex<f64>>) -> tensor<f64>
  %c = hlo.imag %f : tensor<4xbf16>
  %d = stablehlo.imag %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  func.return %a : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @imag(%z: tensor<2x3xcomplex<f32>>, %w: tensor<complex<f64>>, %f: tensor<4xbf16>) -> tensor<2x3xf32> {
// CHECK-NEXT:  %a = hlo.imag %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
// CHECK-NEXT:  %b = hlo.imag %w : (tensor<complex<f64>>) -> tensor<f64>
// CHECK-NEXT:  %c = hlo.imag %f : tensor<4xbf16>
// CHECK-NEXT:  %d = stablehlo.imag %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
// CHECK-NEXT:  func.return %a : tensor<2x3xf32>
