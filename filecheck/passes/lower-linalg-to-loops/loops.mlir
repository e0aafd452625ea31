// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg,bufferize,lower-linalg-to-loops | filecheck %s

// Parallel dims -> one scf.parallel; reductions -> scf.for with the
// accumulator in iter_args (one load before, one store after).
// CHECK-LABEL: func.func @rowsum
// CHECK:       "scf.parallel"
// CHECK:       %[[ACC:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK:       %[[S:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (f32) {
// CHECK:       memref.load
// CHECK:       arith.addf %[[A]]
// CHECK:       scf.yield
// CHECK:       memref.store %[[S]]
// CHECK:       scf.reduce
// CHECK-NOT:   linalg.
func.func @rowsum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK:       "scf.parallel"
// CHECK:       memref.load %{{.*}}[%[[J:.*]], %[[I:.*]]] : memref<3x2xf32>
// CHECK:       memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<2x3xf32>
func.func @transpose(%x: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %r = hlo.transpose %x, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
