// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

func.func @reshape_transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = "tf.Const"() <{value = dense<[3, -1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %r = "tf.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %p = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %t = "tf.Transpose"(%r, %p) : (tensor<3x2xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %u = "tf.Transpose"(%t, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  func.return %u : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @reshape_transpose
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[T:.*]] = hlo.transpose %[[R]], dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    hlo.transpose %[[T]], dims = [1, 0]

// The concat axis is folded from a constant subgraph (tf.Rank - 1).
func.func @concat(%a: tensor<2x2xf32>, %b: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %r = "tf.Rank"(%a) : (tensor<2x2xf32>) -> tensor<i32>
  %one = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %ax = "tf.Sub"(%r, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %c = "tf.ConcatV2"(%a, %b, %ax) : (tensor<2x2xf32>, tensor<2x1xf32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %c : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @concat
// CHECK-NEXT:    %[[C:.*]] = hlo.concatenate %a, %b, dim = 1 : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[C]]

func.func @strided_slice(%x: tensor<4x6xf32>) -> tensor<3xf32> {
  %b = "tf.Const"() <{value = dense<[1, 5]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %e = "tf.Const"() <{value = dense<[2, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %s = "tf.Const"() <{value = dense<[1, -2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %r = "tf.StridedSlice"(%x, %b, %e, %s) {shrink_axis_mask = 1 : i64} : (tensor<4x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
// CHECK-LABEL: func.func @strided_slice
// CHECK-NEXT:    %[[V:.*]] = hlo.reverse %x, dims = [1] : tensor<4x6xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.slice %[[V]] [1:2, 0:5:2] : (tensor<4x6xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:    hlo.reshape %[[S]] : (tensor<1x3xf32>) -> tensor<3xf32>
