// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @cosine(%h: tensor<3xf16>, %z: tensor<3xcomplex<f32>>) {
  %x = hlo.cosine %h : tensor<3xf16>
  %y = hlo.cosine %z : tensor<3xcomplex<f32>>
  func.return
}
// CHECK-LABEL: func.func @cosine(%h: tensor<3xf16>, %z: tensor<3xcomplex<f32>>) {
// CHECK-NEXT:  %x = hlo.cosine %h : tensor<3xf16>
// CHECK-NEXT:  %y = hlo.cosine %z : tensor<3xcomplex<f32>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
