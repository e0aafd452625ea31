// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @power(%i: tensor<3xi32>, %h: tensor<f16>, %z: tensor<complex<f32>>) {
  %a = hlo.power %i, %i : tensor<3xi32>
  %b = hlo.power %h, %h : tensor<f16>
  %c = hlo.power %z, %z : tensor<complex<f32>>
  func.return
}
// CHECK-LABEL: func.func @power(%i: tensor<3xi32>, %h: tensor<f16>, %z: tensor<complex<f32>>) {
// CHECK-NEXT:  %a = hlo.power %i, %i : tensor<3xi32>
// CHECK-NEXT:  %b = hlo.power %h, %h : tensor<f16>
// CHECK-NEXT:  %c = hlo.power %z, %z : tensor<complex<f32>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
