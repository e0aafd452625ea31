// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @negate(%i: tensor<2x3xi16>, %u: tensor<ui32>, %h: tensor<0x0xf16>, %z: tensor<3xcomplex<f32>>) {
  %a = hlo.negate %i : tensor<2x3xi16>
  %b = hlo.negate %u : tensor<ui32>
  %c = hlo.negate %h : tensor<0x0xf16>
  %d = hlo.negate %z : tensor<3xcomplex<f32>>
  %e = "hlo.negate"(%i) {tag} : (tensor<2x3xi16>) -> tensor<2x3xi16>
  func.return
}
// CHECK-LABEL: func.func @negate(%i: tensor<2x3xi16>, %u: tensor<ui32>, %h: tensor<0x0xf16>, %z: tensor<3xcomplex<f32>>) {
// CHECK-NEXT:  %a = hlo.negate %i : tensor<2x3xi16>
// CHECK-NEXT:  %b = hlo.negate %u : tensor<ui32>
// CHECK-NEXT:  %c = hlo.negate %h : tensor<0x0xf16>
// CHECK-NEXT:  %d = hlo.negate %z : tensor<3xcomplex<f32>>
// CHECK-NEXT:  %e = hlo.negate %i {tag} : tensor<2x3xi16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
