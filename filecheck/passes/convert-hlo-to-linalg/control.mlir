// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s

// CHECK-LABEL: func.func @loop
// CHECK:       scf.while
// CHECK:       tensor.extract
// CHECK:       scf.condition
// CHECK:       scf.yield
func.func @loop(%x: tensor<3xf32>) -> tensor<3xf32> {
  %i0 = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.while(%i = %i0, %acc = %x) : tensor<i32>, tensor<3xf32>
   cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    %a2 = hlo.add %acc, %x : tensor<3xf32>
    hlo.return %i2, %a2 : tensor<i32>, tensor<3xf32>
  }
  return %r#1 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @case
// CHECK:       scf.index_switch
// CHECK:       case 0
// CHECK:       default
func.func @case(%k: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = "hlo.case"(%k) ({
    %a = hlo.negate %x : tensor<3xf32>
    hlo.return %a : tensor<3xf32>
  }, {
    hlo.return %x : tensor<3xf32>
  }) : (tensor<i32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
