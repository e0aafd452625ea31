// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @subtract(%i: tensor<3xi32>, %u: tensor<ui16>, %f: tensor<2x2xf32>, %z: tensor<complex<f64>>) {
  %a = hlo.subtract %i, %i : tensor<3xi32>
  %b = hlo.subtract %u, %u : tensor<ui16>
  %c = hlo.subtract %f, %f : tensor<2x2xf32>
  %d = hlo.subtract %z, %z : tensor<complex<f64>>
  func.return
}
// CHECK-LABEL: func.func @subtract(%i: tensor<3xi32>, %u: tensor<ui16>, %f: tensor<2x2xf32>, %z: tensor<complex<f64>>) {
// CHECK-NEXT:  %a = hlo.subtract %i, %i : tensor<3xi32>
// CHECK-NEXT:  %b = hlo.subtract %u, %u : tensor<ui16>
// CHECK-NEXT:  %c = hlo.subtract %f, %f : tensor<2x2xf32>
// CHECK-NEXT:  %d = hlo.subtract %z, %z : tensor<complex<f64>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
