// RUN: minixla-opt %s -p cse,dce | filecheck %s

// xDSL's cse and dce handle hlo ops with regions: identical reduces merge,
// unused pure ops (and unused reduces) disappear.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[A:.*]] = hlo.reduce(%x init: %[[Z]]) applies hlo.add
// CHECK-NEXT:    func.return %[[A]], %[[A]]
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %z2 = hlo.constant dense<0.0> : tensor<f32>
  %a = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %b = hlo.reduce(%x init: %z2) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %dead = hlo.exponential %x : tensor<4x8xf32>
  %dead2 = hlo.reduce(%x init: %z) applies hlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %a, %b : tensor<4xf32>, tensor<4xf32>
}
