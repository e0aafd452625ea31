// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// hlo.return with 0, 1 and 3 values and with attributes, inside region ops.
func.func @return(%p: tensor<i1>, %x: tensor<4xf32>, %n: tensor<i64>, %u: tensor<ui16>) {
  %r:3 = "hlo.if"(%p) ({
    hlo.return %x, %n, %u : tensor<4xf32>, tensor<i64>, tensor<ui16>
  }, {
    hlo.return %x, %n, %u {tag} : tensor<4xf32>, tensor<i64>, tensor<ui16>
  }) : (tensor<i1>) -> (tensor<4xf32>, tensor<i64>, tensor<ui16>)
  "hlo.if"(%p) ({
    hlo.return
  }, {
    "hlo.return"() : () -> ()
  }) : (tensor<i1>) -> ()
  %s = "hlo.if"(%p) ({
    "hlo.return"(%u) : (tensor<ui16>) -> ()
  }, {
    hlo.return %u : tensor<ui16>
  }) : (tensor<i1>) -> tensor<ui16>
  func.return
}
// CHECK-LABEL: func.func @return(%p: tensor<i1>, %x: tensor<4xf32>, %n: tensor<i64>, %u: tensor<ui16>) {
// CHECK-NEXT:  %r, %r_1, %r_2 = "hlo.if"(%p) ({
// CHECK-NEXT:  hlo.return %x, %n, %u : tensor<4xf32>, tensor<i64>, tensor<ui16>
// CHECK-NEXT:  }, {
// CHECK-NEXT:  hlo.return %x, %n, %u {tag} : tensor<4xf32>, tensor<i64>, tensor<ui16>
// CHECK-NEXT:  }) : (tensor<i1>) -> (tensor<4xf32>, tensor<i64>, tensor<ui16>)
// CHECK-NEXT:  "hlo.if"(%p) ({
// CHECK-NEXT:  hlo.return
// CHECK-NEXT:  }, {
// CHECK-NEXT:  hlo.return
// CHECK-NEXT:  }) : (tensor<i1>) -> ()
// CHECK-NEXT:  %s = "hlo.if"(%p) ({
// CHECK-NEXT:  hlo.return %u : tensor<ui16>
// CHECK-NEXT:  }, {
// CHECK-NEXT:  hlo.return %u : tensor<ui16>
// CHECK-NEXT:  }) : (tensor<i1>) -> tensor<ui16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
