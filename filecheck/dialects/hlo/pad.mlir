// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @pad(%a: tensor<2x3xf32>, %v: tensor<f32>, %i: tensor<4xi16>, %iv: tensor<i16>, %e: tensor<0xf32>) {
  %x = hlo.pad %a, %v, low = [0, 1], high = [2, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
  %y = hlo.pad %a, %v, low = [-1, 0], high = [0, -2], interior = [1, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x5xf32>
  %z = hlo.pad %i, %iv, low = [1], high = [1], interior = [1] {tag} : (tensor<4xi16>, tensor<i16>) -> tensor<9xi16>
  %w = hlo.pad %e, %v, low = [2], high = [0], interior = [3] : (tensor<0xf32>, tensor<f32>) -> tensor<2xf32>
  func.return
}
// CHECK-LABEL: func.func @pad(%a: tensor<2x3xf32>, %v: tensor<f32>, %i: tensor<4xi16>, %iv: tensor<i16>, %e: tensor<0xf32>) {
// CHECK-NEXT:  %x = hlo.pad %a, %v, low = [0, 1], high = [2, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %y = hlo.pad %a, %v, low = [-1, 0], high = [0, -2], interior = [1, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x5xf32>
// CHECK-NEXT:  %z = hlo.pad %i, %iv, low = [1], high = [1], interior = [1] {tag} : (tensor<4xi16>, tensor<i16>) -> tensor<9xi16>
// CHECK-NEXT:  %w = hlo.pad %e, %v, low = [2], high = [0], interior = [3] : (tensor<0xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
