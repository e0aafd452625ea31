// RUN: minixla-opt %s -p convert-hlo-to-linalg | filecheck %s

// tan/cbrt are math ops (f16/bf16 computed in f32); popcnt and count_leading_zeros
// are math.ctpop/ctlz on the signless integer.
func.func @ops(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi64>, %u: tensor<4xui4>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xi64>, tensor<4xui4>) {
  %0 = hlo.tan %f : tensor<4xf32>
  %1 = hlo.cbrt %h : tensor<4xf16>
  %2 = hlo.popcnt %i : tensor<4xi64>
  %3 = hlo.count_leading_zeros %u : tensor<4xui4>
  func.return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf16>, tensor<4xi64>, tensor<4xui4>
}
// CHECK-LABEL: func.func @ops
// CHECK:         math.tan %{{.*}} : f32
// CHECK:         %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    %[[C:.*]] = math.cbrt %[[W]] : f32
// CHECK-NEXT:    arith.truncf %[[C]] : f32 to f16
// CHECK:         math.ctpop %{{.*}} : i64
// CHECK:         math.ctlz %{{.*}} : i4

// reduce_precision: round the mantissa with a bias, then inf/zero outside the exponent range, NaN kept.
func.func @rp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @rp
// CHECK:         %[[B:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:         arith.constant 4095 : i32
// CHECK:         arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK:         arith.cmpi ule, %{{.*}}, %{{.*}} : i32
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %{{.*}}, %{{.*}} : f32
// CHECK:         arith.select %[[NAN]], %[[B]], %{{.*}} : i32
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
