// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// P1 math/shape/linalg raw ops (frontend/ops/p1_math_ops.py): Roll, Bitcast, UnsortedSegmentSum, ScatterNd,
// TensorScatterUpdate/Add, MatrixBandPart, MatrixDiagV3, MatrixDiagPartV3.

func.func @roll(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %s = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %a = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r = "tf.Roll"(%x, %s, %a) : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
// Roll: a static shift is slice + concatenate (output[(i + shift) % n] = input[i]).
// CHECK-LABEL: func.func @roll
// CHECK-NEXT:    %[[HEAD:.*]] = hlo.slice %x [2:3, 0:4] : (tensor<3x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[TAIL:.*]] = hlo.slice %x [0:2, 0:4] : (tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.concatenate %[[HEAD]], %[[TAIL]], dim = 0
// CHECK-NEXT:    func.return %[[R]]

func.func @bitcast(%x: tensor<3xf32>) -> tensor<3xi32> {
  %r = "tf.Bitcast"(%x) {type = i32} : (tensor<3xf32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}
// CHECK-LABEL: func.func @bitcast
// CHECK-NEXT:    %[[R:.*]] = hlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3xi32>
// CHECK-NEXT:    func.return %[[R]]

func.func @unsorted_segment_sum(%d: tensor<4x2xf32>, %ids: tensor<4xi32>) -> tensor<3x2xf32> {
  %n = "tf.Const"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  %r = "tf.UnsortedSegmentSum"(%d, %ids, %n) : (tensor<4x2xf32>, tensor<4xi32>, tensor<i32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}
// UnsortedSegmentSum: scatter(add) into zeros; the ids are the scatter indices (implicit index vector).
// CHECK-LABEL: func.func @unsorted_segment_sum
// CHECK:         %[[Z:.*]] = hlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[R:.*]] = "hlo.scatter"(%[[Z]], %ids, %d) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
// CHECK:           hlo.add
// CHECK:         }) : (tensor<3x2xf32>, tensor<4xi32>, tensor<4x2xf32>) -> tensor<3x2xf32>

func.func @scatter_nd(%i: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %s = "tf.Const"() <{value = dense<[4, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %r = "tf.ScatterNd"(%i, %u, %s) : (tensor<2x1xi32>, tensor<2x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @scatter_nd
// CHECK:         %[[Z:.*]] = hlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
// CHECK-NEXT:    "hlo.scatter"(%[[Z]], %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
// CHECK:           hlo.add

func.func @tensor_scatter(%x: tensor<3x4xf32>, %i: tensor<2x2xi32>, %u: tensor<2xf32>) -> tensor<3x4xf32> {
  %a = "tf.TensorScatterUpdate"(%x, %i, %u) : (tensor<3x4xf32>, tensor<2x2xi32>, tensor<2xf32>) -> tensor<3x4xf32>
  %b = "tf.TensorScatterAdd"(%a, %i, %u) : (tensor<3x4xf32>, tensor<2x2xi32>, tensor<2xf32>) -> tensor<3x4xf32>
  func.return %b : tensor<3x4xf32>
}
// TensorScatterUpdate overwrites (the body returns the update), TensorScatterAdd adds.
// CHECK-LABEL: func.func @tensor_scatter
// CHECK-NEXT:    %[[A:.*]] = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<f32>, %[[NEW:.*]]: tensor<f32>):
// CHECK-NEXT:      hlo.return %[[NEW]] : tensor<f32>
// CHECK:         "hlo.scatter"(%[[A]], %i, %u)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      hlo.add

func.func @band_part(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %lo = "tf.Const"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %up = "tf.Const"() <{value = dense<-1> : tensor<i64>}> : () -> tensor<i64>
  %r = "tf.MatrixBandPart"(%x, %lo, %up) : (tensor<3x4xf32>, tensor<i64>, tensor<i64>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
// MatrixBandPart: iota - iota compared with the (constant) band limits, then select; num_upper = -1 keeps
// the whole upper triangle (no compare).
// CHECK-LABEL: func.func @band_part
// CHECK-NEXT:    %[[I:.*]] = hlo.iota dim = 0 : tensor<3x4xi32>
// CHECK-NEXT:    %[[J:.*]] = hlo.iota dim = 1 : tensor<3x4xi32>
// CHECK-NEXT:    %[[D:.*]] = hlo.subtract %[[I]], %[[J]] : tensor<3x4xi32>
// CHECK-NEXT:    %[[LO:.*]] = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %[[LOB:.*]] = hlo.broadcast_in_dim %[[LO]], dims = []
// CHECK-NEXT:    %[[KEEP:.*]] = hlo.compare LE, %[[D]], %[[LOB]]
// CHECK-NOT:     hlo.compare
// CHECK:         %[[R:.*]] = hlo.select %[[KEEP]], %x, %{{.*}} : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    func.return %[[R]]

func.func @diag(%d: tensor<3xf32>, %x: tensor<2x3x4xf32>) -> (tensor<3x3xf32>, tensor<2x3xf32>) {
  %k = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %m = "tf.Const"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
  %p = "tf.Const"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "tf.MatrixDiagV3"(%d, %k, %m, %m, %p) {align = "RIGHT_LEFT"} : (tensor<3xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<f32>) -> tensor<3x3xf32>
  %q = "tf.MatrixDiagPartV3"(%x, %k, %p) {align = "RIGHT_LEFT"} : (tensor<2x3x4xf32>, tensor<i32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %r, %q : tensor<3x3xf32>, tensor<2x3xf32>
}
// MatrixDiagV3 (k = 0): select(iota == iota, broadcast diagonal, padding). MatrixDiagPartV3 (k = 0): a gather
// of the (i, i) elements.
// CHECK-LABEL: func.func @diag
// CHECK:         %[[EYE:.*]] = hlo.compare EQ, %{{.*}}, %{{.*}} : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
// CHECK-NEXT:    %[[SPREAD:.*]] = hlo.broadcast_in_dim %d, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    %[[PAD:.*]] = hlo.broadcast_in_dim %p, dims = []
// CHECK-NEXT:    %[[R:.*]] = hlo.select %[[EYE]], %[[SPREAD]], %[[PAD]]
// CHECK-NEXT:    %[[IDX:.*]] = hlo.constant dense<{{\[\[}}0, 0], [1, 1], [2, 2]]> : tensor<3x2xi32>
// CHECK-NEXT:    %[[Q:.*]] = "hlo.gather"(%x, %[[IDX]]) <{dimension_numbers = #hlo.gather<offset_dims = [0], collapsed_slice_dims = [1, 2], start_index_map = [1, 2], index_vector_dim = 1>, slice_sizes = array<i64: 2, 1, 1>}> : (tensor<2x3x4xf32>, tensor<3x2xi32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]], %[[Q]]

func.func @bitcast_narrow(%x: tensor<2xf32>) -> tensor<2x2xui16> {
  %r = "tf.Bitcast"(%x) {type = ui16} : (tensor<2xf32>) -> tensor<2x2xui16>
  func.return %r : tensor<2x2xui16>
}
// A narrowing Bitcast splits each element into a new last dimension, low bits first.
// CHECK-LABEL: func.func @bitcast_narrow
// CHECK-NEXT:    %[[W:.*]] = hlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2xui32>
// CHECK-NEXT:    %[[LO:.*]] = hlo.convert %[[W]] : (tensor<2xui32>) -> tensor<2xui16>
// CHECK-NEXT:    %[[LO2:.*]] = hlo.reshape %[[LO]] : (tensor<2xui16>) -> tensor<2x1xui16>
// CHECK:         %[[HI:.*]] = hlo.shift_right_logical %[[W]], %{{.*}} : tensor<2xui32>
// CHECK-NEXT:    %[[HI1:.*]] = hlo.convert %[[HI]]
// CHECK-NEXT:    %[[HI2:.*]] = hlo.reshape %[[HI1]]
// CHECK-NEXT:    %[[R:.*]] = hlo.concatenate %[[LO2]], %[[HI2]], dim = 1 : (tensor<2x1xui16>, tensor<2x1xui16>) -> tensor<2x2xui16>
