// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @divide(%i: tensor<4xi16>, %u: tensor<ui32>, %d: tensor<2xf64>, %z: tensor<2xcomplex<f32>>) {
  %a = hlo.divide %i, %i : tensor<4xi16>
  %b = hlo.divide %u, %u : tensor<ui32>
  %c = hlo.divide %d, %d : tensor<2xf64>
  %e = hlo.divide %z, %z : tensor<2xcomplex<f32>>
  func.return
}
// CHECK-LABEL: func.func @divide(%i: tensor<4xi16>, %u: tensor<ui32>, %d: tensor<2xf64>, %z: tensor<2xcomplex<f32>>) {
// CHECK-NEXT:  %a = hlo.divide %i, %i : tensor<4xi16>
// CHECK-NEXT:  %b = hlo.divide %u, %u : tensor<ui32>
// CHECK-NEXT:  %c = hlo.divide %d, %d : tensor<2xf64>
// CHECK-NEXT:  %e = hlo.divide %z, %z : tensor<2xcomplex<f32>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
