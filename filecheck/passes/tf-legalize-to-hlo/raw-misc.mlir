// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// Raw ops of frontend/ops/raw_misc_ops.py and raw_xla_misc_ops.py: StatelessIf names its branch functions
// as tf.If does (hlo.if regions); XlaReduce's computation becomes hlo.reduce's body; the XLA dynamic-size
// annotation is a slice; XlaSplitND's tiles are slices; FakeParam is zeros.

func.func @raw_misc(%p: tensor<i1>, %x: tensor<3xf32>, %m: tensor<2x4xf32>) -> (tensor<3xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<1x4xf32>, tensor<2xf32>) {
  %y = "tf.StatelessIf"(%p, %x) {then_branch = @then, else_branch = @else, output_shapes = []} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  %init = "tf.Const"() <{value = dense<0xff800000> : tensor<f32>}> : () -> tensor<f32>
  %r = "tf.XlaReduce"(%m, %init) {dimensions_to_reduce = [1 : i64], reducer = @max} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  %dim = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %size = "tf.Const"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
  %d = "tf.XlaSetDynamicDimensionSize"(%m, %dim, %size) : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  %s0, %s1 = "tf.XlaSplitND"(%m) {num_splits = [2 : i64, 1 : i64], paddings = [0 : i64, 0 : i64], N = 2 : i64} : (tensor<2x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
  %z = "tf.FakeParam"() {dtype = f32, shape = [2 : i64]} : () -> tensor<2xf32>
  func.return %y, %r, %d, %s1, %z : tensor<3xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<1x4xf32>, tensor<2xf32>
}
func.func private @then(%v: tensor<3xf32>) -> tensor<3xf32> {
  %two = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %w = "tf.Mul"(%v, %two) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %w : tensor<3xf32>
}
func.func private @else(%v: tensor<3xf32>) -> tensor<3xf32> {
  %w = "tf.Neg"(%v) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %w : tensor<3xf32>
}
func.func private @max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %c = "tf.Maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %c : tensor<f32>
}
// CHECK-LABEL: func.func @raw_misc
// CHECK-NEXT:    %y = "hlo.if"(%p) ({
// CHECK:           hlo.multiply %x
// CHECK:         }, {
// CHECK-NEXT:      %[[N:.*]] = hlo.negate %x : tensor<3xf32>
// CHECK-NEXT:      hlo.return %[[N]] : tensor<3xf32>
// CHECK-NEXT:    }) : (tensor<i1>) -> tensor<3xf32>
// CHECK-NEXT:    %init = hlo.constant dense<0xff800000> : tensor<f32>
// CHECK-NEXT:    %r = hlo.reduce(%m init: %init) applies hlo.maximum across dimensions = [1]
// CHECK-NEXT:    %d = hlo.slice %m [0:2, 0:2] : (tensor<2x4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %s1 = hlo.slice %m [1:2, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %z = hlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:    func.return %y, %r, %d, %s1, %z
