// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @all_reduce(%a: tensor<4xf32>, %b: tensor<2x2xf32>) {
  %r = "hlo.all_reduce"(%a) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %v:2 = "hlo.all_reduce"(%a, %b) <{replica_groups = dense<[[0, 2], [1, -1]]> : tensor<2x2xi64>, channel_handle = #hlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.maximum %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<2x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>)
  %e = "hlo.all_reduce"(%b) <{replica_groups = dense<> : tensor<0x0xi64>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}
// CHECK-LABEL: func.func @all_reduce(%a: tensor<4xf32>, %b: tensor<2x2xf32>) {
// CHECK-NEXT:  %r = "hlo.all_reduce"(%a) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> ({
// CHECK-NEXT:  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
// CHECK-NEXT:  %s = hlo.add %p, %q : tensor<f32>
// CHECK-NEXT:  hlo.return %s : tensor<f32>
// CHECK-NEXT:  }) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %v, %v_1 = "hlo.all_reduce"(%a, %b) <{replica_groups = dense<{{\[\[}}0, 2], [1, -1]]> : tensor<2x2xi64>, channel_handle = #hlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}> ({
// CHECK-NEXT:  ^bb0(%p_1: tensor<f32>, %q_1: tensor<f32>):
// CHECK-NEXT:  %s_1 = hlo.maximum %p_1, %q_1 : tensor<f32>
// CHECK-NEXT:  hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:  }) : (tensor<4xf32>, tensor<2x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>)
// CHECK-NEXT:  %e = "hlo.all_reduce"(%b) <{replica_groups = dense<> : tensor<0x0xi64>}> ({
// CHECK-NEXT:  ^bb0(%p_2: tensor<f32>, %q_2: tensor<f32>):
// CHECK-NEXT:  %s_2 = hlo.add %p_2, %q_2 : tensor<f32>
// CHECK-NEXT:  hlo.return %s_2 : tensor<f32>
// CHECK-NEXT:  }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
