// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @sine(%f: tensor<f32>, %d: tensor<7xf64>) {
  %x = hlo.sine %f : tensor<f32>
  %y = hlo.sine %d : tensor<7xf64>
  func.return
}
// CHECK-LABEL: func.func @sine(%f: tensor<f32>, %d: tensor<7xf64>) {
// CHECK-NEXT:  %x = hlo.sine %f : tensor<f32>
// CHECK-NEXT:  %y = hlo.sine %d : tensor<7xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
