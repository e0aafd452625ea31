// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @ceil(%h: tensor<4xf16>, %f: tensor<f32>) {
  %x = hlo.ceil %h : tensor<4xf16>
  %y = hlo.ceil %f : tensor<f32>
  func.return
}
// CHECK-LABEL: func.func @ceil(%h: tensor<4xf16>, %f: tensor<f32>) {
// CHECK-NEXT:  %x = hlo.ceil %h : tensor<4xf16>
// CHECK-NEXT:  %y = hlo.ceil %f : tensor<f32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
