// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @scatter(%x: tensor<3x4x2xf32>, %idx: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xf32>) {
  %s = "hlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }) : (tensor<3x4x2xf32>, tensor<2x3x2xi64>, tensor<2x3x2x2xf32>) -> tensor<3x4x2xf32>
  func.return
}
// CHECK-LABEL: func.func @scatter(%x: tensor<3x4x2xf32>, %idx: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xf32>) {
// CHECK-NEXT:  %s = "hlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false}> ({
// CHECK-NEXT:  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
// CHECK-NEXT:  %a = hlo.add %p, %q : tensor<f32>
// CHECK-NEXT:  hlo.return %a : tensor<f32>
// CHECK-NEXT:  }) : (tensor<3x4x2xf32>, tensor<2x3x2xi64>, tensor<2x3x2x2xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// Two inputs with batching dimensions.
func.func @scatter_batched(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xi32>, %idx: tensor<2x5x1xi32>, %u: tensor<2x5x4xf32>, %v: tensor<2x5x4xi32>) {
  %s:2 = "hlo.scatter"(%x, %y, %idx, %u, %v) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = true}> ({
  ^bb0(%p: tensor<f32>, %pi: tensor<i32>, %q: tensor<f32>, %qi: tensor<i32>):
    hlo.return %q, %qi : tensor<f32>, tensor<i32>
  }) {tag} : (tensor<2x3x4xf32>, tensor<2x3x4xi32>, tensor<2x5x1xi32>, tensor<2x5x4xf32>, tensor<2x5x4xi32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xi32>)
  func.return
}
// CHECK-LABEL: func.func @scatter_batched(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xi32>, %idx: tensor<2x5x1xi32>, %u: tensor<2x5x4xf32>, %v: tensor<2x5x4xi32>) {
// CHECK-NEXT:  %s, %s_1 = "hlo.scatter"(%x, %y, %idx, %u, %v) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = true}> ({
// CHECK-NEXT:  ^bb0(%p: tensor<f32>, %pi: tensor<i32>, %q: tensor<f32>, %qi: tensor<i32>):
// CHECK-NEXT:  hlo.return %q, %qi : tensor<f32>, tensor<i32>
// CHECK-NEXT:  }) {tag} : (tensor<2x3x4xf32>, tensor<2x3x4xi32>, tensor<2x5x1xi32>, tensor<2x5x4xf32>, tensor<2x5x4xi32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xi32>)
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
