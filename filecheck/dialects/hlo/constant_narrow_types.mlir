// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// Sub-byte integers and fp8/fp6/fp4 constants; hexadecimal float literals are bit
// patterns (0x7F is f8E4M3FN's NaN, 0x01 its smallest subnormal 2^-9).
func.func @narrow() {
  %i2 = hlo.constant dense<[1, -2]> : tensor<2xi2>
  %u4 = hlo.constant dense<[0, 8, 15]> : tensor<3xui4>
  %f8 = hlo.constant dense<[1.0, 0.1, 0x7F, 0x01]> : tensor<4xf8E4M3FN>
  %f6 = hlo.constant dense<[1.0, -3.0, 0x1F]> : tensor<3xf6E2M3FN>
  %f4 = hlo.constant dense<[0.5, -6.0]> : tensor<2xf4E2M1FN>
  %e8 = hlo.constant dense<[1.0, 3.1415]> : tensor<2xf8E8M0FNU>
  func.return
}
// CHECK-LABEL: func.func @narrow() {
// CHECK-NEXT:    %i2 = hlo.constant dense<[1, -2]> : tensor<2xi2>
// CHECK-NEXT:    %u4 = hlo.constant dense<[0, 8, 15]> : tensor<3xui4>
// CHECK-NEXT:    %f8 = hlo.constant dense<[1.000000e+00, 1.015620e-01, 0x7f, 1.953120e-03]> : tensor<4xf8E4M3FN>
// CHECK-NEXT:    %f6 = hlo.constant dense<[1.000000e+00, -3.000000e+00, 7.500000e+00]> : tensor<3xf6E2M3FN>
// CHECK-NEXT:    %f4 = hlo.constant dense<[5.000000e-01, -6.000000e+00]> : tensor<2xf4E2M1FN>
// CHECK-NEXT:    %e8 = hlo.constant dense<[1.000000e+00, 4.000000e+00]> : tensor<2xf8E8M0FNU>
// CHECK-NEXT:    func.return
