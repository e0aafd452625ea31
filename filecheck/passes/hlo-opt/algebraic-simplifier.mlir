// RUN: minixla-opt %s --split-input-file -p hlo-algebraic-simplifier,dce | filecheck %s

// pow(x, 2) -> x * x; x * 1 -> x
// CHECK-LABEL: func.func @power_two
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %x, %x : tensor<4xf32>
// CHECK-NEXT:    func.return %[[M]]
func.func @power_two(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c2 = hlo.constant dense<2.0> : tensor<f32>
  %b2 = hlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %p = hlo.power %x, %b2 : tensor<4xf32>
  %one = hlo.constant dense<1.0> : tensor<4xf32>
  %r = hlo.multiply %p, %one : tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// float x + (-0.0) and x - (+0.0) are x; x + (+0.0) is not (-0.0 + 0.0 = +0.0)
// CHECK-LABEL: func.func @signed_zeros
// CHECK:         %[[A:.*]] = hlo.add %x, %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    func.return %x, %x, %[[A]]
func.func @signed_zeros(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %nz = hlo.constant dense<-0.0> : tensor<4xf32>
  %pz = hlo.constant dense<0.0> : tensor<4xf32>
  %a = hlo.add %x, %nz : tensor<4xf32>
  %b = hlo.subtract %x, %pz : tensor<4xf32>
  %c = hlo.add %x, %pz : tensor<4xf32>
  func.return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// integer x + 0 -> x
// CHECK-LABEL: func.func @int_add_zero
// CHECK-NEXT:    func.return %x
func.func @int_add_zero(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = hlo.constant dense<0> : tensor<4xi32>
  %a = hlo.add %z, %x : tensor<4xi32>
  func.return %a : tensor<4xi32>
}

// -----

// x / 4 -> x * 0.25 (exact); x / 3 stays
// CHECK-LABEL: func.func @divide
// CHECK:         %[[Q:.*]] = hlo.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast_in_dim %[[Q]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %x, %[[B]] : tensor<4xf32>
// CHECK:         %[[D:.*]] = hlo.divide %x, %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    func.return %[[M]], %[[D]]
func.func @divide(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c4 = hlo.constant dense<4.0> : tensor<4xf32>
  %c3 = hlo.constant dense<3.0> : tensor<4xf32>
  %a = hlo.divide %x, %c4 : tensor<4xf32>
  %b = hlo.divide %x, %c3 : tensor<4xf32>
  func.return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// reshape(reshape), transpose(transpose), broadcast(broadcast) and identities fold
// CHECK-LABEL: func.func @movement
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.broadcast_in_dim %v, dims = [2] : (tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    func.return %[[R]], %x, %[[B]], %x
func.func @movement(%x: tensor<2x3xf32>, %v: tensor<4xf32>) -> (tensor<6xf32>, tensor<2x3xf32>, tensor<2x3x4xf32>, tensor<2x3xf32>) {
  %r1 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r2 = hlo.reshape %r1 : (tensor<3x2xf32>) -> tensor<6xf32>
  %t1 = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %t2 = hlo.transpose %t1, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %b1 = hlo.broadcast_in_dim %v, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %b2 = hlo.broadcast_in_dim %b1, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %s = hlo.slice %x [0:2, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r2, %t2, %b2, %s : tensor<6xf32>, tensor<2x3xf32>, tensor<2x3x4xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @double_negate
// CHECK-NEXT:    func.return %x
func.func @double_negate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = hlo.negate %x : tensor<4xf32>
  %b = hlo.negate %a : tensor<4xf32>
  %c = hlo.convert %b : (tensor<4xf32>) -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}

// -----

// transpose(dot(a, b)) swapping the free blocks -> dot(b, a) (precision entries swapped too), also with
// batch dims; not when the product has another use or the permutation moves a batch dim
// CHECK-LABEL: func.func @transpose_of_dot
// CHECK-NEXT:    %[[D:.*]] = hlo.dot_general %b, %a, contracting_dims = [0] x [0], precision = [HIGHEST, DEFAULT] : (tensor<5x3xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.dot_general %y, %x, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<4x6x7xf32>, tensor<4x2x6xf32>) -> tensor<4x7x2xf32>
// CHECK-NEXT:    %[[K:.*]] = hlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<5x2xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[KT:.*]] = hlo.transpose %[[K]], dims = [1, 0]
// CHECK-NEXT:    %[[M:.*]] = hlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x6xf32>, tensor<4x6x7xf32>) -> tensor<4x2x7xf32>
// CHECK-NEXT:    %[[MT:.*]] = hlo.transpose %[[M]], dims = [1, 0, 2]
// CHECK-NEXT:    func.return %[[D]], %[[B]], %[[KT]], %[[K]], %[[MT]]
func.func @transpose_of_dot(%a: tensor<5x2xf32>, %b: tensor<5x3xf32>, %x: tensor<4x2x6xf32>, %y: tensor<4x6x7xf32>)
    -> (tensor<3x2xf32>, tensor<4x7x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x4x7xf32>) {
  %d = hlo.dot_general %a, %b, contracting_dims = [0] x [0], precision = [DEFAULT, HIGHEST] : (tensor<5x2xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %dt = hlo.transpose %d, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %bd = hlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x6xf32>, tensor<4x6x7xf32>) -> tensor<4x2x7xf32>
  %bt = hlo.transpose %bd, dims = [0, 2, 1] : (tensor<4x2x7xf32>) -> tensor<4x7x2xf32>
  %k = hlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<5x2xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %kt = hlo.transpose %k, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %m = hlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x6xf32>, tensor<4x6x7xf32>) -> tensor<4x2x7xf32>
  %mt = hlo.transpose %m, dims = [1, 0, 2] : (tensor<4x2x7xf32>) -> tensor<2x4x7xf32>
  func.return %dt, %bt, %kt, %k, %mt : tensor<3x2xf32>, tensor<4x7x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x4x7xf32>
}
