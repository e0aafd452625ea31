// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s

// CHECK-LABEL: func.func @add_f32
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:  outs(%[[E]] : tensor<2x3xf32>)
// CHECK:       arith.addf
// CHECK:       linalg.yield
func.func @add_f32(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = hlo.add %a, %b : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Unsigned integers become signless; the ops carry the signedness.
// CHECK-LABEL: func.func @div_ui32
// CHECK-SAME:  (%{{.*}}: tensor<4xi32>, %{{.*}}: tensor<4xi32>) -> tensor<4xi32>
// CHECK-SAME:  minixla.hlo_type = (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
// CHECK:       arith.cmpi eq
// CHECK:       arith.select
// CHECK:       arith.divui
func.func @div_ui32(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xui32> {
  %r = hlo.divide %a, %b : tensor<4xui32>
  return %r : tensor<4xui32>
}

// -----

// CHECK-LABEL: func.func @max_nan
// CHECK:       arith.maximumf
func.func @max_nan(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.maximum %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @cmp_total
// CHECK:       arith.bitcast %{{.*}} : f32 to i32
// CHECK:       arith.cmpi slt
func.func @cmp_total(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %r = hlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @shift
// CHECK:       arith.cmpi uge
// CHECK:       arith.shli
func.func @shift(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %r = hlo.shift_left %a, %b : tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Float -> int truncates and saturates; NaN gives 0.
// CHECK-LABEL: func.func @f2i
// CHECK:       math.trunc
// CHECK:       arith.cmpf uno
// CHECK:       arith.fptosi
func.func @f2i(%a: tensor<4xf32>) -> tensor<4xi32> {
  %r = hlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Float remainder calls libm's fmod (exact); the declaration is added.
// CHECK-LABEL: func.func @rem
// CHECK:       func.call @fmod
// CHECK:       func.func private @fmod(f64, f64) -> f64
func.func @rem(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.remainder %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

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

// -----

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
