// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s
// RUN: minixla-opt %s --split-input-file -p hlo-to-cpu | filecheck %s --check-prefix=CPU

// One process is one replica: all_reduce over a group of one returns its
// operands unchanged, without computing the body or copying.

// CHECK-LABEL: func.func @sum
// CHECK-SAME:    (%[[X:[0-9a-z]+]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT:     linalg
// CHECK-NEXT:    func.return %[[X]] : tensor<4xf32>
// CPU-LABEL:   llvm.func @sum
func.func @sum(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.all_reduce"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @variadic
// CHECK-SAME:    (%[[X:[0-9a-z]+]]: tensor<2xi32>, %[[Y:[0-9a-z]+]]: tensor<i32>) -> (tensor<2xi32>, tensor<i32>)
// CHECK-NEXT:    func.return %[[X]], %[[Y]] : tensor<2xi32>, tensor<i32>
func.func @variadic(%x: tensor<2xi32>, %y: tensor<i32>) -> (tensor<2xi32>, tensor<i32>) {
  %0:2 = "hlo.all_reduce"(%x, %y) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = hlo.maximum %a, %b : tensor<i32>
    hlo.return %s : tensor<i32>
  }) : (tensor<2xi32>, tensor<i32>) -> (tensor<2xi32>, tensor<i32>)
  return %0#0, %0#1 : tensor<2xi32>, tensor<i32>
}
