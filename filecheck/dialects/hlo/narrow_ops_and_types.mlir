// RUN: minixla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// Round trips of tan, cbrt, round_nearest_afz, popcnt, count_leading_zeros and reduce_precision
// (one file: each RUN line costs a process start), and of narrow-type constants.

func.func @tan(%f: tensor<4x4xf32>, %h: tensor<f8E4M3FN>) {
  %x = hlo.tan %f : tensor<4x4xf32>
  %y = hlo.tan %h : tensor<f8E4M3FN>
  func.return
}
// CHECK-LABEL: func.func @tan(%f: tensor<4x4xf32>, %h: tensor<f8E4M3FN>) {
// CHECK-NEXT:  %x = hlo.tan %f : tensor<4x4xf32>
// CHECK-NEXT:  %y = hlo.tan %h : tensor<f8E4M3FN>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @cbrt(%f: tensor<4x4xf32>, %h: tensor<f8E4M3FN>) {
  %x = hlo.cbrt %f : tensor<4x4xf32>
  %y = hlo.cbrt %h : tensor<f8E4M3FN>
  func.return
}
// CHECK-LABEL: func.func @cbrt(%f: tensor<4x4xf32>, %h: tensor<f8E4M3FN>) {
// CHECK-NEXT:  %x = hlo.cbrt %f : tensor<4x4xf32>
// CHECK-NEXT:  %y = hlo.cbrt %h : tensor<f8E4M3FN>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @round_nearest_afz(%f: tensor<4x4xf32>, %h: tensor<f8E4M3FN>) {
  %x = hlo.round_nearest_afz %f : tensor<4x4xf32>
  %y = hlo.round_nearest_afz %h : tensor<f8E4M3FN>
  func.return
}
// CHECK-LABEL: func.func @round_nearest_afz(%f: tensor<4x4xf32>, %h: tensor<f8E4M3FN>) {
// CHECK-NEXT:  %x = hlo.round_nearest_afz %f : tensor<4x4xf32>
// CHECK-NEXT:  %y = hlo.round_nearest_afz %h : tensor<f8E4M3FN>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @popcnt(%a: tensor<4xi64>, %b: tensor<ui4>) {
  %x = hlo.popcnt %a : tensor<4xi64>
  %y = hlo.popcnt %b : tensor<ui4>
  func.return
}
// CHECK-LABEL: func.func @popcnt(%a: tensor<4xi64>, %b: tensor<ui4>) {
// CHECK-NEXT:  %x = hlo.popcnt %a : tensor<4xi64>
// CHECK-NEXT:  %y = hlo.popcnt %b : tensor<ui4>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @count_leading_zeros(%a: tensor<4xi64>, %b: tensor<ui4>) {
  %x = hlo.count_leading_zeros %a : tensor<4xi64>
  %y = hlo.count_leading_zeros %b : tensor<ui4>
  func.return
}
// CHECK-LABEL: func.func @count_leading_zeros(%a: tensor<4xi64>, %b: tensor<ui4>) {
// CHECK-NEXT:  %x = hlo.count_leading_zeros %a : tensor<4xi64>
// CHECK-NEXT:  %y = hlo.count_leading_zeros %b : tensor<ui4>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

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
