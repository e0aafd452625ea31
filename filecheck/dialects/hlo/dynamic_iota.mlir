// RUN: minixla-opt %s | filecheck %s

func.func @dynamic_iota(%s: tensor<2xi64>) -> tensor<?x4xf32> {
  %a = hlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<?x4xf32>
  %b = hlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi32>
  func.return %a : tensor<?x4xf32>
}
// CHECK-LABEL: func.func @dynamic_iota(%s: tensor<2xi64>) -> tensor<?x4xf32> {
// CHECK-NEXT:   %a = hlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<?x4xf32>
// CHECK-NEXT:   %b = hlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi32>
// CHECK-NEXT:   func.return %a : tensor<?x4xf32>
// CHECK-NEXT: }
