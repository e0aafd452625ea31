// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @round_nearest_even(%f: tensor<3xf32>, %d: tensor<f64>) {
  %x = hlo.round_nearest_even %f : tensor<3xf32>
  %y = hlo.round_nearest_even %d : tensor<f64>
  func.return
}
// CHECK-LABEL: func.func @round_nearest_even(%f: tensor<3xf32>, %d: tensor<f64>) {
// CHECK-NEXT:  %x = hlo.round_nearest_even %f : tensor<3xf32>
// CHECK-NEXT:  %y = hlo.round_nearest_even %d : tensor<f64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
