// RUN: minixla-opt %s -p convert-hlo-to-linalg | filecheck %s

// Forward substitution in place in b: for each row i, subtract a[i, k] * x[k, :]
// for k < i (the innermost loop runs along the row), then divide by a[i, i].
// CHECK-LABEL: func.func @solve_kernel
// CHECK-SAME:  (%[[A:.*]]: tensor<3x3xf32>, %[[B:.*]]: tensor<3x2xf32>)
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[B]]) -> (tensor<3x2xf32>)
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[I]] step
// CHECK:           %[[AIK:.*]] = tensor.extract %[[A]][%[[I]], %[[K]]] : tensor<3x3xf32>
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[X:.*]] = %{{.*}})
// CHECK:             %[[XIJ:.*]] = tensor.extract %[[X]][%[[I]], %[[J]]]
// CHECK:             %[[XKJ:.*]] = tensor.extract %[[X]][%[[K]], %[[J]]]
// CHECK:             %[[P:.*]] = arith.mulf %[[AIK]], %[[XKJ]] : f32
// CHECK:             %[[D:.*]] = arith.subf %[[XIJ]], %[[P]] : f32
// CHECK:             tensor.insert %[[D]] into %[[X]][%[[I]], %[[J]]]
// CHECK:         %[[AII:.*]] = tensor.extract %[[A]][%[[I]], %[[I]]]
// CHECK:         scf.for
// CHECK:           arith.divf %{{.*}}, %[[AII]] : f32
func.func @solve_kernel(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %x = "hlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %x : tensor<3x2xf32>
}

// Left-looking Cholesky per batch element, column by column, in place in a:
// the pivot's square root, zeros above it, scaled dot products below it.
// CHECK-LABEL: func.func @cholesky_kernel
// CHECK:       scf.for %[[BATCH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<2x3x3xf64>)
// CHECK:         scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[L:.*]] = %{{.*}}) -> (tensor<2x3x3xf64>)
// CHECK:           %[[S:.*]] = scf.for %{{.*}} = %{{.*}} to %[[COL]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f64)
// CHECK:           %[[PIVOT:.*]] = math.sqrt %[[S]] : f64
// CHECK:           tensor.insert %[[PIVOT]] into %[[L]][%[[BATCH]], %[[COL]], %[[COL]]]
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK:           tensor.insert %[[ZERO]]
// CHECK:           %[[BELOW:.*]] = arith.addi %[[COL]], %{{.*}} : index
// CHECK:           scf.for %{{.*}} = %[[BELOW]] to
// CHECK:             arith.divf %{{.*}}, %[[PIVOT]] : f64
func.func @cholesky_kernel(%a: tensor<2x3x3xf64>) -> tensor<2x3x3xf64> {
  %l = "hlo.cholesky"(%a) <{lower = true}> : (tensor<2x3x3xf64>) -> tensor<2x3x3xf64>
  return %l : tensor<2x3x3xf64>
}

// x U = b is U^T x^T = b^T: b and a are transposed (U^T is lower), the
// unit-diagonal kernel divides by nothing, and x^T is transposed back.
// CHECK-LABEL: func.func @upper_right
// CHECK:       %[[BT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} outs(%{{.*}} : tensor<3x2xf32>)
// CHECK:       %[[AT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} outs(%{{.*}} : tensor<3x3xf32>)
// CHECK:       %[[XT:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[BT]]) -> (tensor<3x2xf32>)
// CHECK-NOT:   arith.divf
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%[[XT]] : tensor<3x2xf32>) outs(%{{.*}} : tensor<2x3xf32>)
func.func @upper_right(%a: tensor<3x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %x = "hlo.triangular_solve"(%a, %b) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #hlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %x : tensor<2x3xf32>
}

// Above 128 the matrix is split in halves: l11 = chol(a11) by the kernel; the
// panel l21 = a21 l11^-T multiplies by the inverse of l11 (the kernel solving
// against the identity) as a gemm-shaped contraction; then chol(a22 - l21 l21^T)
// and the blocks assembled (zeros above the diagonal).
// CHECK-LABEL: func.func @blocked
// CHECK-SAME:  (%[[A:.*]]: tensor<130x130xf32>)
// CHECK:       %[[A11:.*]] = tensor.extract_slice %[[A]][0, 0] [65, 65] [1, 1]
// CHECK:       %[[L11:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[A11]]) -> (tensor<65x65xf32>)
// CHECK:         math.sqrt
// CHECK:       %[[A21:.*]] = tensor.extract_slice %[[A]][65, 0] [65, 65] [1, 1]
// CHECK:       %[[EYE:.*]] = arith.constant dense<"0x0000803F
// CHECK:       %[[INV:.*]] = scf.for
// CHECK:       %[[L21:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A21]], %[[INV]] :
// CHECK:       %[[A22:.*]] = tensor.extract_slice %[[A]][65, 65] [65, 65] [1, 1]
// CHECK:       %[[SYRK:.*]] = linalg.generic {{.*}} ins(%[[L21]], %[[L21]] :
// CHECK:       %[[S:.*]] = linalg.generic {{.*}} ins(%[[A22]], %[[SYRK]] :
// CHECK:         arith.subf
// CHECK:       %[[L22:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[S]]) -> (tensor<65x65xf32>)
// CHECK:       tensor.insert_slice %[[L11]] into %{{.*}}[0, 0] [65, 65] [1, 1]
// CHECK:       tensor.insert_slice %[[L21]] into %{{.*}}[0, 0] [65, 65] [1, 1]
// CHECK:       tensor.insert_slice %[[L22]] into %{{.*}}[0, 65] [65, 65] [1, 1]
func.func @blocked(%a: tensor<130x130xf32>) -> tensor<130x130xf32> {
  %l = "hlo.cholesky"(%a) <{lower = true}> : (tensor<130x130xf32>) -> tensor<130x130xf32>
  return %l : tensor<130x130xf32>
}
