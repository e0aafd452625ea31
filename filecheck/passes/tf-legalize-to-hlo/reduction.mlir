// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// Reduction axes are compile-time constants read from tf.Const.
func.func @mean(%x: tensor<2x3xf32>) -> tensor<f32> {
  %axes = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %m = "tf.Mean"(%x, %axes) {keep_dims = false} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  func.return %m : tensor<f32>
}
// CHECK-LABEL: func.func @mean
// CHECK:         %[[Z:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[S:.*]] = hlo.reduce(%x init: %[[Z]]) applies hlo.add across dimensions = [0, 1]
// CHECK-NEXT:    %[[N:.*]] = hlo.constant dense<6.000000e+00> : tensor<f32>
// CHECK-NEXT:    hlo.divide %[[S]], %[[N]] : tensor<f32>
// CHECK-NOT:     tf.Const

func.func @max_keepdims(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %axis = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %m = "tf.Max"(%x, %axis) {keep_dims = true} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x1xf32>
  func.return %m : tensor<2x1xf32>
}
// CHECK-LABEL: func.func @max_keepdims
// CHECK:         %[[I:.*]] = hlo.constant dense<0xff800000> : tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reduce(%x init: %[[I]]) applies hlo.maximum across dimensions = [1]
// CHECK-NEXT:    hlo.reshape %[[R]] : (tensor<2xf32>) -> tensor<2x1xf32>

// ArgMax is a variadic reduce over (value, iota index).
func.func @argmax(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  %axis = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %r = "tf.ArgMax"(%x, %axis) {output_type = i64} : (tensor<3x4xf32>, tensor<i32>) -> tensor<3xi64>
  func.return %r : tensor<3xi64>
}
// CHECK-LABEL: func.func @argmax
// CHECK:         %[[IOTA:.*]] = hlo.iota dim = 1 : tensor<3x4xi64>
// CHECK:         hlo.reduce(%x init: %{{.*}}), (%[[IOTA]] init: %{{.*}}) across dimensions = [1]
// CHECK:         hlo.compare GT
// CHECK:         hlo.select
// CHECK:         hlo.minimum
