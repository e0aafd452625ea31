// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @reduce_window(%a: tensor<4x6xf32>, %z: tensor<f32>, %i: tensor<4x6xi32>, %iz: tensor<i32>) {
  %max = "hlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %m = hlo.maximum %p, %q : tensor<f32>
    hlo.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  %all:2 = "hlo.reduce_window"(%a, %i, %z, %iz) <{window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 2>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 3>, padding = dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>}> ({
  ^bb0(%p: tensor<f32>, %pi: tensor<i32>, %q: tensor<f32>, %qi: tensor<i32>):
    %s = hlo.add %p, %q : tensor<f32>
    %t = hlo.add %pi, %qi : tensor<i32>
    hlo.return %s, %t : tensor<f32>, tensor<i32>
  }) {tag} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6x4xf32>, tensor<6x4xi32>)
  func.return
}
// CHECK-LABEL: func.func @reduce_window(%a: tensor<4x6xf32>, %z: tensor<f32>, %i: tensor<4x6xi32>, %iz: tensor<i32>) {
// CHECK-NEXT:  %max = "hlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
// CHECK-NEXT:  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
// CHECK-NEXT:  %m = hlo.maximum %p, %q : tensor<f32>
// CHECK-NEXT:  hlo.return %m : tensor<f32>
// CHECK-NEXT:  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:  %all, %all_1 = "hlo.reduce_window"(%a, %i, %z, %iz) <{window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 2>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 3>, padding = dense<{{\[\[}}1, 0], [0, 2]]> : tensor<2x2xi64>}> ({
// CHECK-NEXT:  ^bb0(%p_1: tensor<f32>, %pi: tensor<i32>, %q_1: tensor<f32>, %qi: tensor<i32>):
// CHECK-NEXT:  %s = hlo.add %p_1, %q_1 : tensor<f32>
// CHECK-NEXT:  %t = hlo.add %pi, %qi : tensor<i32>
// CHECK-NEXT:  hlo.return %s, %t : tensor<f32>, tensor<i32>
// CHECK-NEXT:  }) {tag} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6x4xf32>, tensor<6x4xi32>)
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
