// RUN: minixla-opt %s --split-input-file -p "hlo-complex-to-real{fuse=false}" | filecheck %s

// A complex triangular_solve first becomes complex hlo ops (passes/complex_linalg.py), which the
// pass then converts: here a right-side, upper, ADJOINT solve is canonicalized (conj(a): the
// imaginary part negated; b transposed; a and b reversed into a lower solve), the strictly lower
// triangle is masked out, and forward substitution runs one row per while iteration, carrying
// the (re, im) parts of x; unit_diagonal: no division.
// CHECK-LABEL: func.func @solve(%a: tensor<3x3x2xf64>, %b: tensor<2x3x2xf64>) -> tensor<2x3x2xf64> {
// CHECK:         %[[AI:.*]] = hlo.negate %{{.*}} : tensor<3x3xf64>
// CHECK:         %[[BT:.*]] = hlo.transpose %{{.*}}, dims = [1, 0] : (tensor<2x3xf64>) -> tensor<3x2xf64>
// CHECK:         %[[RA:.*]] = hlo.reverse %{{.*}}, dims = [0, 1] : tensor<3x3xf64>
// CHECK-NEXT:    %[[RAI:.*]] = hlo.reverse %[[AI]], dims = [0, 1] : tensor<3x3xf64>
// CHECK-NEXT:    %[[RB:.*]] = hlo.reverse %[[BT]], dims = [0] : tensor<3x2xf64>
// CHECK:         %[[GT:.*]] = hlo.compare GT, %{{.*}}, %{{.*}}, SIGNED : (tensor<3x3xi64>, tensor<3x3xi64>) -> tensor<3x3xi1>
// CHECK:         %[[L:.*]] = hlo.select %[[GT]], %[[RA]], %{{.*}}
// CHECK-NEXT:    %[[LI:.*]] = hlo.select %[[GT]], %[[RAI]], %{{.*}}
// CHECK:         %{{.*}}, %[[XR:.*]], %[[XI:.*]] = hlo.while(%[[I:.*]] = %{{.*}}, %[[R:.*]] = %{{.*}}, %[[IM:.*]] = %{{.*}}) : tensor<i64>, tensor<3x2xf64>, tensor<3x2xf64> cond {
// CHECK:         } do {
// CHECK:           %[[BR:.*]] = hlo.dynamic_slice %[[RB]], %[[I]], %{{.*}}, sizes = [1, 2]
// CHECK:           %[[ROW:.*]] = hlo.dynamic_slice %[[L]], %[[I]], %{{.*}}, sizes = [1, 3]
// CHECK:           hlo.dot_general %[[ROW]], %[[R]], contracting_dims = [1] x [0] : (tensor<1x3xf64>, tensor<3x2xf64>) -> tensor<1x2xf64>
// CHECK-NOT:       hlo.divide
// CHECK:           %[[NEW:.*]] = hlo.dynamic_update_slice %[[R]], %{{.*}}, %[[I]], %{{.*}}
// CHECK:           hlo.return %{{.*}}, %[[NEW]], %{{.*}} : tensor<i64>, tensor<3x2xf64>, tensor<3x2xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[XR2:.*]] = hlo.reverse %[[XR]], dims = [0] : tensor<3x2xf64>
// CHECK:         hlo.transpose %[[XR2]], dims = [1, 0] : (tensor<3x2xf64>) -> tensor<2x3xf64>
func.func @solve(%a: tensor<3x3xcomplex<f64>>, %b: tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>> {
  %x = "hlo.triangular_solve"(%a, %b) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #hlo<transpose ADJOINT>} : (tensor<3x3xcomplex<f64>>, tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>>
  func.return %x : tensor<2x3xcomplex<f64>>
}

// -----

// cholesky: complex<f32> runs in f64 (as the interpreter does); column j of the factor per
// iteration: l_jj = sqrt(re(a_jj) - |l_j,<j|^2) (a real square root), the column below it
// divided by l_jj (complex division), everything else in the column zero.
// CHECK-LABEL: func.func @chol(%a: tensor<3x3x2xf32>) -> tensor<3x3x2xf32> {
// CHECK:         %[[AR:.*]] = hlo.convert %{{.*}} : (tensor<3x3xf32>) -> tensor<3x3xf64>
// CHECK:         hlo.while
// CHECK:         } do {
// CHECK:           %[[D:.*]] = hlo.dynamic_slice %[[AR]], %[[J:.*]], %[[J]], sizes = [1, 1]
// CHECK:           %[[DJJ:.*]] = hlo.sqrt %{{.*}} : tensor<1x1xf64>
// CHECK:           hlo.compare GT, %{{.*}}, %{{.*}}, SIGNED : (tensor<3x1xi64>, tensor<3x1xi64>) -> tensor<3x1xi1>
// CHECK:           hlo.divide
// CHECK:           hlo.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %[[J]] : (tensor<3x3xf64>, tensor<3x1xf64>, tensor<i64>, tensor<i64>) -> tensor<3x3xf64>
// CHECK:         hlo.convert %{{.*}} : (tensor<3x3xf64>) -> tensor<3x3xf32>
func.func @chol(%a: tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>> {
  %l = "hlo.cholesky"(%a) <{lower = true}> : (tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>>
  func.return %l : tensor<3x3xcomplex<f32>>
}
