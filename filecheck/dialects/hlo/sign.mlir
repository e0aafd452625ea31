// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @sign(%i: tensor<4xi32>, %f: tensor<f32>, %z: tensor<2xcomplex<f32>>, %l: tensor<i64>) {
  %a = hlo.sign %i : tensor<4xi32>
  %b = hlo.sign %f : tensor<f32>
  %c = hlo.sign %z : tensor<2xcomplex<f32>>
  %d = hlo.sign %l : tensor<i64>
  func.return
}
// CHECK-LABEL: func.func @sign(%i: tensor<4xi32>, %f: tensor<f32>, %z: tensor<2xcomplex<f32>>, %l: tensor<i64>) {
// CHECK-NEXT:  %a = hlo.sign %i : tensor<4xi32>
// CHECK-NEXT:  %b = hlo.sign %f : tensor<f32>
// CHECK-NEXT:  %c = hlo.sign %z : tensor<2xcomplex<f32>>
// CHECK-NEXT:  %d = hlo.sign %l : tensor<i64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
