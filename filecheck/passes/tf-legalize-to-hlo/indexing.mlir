// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// GatherV2 with batch_dims: each index gets its batch coordinates (iotas) in
// front, and the gather collapses the batch dims with the axis (tf2xla's form).
func.func @gather_batch(%p: tensor<2x5xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %axis = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %r = "tf.GatherV2"(%p, %i, %axis) {batch_dims = 1 : i64} : (tensor<2x5xf32>, tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @gather_batch
// CHECK-NEXT:    %[[B:.*]] = hlo.iota dim = 0 : tensor<2x3xi32>
// CHECK-NEXT:    %[[BC:.*]] = hlo.reshape %[[B]] : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
// CHECK-NEXT:    %[[IC:.*]] = hlo.reshape %i : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
// CHECK-NEXT:    %[[IDX:.*]] = hlo.concatenate %[[BC]], %[[IC]], dim = 2 : (tensor<2x3x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
// CHECK-NEXT:    "hlo.gather"(%p, %[[IDX]]) <{dimension_numbers = #hlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}>

// Einsum's '...' becomes batch labels of one dot_general.
func.func @einsum_ellipsis(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %r = "tf.Einsum"(%a, %b) {equation = "...ij,...jk->...ik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %r : tensor<2x3x5xf32>
}
// CHECK-LABEL: func.func @einsum_ellipsis
// CHECK-NEXT:    %[[R:.*]] = hlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:    func.return %[[R]]

// A size-1 ellipsis dim broadcasts against the other operand's.
func.func @einsum_broadcast(%a: tensor<1x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %r = "tf.Einsum"(%a, %b) {equation = "...ij,...jk->...ik"} : (tensor<1x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %r : tensor<2x3x5xf32>
}
// CHECK-LABEL: func.func @einsum_broadcast
// CHECK-NEXT:    %[[A:.*]] = hlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    hlo.dot_general %[[A]], %b, batching_dims = [0] x [0], contracting_dims = [2] x [1]
