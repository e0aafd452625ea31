// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

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
