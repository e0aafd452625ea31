// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @clamp(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<f32>, %i: tensor<2x2xi32>, %b: tensor<bf16>) {
  %a = hlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %c = hlo.clamp %x, %x, %x : tensor<4xf32>
  %d = hlo.clamp %lo, %x, %x : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e = hlo.clamp %i, %i, %i : tensor<2x2xi32>
  %f = hlo.clamp %b, %b, %b : tensor<bf16>
  func.return
}
// CHECK-LABEL: func.func @clamp(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<f32>, %i: tensor<2x2xi32>, %b: tensor<bf16>) {
// CHECK-NEXT:  %a = hlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:  %c = hlo.clamp %x, %x, %x : tensor<4xf32>
// CHECK-NEXT:  %d = hlo.clamp %lo, %x, %x : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %e = hlo.clamp %i, %i, %i : tensor<2x2xi32>
// CHECK-NEXT:  %f = hlo.clamp %b, %b, %b : tensor<bf16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
