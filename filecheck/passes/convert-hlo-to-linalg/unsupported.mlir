// RUN: not minixla-opt %s -p convert-hlo-to-linalg 2>&1 | filecheck %s

// CHECK: convert-hlo-to-linalg: cannot lower 'hlo.sort'
// CHECK-NOT: Traceback
func.func @sort(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "hlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
