// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @optimization_barrier(%x: tensor<4xf32>, %n: tensor<i64>, %e: tensor<0xui8>) {
  %a = hlo.optimization_barrier %x : tensor<4xf32>
  %b:3 = hlo.optimization_barrier %x, %n, %e : tensor<4xf32>, tensor<i64>, tensor<0xui8>
  %c = hlo.optimization_barrier %n {tag} : tensor<i64>
  %d = "hlo.optimization_barrier"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK-LABEL: func.func @optimization_barrier(%x: tensor<4xf32>, %n: tensor<i64>, %e: tensor<0xui8>) {
// CHECK-NEXT:  %a = hlo.optimization_barrier %x : tensor<4xf32>
// CHECK-NEXT:  %b, %b_1, %b_2 = hlo.optimization_barrier %x, %n, %e : tensor<4xf32>, tensor<i64>, tensor<0xui8>
// CHECK-NEXT:  %c = hlo.optimization_barrier %n {tag} : tensor<i64>
// CHECK-NEXT:  %d = hlo.optimization_barrier %x : tensor<4xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
