// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @replica_id(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %rid = hlo.replica_id : tensor<ui32>
  func.return
}
// CHECK-LABEL: func.func @replica_id(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %rid = hlo.replica_id : tensor<ui32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
