// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s

// gather: a generic over the result; the start index is read with
// tensor.extract and clamped to [0, dim - slice_size] (spec), then the operand
// element is read at start + offset.
// CHECK-LABEL: func.func @gather
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK:         %[[B:.*]] = linalg.index 0 : index
// CHECK:         %[[O:.*]] = linalg.index 1 : index
// CHECK:         %[[S:.*]] = tensor.extract %{{.*}}[%[[B]], %{{.*}}] : tensor<6x1xi32>
// CHECK:         arith.extsi %[[S]] : i32 to i64
// CHECK:         arith.minsi
// CHECK:         %[[C:.*]] = arith.maxsi
// CHECK:         %[[V:.*]] = tensor.extract %{{.*}}[%[[C]], %[[O]]] : tensor<5x3xf32>
// CHECK:         linalg.yield %[[V]] : f32
func.func @gather(%x: tensor<5x3xf32>, %i: tensor<6x1xi32>) -> tensor<6x3xf32> {
  %r = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<6x1xi32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

// -----

// scatter: a serial scf.for over the updates (row-major, so duplicate targets
// combine in order) on tensors; unsigned indices zero-extend; an out-of-bounds
// target is clamped and gets its old value back (select), so no branch.
// CHECK-LABEL: func.func @scatter
// CHECK:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<5xf32>)
// CHECK:         tensor.extract %{{.*}}[%[[K]], %{{.*}}] : tensor<2x1xi32>
// CHECK:         arith.extui
// CHECK:         %[[OK:.*]] = arith.andi
// CHECK:         %[[CUR:.*]] = tensor.extract %[[ACC]][%[[P:.*]]] : tensor<5xf32>
// CHECK:         %[[U:.*]] = tensor.extract %{{.*}}[%[[K]]] : tensor<2xf32>
// CHECK:         %[[NEW:.*]] = arith.addf %[[CUR]], %[[U]] : f32
// CHECK:         %[[SEL:.*]] = arith.select %[[OK]], %[[NEW]], %[[CUR]] : f32
// CHECK:         tensor.insert %[[SEL]] into %[[ACC]][%[[P]]] : tensor<5xf32>
// CHECK:         scf.yield
func.func @scatter(%x: tensor<5xf32>, %i: tensor<2x1xui32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  %r = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<2x1xui32>, tensor<2xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

// select_and_scatter: a reduction generic over (source, window) folds select
// into (value, flat position, any-valid); then a serial loop adds each source
// value at its position of the flattened init-filled result.
// CHECK-LABEL: func.func @select_and_scatter
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK:         arith.cmpf oge
// CHECK:         linalg.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, i64, i1
// CHECK:       tensor.collapse_shape %{{.*}} : tensor<4x6xf32> into tensor<24xf32>
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           arith.addf
// CHECK:           tensor.insert %{{.*}} : tensor<24xf32>
// CHECK:       tensor.expand_shape %{{.*}} output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
func.func @select_and_scatter(%x: tensor<4x6xf32>, %s: tensor<2x2xf32>, %init: tensor<f32>) -> tensor<4x6xf32> {
  %r = "hlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.add %a, %b : tensor<f32>
    hlo.return %c : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// rng_bit_generator (Philox): key and counter come from the state; each element
// computes its 128-bit counter block (with carry) and the unrolled rounds
// (32x32->64 products); the new state is built with tensor.from_elements.
// CHECK-LABEL: func.func @philox
// CHECK:       linalg.generic
// CHECK:         arith.divui
// CHECK:         arith.cmpi ult
// CHECK-COUNT-20: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK:         linalg.yield %{{.*}} : i32
// CHECK:       tensor.from_elements %{{.*}}, %{{.*}}, %{{.*}} : tensor<3xi64>
func.func @philox(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<6xui32>) {
  %ns, %r = hlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<6xui32>)
  return %ns, %r : tensor<3xui64>, tensor<6xui32>
}

// -----

// Narrowing bitcast: element k of the new trailing dim is the operand's bits
// shifted right by 8 * k (little-endian).
// CHECK-LABEL: func.func @bitcast_narrow
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:         arith.bitcast %{{.*}} : f32 to i32
// CHECK:         linalg.index 1
// CHECK:         arith.shrui
// CHECK:         arith.trunci %{{.*}} : i32 to i8
func.func @bitcast_narrow(%x: tensor<3xf32>) -> tensor<3x4xi8> {
  %r = hlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3x4xi8>
  return %r : tensor<3x4xi8>
}

// -----

// Batch groups: group g reads the input batch slice g * N_out + b, and the
// kernel output features of group g.
// CHECK-LABEL: func.func @conv_batch_groups
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (((d1 * 2) + d0), (d3 + d5), d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d4, ((d1 * 3) + d2))>
func.func @conv_batch_groups(%x: tensor<4x5x3xi32>, %k: tensor<2x3x6xi32>) -> tensor<2x4x6xi32> {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x3xi32>, tensor<2x3x6xi32>) -> tensor<2x4x6xi32>
  return %r : tensor<2x4x6xi32>
}
