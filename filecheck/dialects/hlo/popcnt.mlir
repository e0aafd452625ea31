// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @popcnt(%a: tensor<4xi64>, %b: tensor<ui4>) {
  %x = hlo.popcnt %a : tensor<4xi64>
  %y = hlo.popcnt %b : tensor<ui4>
  func.return
}
// CHECK-LABEL: func.func @popcnt(%a: tensor<4xi64>, %b: tensor<ui4>) {
// CHECK-NEXT:  %x = hlo.popcnt %a : tensor<4xi64>
// CHECK-NEXT:  %y = hlo.popcnt %b : tensor<ui4>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
