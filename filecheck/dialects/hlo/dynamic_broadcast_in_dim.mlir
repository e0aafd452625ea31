// RUN: minixla-opt %s | filecheck %s

func.func @dynamic_broadcast_in_dim(%x: tensor<3x1xi64>, %s: tensor<3xi64>) -> tensor<3x?x2xi64> {
  %a = hlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 2] : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x?x2xi64>
  %b = "hlo.dynamic_broadcast_in_dim"(%x, %s) {broadcast_dimensions = array<i64: 0, 2>, known_expanding_dimensions = array<i64: 1>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  func.return %a : tensor<3x?x2xi64>
}
// CHECK-LABEL: func.func @dynamic_broadcast_in_dim(%x: tensor<3x1xi64>, %s: tensor<3xi64>) -> tensor<3x?x2xi64> {
// CHECK-NEXT:   %a = hlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 2] : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x?x2xi64>
// CHECK-NEXT:   %b = hlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 2] {known_expanding_dimensions = array<i64: 1>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
// CHECK-NEXT:   func.return %a : tensor<3x?x2xi64>
// CHECK-NEXT: }
