// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @if(%p: tensor<i1>, %x: tensor<4xf32>, %n: tensor<i64>) {
  %r = "hlo.if"(%p) ({
    hlo.return %x : tensor<4xf32>
  }, {
    %y = hlo.negate %x : tensor<4xf32>
    hlo.return %y : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %s:2 = "hlo.if"(%p) ({
    hlo.return %x, %n : tensor<4xf32>, tensor<i64>
  }, {
    hlo.return %x, %n : tensor<4xf32>, tensor<i64>
  }) {tag} : (tensor<i1>) -> (tensor<4xf32>, tensor<i64>)
  "hlo.if"(%p) ({
    hlo.return
  }, {
    hlo.return
  }) : (tensor<i1>) -> ()
  func.return
}
// CHECK-LABEL: func.func @if(%p: tensor<i1>, %x: tensor<4xf32>, %n: tensor<i64>) {
// CHECK-NEXT:  %r = "hlo.if"(%p) ({
// CHECK-NEXT:  hlo.return %x : tensor<4xf32>
// CHECK-NEXT:  }, {
// CHECK-NEXT:  %y = hlo.negate %x : tensor<4xf32>
// CHECK-NEXT:  hlo.return %y : tensor<4xf32>
// CHECK-NEXT:  }) : (tensor<i1>) -> tensor<4xf32>
// CHECK-NEXT:  %s, %s_1 = "hlo.if"(%p) ({
// CHECK-NEXT:  hlo.return %x, %n : tensor<4xf32>, tensor<i64>
// CHECK-NEXT:  }, {
// CHECK-NEXT:  hlo.return %x, %n : tensor<4xf32>, tensor<i64>
// CHECK-NEXT:  }) {tag} : (tensor<i1>) -> (tensor<4xf32>, tensor<i64>)
// CHECK-NEXT:  "hlo.if"(%p) ({
// CHECK-NEXT:  hlo.return
// CHECK-NEXT:  }, {
// CHECK-NEXT:  hlo.return
// CHECK-NEXT:  }) : (tensor<i1>) -> ()
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
