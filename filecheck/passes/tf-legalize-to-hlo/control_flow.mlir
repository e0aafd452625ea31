// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// tf.cond / tf.while_loop trace to TF MLIR's functional ops: "tf.If" and "tf.While" name
// private functions of tf ops; the pass inlines them as hlo.if / hlo.while regions (through
// the same decomposition rules) and drops the functions.

func.func @cond(%p: tensor<i1>, %x: tensor<3xf32>, %n: tensor<f32>) -> tensor<3xf32> {
  %r = "tf.If"(%p, %x, %n) {then_branch = @cond_true, else_branch = @cond_false, is_stateless = true} : (tensor<i1>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
func.func private @cond_true(%x: tensor<3xf32>, %n: tensor<f32>) -> tensor<3xf32> {
  %two = "tf.Const"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "tf.Mul"(%x, %two) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}
func.func private @cond_false(%x: tensor<3xf32>, %n: tensor<f32>) -> tensor<3xf32> {
  %y = "tf.Sub"(%x, %n) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @cond
// CHECK-NEXT:    %[[R:.*]] = "hlo.if"(%p) ({
// CHECK-NEXT:      %[[TWO:.*]] = hlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:      %[[B:.*]] = hlo.broadcast_in_dim %[[TWO]], dims = []
// CHECK-NEXT:      %[[M:.*]] = hlo.multiply %x, %[[B]] : tensor<3xf32>
// CHECK-NEXT:      hlo.return %[[M]] : tensor<3xf32>
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[NB:.*]] = hlo.broadcast_in_dim %n, dims = []
// CHECK-NEXT:      %[[S:.*]] = hlo.subtract %x, %[[NB]] : tensor<3xf32>
// CHECK-NEXT:      hlo.return %[[S]] : tensor<3xf32>
// CHECK-NEXT:    }) : (tensor<i1>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %[[R]]

// A numeric predicate is true when non-zero (compare NE 0), as in TF.
func.func @cond_int_pred(%p: tensor<i32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "tf.If"(%p, %x) {then_branch = @neg, else_branch = @ident} : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
func.func private @neg(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
func.func private @ident(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
// CHECK-LABEL: func.func @cond_int_pred
// CHECK:         %[[Z:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[P:.*]] = hlo.compare NE, %p, %[[Z]]
// CHECK-NEXT:    "hlo.if"(%[[P]]) ({
// CHECK-NEXT:      hlo.negate %x
// CHECK:         }, {
// CHECK-NEXT:      hlo.return %x : tensor<2xf32>

// Loop state = loop vars + captured values (passed through unchanged). The body's const
// input (the Sum axis) is folded from its tf.Const.
func.func @while(%x: tensor<3xf32>) -> tensor<i32> {
  %zero = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %i, %acc, %xx = "tf.While"(%zero, %x, %x) {cond = @while_cond, body = @while_body, is_stateless = true} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>, tensor<3xf32>)
  func.return %i : tensor<i32>
}
func.func private @while_cond(%i: tensor<i32>, %acc: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<i1> {
  %five = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
  %c = "tf.Less"(%i, %five) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @while_body(%i: tensor<i32>, %acc: tensor<3xf32>, %x: tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>, tensor<3xf32>) {
  %one = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %axis = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %s = "tf.Sum"(%x, %axis) {keep_dims = true} : (tensor<3xf32>, tensor<i32>) -> tensor<1xf32>
  %a = "tf.AddV2"(%acc, %s) : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  func.return %j, %a, %x : tensor<i32>, tensor<3xf32>, tensor<3xf32>
}
// CHECK-LABEL: func.func @while
// CHECK:         %[[I:.*]], %{{.*}}, %{{.*}} = hlo.while(%[[I0:.*]] = %{{.*}}, %[[A0:.*]] = %x, %[[X0:.*]] = %x) : tensor<i32>, tensor<3xf32>, tensor<3xf32> cond {
// CHECK:           hlo.compare LT, %[[I0]]
// CHECK:         } do {
// CHECK:           hlo.add %[[I0]]
// CHECK:           hlo.reduce(%[[X0]]
// CHECK:           hlo.return
// CHECK:         }
// CHECK-NEXT:    func.return %[[I]]
// CHECK-NOT:   func.func private
