// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @all_to_all(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %a2a = "hlo.all_to_all"(%x) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return
}
// CHECK-LABEL: func.func @all_to_all(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %a2a = "hlo.all_to_all"(%x) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
