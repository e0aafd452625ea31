// RUN: minixla-opt %s --split-input-file -p hlo-constant-fold,dce | filecheck %s
// RUN: minixla-opt %s --split-input-file -p "hlo-constant-fold{max_elements=2},dce" | filecheck %s --check-prefix=CAP

// CHECK-LABEL: func.func @fold
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<[5, 7, 9]> : tensor<3xi32>
// CHECK-NEXT:    func.return %[[C]]
// CAP-LABEL:   func.func @fold
// CAP:           hlo.add
func.func @fold() -> tensor<3xi32> {
  %a = hlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = hlo.constant dense<[4, 5, 6]> : tensor<3xi32>
  %c = hlo.add %a, %b : tensor<3xi32>
  func.return %c : tensor<3xi32>
}

// -----

// reductions fold through the interpreter's kernels; broadcasts and iotas never fold
// CHECK-LABEL: func.func @reduce_and_broadcast
// CHECK:         %[[S:.*]] = hlo.constant dense<1.000000e+01> : tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast_in_dim %[[S]], dims = [] : (tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[I:.*]] = hlo.iota dim = 0 : tensor<8xf32>
// CHECK-NEXT:    func.return %[[B]], %[[I]]
func.func @reduce_and_broadcast() -> (tensor<8xf32>, tensor<8xf32>) {
  %a = hlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%a init: %z) applies hlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %b = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %i = hlo.iota dim = 0 : tensor<8xf32>
  func.return %b, %i : tensor<8xf32>, tensor<8xf32>
}

// -----

// a uniform result is stored as a splat
// CHECK-LABEL: func.func @splat
// CHECK-NEXT:    %[[C:.*]] = hlo.constant dense<3.000000e+00> : tensor<16x16xf32>
// CHECK-NEXT:    func.return %[[C]]
func.func @splat() -> tensor<16x16xf32> {
  %a = hlo.constant dense<1.0> : tensor<16x16xf32>
  %b = hlo.constant dense<2.0> : tensor<16x16xf32>
  %c = hlo.add %a, %b : tensor<16x16xf32>
  func.return %c : tensor<16x16xf32>
}
