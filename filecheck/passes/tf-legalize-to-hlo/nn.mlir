// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %r = "tf.MatMul"(%a, %b) {transpose_a = false, transpose_b = true} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    hlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>

func.func @relu_bias(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "tf.BiasAdd"(%x, %b) {data_format = "NHWC"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "tf.Relu"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @relu_bias
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast_in_dim %b, dims = [1]
// CHECK-NEXT:    %[[A:.*]] = hlo.add %x, %[[B]]
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[ZB:.*]] = hlo.broadcast_in_dim %[[Z]], dims = []
// CHECK-NEXT:    hlo.maximum %[[ZB]], %[[A]]

// Softmax subtracts the row max before exponentiating.
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tf.Softmax"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @softmax
// CHECK:         hlo.reduce(%x init: %{{.*}}) applies hlo.maximum across dimensions = [1]
// CHECK:         hlo.subtract
// CHECK:         hlo.exponential
// CHECK:         hlo.reduce(%{{.*}} init: %{{.*}}) applies hlo.add across dimensions = [1]
// CHECK:         hlo.divide
