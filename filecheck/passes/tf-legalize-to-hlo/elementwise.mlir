// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// Binary ops broadcast numpy-style first (broadcast_in_dim), then one hlo op.
func.func @add_bcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "tf.AddV2"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @add_bcast
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.add %a, %[[B]] : tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x3xf32>

func.func @running_example(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c2 = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %p = "tf.Pow"(%x, %c2) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %c3 = "tf.Const"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %m = "tf.Mul"(%p, %c3) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %s = "tf.AddV2"(%m, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %s : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @running_example
// CHECK:         hlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK:         hlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK:         hlo.power %x, %{{.*}} : tensor<2x3xf32>
// CHECK:         hlo.multiply
// CHECK:         hlo.add
// CHECK-NOT:     "tf.

func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tf.Greater"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %r = "tf.SelectV2"(%c, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @compare_select
// CHECK-NEXT:    %[[C:.*]] = hlo.compare GT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:    hlo.select %[[C]], %a, %b

func.func @unary(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "tf.Sigmoid"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "tf.Square"(%0) : (tensor<3xf32>) -> tensor<3xf32>
  %2 = "tf.Cast"(%1) {DstT = f32} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %2 : tensor<3xf32>
}
// CHECK-LABEL: func.func @unary
// CHECK-NEXT:    %[[S:.*]] = hlo.logistic %a : tensor<3xf32>
// CHECK-NEXT:    %[[Q:.*]] = hlo.multiply %[[S]], %[[S]] : tensor<3xf32>
// CHECK-NEXT:    func.return %[[Q]]

func.func @cast(%a: tensor<3xf32>) -> tensor<3xi32> {
  %0 = "tf.Cast"(%a) {DstT = i32, Truncate = false} : (tensor<3xf32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}
// CHECK-LABEL: func.func @cast
// CHECK-NEXT:    hlo.convert %a : (tensor<3xf32>) -> tensor<3xi32>
