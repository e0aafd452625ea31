// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg,bufferize | filecheck %s

// A tensor.insert_slice at offsets known at run time writes only the update's elements (a loop over the
// update), into the destination's buffer when the destination is dead afterwards: here the add's
// result, which went straight to the output parameter.
// CHECK-LABEL: func.func @dead
// CHECK-SAME:  (%{{.*}}: memref<12x4xf32>, %[[U:.*]]: memref<1x4xf32>, %[[I:.*]]: index, %[[OUT:.*]]: memref<12x4xf32>)
// CHECK:       linalg.generic {{.*}} outs(%[[OUT]] : memref<12x4xf32>)
// CHECK-NOT:   memref.alloc
// CHECK:       %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:       "scf.parallel"
// CHECK-NEXT:  ^bb0(%[[A:.*]]: index, %[[B:.*]]: index):
// CHECK-NEXT:  %[[R:.*]] = arith.addi %[[I]], %[[A]] : index
// CHECK-NEXT:  %[[C:.*]] = arith.addi %[[ZERO]], %[[B]] : index
// CHECK-NEXT:  %[[V:.*]] = memref.load %[[U]][%[[A]], %[[B]]] : memref<1x4xf32>
// CHECK-NEXT:  memref.store %[[V]], %[[OUT]][%[[R]], %[[C]]] : memref<12x4xf32>
// CHECK:       func.return
func.func @dead(%x: tensor<12x4xf32>, %u: tensor<1x4xf32>, %i: index) -> tensor<12x4xf32> {
  %y = hlo.add %x, %x : tensor<12x4xf32>
  %r = tensor.insert_slice %u into %y[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<12x4xf32>
  return %r : tensor<12x4xf32>
}

// -----

// Still read afterwards: the destination is copied first, and the update goes into the copy.
// CHECK-LABEL: func.func @live
// CHECK-SAME:  (%{{.*}}: memref<12x4xf32>, %[[U:.*]]: memref<1x4xf32>, %[[I:.*]]: index, %[[R:.*]]: memref<12x4xf32>, %[[Y:.*]]: memref<12x4xf32>)
// CHECK:       outs(%[[Y]] : memref<12x4xf32>)
// CHECK:       ins(%[[Y]] : memref<12x4xf32>) outs(%[[R]] : memref<12x4xf32>)
// CHECK:       "scf.parallel"
// CHECK:       memref.store %{{.*}}, %[[R]][%{{.*}}, %{{.*}}] : memref<12x4xf32>
func.func @live(%x: tensor<12x4xf32>, %u: tensor<1x4xf32>, %i: index) -> (tensor<12x4xf32>, tensor<12x4xf32>) {
  %y = hlo.add %x, %x : tensor<12x4xf32>
  %r = tensor.insert_slice %u into %y[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<12x4xf32>
  return %r, %y : tensor<12x4xf32>, tensor<12x4xf32>
}

// -----

// A while loop's carried stack (an RNN's outputs, one row per step) is updated in place: the body
// stores one row into the loop's own buffer (here the output parameter), no copy of the stack per step.
// CHECK-LABEL: func.func @stack
// CHECK-SAME:  (%[[X:.*]]: memref<12x4xf32>, %[[ROW:.*]]: memref<1x4xf32>, %[[OUT:.*]]: memref<12x4xf32>)
// CHECK:       ins(%[[X]] : memref<12x4xf32>) outs(%[[OUT]] : memref<12x4xf32>)
// CHECK:       scf.while
// CHECK:       } do {
// CHECK-NOT:   memref<12x4xf32>) outs
// CHECK:       "scf.parallel"
// CHECK:       memref.store %{{.*}}, %[[OUT]][%{{.*}}, %{{.*}}] : memref<12x4xf32>
// CHECK:       scf.yield
func.func @stack(%x: tensor<12x4xf32>, %row: tensor<1x4xf32>) -> tensor<12x4xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.while(%i = %zero, %s = %x) : tensor<i32>, tensor<12x4xf32> cond {
    %n = hlo.constant dense<12> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %s2 = hlo.dynamic_update_slice %s, %row, %i, %zero : (tensor<12x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<12x4xf32>
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    hlo.return %i2, %s2 : tensor<i32>, tensor<12x4xf32>
  }
  return %r#1 : tensor<12x4xf32>
}
