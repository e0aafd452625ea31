// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>, %e: tensor<0x3xf32>, %i: tensor<4xui8>) {
  %x = hlo.concatenate %a, %b, %e, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<0x3xf32>) -> tensor<3x3xf32>
  %y = hlo.concatenate %a, %a, dim = 1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %z = hlo.concatenate %i, dim = 0 : (tensor<4xui8>) -> tensor<4xui8>
  %w = hlo.concatenate %i, %i, dim = 0 {tag} : (tensor<4xui8>, tensor<4xui8>) -> tensor<8xui8>
  func.return
}
// CHECK-LABEL: func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>, %e: tensor<0x3xf32>, %i: tensor<4xui8>) {
// CHECK-NEXT:  %x = hlo.concatenate %a, %b, %e, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<0x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:  %y = hlo.concatenate %a, %a, dim = 1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:  %z = hlo.concatenate %i, dim = 0 : (tensor<4xui8>) -> tensor<4xui8>
// CHECK-NEXT:  %w = hlo.concatenate %i, %i, dim = 0 {tag} : (tensor<4xui8>, tensor<4xui8>) -> tensor<8xui8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
