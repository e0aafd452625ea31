// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @tan(%f: tensor<4x4xf32>, %h: tensor<f8E4M3FN>) {
  %x = hlo.tan %f : tensor<4x4xf32>
  %y = hlo.tan %h : tensor<f8E4M3FN>
  func.return
}
// CHECK-LABEL: func.func @tan(%f: tensor<4x4xf32>, %h: tensor<f8E4M3FN>) {
// CHECK-NEXT:  %x = hlo.tan %f : tensor<4x4xf32>
// CHECK-NEXT:  %y = hlo.tan %h : tensor<f8E4M3FN>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
