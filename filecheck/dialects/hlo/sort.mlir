// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @sort(%a: tensor<2x3xf32>, %i: tensor<2x3xi32>, %u: tensor<5xui8>) {
  %kv:2 = "hlo.sort"(%a, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %m: tensor<i32>, %n: tensor<i32>):
    %c = hlo.compare GT, %p, %q, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }) : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  // Default dimension (-1, the last) and stability; a negative dimension.
  %s = "hlo.sort"(%u) ({
  ^bb0(%p: tensor<ui8>, %q: tensor<ui8>):
    %c = hlo.compare LT, %p, %q, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }) : (tensor<5xui8>) -> tensor<5xui8>
  %t = "hlo.sort"(%a) <{dimension = -2 : i64, is_stable = false}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = hlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }) {tag} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK-LABEL: func.func @sort(%a: tensor<2x3xf32>, %i: tensor<2x3xi32>, %u: tensor<5xui8>) {
// CHECK-NEXT:  %kv, %kv_1 = "hlo.sort"(%a, %i) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK-NEXT:  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %m: tensor<i32>, %n: tensor<i32>):
// CHECK-NEXT:  %c = hlo.compare GT, %p, %q, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:  hlo.return %c : tensor<i1>
// CHECK-NEXT:  }) : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
// CHECK-NEXT:  %s = "hlo.sort"(%u) ({
// CHECK-NEXT:  ^bb0(%p_1: tensor<ui8>, %q_1: tensor<ui8>):
// CHECK-NEXT:  %c_1 = hlo.compare LT, %p_1, %q_1, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
// CHECK-NEXT:  hlo.return %c_1 : tensor<i1>
// CHECK-NEXT:  }) : (tensor<5xui8>) -> tensor<5xui8>
// CHECK-NEXT:  %t = "hlo.sort"(%a) <{dimension = -2 : i64, is_stable = false}> ({
// CHECK-NEXT:  ^bb0(%p_2: tensor<f32>, %q_2: tensor<f32>):
// CHECK-NEXT:  %c_2 = hlo.compare LT, %p_2, %q_2 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:  hlo.return %c_2 : tensor<i1>
// CHECK-NEXT:  }) {tag} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
