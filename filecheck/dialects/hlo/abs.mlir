// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @abs(%i: tensor<4xi8>, %f: tensor<f32>, %e: tensor<0x3xbf16>, %z: tensor<2xcomplex<f64>>) -> tensor<2xf64> {
  %a = hlo.abs %i : tensor<4xi8>
  %b = hlo.abs %f : tensor<f32>
  %c = hlo.abs %e {tag = "x"} : tensor<0x3xbf16>
  %d = hlo.abs %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %g = "hlo.abs"(%i) : (tensor<4xi8>) -> tensor<4xi8>
  func.return %d : tensor<2xf64>
}
// CHECK-LABEL: func.func @abs(%i: tensor<4xi8>, %f: tensor<f32>, %e: tensor<0x3xbf16>, %z: tensor<2xcomplex<f64>>) -> tensor<2xf64> {
// CHECK-NEXT:  %a = hlo.abs %i : tensor<4xi8>
// CHECK-NEXT:  %b = hlo.abs %f : tensor<f32>
// CHECK-NEXT:  %c = hlo.abs %e {tag = "x"} : tensor<0x3xbf16>
// CHECK-NEXT:  %d = hlo.abs %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
// CHECK-NEXT:  %g = hlo.abs %i : tensor<4xi8>
// CHECK-NEXT:  func.return %d : tensor<2xf64>
// CHECK-NEXT:  }
