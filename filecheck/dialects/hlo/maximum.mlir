// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @maximum(%p: tensor<2xi1>, %u: tensor<ui8>, %b: tensor<3x1xbf16>) {
  %a = hlo.maximum %p, %p : tensor<2xi1>
  %c = hlo.maximum %u, %u : tensor<ui8>
  %d = hlo.maximum %b, %b : tensor<3x1xbf16>
  func.return
}
// CHECK-LABEL: func.func @maximum(%p: tensor<2xi1>, %u: tensor<ui8>, %b: tensor<3x1xbf16>) {
// CHECK-NEXT:  %a = hlo.maximum %p, %p : tensor<2xi1>
// CHECK-NEXT:  %c = hlo.maximum %u, %u : tensor<ui8>
// CHECK-NEXT:  %d = hlo.maximum %b, %b : tensor<3x1xbf16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
