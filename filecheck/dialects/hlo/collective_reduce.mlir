// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @collective_reduce(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %r = "hlo.collective_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #hlo.channel_handle<handle = 2, type = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.add %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK-LABEL: func.func @collective_reduce(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %r = "hlo.collective_reduce"(%x) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, channel_handle = #hlo.channel_handle<handle = 2, type = 1>}> ({
// CHECK-NEXT: ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT: %m = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT: hlo.return %m : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
