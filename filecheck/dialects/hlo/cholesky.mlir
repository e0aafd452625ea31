// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @cholesky(%a: tensor<3x3xf32>, %b: tensor<2x4x4xf64>, %z: tensor<2x2xcomplex<f32>>) {
  %l = "hlo.cholesky"(%a) <{lower = true}> : (tensor<3x3xf32>) -> tensor<3x3xf32>
  // lower is optional (default false: the upper factor), batched.
  %u = "hlo.cholesky"(%b) : (tensor<2x4x4xf64>) -> tensor<2x4x4xf64>
  %c = "hlo.cholesky"(%z) <{lower = false}> : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  func.return
}
// CHECK-LABEL: func.func @cholesky(%a: tensor<3x3xf32>, %b: tensor<2x4x4xf64>, %z: tensor<2x2xcomplex<f32>>) {
// CHECK-NEXT:  %l = "hlo.cholesky"(%a) <{lower = true}> : (tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:  %u = "hlo.cholesky"(%b) : (tensor<2x4x4xf64>) -> tensor<2x4x4xf64>
// CHECK-NEXT:  %c = "hlo.cholesky"(%z) <{lower = false}> : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
