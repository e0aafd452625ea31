// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @dynamic_gather(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %s: tensor<3xi64>) -> tensor<2x3x?x?xi64> {
  %a = "hlo.dynamic_gather"(%x, %i, %s) <{dimension_numbers = #hlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false}> : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x?x?xi64>
  func.return %a : tensor<2x3x?x?xi64>
}
// CHECK-LABEL: func.func @dynamic_gather(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %s: tensor<3xi64>) -> tensor<2x3x?x?xi64> {
// CHECK-NEXT:   %a = "hlo.dynamic_gather"(%x, %i, %s) <{dimension_numbers = #hlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false}> : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x?x?xi64>
// CHECK-NEXT:   func.return %a : tensor<2x3x?x?xi64>
// CHECK-NEXT: }
