// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @dynamic_slice(%a: tensor<4x6x2xf32>, %i: tensor<i32>, %j: tensor<i32>, %k: tensor<i32>, %s: tensor<bf16>, %u: tensor<ui64>, %v: tensor<5xi8>) {
  %x = hlo.dynamic_slice %a, %i, %j, %k, sizes = [2, 3, 1] : (tensor<4x6x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x3x1xf32>
  %y = hlo.dynamic_slice %a, %i, %j, %k, sizes = [0, 6, 2] : (tensor<4x6x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<0x6x2xf32>
  %z = hlo.dynamic_slice %s, sizes = [] : (tensor<bf16>) -> tensor<bf16>
  %w = hlo.dynamic_slice %v, %u, sizes = [2] {tag} : (tensor<5xi8>, tensor<ui64>) -> tensor<2xi8>
  func.return
}
// CHECK-LABEL: func.func @dynamic_slice(%a: tensor<4x6x2xf32>, %i: tensor<i32>, %j: tensor<i32>, %k: tensor<i32>, %s: tensor<bf16>, %u: tensor<ui64>, %v: tensor<5xi8>) {
// CHECK-NEXT:  %x = hlo.dynamic_slice %a, %i, %j, %k, sizes = [2, 3, 1] : (tensor<4x6x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:  %y = hlo.dynamic_slice %a, %i, %j, %k, sizes = [0, 6, 2] : (tensor<4x6x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<0x6x2xf32>
// CHECK-NEXT:  %z = hlo.dynamic_slice %s, sizes = [] : (tensor<bf16>) -> tensor<bf16>
// CHECK-NEXT:  %w = hlo.dynamic_slice %v, %u, sizes = [2] {tag} : (tensor<5xi8>, tensor<ui64>) -> tensor<2xi8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
