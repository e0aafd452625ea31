// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @tanh(%f: tensor<4x4xf32>, %h: tensor<f16>) {
  %x = hlo.tanh %f : tensor<4x4xf32>
  %y = hlo.tanh %h : tensor<f16>
  func.return
}
// CHECK-LABEL: func.func @tanh(%f: tensor<4x4xf32>, %h: tensor<f16>) {
// CHECK-NEXT:  %x = hlo.tanh %f : tensor<4x4xf32>
// CHECK-NEXT:  %y = hlo.tanh %h : tensor<f16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
