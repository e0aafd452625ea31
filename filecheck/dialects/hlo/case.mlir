// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @case(%k: tensor<i32>, %x: tensor<4xf32>, %n: tensor<i64>) {
  %r:2 = "hlo.case"(%k) ({
    hlo.return %x, %n : tensor<4xf32>, tensor<i64>
  }, {
    %y = hlo.negate %x : tensor<4xf32>
    hlo.return %y, %n : tensor<4xf32>, tensor<i64>
  }, {
    %m = hlo.add %n, %n : tensor<i64>
    hlo.return %x, %m : tensor<4xf32>, tensor<i64>
  }) : (tensor<i32>) -> (tensor<4xf32>, tensor<i64>)
  %one = "hlo.case"(%k) ({
    hlo.return %x : tensor<4xf32>
  }) {tag} : (tensor<i32>) -> tensor<4xf32>
  "hlo.case"(%k) ({
    hlo.return
  }, {
    hlo.return
  }) : (tensor<i32>) -> ()
  func.return
}
// CHECK-LABEL: func.func @case(%k: tensor<i32>, %x: tensor<4xf32>, %n: tensor<i64>) {
// CHECK-NEXT:  %r, %r_1 = "hlo.case"(%k) ({
// CHECK-NEXT:  hlo.return %x, %n : tensor<4xf32>, tensor<i64>
// CHECK-NEXT:  }, {
// CHECK-NEXT:  %y = hlo.negate %x : tensor<4xf32>
// CHECK-NEXT:  hlo.return %y, %n : tensor<4xf32>, tensor<i64>
// CHECK-NEXT:  }, {
// CHECK-NEXT:  %m = hlo.add %n, %n : tensor<i64>
// CHECK-NEXT:  hlo.return %x, %m : tensor<4xf32>, tensor<i64>
// CHECK-NEXT:  }) : (tensor<i32>) -> (tensor<4xf32>, tensor<i64>)
// CHECK-NEXT:  %one = "hlo.case"(%k) ({
// CHECK-NEXT:  hlo.return %x : tensor<4xf32>
// CHECK-NEXT:  }) {tag} : (tensor<i32>) -> tensor<4xf32>
// CHECK-NEXT:  "hlo.case"(%k) ({
// CHECK-NEXT:  hlo.return
// CHECK-NEXT:  }, {
// CHECK-NEXT:  hlo.return
// CHECK-NEXT:  }) : (tensor<i32>) -> ()
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
