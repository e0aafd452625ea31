// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// Stateless random ops: the seed is scrambled into TF's (key, counter) by one
// Philox block under TF's fixed key, then the V2 kernel draws its words with
// one PHILOX rng_bit_generator over state = [key, counter] and maps them with
// TF's mantissa trick (bits & 0x7fffff | 0x3f800000, bitcast, minus 1).

func.func @uniform(%seed: tensor<2xi32>) -> tensor<3xf32> {
  %shape = "tf.Const"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  %alg = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %key, %counter = "tf.StatelessRandomGetKeyCounter"(%seed) : (tensor<2xi32>) -> (tensor<1xui64>, tensor<2xui64>)
  %r = "tf.StatelessRandomUniformV2"(%shape, %key, %counter, %alg) {dtype = f32} : (tensor<1xi32>, tensor<1xui64>, tensor<2xui64>, tensor<i32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
// CHECK-LABEL: func.func @uniform
// CHECK:         %[[S64:.*]] = hlo.convert %seed : (tensor<2xi32>) -> tensor<2xi64>
// CHECK-NEXT:    %[[SU:.*]] = hlo.bitcast_convert %[[S64]] : (tensor<2xi64>) -> tensor<2xui64>
// CHECK-NEXT:    %[[K0:.*]] = hlo.constant dense<163851598941452064> : tensor<1xui64>
// CHECK-NEXT:    %[[ST0:.*]] = hlo.concatenate %[[K0]], %[[SU]], dim = 0
// CHECK-NEXT:    %{{.*}}, %[[MIX:.*]] = hlo.rng_bit_generator %[[ST0]], algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
// CHECK:         %[[KEY:.*]] = hlo.or
// CHECK:         %[[CTR:.*]] = hlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<1xui64>, tensor<1xui64>) -> tensor<2xui64>
// CHECK:         %[[ST:.*]] = hlo.concatenate %[[KEY]], %[[CTR]], dim = 0 : (tensor<1xui64>, tensor<2xui64>) -> tensor<3xui64>
// CHECK-NEXT:    %{{.*}}, %[[BITS:.*]] = hlo.rng_bit_generator %[[ST]], algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3xui32>)
// CHECK-NEXT:    hlo.constant dense<8388607> : tensor<ui32>
// CHECK:         hlo.and %[[BITS]]
// CHECK:         hlo.constant dense<1065353216> : tensor<ui32>
// CHECK:         hlo.or
// CHECK-NEXT:    hlo.bitcast_convert %{{.*}} : (tensor<3xui32>) -> tensor<3xf32>
// CHECK:         hlo.subtract

// Normal: Box-Muller on word pairs (u1 from even words, angle from odd ones),
// sin first, interleaved back, sliced to the requested count.
func.func @normal(%key: tensor<1xui64>, %counter: tensor<2xui64>) -> tensor<3xf32> {
  %shape = "tf.Const"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  %alg = "tf.Const"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  %r = "tf.StatelessRandomNormalV2"(%shape, %key, %counter, %alg) {dtype = f32} : (tensor<1xi32>, tensor<1xui64>, tensor<2xui64>, tensor<i32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
// CHECK-LABEL: func.func @normal
// CHECK:         hlo.rng_bit_generator %{{.*}}, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
// CHECK:         hlo.log
// CHECK:         hlo.sqrt
// CHECK:         hlo.sine
// CHECK:         hlo.cosine
// CHECK:         hlo.concatenate %{{.*}}, %{{.*}}, dim = 1 : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
// CHECK:         hlo.slice %{{.*}} [0:3] : (tensor<4xf32>) -> tensor<3xf32>

// Bounded integers: lo + bits % (hi - lo) in unsigned arithmetic.
func.func @uniform_int(%key: tensor<1xui64>, %counter: tensor<2xui64>, %lo: tensor<i32>, %hi: tensor<i32>) -> tensor<2xi32> {
  %shape = "tf.Const"() <{value = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  %alg = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %r = "tf.StatelessRandomUniformIntV2"(%shape, %key, %counter, %alg, %lo, %hi) : (tensor<1xi32>, tensor<1xui64>, tensor<2xui64>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}
// CHECK-LABEL: func.func @uniform_int
// CHECK:         %{{.*}}, %[[B:.*]] = hlo.rng_bit_generator %{{.*}}, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2xui32>)
// CHECK:         %[[RANGE:.*]] = hlo.subtract %{{.*}}, %{{.*}} : tensor<2xui32>
// CHECK-NEXT:    %[[REM:.*]] = hlo.remainder %[[B]], %[[RANGE]] : tensor<2xui32>
// CHECK-NEXT:    %[[SREM:.*]] = hlo.bitcast_convert %[[REM]] : (tensor<2xui32>) -> tensor<2xi32>
// CHECK-NEXT:    hlo.add %{{.*}}, %[[SREM]] : tensor<2xi32>
