// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// hlo.complex / hlo.real / hlo.imag (dialects/hlo_ops/complex_parts.py): the pretty form names the
// complex type once; real/imag of a float operand keep the one-type form.
func.func @parts(%re: tensor<2xf64>, %im: tensor<2xf64>, %f: tensor<3xf32>) -> tensor<2xf64> {
  %z = hlo.complex %re, %im : tensor<2xcomplex<f64>>
  %r = hlo.real %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %i = "hlo.imag"(%z) : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %fr = hlo.real %f : tensor<3xf32>
  %fi = hlo.imag %f : tensor<3xf32>
  func.return %i : tensor<2xf64>
}
// CHECK-LABEL: func.func @parts(%re: tensor<2xf64>, %im: tensor<2xf64>, %f: tensor<3xf32>) -> tensor<2xf64> {
// CHECK-NEXT:  %z = hlo.complex %re, %im : tensor<2xcomplex<f64>>
// CHECK-NEXT:  %r = hlo.real %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
// CHECK-NEXT:  %i = hlo.imag %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
// CHECK-NEXT:  %fr = hlo.real %f : tensor<3xf32>
// CHECK-NEXT:  %fi = hlo.imag %f : tensor<3xf32>

// Complex constants: splats, lists, and hex bit patterns per part (MLIR's reading: NaN payloads, -0.0).
func.func @constants() -> (tensor<2xcomplex<f32>>, tensor<3xcomplex<f64>>) {
  %s = hlo.constant dense<(1.5, -2.0)> : tensor<2xcomplex<f32>>
  %l = hlo.constant dense<[(1.0, 2.0), (0x7FF8000000000000, 0x8000000000000000), (-3.0, 0.0)]> : tensor<3xcomplex<f64>>
  func.return %s, %l : tensor<2xcomplex<f32>>, tensor<3xcomplex<f64>>
}
// CHECK-LABEL: func.func @constants()
// CHECK-NEXT:  %s = hlo.constant dense<(1.500000e+00,-2.000000e+00)> : tensor<2xcomplex<f32>>
// CHECK-NEXT:  %l = hlo.constant dense<[(1.000000e+00,2.000000e+00), (0x7ff8000000000000,-0.000000e+00), (-3.000000e+00,0.000000e+00)]> : tensor<3xcomplex<f64>>
