// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @select_and_scatter(%x: tensor<4x6xf32>, %src: tensor<2x3xf32>, %z: tensor<f32>, %y: tensor<5xbf16>, %ys: tensor<5xbf16>, %yz: tensor<bf16>) {
  %r = "hlo.select_and_scatter"(%x, %src, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<0> : tensor<2x2xi64>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = hlo.compare GE, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }, {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  // Default (unit) window and strides.
  %d = "hlo.select_and_scatter"(%y, %ys, %yz) ({
  ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
    %c = hlo.compare GT, %p, %q : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }, {
  ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
    hlo.return %q : tensor<bf16>
  }) : (tensor<5xbf16>, tensor<5xbf16>, tensor<bf16>) -> tensor<5xbf16>
  func.return
}
// CHECK-LABEL: func.func @select_and_scatter(%x: tensor<4x6xf32>, %src: tensor<2x3xf32>, %z: tensor<f32>, %y: tensor<5xbf16>, %ys: tensor<5xbf16>, %yz: tensor<bf16>) {
// CHECK-NEXT:  %r = "hlo.select_and_scatter"(%x, %src, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<0> : tensor<2x2xi64>}> ({
// CHECK-NEXT:  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
// CHECK-NEXT:  %c = hlo.compare GE, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:  hlo.return %c : tensor<i1>
// CHECK-NEXT:  }, {
// CHECK-NEXT:  ^bb0(%p_1: tensor<f32>, %q_1: tensor<f32>):
// CHECK-NEXT:  %s = hlo.add %p_1, %q_1 : tensor<f32>
// CHECK-NEXT:  hlo.return %s : tensor<f32>
// CHECK-NEXT:  }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK-NEXT:  %d = "hlo.select_and_scatter"(%y, %ys, %yz) ({
// CHECK-NEXT:  ^bb0(%p_2: tensor<bf16>, %q_2: tensor<bf16>):
// CHECK-NEXT:  %c_1 = hlo.compare GT, %p_2, %q_2 : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
// CHECK-NEXT:  hlo.return %c_1 : tensor<i1>
// CHECK-NEXT:  }, {
// CHECK-NEXT:  ^bb0(%p_3: tensor<bf16>, %q_3: tensor<bf16>):
// CHECK-NEXT:  hlo.return %q_3 : tensor<bf16>
// CHECK-NEXT:  }) : (tensor<5xbf16>, tensor<5xbf16>, tensor<bf16>) -> tensor<5xbf16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
