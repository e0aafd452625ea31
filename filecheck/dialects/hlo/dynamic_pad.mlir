// RUN: minixla-opt %s | filecheck %s

func.func @dynamic_pad(%x: tensor<5x4xi64>, %v: tensor<i64>, %lo: tensor<2xi64>, %hi: tensor<2xi64>, %in: tensor<2xi64>) -> tensor<?x?xi64> {
  %a = hlo.dynamic_pad %x, %v, %lo, %hi, %in : (tensor<5x4xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xi64>
  func.return %a : tensor<?x?xi64>
}
// CHECK-LABEL: func.func @dynamic_pad(%x: tensor<5x4xi64>, %v: tensor<i64>, %lo: tensor<2xi64>, %hi: tensor<2xi64>, %in: tensor<2xi64>) -> tensor<?x?xi64> {
// CHECK-NEXT:   %a = hlo.dynamic_pad %x, %v, %lo, %hi, %in : (tensor<5x4xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xi64>
// CHECK-NEXT:   func.return %a : tensor<?x?xi64>
// CHECK-NEXT: }
