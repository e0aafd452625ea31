// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// gather: the valid form is 3x4xf32 operand, 2x1 indices, offset_dims = [1], collapsed [0] -> 2x4
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xf32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op start_indices must have an integer element type, got tensor<2x1xf32>

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf64>
// CHECK: error: 'hlo.gather' op result element type f64 must be f32

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4, 1>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op slice_sizes [1, 4, 1] needs 2 entries (operand rank)

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x5xf32>
// CHECK: error: 'hlo.gather' op slice_sizes[1] = 5 must be in [0, 4]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1, 0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 3, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op offset_dims must be sorted and unique, got [1, 0]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<collapsed_slice_dims = [1, 0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2xf32>
// CHECK: error: 'hlo.gather' op collapsed_slice_dims must be sorted and unique, got [1, 0]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op collapsed_slice_dims and operand_batching_dims contains 2, out of range for rank 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op collapsed_slice_dims and operand_batching_dims must not repeat dimensions, got [0, 0]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op slice_sizes[0] must be 0 or 1 for a collapsed or batching dimension, got 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op index_vector_dim 3 is out of range for indices of rank 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op start_index_map [0, 1] must have 1 entries (the index vector size)

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op start_index_map contains 2, out of range for rank 2

// -----
%x = "test.op"() : () -> tensor<2x3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op operand_batching_dims and start_indices_batching_dims must have the same length

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op offset_dims [1, 2] must have 1 entries

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.gather' op offset_dims contains 2, out of range for rank 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<4x2xf32>
// CHECK: error: 'hlo.gather' op result shape [4, 2] must be [2, 4]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: unknown field 'collapsed'; expected one of offset_dims, collapsed_slice_dims, operand_batching_dims, start_indices_batching_dims, start_index_map, index_vector_dim
// CHECK: note: while parsing 'hlo.gather'

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: field 'offset_dims' given twice
// CHECK: note: while parsing 'hlo.gather'

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%0 = "hlo.gather"(%x, %i) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = [1]>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK: error: Expected integer literal
// CHECK: note: while parsing 'hlo.gather'

// -----
// scatter
%i = "test.op"() : () -> tensor<2x1xi32>
"hlo.scatter"(%i) <{scatter_dimension_numbers = #hlo.scatter<index_vector_dim = 1>}> ({
^bb0:
  hlo.return
}) : (tensor<2x1xi32>) -> ()
// CHECK: error: 'hlo.scatter' op needs at least one input

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xf32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op scatter_indices must have an integer element type, got tensor<2x1xf32>

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%y = "test.op"() : () -> tensor<3x5xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0:2 = "hlo.scatter"(%x, %y, %i, %u, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>, %r: tensor<f32>, %t: tensor<f32>):
  hlo.return %r, %t : tensor<f32>, tensor<f32>
}) : (tensor<3x4xf32>, tensor<3x5xf32>, tensor<2x1xi32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<3x4xf32>, tensor<3x5xf32>)
// CHECK: error: 'hlo.scatter' op input #1 shape [3, 5] differs from input #0 [3, 4]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%v = "test.op"() : () -> tensor<2x3xf32>
%0:2 = "hlo.scatter"(%x, %x, %i, %u, %v) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>, %r: tensor<f32>, %t: tensor<f32>):
  hlo.return %r, %t : tensor<f32>, tensor<f32>
}) : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>, tensor<2x3xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK: error: 'hlo.scatter' op update #1 shape [2, 3] differs from update #0 [2, 4]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1, 0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update_window_dims must be sorted and unique, got [1, 0]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [1, 0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op inserted_window_dims must be sorted and unique, got [1, 0]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op inserted_window_dims and input_batching_dims contains 2, out of range for rank 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], input_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op inserted_window_dims and input_batching_dims must not repeat dimensions, got [0, 0]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 5>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op index_vector_dim 5 is out of range for indices of rank 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op scatter_dims_to_operand_dims must have 1 entries (the index vector size)

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [3], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op scatter_dims_to_operand_dims contains 3, out of range for rank 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update_window_dims contains 2, out of range for rank 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<3x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update scatter dimensions [3] must match the indices batch shape [2]

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4x1xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4x1xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update_window_dims must have 1 entries, got 2

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x5xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x5xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update dimension 1 (5) exceeds input dimension 1 (4)

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>):
  hlo.return %p : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update_computation must take 2 arguments, got 1

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<1xf32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update_computation must take (tensor<f32>, tensor<f32>), got (tensor<1xf32>, tensor<f32>)

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %p, %q : tensor<f32>, tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update_computation must return (tensor<f32>), got (tensor<f32>, tensor<f32>)

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %b = "test.op"() : () -> tensor<2xf32>
  hlo.return %b : tensor<2xf32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: 'hlo.scatter' op update_computation must return (tensor<f32>), got (tensor<2xf32>)

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf64>
// CHECK: error: 'hlo.scatter' op result types must equal input types

// -----
%x = "test.op"() : () -> tensor<3x4xf32>
%i = "test.op"() : () -> tensor<2x1xi32>
%u = "test.op"() : () -> tensor<2x4xf32>
%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1, bogus = 1>}> ({
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  hlo.return %q : tensor<f32>
}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK: error: unknown field 'bogus'; expected one of update_window_dims, inserted_window_dims, input_batching_dims, scatter_indices_batching_dims, scatter_dims_to_operand_dims, index_vector_dim
// CHECK: note: while parsing 'hlo.scatter'
