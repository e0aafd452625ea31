// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @infeed(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %w, %t5 = "hlo.infeed"(%t) : (!hlo.token) -> (tensor<2x4xf32>, !hlo.token)
  func.return
}
// CHECK-LABEL: func.func @infeed(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %w, %t5 = "hlo.infeed"(%t) : (!hlo.token) -> (tensor<2x4xf32>, !hlo.token)
// CHECK-NEXT: func.return
// CHECK-NEXT: }
