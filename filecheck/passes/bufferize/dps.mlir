// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg,bufferize | filecheck %s

// Results become trailing out-parameters written in place; the elementwise
// chain reuses one temporary; constants become globals; temporaries are freed
// after their last use.
// CHECK:       "memref.global"() <{sym_name = "__minixla_const_{{[0-9]+}}", type = memref<f32>
// CHECK:       func.func @mean(%[[X:.*]]: memref<4x8xf32>, %[[Y:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK:       %[[T:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK:       linalg.generic {{.*}} ins(%[[X]], %[[X]] : {{.*}}) outs(%[[T]] : memref<4x8xf32>)
// CHECK:       memref.get_global
// CHECK:       %[[B:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK:       outs(%[[B]] : memref<4x8xf32>)
// CHECK:       ins(%[[T]], %[[B]] : {{.*}}) outs(%[[T]] : memref<4x8xf32>)
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:  arith.mulf
// CHECK-NEXT:  linalg.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  memref.dealloc %[[B]]
// CHECK:       ins(%[[T]], %[[Y]] : {{.*}}) outs(%[[T]] : memref<4x8xf32>)
// CHECK:       outs(%[[OUT]] : memref<4xf32>)
// CHECK:       ins(%[[T]] : memref<4x8xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK:       memref.dealloc %[[T]]
// CHECK:       outs(%[[OUT]] : memref<4xf32>)
// CHECK:       func.return
// CHECK-NOT:   memref.alloc
func.func @mean(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = hlo.multiply %x, %x : tensor<4x8xf32>
  %c3 = hlo.constant dense<3.0> : tensor<f32>
  %b = hlo.broadcast_in_dim %c3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %1 = hlo.multiply %0, %b : tensor<4x8xf32>
  %2 = hlo.add %1, %y : tensor<4x8xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %3 = hlo.reduce(%2 init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %n = hlo.constant dense<8.0> : tensor<4xf32>
  %4 = hlo.divide %3, %n : tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Returning an argument copies it into the out-parameter.
// CHECK:       func.func @identity(%[[A:.*]]: memref<3xf32>, %[[R:.*]]: memref<3xf32>) {
// CHECK-NEXT:  linalg.generic {{.*}} ins(%[[A]] : memref<3xf32>) outs(%[[R]] : memref<3xf32>)
func.func @identity(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

// -----

// Slices are views.
// CHECK-LABEL: func.func @slice
// CHECK:       memref.subview %{{.*}}[1] [2] [2] : memref<6xf32> to memref<2xf32, strided<[2], offset: 1>>
func.func @slice(%x: tensor<6xf32>) -> tensor<2xf32> {
  %s = hlo.slice %x [1:5:2] : (tensor<6xf32>) -> tensor<2xf32>
  %r = hlo.negate %s : tensor<2xf32>
  return %r : tensor<2xf32>
}
