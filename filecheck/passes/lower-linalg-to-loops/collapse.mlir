// RUN: minixla-opt %s --split-input-file -p 'convert-hlo-to-linalg,bufferize,lower-linalg-to-loops{collapse=true}' | filecheck %s

// Elementwise over contiguous buffers: every operand viewed at rank 1, one loop over 32 elements.
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG:   %[[X:.*]] = memref.collapse_shape %0 {{\[\[}}0 : i64, 1 : i64]] : memref<4x8xf32> into memref<32xf32>
// CHECK-DAG:   %[[Y:.*]] = memref.collapse_shape %1 {{\[\[}}0 : i64, 1 : i64]] : memref<4x8xf32> into memref<32xf32>
// CHECK-DAG:   %[[N:.*]] = arith.constant 32 : index
// CHECK:       "scf.parallel"(%{{.*}}, %[[N]], %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}>
// CHECK-NEXT:  ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:    %[[A:.*]] = memref.load %[[X]][%[[I]]] : memref<32xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.load %[[Y]][%[[I]]] : memref<32xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    memref.store %[[S]], %{{.*}}[%[[I]]] : memref<32xf32>
// CHECK-NEXT:    scf.reduce
func.func @elementwise(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = hlo.add %x, %y : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A broadcast reads its input through a non-identity map: the nest keeps both dimensions.
// CHECK-LABEL: func.func @broadcast
// CHECK-NOT:   memref.collapse_shape
// CHECK:       "scf.parallel"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}>
// CHECK:       memref.load %{{.*}}[%{{.*}}] : memref<8xf32>
func.func @broadcast(%b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = hlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A reduction keeps its scf.for over the reduced dimension.
// CHECK-LABEL: func.func @rowsum
// CHECK-NOT:   memref.collapse_shape
// CHECK:       scf.for
func.func @rowsum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A strided slice is a non-contiguous view: the op reading it keeps its nest.
// CHECK-LABEL: func.func @strided
// CHECK-NOT:   memref.collapse_shape
// CHECK:       memref.subview
// CHECK-NOT:   memref.collapse_shape
// CHECK:       <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}>
// CHECK-NOT:   memref.collapse_shape
func.func @strided(%a: tensor<4x6xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %x = hlo.slice %a [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %r = hlo.multiply %x, %y : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A transpose (permuted map) and an iota (reads its loop indices) keep their nests.
// CHECK-LABEL: func.func @transpose_iota
// CHECK-NOT:   memref.collapse_shape
func.func @transpose_iota(%x: tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %t = hlo.transpose %x, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %i = hlo.iota dim = 1 : tensor<2x3xi32>
  return %t, %i : tensor<2x3xf32>, tensor<2x3xi32>
}
