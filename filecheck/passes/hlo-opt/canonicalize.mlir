// RUN: minixla-opt %s -p canonicalize | filecheck %s
// xDSL's own `canonicalize` applies the hlo ops' canonicalization patterns
// (dialects/hlo_ops/canonicalization.py) through their HloCanonicalization trait.

func.func @simplify(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = hlo.constant dense<2.000000e+00> : tensor<4xf32>
  %one = hlo.constant dense<1.000000e+00> : tensor<4xf32>
  %p = hlo.power %x, %two : tensor<4xf32>
  %m = hlo.multiply %p, %one : tensor<4xf32>
  %n1 = hlo.negate %m : tensor<4xf32>
  %n2 = hlo.negate %n1 : tensor<4xf32>
  %d = hlo.divide %n2, %two : tensor<4xf32>
  func.return %d : tensor<4xf32>
}
// CHECK-LABEL: func.func @simplify(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:         %[[SQ:.*]] = hlo.multiply %x, %x : tensor<4xf32>
// CHECK:         %[[HALF:.*]] = hlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK:         %[[B:.*]] = hlo.broadcast_in_dim %[[HALF]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK:         %[[D:.*]] = hlo.multiply %[[SQ]], %[[B]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[D]] : tensor<4xf32>
// CHECK-NOT:     hlo.negate
// CHECK-NOT:     hlo.power

func.func @layout_chains(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %t1 = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %t2 = hlo.transpose %t1, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %r1 = hlo.reshape %t2 : (tensor<2x3xf32>) -> tensor<6xf32>
  %r2 = hlo.reshape %r1 : (tensor<6xf32>) -> tensor<2x3xf32>
  func.return %r2 : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @layout_chains(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT:    func.return %x : tensor<2x3xf32>

func.func @signed_zero_stays(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = hlo.constant dense<0.000000e+00> : tensor<4xf32>
  %a = hlo.add %x, %z : tensor<4xf32>
  func.return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func @signed_zero_stays
// CHECK:         hlo.add %x, %{{.*}} : tensor<4xf32>
