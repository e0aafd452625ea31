// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s

// CHECK-LABEL: func.func @bcast
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
func.func @bcast(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %r = hlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK:       affine_map<(d0, d1, d2) -> (d1, d2, d0)>
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %r = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %r : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reverse
// CHECK:       affine_map<(d0, d1) -> (d0, ((d1 * -1) + 3))>
func.func @reverse(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = hlo.reverse %x, dims = [1] : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @iota
// CHECK:       linalg.index 1
// CHECK:       arith.index_cast
func.func @iota() -> tensor<3x4xi32> {
  %r = hlo.iota dim = 1 : tensor<3x4xi32>
  return %r : tensor<3x4xi32>
}

// -----

// CHECK-LABEL: func.func @reshape
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0 : i64, 1 : i64]] : tensor<2x6xf32> into tensor<12xf32>
// CHECK:       tensor.expand_shape %{{.*}} output_shape [3, 2, 2] : tensor<12xf32> into tensor<3x2x2xf32>
func.func @reshape(%x: tensor<2x6xf32>) -> tensor<3x2x2xf32> {
  %r = hlo.reshape %x : (tensor<2x6xf32>) -> tensor<3x2x2xf32>
  return %r : tensor<3x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @slice
// CHECK:       tensor.extract_slice %{{.*}}[1, 0] [2, 2] [2, 3] : tensor<6x5xf32> to tensor<2x2xf32>
func.func @slice(%x: tensor<6x5xf32>) -> tensor<2x2xf32> {
  %r = hlo.slice %x [1:5:2, 0:4:3] : (tensor<6x5xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK:       tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [2, 3] [1, 1]
// CHECK:       tensor.insert_slice %{{.*}} into %{{.*}}[0, 3] [2, 1] [1, 1]
func.func @concat(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %r = hlo.concatenate %x, %y, dim = 1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Start indices are clamped to [0, size - slice] (spec), then read with tensor.extract.
// CHECK-LABEL: func.func @dyn_slice
// CHECK:       arith.minsi
// CHECK:       arith.maxsi
// CHECK:       linalg.generic
// CHECK:       tensor.extract
func.func @dyn_slice(%x: tensor<5xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  %r = hlo.dynamic_slice %x, %i, sizes = [2] : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// dynamic_update_slice: the update inserted at the clamped starts (bufferization writes only its
// elements, into the operand's buffer when the operand is dead).
// CHECK-LABEL: func.func @dyn_update
// CHECK:       %[[I:.*]] = arith.index_cast
// CHECK:       %[[HI:.*]] = arith.constant 11 : index
// CHECK:       %[[LO:.*]] = arith.minsi %[[I]], %[[HI]] : index
// CHECK:       %[[S0:.*]] = arith.maxsi %[[LO]], %{{.*}} : index
// CHECK:       %[[S1:.*]] = arith.maxsi
// CHECK:       tensor.insert_slice %{{.*}} into %{{.*}}[%[[S0]], %[[S1]]] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<12x4xf32>
// CHECK-NOT:   linalg.generic
func.func @dyn_update(%x: tensor<12x4xf32>, %u: tensor<1x4xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<12x4xf32> {
  %r = hlo.dynamic_update_slice %x, %u, %i, %j : (tensor<12x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<12x4xf32>
  return %r : tensor<12x4xf32>
}
