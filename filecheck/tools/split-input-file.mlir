// RUN: minixla-opt %s --split-input-file | filecheck %s

// CHECK:      func.func @first
// CHECK-NEXT:   hlo.add
// CHECK:      // -----
// CHECK:      func.func @second
// CHECK-NEXT:   hlo.negate
func.func @first(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %x : tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @second(%x: tensor<i32>) -> tensor<i32> {
  %0 = hlo.negate %x : tensor<i32>
  func.return %0 : tensor<i32>
}
