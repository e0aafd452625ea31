// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @transpose(%a: tensor<2x3xf32>, %b: tensor<2x3x4xi64>, %s: tensor<f16>, %e: tensor<0x2xi1>) {
  %x = hlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %y = hlo.transpose %b, dims = [2, 0, 1] : (tensor<2x3x4xi64>) -> tensor<4x2x3xi64>
  %z = hlo.transpose %s, dims = [] : (tensor<f16>) -> tensor<f16>
  %w = hlo.transpose %e, dims = [1, 0] {tag} : (tensor<0x2xi1>) -> tensor<2x0xi1>
  %v = hlo.transpose %a, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK-LABEL: func.func @transpose(%a: tensor<2x3xf32>, %b: tensor<2x3x4xi64>, %s: tensor<f16>, %e: tensor<0x2xi1>) {
// CHECK-NEXT:  %x = hlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:  %y = hlo.transpose %b, dims = [2, 0, 1] : (tensor<2x3x4xi64>) -> tensor<4x2x3xi64>
// CHECK-NEXT:  %z = hlo.transpose %s, dims = [] : (tensor<f16>) -> tensor<f16>
// CHECK-NEXT:  %w = hlo.transpose %e, dims = [1, 0] {tag} : (tensor<0x2xi1>) -> tensor<2x0xi1>
// CHECK-NEXT:  %v = hlo.transpose %a, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
