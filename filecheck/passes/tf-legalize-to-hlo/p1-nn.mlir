// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// P1 nn/random ops (frontend/ops/p1_nn_ops.py).

// DepthwiseConv2dNative: the [H, W, C, M] filter read as [H, W, 1, C*M], one grouped convolution.
func.func @depthwise(%x: tensor<1x5x5x2xf32>, %k: tensor<3x3x2x3xf32>) -> tensor<1x5x5x6xf32> {
  %r = "tf.DepthwiseConv2dNative"(%x, %k) {strides = [1 : i64, 1 : i64, 1 : i64, 1 : i64], padding = "SAME", data_format = "NHWC", dilations = [1 : i64, 1 : i64, 1 : i64, 1 : i64], explicit_paddings = []} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x5x5x6xf32>
  func.return %r : tensor<1x5x5x6xf32>
}
// CHECK-LABEL: func.func @depthwise
// CHECK-NEXT:    %[[K:.*]] = hlo.reshape %k : (tensor<3x3x2x3xf32>) -> tensor<3x3x1x6xf32>
// CHECK-NEXT:    hlo.convolution(%x, %[[K]]) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {feature_group_count = 2 : i64, batch_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x1x6xf32>) -> tensor<1x5x5x6xf32>

// Conv2DBackpropInput (tf.nn.conv2d_transpose): the transpose of Conv2D, a convolution of out_backprop
// with the spatially reversed filter (kernel in/out swapped), lhs_dilate = strides.
func.func @conv2d_transpose(%g: tensor<1x3x3x4xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x6x6x2xf32> {
  %sizes = "tf.Const"() <{value = dense<[1, 6, 6, 2]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %r = "tf.Conv2DBackpropInput"(%sizes, %k, %g) {strides = [1 : i64, 2 : i64, 2 : i64, 1 : i64], padding = "SAME", data_format = "NHWC", dilations = [1 : i64, 1 : i64, 1 : i64, 1 : i64], explicit_paddings = []} : (tensor<4xi32>, tensor<3x3x2x4xf32>, tensor<1x3x3x4xf32>) -> tensor<1x6x6x2xf32>
  func.return %r : tensor<1x6x6x2xf32>
}
// CHECK-LABEL: func.func @conv2d_transpose
// CHECK-NEXT:    %[[R:.*]] = hlo.reverse %k, dims = [0, 1] : tensor<3x3x2x4xf32>
// CHECK-NEXT:    hlo.convolution(%g, %[[R]]) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1]} {feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x3x3x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x6x6x2xf32>

// Conv3D: one convolution with three spatial dimensions and TF's SAME padding.
func.func @conv3d(%x: tensor<1x4x5x4x2xf32>, %k: tensor<2x3x2x2x3xf32>) -> tensor<1x4x5x4x3xf32> {
  %r = "tf.Conv3D"(%x, %k) {strides = [1 : i64, 1 : i64, 1 : i64, 1 : i64, 1 : i64], padding = "SAME", data_format = "NDHWC", dilations = [1 : i64, 1 : i64, 1 : i64, 1 : i64, 1 : i64]} : (tensor<1x4x5x4x2xf32>, tensor<2x3x2x2x3xf32>) -> tensor<1x4x5x4x3xf32>
  func.return %r : tensor<1x4x5x4x3xf32>
}
// CHECK-LABEL: func.func @conv3d
// CHECK-NEXT:    hlo.convolution(%x, %k) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1, 1], pad = [[0, 1], [1, 1], [0, 1]], lhs_dilate = [1, 1, 1], rhs_dilate = [1, 1, 1]} {feature_group_count = 1 : i64, batch_group_count = 1 : i64}

// StatelessTruncatedNormalV2: output group i (4 floats) restarts TF's Philox stream 256 blocks after
// group i-1; its first 4 blocks (16 Box-Muller candidates) come from ten Philox-4x32 rounds written with
// u64 products at counters counter + [0..3, 256..259] (128-bit add with an unsigned carry), and the first
// 4 candidates with |z| < 2 are kept (prefix count by a triangular dot_general, one masked reduce each).
func.func @truncated_normal(%seed: tensor<2xi32>) -> tensor<5xf32> {
  %shape = "tf.Const"() <{value = dense<5> : tensor<1xi32>}> : () -> tensor<1xi32>
  %alg = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %key, %counter = "tf.StatelessRandomGetKeyCounter"(%seed) : (tensor<2xi32>) -> (tensor<1xui64>, tensor<2xui64>)
  %r = "tf.StatelessTruncatedNormalV2"(%shape, %key, %counter, %alg) {dtype = f32} : (tensor<1xi32>, tensor<1xui64>, tensor<2xui64>, tensor<i32>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}
// CHECK-LABEL: func.func @truncated_normal
// CHECK:         hlo.rng_bit_generator %{{.*}}, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
// CHECK-NOT:     hlo.rng_bit_generator
// CHECK:         hlo.constant dense<[0, 1, 2, 3, 256, 257, 258, 259]> : tensor<8xui64>
// CHECK:         hlo.compare LT, %{{.*}}, %{{.*}}, UNSIGNED : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
// CHECK-COUNT-20: hlo.multiply %{{.*}}, %{{.*}} : tensor<8xui64>
// CHECK-NOT:     hlo.multiply %{{.*}}, %{{.*}} : tensor<8xui64>
// CHECK:         hlo.concatenate {{.*}} -> tensor<8x4xui32>
// CHECK:         hlo.log
// CHECK:         hlo.sine
// CHECK:         hlo.cosine
// CHECK:         hlo.compare LT, %{{.*}}, %{{.*}} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xi1>
// CHECK:         hlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<2x16xi32>, tensor<16x16xi32>) -> tensor<2x16xi32>
// CHECK-COUNT-4: hlo.reduce(%{{.*}} init: %{{.*}}) applies hlo.add across dimensions = [1] : (tensor<2x16xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK:         hlo.slice %{{.*}} [0:5] : (tensor<8xf32>) -> tensor<5xf32>

// StatelessMultinomial: the double CDF of exp(logit - max) over finite logits, one RandDouble
// (two words, Uint64ToDouble) per sample times the total, and the upper_bound index as a count of cdf <= u.
func.func @categorical(%logits: tensor<2x3xf32>, %seed: tensor<2xi32>) -> tensor<2x4xi64> {
  %n = "tf.Const"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
  %r = "tf.StatelessMultinomial"(%logits, %n, %seed) {output_dtype = i64} : (tensor<2x3xf32>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xi64>
  func.return %r : tensor<2x4xi64>
}
// CHECK-LABEL: func.func @categorical
// CHECK:         hlo.convert %logits : (tensor<2x3xf32>) -> tensor<2x3xf64>
// CHECK:         hlo.is_finite
// CHECK:         hlo.reduce(%{{.*}} init: %{{.*}}) applies hlo.maximum across dimensions = [1] : (tensor<2x3xf64>, tensor<f64>) -> tensor<2xf64>
// CHECK:         hlo.exponential
// CHECK:         hlo.rng_bit_generator %{{.*}}, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<16xui32>)
// CHECK:         hlo.compare LE, %{{.*}}, %{{.*}} : (tensor<2x4x3xf64>, tensor<2x4x3xf64>) -> tensor<2x4x3xi1>
// CHECK:         %r = hlo.reduce(%{{.*}} init: %{{.*}}) applies hlo.add across dimensions = [2] : (tensor<2x4x3xi64>, tensor<i64>) -> tensor<2x4xi64>
