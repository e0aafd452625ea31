// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @reduce_scatter(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %s = "hlo.reduce_scatter"(%x) <{scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #hlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.maximum %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }) : (tensor<2x4xf32>) -> tensor<2x2xf32>
  func.return
}
// CHECK-LABEL: func.func @reduce_scatter(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %s = "hlo.reduce_scatter"(%x) <{scatter_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, channel_handle = #hlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT: %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT: hlo.return %m : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
