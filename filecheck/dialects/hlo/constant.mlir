// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @constant_ints() {
  %a = hlo.constant dense<[1, 2, -3]> : tensor<3xi32>
  %b = hlo.constant dense<true> : tensor<i1>
  %c = hlo.constant dense<[true, false]> : tensor<2xi1>
  %d = hlo.constant dense<-128> : tensor<i8>
  %e = hlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi16>
  %f = hlo.constant dense<9223372036854775807> : tensor<i64>
  %g = hlo.constant dense<[0, 255]> : tensor<2xui8>
  %h = hlo.constant dense<65535> : tensor<ui16>
  %k = hlo.constant dense<4294967295> : tensor<ui32>
  %l = hlo.constant dense<7> : tensor<2x3xui64>
  %m = hlo.constant dense<> : tensor<0xi32>
  func.return
}
// CHECK-LABEL: func.func @constant_ints() {
// CHECK-NEXT:  %a = hlo.constant dense<[1, 2, -3]> : tensor<3xi32>
// CHECK-NEXT:  %b = hlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:  %c = hlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:  %d = hlo.constant dense<-128> : tensor<i8>
// CHECK-NEXT:  %e = hlo.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi16>
// CHECK-NEXT:  %f = hlo.constant dense<9223372036854775807> : tensor<i64>
// CHECK-NEXT:  %g = hlo.constant dense<[0, 255]> : tensor<2xui8>
// CHECK-NEXT:  %h = hlo.constant dense<65535> : tensor<ui16>
// CHECK-NEXT:  %k = hlo.constant dense<4294967295> : tensor<ui32>
// CHECK-NEXT:  %l = hlo.constant dense<7> : tensor<2x3xui64>
// CHECK-NEXT:  %m = hlo.constant dense<> : tensor<0xi32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @constant_floats() {
  %a = hlo.constant dense<1.5> : tensor<f32>
  %b = hlo.constant dense<[1.0, -2.5]> : tensor<2xf16>
  %c = hlo.constant dense<[[0.5, 2.0]]> : tensor<1x2xbf16>
  %d = hlo.constant dense<0.1> : tensor<f64>
  %e = hlo.constant dense<> : tensor<0x3xf32>
  %f = hlo.constant dense<(1.0, -2.0)> : tensor<complex<f32>>
  %g = hlo.constant {tag = "t"} dense<3.0> : tensor<2xf64>
  %h = "hlo.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  func.return
}
// CHECK-LABEL: func.func @constant_floats() {
// CHECK-NEXT:  %a = hlo.constant dense<1.500000e+00> : tensor<f32>
// CHECK-NEXT:  %b = hlo.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xf16>
// CHECK-NEXT:  %c = hlo.constant dense<{{\[\[}}5.000000e-01, 2.000000e+00]]> : tensor<1x2xbf16>
// CHECK-NEXT:  %d = hlo.constant dense<1.000000e-01> : tensor<f64>
// CHECK-NEXT:  %e = hlo.constant dense<> : tensor<0x3xf32>
// CHECK-NEXT:  %f = hlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>
// CHECK-NEXT:  %g = hlo.constant {tag = "t"} dense<3.000000e+00> : tensor<2xf64>
// CHECK-NEXT:  %h = hlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// Hex literals are bit patterns (+inf, -inf, NaN, the smallest denormal, 1.0).
func.func @constant_hex() {
  %a = hlo.constant dense<0x7F800000> : tensor<f32>
  %b = hlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x3F800000]> : tensor<5xf32>
  %c = hlo.constant dense<[0x7C00, 0xFC00, 0x7E00]> : tensor<3xf16>
  %d = hlo.constant dense<[0x7F80, 0xFF80, 0x3F80]> : tensor<3xbf16>
  %e = hlo.constant dense<0x7FF0000000000000> : tensor<2x2xf64>
  %f = hlo.constant dense<0xFFF0000000000000> : tensor<f64>
  func.return
}
// CHECK-LABEL: func.func @constant_hex() {
// CHECK-NEXT:  %a = hlo.constant dense<0x7f800000> : tensor<f32>
// CHECK-NEXT:  %b = hlo.constant dense<[0x7f800000, 0xff800000, 0x7fc00000, 1.401300e-45, 1.000000e+00]> : tensor<5xf32>
// CHECK-NEXT:  %c = hlo.constant dense<[0x7c00, 0xfc00, 0x7e00]> : tensor<3xf16>
// CHECK-NEXT:  %d = hlo.constant dense<[0x7f80, 0xff80, 1.000000e+00]> : tensor<3xbf16>
// CHECK-NEXT:  %e = hlo.constant dense<0x7ff0000000000000> : tensor<2x2xf64>
// CHECK-NEXT:  %f = hlo.constant dense<0xfff0000000000000> : tensor<f64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
