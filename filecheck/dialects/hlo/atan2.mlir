// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @atan2(%f: tensor<3xf32>, %d: tensor<f64>, %z: tensor<complex<f32>>) {
  %x = hlo.atan2 %f, %f : tensor<3xf32>
  %y = hlo.atan2 %d, %d : tensor<f64>
  %w = hlo.atan2 %z, %z : tensor<complex<f32>>
  func.return
}
// CHECK-LABEL: func.func @atan2(%f: tensor<3xf32>, %d: tensor<f64>, %z: tensor<complex<f32>>) {
// CHECK-NEXT:  %x = hlo.atan2 %f, %f : tensor<3xf32>
// CHECK-NEXT:  %y = hlo.atan2 %d, %d : tensor<f64>
// CHECK-NEXT:  %w = hlo.atan2 %z, %z : tensor<complex<f32>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
