// RUN: minixla-opt %s -p 'convert-parallel-loops-to-threads{chunks=8}' | filecheck %s

// A big parallel loop is outlined: the body runs over [lo, hi) of dimension 0,
// constants are cloned in, other values become parameters; the loop becomes a
// call of the `__threaded` declaration over the full range.
// CHECK-LABEL: func.func @scale(%x: memref<1024x1024xf32>, %s: f32, %out: memref<1024x1024xf32>)
// CHECK:         func.call @scale_par0__threaded(%c0, %n, %x, %s, %out) : (index, index, memref<1024x1024xf32>, f32, memref<1024x1024xf32>) -> ()
// CHECK-NOT:     scf.parallel
// CHECK:         func.return
func.func @scale(%x: memref<1024x1024xf32>, %s: f32, %out: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %v = memref.load %x[%i, %j] : memref<1024x1024xf32>
    %w = arith.mulf %v, %s : f32
    memref.store %w, %out[%i, %j] : memref<1024x1024xf32>
    "scf.reduce"() : () -> ()
  }) : (index, index, index, index, index, index) -> ()
  func.return
}

// A top-level reduction nest: 8 fixed chunks, each from the identity (-0.0 for
// addf) into a partial buffer on threads, then init + p0 + p1 ... in order.
// CHECK-LABEL: func.func @sum(%x: memref<1024x1024xf32>, %out: memref<f32>)
// CHECK:         %[[INIT:.*]] = memref.load %out[] : memref<f32>
// CHECK:         %[[K:.*]] = arith.constant 8 : index
// CHECK:         %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK:         func.call @sum_par0__threaded(%{{.*}}, %[[K]], %x, %[[P]])
// CHECK:         %[[R:.*]] = scf.for %[[C:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[P]][%[[C]]] : memref<8xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[V]] fastmath<reassoc> : f32
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK:         memref.dealloc %[[P]] : memref<8xf32>
// CHECK:         memref.store %[[R]], %out[] : memref<f32>
func.func @sum(%x: memref<1024x1024xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  %init = memref.load %out[] : memref<f32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (f32) {
    %r2 = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> (f32) {
      %v = memref.load %x[%i, %j] : memref<1024x1024xf32>
      %s = arith.addf %b, %v fastmath<reassoc> : f32
      scf.yield %s : f32
    }
    scf.yield %r2 : f32
  }
  memref.store %r, %out[] : memref<f32>
  func.return
}

// Too little work: stays a sequential loop.
// CHECK-LABEL: func.func @tiny
// CHECK:         "scf.parallel"
// CHECK-NOT:     func.call
func.func @tiny(%x: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 16 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %x[%i] : memref<16xf32>
    memref.store %v, %out[%i] : memref<16xf32>
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}

// The outlined bodies: the loop over [lo, hi) with cloned constants; each chunk
// of the reduction starts from -0.0 and stores its partial.
// CHECK-LABEL: func.func private @scale_par0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<1024x1024xf32>, %{{.*}}: f32, %{{.*}}: memref<1024x1024xf32>) attributes {minixla.parallel_body}
// CHECK:         arith.constant 1024 : index
// CHECK:         "scf.parallel"
// CHECK:         arith.mulf
// CHECK:       func.func private @scale_par0__threaded(index, index, memref<1024x1024xf32>, f32, memref<1024x1024xf32>) -> ()
// CHECK-LABEL: func.func private @sum_par0(
// CHECK:         arith.divui
// CHECK:         arith.constant -0.000000e+00 : f32
// CHECK:         scf.for
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK:       func.func private @sum_par0__threaded(index, index, memref<1024x1024xf32>, memref<8xf32>) -> ()
