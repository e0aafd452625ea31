// RUN: minixla-opt %s --split-input-file -p map-parallel-loops-to-gpu | filecheck %s

// An elementwise scf.parallel: the 4x8 space is flattened and walked by a
// grid-stride loop (one 32-thread block suffices), delinearized with rem/div.
// CHECK-LABEL: func.func @elementwise
// CHECK:       "gpu.launch"
// CHECK-NEXT:  ^{{.*}}(%[[BX:.*]]: index, %{{.*}}: index, %{{.*}}: index, %[[TX:.*]]: index, %{{.*}}: index, %{{.*}}: index, %[[GX:.*]]: index, %{{.*}}: index, %{{.*}}: index, %[[NT:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK:         %[[B:.*]] = arith.muli %[[BX]], %[[NT]] : index
// CHECK:         %[[G:.*]] = arith.addi %[[B]], %[[TX]] : index
// CHECK:         %[[S:.*]] = arith.muli %[[GX]], %[[NT]] : index
// CHECK:         scf.for %[[I:.*]] = %[[G]] to %{{.*}} step %[[S]] {
// CHECK:           %[[J:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK:           %[[K:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK:           memref.load %{{.*}}[%[[K]], %[[J]]] : memref<4x8xf32>
// CHECK:           math.exp
// CHECK:           memref.store
// CHECK:         "gpu.terminator"
// CHECK:       minixla.gpu_mapping = "parallel"
func.func @elementwise(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  "scf.parallel"(%c0, %c0, %c4, %c8, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %x = memref.load %a[%i, %j] : memref<4x8xf32>
    %e = math.exp %x : f32
    memref.store %e, %b[%i, %j] : memref<4x8xf32>
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  return
}

// -----

// A full reduction of 1000 elements: 4 blocks of 256 fold strided shares,
// reduce by warp shuffles and one shared slot per warp, park one partial
// each; a one-block kernel combines the partials with the initial value
// (loaded by the head op) and stores the result.
// CHECK-LABEL: func.func @full_reduction
// CHECK:       %[[P:.*]] = memref.alloc() : memref<4xf32>
// CHECK:       "gpu.launch"
// CHECK:         scf.if
// CHECK:         scf.for {{.*}} iter_args
// CHECK:           arith.addf
// CHECK:         nvvm.shfl.sync "down"
// CHECK:         memref.alloca() : memref<8xf32, 3 : i32>
// CHECK:         "gpu.barrier"
// CHECK:         memref.store %{{.*}}, %[[P]][%{{.*}}] : memref<4xf32>
// CHECK:       minixla.gpu_mapping = "reduction-partials"
// CHECK:       "gpu.launch"
// CHECK:         memref.load %[[P]]
// CHECK:         nvvm.shfl.sync "down"
// CHECK:         memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK:       minixla.gpu_mapping = "reduction-final"
// CHECK:       memref.dealloc %[[P]] : memref<4xf32>
func.func @full_reduction(%x: memref<1000xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  %init = memref.load %out[] : memref<f32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %v = memref.load %x[%i] : memref<1000xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  memref.store %r, %out[] : memref<f32>
  return
}

// -----

// A row reduction (the loop walks the contiguous dimension): one block per
// output, grid-strided over outputs; thread 0 combines and stores.
// CHECK-LABEL: func.func @rows
// CHECK:       "gpu.launch"
// CHECK:         scf.for %[[O:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           nvvm.shfl.sync
// CHECK:           "gpu.barrier"
// CHECK:           arith.cmpi eq
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[O]]] : memref<3xf32>
// CHECK:       minixla.gpu_mapping = "row-reduction"
func.func @rows(%x: memref<3x500xf32>, %out: memref<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 500 : index
  "scf.parallel"(%c0, %c3, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %init = memref.load %out[%i] : memref<3xf32>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
      %v = memref.load %x[%i, %j] : memref<3x500xf32>
      %m = arith.maximumf %acc, %v : f32
      scf.yield %m : f32
    }
    memref.store %r, %out[%i] : memref<3xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

// Scalar code runs as a one-thread kernel.
// CHECK-LABEL: func.func @scalar
// CHECK-COUNT-6: arith.constant 1 : index
// CHECK-NEXT:  "gpu.launch"
// CHECK:         arith.mulf
// CHECK:       minixla.gpu_mapping = "serial"
func.func @scalar(%x: memref<f32>, %out: memref<f32>) {
  %v = memref.load %x[] : memref<f32>
  %w = arith.mulf %v, %v : f32
  memref.store %w, %out[] : memref<f32>
  return
}
