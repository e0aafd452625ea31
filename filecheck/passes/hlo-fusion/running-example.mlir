// RUN: minixla-opt %s -p hlo-optimize | filecheck %s
// RUN: minixla-opt %s -p hlo-optimize,convert-hlo-to-linalg | filecheck %s --check-prefix=LINALG

// The lecture's reduce_mean(x**2*3+y), as the frontend traces it: one input
// fusion holding the whole computation (XLA's optimized_hlo shows one fusion).
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kind = input (%[[P0:.*]] = %0, %[[P1:.*]] = %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32> {
// CHECK-NEXT:      %[[SQ:.*]] = hlo.multiply %[[P0]], %[[P0]] : tensor<2x3xf32>
// CHECK:           hlo.add
// CHECK:           hlo.reduce
// CHECK:           hlo.divide
// CHECK:           hlo.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[F]] : tensor<f32>
// CHECK-NOT:     hlo.

// One reduction generic reads both inputs once; the f32 sum accumulates in
// f64 (reassociable) and a 0-d finalizer rounds it and divides.
// LINALG-LABEL: func.func @main
// LINALG:         linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []}
// LINALG:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%0, %1 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%{{.*}} : tensor<f64>)
// LINALG:           arith.mulf
// LINALG:           arith.mulf
// LINALG:           arith.addf
// LINALG:           arith.extf
// LINALG:           arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
// LINALG:         linalg.generic
// LINALG:           arith.truncf
// LINALG:           arith.divf
// LINALG-NOT:     linalg.generic
func.func @main(%0: tensor<2x3xf32>, %1: tensor<2x3xf32>) -> tensor<f32> {
  %2 = hlo.constant dense<2.000000e+00> : tensor<f32>
  %3 = hlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %4 = hlo.power %0, %3 : tensor<2x3xf32>
  %5 = hlo.constant dense<3.000000e+00> : tensor<f32>
  %6 = hlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %7 = hlo.multiply %4, %6 : tensor<2x3xf32>
  %8 = hlo.add %7, %1 : tensor<2x3xf32>
  %9 = hlo.constant dense<0.000000e+00> : tensor<f32>
  %10 = hlo.reduce(%8 init: %9) applies hlo.add across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  %11 = hlo.constant dense<6.000000e+00> : tensor<f32>
  %12 = hlo.divide %10, %11 : tensor<f32>
  func.return %12 : tensor<f32>
}
