// RUN: minixla-opt %s -p convert-hlo-to-linalg,bufferize,convert-linalg-to-blas | filecheck %s

// A blocked Cholesky's flops reach the gemm: the panel (a21 times the inverse of
// l11, transposed) and the trailing update (l21 l21^T) are one sgemm each; only
// the 65x65 leaves stay scalar loops.
// CHECK-LABEL: func.func @blocked
// CHECK-COUNT-2: func.call @minixla_library_sgemm
// CHECK-NOT:   func.call @minixla_library_sgemm
// CHECK-NOT:   linalg.generic {{.*}}"reduction"
func.func @blocked(%a: tensor<130x130xf32>) -> tensor<130x130xf32> {
  %l = "hlo.cholesky"(%a) <{lower = true}> : (tensor<130x130xf32>) -> tensor<130x130xf32>
  return %l : tensor<130x130xf32>
}
