// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @bitcast_convert(%f: tensor<2xf32>, %l: tensor<3x2xi32>, %d: tensor<f64>, %h: tensor<4xf16>) {
  %a = hlo.bitcast_convert %f : (tensor<2xf32>) -> tensor<2xi32>
  %b = hlo.bitcast_convert %f : (tensor<2xf32>) -> tensor<2x4xui8>
  %c = hlo.bitcast_convert %l : (tensor<3x2xi32>) -> tensor<3xi64>
  %e = hlo.bitcast_convert %d : (tensor<f64>) -> tensor<ui64>
  %g = hlo.bitcast_convert %h : (tensor<4xf16>) -> tensor<4xbf16>
  %k = hlo.bitcast_convert %f : tensor<2xf32>
  func.return
}
// CHECK-LABEL: func.func @bitcast_convert(%f: tensor<2xf32>, %l: tensor<3x2xi32>, %d: tensor<f64>, %h: tensor<4xf16>) {
// CHECK-NEXT:  %a = hlo.bitcast_convert %f : (tensor<2xf32>) -> tensor<2xi32>
// CHECK-NEXT:  %b = hlo.bitcast_convert %f : (tensor<2xf32>) -> tensor<2x4xui8>
// CHECK-NEXT:  %c = hlo.bitcast_convert %l : (tensor<3x2xi32>) -> tensor<3xi64>
// CHECK-NEXT:  %e = hlo.bitcast_convert %d : (tensor<f64>) -> tensor<ui64>
// CHECK-NEXT:  %g = hlo.bitcast_convert %h : (tensor<4xf16>) -> tensor<4xbf16>
// CHECK-NEXT:  %k = hlo.bitcast_convert %f : tensor<2xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
