// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @logistic(%f: tensor<5xf32>, %b: tensor<2x3xbf16>) {
  %x = hlo.logistic %f : tensor<5xf32>
  %y = hlo.logistic %b : tensor<2x3xbf16>
  func.return
}
// CHECK-LABEL: func.func @logistic(%f: tensor<5xf32>, %b: tensor<2x3xbf16>) {
// CHECK-NEXT:  %x = hlo.logistic %f : tensor<5xf32>
// CHECK-NEXT:  %y = hlo.logistic %b : tensor<2x3xbf16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
