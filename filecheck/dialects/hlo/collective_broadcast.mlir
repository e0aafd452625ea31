// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @collective_broadcast(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %bc = "hlo.collective_broadcast"(%x) <{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK-LABEL: func.func @collective_broadcast(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %bc = "hlo.collective_broadcast"(%x) <{replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
