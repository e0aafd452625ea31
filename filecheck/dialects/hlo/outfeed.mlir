// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @outfeed(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %t6 = "hlo.outfeed"(%x, %t) : (tensor<2x4xf32>, !hlo.token) -> !hlo.token
  func.return
}
// CHECK-LABEL: func.func @outfeed(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %t6 = "hlo.outfeed"(%x, %t) : (tensor<2x4xf32>, !hlo.token) -> !hlo.token
// CHECK-NEXT: func.return
// CHECK-NEXT: }
