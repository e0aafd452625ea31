// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @dynamic_update_slice(%a: tensor<4x6xf32>, %up: tensor<2x3xf32>, %i: tensor<i64>, %j: tensor<i64>, %s: tensor<i1>, %e: tensor<0x6xf32>) {
  %x = hlo.dynamic_update_slice %a, %up, %i, %j : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x6xf32>
  %y = hlo.dynamic_update_slice %a, %e, %i, %j : (tensor<4x6xf32>, tensor<0x6xf32>, tensor<i64>, tensor<i64>) -> tensor<4x6xf32>
  %z = hlo.dynamic_update_slice %s, %s : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %w = hlo.dynamic_update_slice %a, %a, %i, %j {tag} : (tensor<4x6xf32>, tensor<4x6xf32>, tensor<i64>, tensor<i64>) -> tensor<4x6xf32>
  func.return
}
// CHECK-LABEL: func.func @dynamic_update_slice(%a: tensor<4x6xf32>, %up: tensor<2x3xf32>, %i: tensor<i64>, %j: tensor<i64>, %s: tensor<i1>, %e: tensor<0x6xf32>) {
// CHECK-NEXT:  %x = hlo.dynamic_update_slice %a, %up, %i, %j : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x6xf32>
// CHECK-NEXT:  %y = hlo.dynamic_update_slice %a, %e, %i, %j : (tensor<4x6xf32>, tensor<0x6xf32>, tensor<i64>, tensor<i64>) -> tensor<4x6xf32>
// CHECK-NEXT:  %z = hlo.dynamic_update_slice %s, %s : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:  %w = hlo.dynamic_update_slice %a, %a, %i, %j {tag} : (tensor<4x6xf32>, tensor<4x6xf32>, tensor<i64>, tensor<i64>) -> tensor<4x6xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
