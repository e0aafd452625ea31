// RUN: minixla-opt %s --split-input-file -p loop-cleanup | filecheck %s
// RUN: minixla-opt %s --split-input-file -p canonicalize,cse | filecheck %s

// loop-cleanup does what canonicalize,cse do at the loop level (both RUN lines check the same
// output): constants folded (2 + 3), x + 0 and i + 0 dropped, the dead subf erased, the inner
// duplicate of `4 : index` and of the read of m[i, j] (no write between) replaced, the read after
// the store kept.
// CHECK-LABEL: func.func @f
// CHECK-NOT:   arith.subf
// CHECK-NOT:   arith.constant 2.0
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:  "scf.parallel"
// CHECK-NEXT:  ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:    %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<4x4xi32>
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[P:.*]] = arith.muli %[[S]], %[[C5]] : i32
// CHECK-NEXT:    memref.store %[[P]], %{{.*}}[%[[I]], %[[J]]] : memref<4x4xi32>
// CHECK-NEXT:    %[[Y:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<4x4xi32>
// CHECK-NEXT:    %[[K:.*]] = arith.muli %[[I]], %[[C4]] : index
// CHECK-NEXT:    %[[Q:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %[[Y]], %[[Q]] : i32
// CHECK-NEXT:    memref.store %[[R]], %{{.*}}[%[[I]], %[[J]]] : memref<4x4xi32>
// CHECK-NEXT:    scf.reduce
func.func @f(%m: memref<4x4xi32>, %o: memref<4x4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f2 = arith.constant 2.0 : f32
  %dead = arith.subf %f2, %f2 : f32
  "scf.parallel"(%c0, %c0, %c4, %c4, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %two = arith.constant 2 : i32
    %three = arith.constant 3 : i32
    %zero = arith.constant 0 : i32
    %c4b = arith.constant 4 : index
    %a = memref.load %m[%i, %j] : memref<4x4xi32>
    %b = memref.load %m[%i, %j] : memref<4x4xi32>
    %a0 = arith.addi %a, %zero : i32
    %s = arith.addi %a0, %b : i32
    %five = arith.addi %two, %three : i32
    %p = arith.muli %s, %five : i32
    %j0 = arith.addi %j, %c0 : index
    memref.store %p, %o[%i, %j0] : memref<4x4xi32>
    %y = memref.load %o[%i, %j] : memref<4x4xi32>
    %k = arith.muli %i, %c4b : index
    %q = arith.index_cast %k : index to i32
    %r = arith.addi %y, %q : i32
    memref.store %r, %o[%i, %j] : memref<4x4xi32>
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  func.return
}

// -----

// An alloc whose only use is its dealloc goes; a loop of one iteration is inlined; a constant in a
// loop body is hoisted before the loop.
// CHECK-LABEL: func.func @g
// CHECK-NOT:   memref.alloc
// CHECK-NOT:   memref.dealloc
// CHECK:       %[[K:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:       scf.for
// CHECK:         arith.mulf %{{.*}}, %[[K]] : f32
// CHECK:       }
// CHECK-NOT:   scf.for
// CHECK:       func.return
func.func @g(%m: memref<4xf32>, %a: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  memref.dealloc %buf : memref<4xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> (f32) {
    %k = arith.constant 3.0 : f32
    %x = memref.load %m[%i] : memref<4xf32>
    %y = arith.mulf %x, %k : f32
    %z = arith.addf %acc, %y : f32
    scf.yield %z : f32
  }
  %one = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %r) -> (f32) {
    %x = memref.load %m[%i] : memref<4xf32>
    %z = arith.addf %acc, %x : f32
    scf.yield %z : f32
  }
  func.return %one : f32
}
