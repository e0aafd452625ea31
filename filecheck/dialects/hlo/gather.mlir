// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @gather(%x: tensor<3x4x2xf32>, %idx: tensor<2x3x2xi64>, %b: tensor<2x3x4xbf16>, %bi: tensor<2x5x1xi32>, %v: tensor<5xi8>, %vi: tensor<3xui32>) {
  %g = "hlo.gather"(%x, %idx) <{dimension_numbers = #hlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false}> : (tensor<3x4x2xf32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32>
  // Batching dimensions.
  %gb = "hlo.gather"(%b, %bi) <{dimension_numbers = #hlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x3x4xbf16>, tensor<2x5x1xi32>) -> tensor<2x5x4xbf16>
  // Implicit index vector dimension (index_vector_dim = rank of the indices), sorted indices.
  %gv = "hlo.gather"(%v, %vi) <{dimension_numbers = #hlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>, indices_are_sorted = true}> {tag} : (tensor<5xi8>, tensor<3xui32>) -> tensor<3xi8>
  func.return
}
// CHECK-LABEL: func.func @gather(%x: tensor<3x4x2xf32>, %idx: tensor<2x3x2xi64>, %b: tensor<2x3x4xbf16>, %bi: tensor<2x5x1xi32>, %v: tensor<5xi8>, %vi: tensor<3xui32>) {
// CHECK-NEXT:  %g = "hlo.gather"(%x, %idx) <{dimension_numbers = #hlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false}> : (tensor<3x4x2xf32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32>
// CHECK-NEXT:  %gb = "hlo.gather"(%b, %bi) <{dimension_numbers = #hlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x3x4xbf16>, tensor<2x5x1xi32>) -> tensor<2x5x4xbf16>
// CHECK-NEXT:  %gv = "hlo.gather"(%v, %vi) <{dimension_numbers = #hlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>, indices_are_sorted = true}> {tag} : (tensor<5xi8>, tensor<3xui32>) -> tensor<3xi8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
