// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @all_gather(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %g = "hlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
  func.return
}
// CHECK-LABEL: func.func @all_gather(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %g = "hlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
