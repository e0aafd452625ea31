// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @collective_permute(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %p = "hlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK-LABEL: func.func @collective_permute(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %p = "hlo.collective_permute"(%x) <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
