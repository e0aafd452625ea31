// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @partition_id(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %pid = hlo.partition_id : tensor<ui32>
  func.return
}
// CHECK-LABEL: func.func @partition_id(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %pid = hlo.partition_id : tensor<ui32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
