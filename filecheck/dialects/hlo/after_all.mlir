// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @after_all(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %t1 = hlo.after_all : !hlo.token
  %t2 = hlo.after_all %t, %t1 : !hlo.token
  func.return
}
// CHECK-LABEL: func.func @after_all(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %t1 = hlo.after_all : !hlo.token
// CHECK-NEXT: %t2 = hlo.after_all %t, %t1 : !hlo.token
// CHECK-NEXT: func.return
// CHECK-NEXT: }
