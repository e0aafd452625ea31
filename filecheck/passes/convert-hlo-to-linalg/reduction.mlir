// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s

// The running example: reduce_mean(x**2*3+y).
// CHECK-LABEL: func.func @mean
// CHECK:       arith.mulf
// CHECK:       arith.mulf
// CHECK:       arith.addf
// CHECK:       %[[INIT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>]
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:  outs(%[[INIT]] : tensor<4xf32>)
// CHECK:       arith.addf
// CHECK:       arith.divf
func.func @mean(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = hlo.multiply %x, %x : tensor<4x8xf32>
  %c3 = hlo.constant dense<3.0> : tensor<f32>
  %b = hlo.broadcast_in_dim %c3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %1 = hlo.multiply %0, %b : tensor<4x8xf32>
  %2 = hlo.add %1, %y : tensor<4x8xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %3 = hlo.reduce(%2 init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %n = hlo.constant dense<8.0> : tensor<4xf32>
  %4 = hlo.divide %3, %n : tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @maxpool
// CHECK:       iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK:       arith.maximumf
func.func @maxpool(%x: tensor<6x6xf32>) -> tensor<3x3xf32> {
  %z = hlo.constant dense<0xFF800000> : tensor<f32>
  %r = "hlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.maximum %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<6x6xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
