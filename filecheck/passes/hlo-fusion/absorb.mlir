// RUN: minixla-opt %s --split-input-file -p hlo-fusion | filecheck %s

// A one-hot select read by two fusions (a reduction and the gradient's loop fusion): the grouping
// duplicates it into the second only, and the last step (absorb) moves its producers (broadcast, iota,
// compare, the constant broadcasts) into the first as well, so none keeps a loop nest of its own.
// CHECK-LABEL: func.func @one_hot
// CHECK-NEXT:    %[[S:.*]] = hlo.fusion kind = input (%[[L:.*]] = %logits, %[[Y:.*]] = %labels) : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<4xf32> {
// CHECK-NEXT:      %[[LB:.*]] = hlo.broadcast_in_dim %[[Y]], dims = [0]
// CHECK-NEXT:      %[[IO:.*]] = hlo.iota dim = 1
// CHECK-NEXT:      %[[OH:.*]] = hlo.compare EQ, %[[LB]], %[[IO]]
// CHECK:           hlo.select %[[OH]]
// CHECK:           hlo.reduce
// CHECK:         hlo.fusion kind = loop (%{{.*}} = %labels, %{{.*}} = %logits)
// CHECK-NOT:     hlo.broadcast_in_dim %labels
// CHECK:         func.return
func.func @one_hot(%logits: tensor<4x3xf32>, %labels: tensor<4xi32>) -> (tensor<4xf32>, tensor<4x3xf32>) {
  %lb = hlo.broadcast_in_dim %labels, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
  %io = hlo.iota dim = 1 : tensor<4x3xi32>
  %oh = hlo.compare EQ, %lb, %io : (tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi1>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %ob = hlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %zb = hlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %y = hlo.select %oh, %ob, %zb : tensor<4x3xi1>, tensor<4x3xf32>
  %p = hlo.multiply %y, %logits : tensor<4x3xf32>
  %s = hlo.reduce(%p init: %z) applies hlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  %e = hlo.exponential %logits : tensor<4x3xf32>
  %g = hlo.subtract %e, %y : tensor<4x3xf32>
  func.return %s, %g : tensor<4xf32>, tensor<4x3xf32>
}

// -----

// ReLU forward and backward: the zero broadcast is not promoted to a result of the forward fusion (a
// buffer of zeros); the backward compare, left behind by the group that claimed it, moves into the
// select's fusion, which reads the pre-activation; the exponential, expensive and also read by the dot,
// stays.
// CHECK-LABEL: func.func @relu
// CHECK-NEXT:    %[[R:.*]], %[[A:.*]] = hlo.fusion kind = multi_output (%{{.*}} = %x, %{{.*}} = %b) : (tensor<8x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK:         %[[E:.*]] = hlo.exponential %g
// CHECK-NEXT:    %[[GS:.*]] = hlo.fusion kind = loop (%{{.*}} = %g, %{{.*}} = %[[E]], %[[P:.*]] = %[[A]]) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK:           hlo.compare GT, %[[P]]
// CHECK:           hlo.divide
// CHECK:           hlo.select
// CHECK:         hlo.fusion kind = input
// CHECK-NOT:     hlo.divide
// CHECK:         func.return %[[R]], %[[GS]]
func.func @relu(%x: tensor<8x16xf32>, %b: tensor<16xf32>, %g: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16xf32>) {
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %a = hlo.add %x, %bb : tensor<8x16xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %zb = hlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %r = hlo.maximum %zb, %a : tensor<8x16xf32>
  %c = hlo.compare GT, %a, %zb : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
  %e = hlo.exponential %g : tensor<8x16xf32>
  %q = hlo.divide %g, %e : tensor<8x16xf32>
  %gs = hlo.select %c, %q, %zb : tensor<8x16xi1>, tensor<8x16xf32>
  %sum = hlo.reduce(%gs init: %z) applies hlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  %t = hlo.dot_general %gs, %e, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %tr = hlo.reduce(%t init: %z) applies hlo.add across dimensions = [0] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
  %o = hlo.add %sum, %tr : tensor<16xf32>
  func.return %r, %gs, %o : tensor<8x16xf32>, tensor<8x16xf32>, tensor<16xf32>
}
