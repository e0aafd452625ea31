// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @slice(%a: tensor<4x6xf32>, %s: tensor<ui32>, %v: tensor<10xi8>) {
  %x = hlo.slice %a [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %y = hlo.slice %a [0:4, 2:2] : (tensor<4x6xf32>) -> tensor<4x0xf32>
  %z = hlo.slice %s [] : (tensor<ui32>) -> tensor<ui32>
  %w = hlo.slice %v [1:10:3] {tag} : (tensor<10xi8>) -> tensor<3xi8>
  %u = "hlo.slice"(%v) <{start_indices = array<i64: 0>, limit_indices = array<i64: 5>, strides = array<i64: 1>}> : (tensor<10xi8>) -> tensor<5xi8>
  func.return
}
// CHECK-LABEL: func.func @slice(%a: tensor<4x6xf32>, %s: tensor<ui32>, %v: tensor<10xi8>) {
// CHECK-NEXT:  %x = hlo.slice %a [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  %y = hlo.slice %a [0:4, 2:2] : (tensor<4x6xf32>) -> tensor<4x0xf32>
// CHECK-NEXT:  %z = hlo.slice %s [] : (tensor<ui32>) -> tensor<ui32>
// CHECK-NEXT:  %w = hlo.slice %v [1:10:3] {tag} : (tensor<10xi8>) -> tensor<3xi8>
// CHECK-NEXT:  %u = hlo.slice %v [0:5] : (tensor<10xi8>) -> tensor<5xi8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
